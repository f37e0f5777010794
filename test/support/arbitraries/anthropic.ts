/**
 * Valid Anthropic Messages bodies (POST /v1/messages), following the API reference: the
 * conversation starts with a user turn and roles alternate; every tool_use is answered by a
 * tool_result at the start of the next user turn; text is non-empty; thinking blocks carry a
 * signature and come first in an assistant turn; images are base64 with a real media type or URLs.
 */
import fc from 'fast-check';
import { anthropicToolId, plain, base64Image, decimal, httpsImageUrl, jsonObject, jsonSchema, modelName, opaque, text, toolName } from './common.js';

type Obj = Record<string, unknown>;

const cacheControl = (): fc.Arbitrary<Obj | undefined> =>
  fc.option(fc.oneof(fc.constant({ type: 'ephemeral' }), fc.constantFrom('5m', '1h').map((ttl) => ({ type: 'ephemeral', ttl }))), { freq: 4, nil: undefined });

const withCache = (block: Obj, cache: Obj | undefined): Obj => (cache === undefined ? block : { ...block, cache_control: cache });

export const textBlock = (): fc.Arbitrary<Obj> => fc.tuple(text(), cacheControl()).map(([t, c]) => withCache({ type: 'text', text: t }, c));

export const imageBlock = (): fc.Arbitrary<Obj> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: base64Image().map((img) => ({ type: 'base64', media_type: img.mediaType, data: img.data })) },
        { weight: 1, arbitrary: httpsImageUrl().map((url) => ({ type: 'url', url })) },
      ),
      cacheControl(),
    )
    .map(([source, c]) => withCache({ type: 'image', source }, c));

const thinkingBlock = (): fc.Arbitrary<Obj> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.tuple(text(), opaque()).map(([thinking, signature]) => ({ type: 'thinking', thinking, signature })) },
    { weight: 1, arbitrary: opaque().map((data) => ({ type: 'redacted_thinking', data })) },
  );

const toolResultContent = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: text() },
    { weight: 2, arbitrary: fc.array(textBlock(), { minLength: 1, maxLength: 2 }) },
    { weight: 1, arbitrary: fc.tuple(textBlock(), imageBlock()).map(([t, i]) => [t, i]) },
  );

interface CallSpec {
  idPart: string;
  name: string;
  input: Obj;
  cache: Obj | undefined;
  result: unknown;
  resultCache: Obj | undefined;
  isError: boolean | undefined;
}

const callSpec = (names: string[] | undefined): fc.Arbitrary<CallSpec> =>
  fc.record({
    idPart: anthropicToolId(),
    name: names && names.length > 0 ? fc.constantFrom(...names) : toolName(),
    input: jsonObject(),
    cache: cacheControl(),
    result: toolResultContent(),
    resultCache: cacheControl(),
    isError: fc.option(fc.boolean(), { nil: undefined }),
  });

interface TurnSpec {
  thinking: Obj | undefined;
  texts: Obj[];
  calls: CallSpec[];
  userAfter: Obj[];
  userAsString: string | undefined;
}

const turnSpec = (names: string[] | undefined): fc.Arbitrary<TurnSpec> =>
  fc.record({
    thinking: fc.option(thinkingBlock(), { freq: 3, nil: undefined }),
    texts: fc.array(textBlock(), { maxLength: 2 }),
    calls: fc.array(callSpec(names), { maxLength: 3 }),
    userAfter: fc.array(fc.oneof({ weight: 3, arbitrary: textBlock() }, { weight: 1, arbitrary: imageBlock() }), { maxLength: 2 }),
    userAsString: fc.option(text(), { freq: 3, nil: undefined }),
  });

/** Builds the message list; tool ids get a per-conversation counter so they are unique. */
function buildMessages(first: Obj[] | string, turns: TurnSpec[], endWithAssistant: boolean): Obj[] {
  const messages: Obj[] = [{ role: 'user', content: first }];
  let counter = 0;
  turns.forEach((turn, i) => {
    const calls = turn.calls.map((c) => ({ ...c, id: `${c.idPart}${counter++}` }));
    const content: Obj[] = [];
    if (turn.thinking) content.push(turn.thinking);
    content.push(...turn.texts);
    for (const c of calls) content.push(withCache({ type: 'tool_use', id: c.id, name: c.name, input: c.input }, c.cache));
    if (content.length === 0 || content.every((b) => b['type'] === 'thinking' || b['type'] === 'redacted_thinking')) content.push({ type: 'text', text: 'OK.' });
    messages.push({ role: 'assistant', content });
    const last = i === turns.length - 1;
    if (last && endWithAssistant && calls.length === 0) return;
    const results = calls.map((c) => {
      const block: Obj = { type: 'tool_result', tool_use_id: c.id, content: c.result };
      if (c.isError !== undefined) block['is_error'] = c.isError;
      return withCache(block, c.resultCache);
    });
    if (results.length === 0 && turn.userAsString !== undefined) {
      messages.push({ role: 'user', content: turn.userAsString });
      return;
    }
    const userContent = [...results, ...turn.userAfter];
    if (userContent.length === 0) userContent.push({ type: 'text', text: 'Go on.' });
    messages.push({ role: 'user', content: userContent });
  });
  return messages;
}

const tool = (name: string): fc.Arbitrary<Obj> =>
  fc
    .record(
      { description: text(), input_schema: jsonSchema(), cache: cacheControl(), strict: fc.boolean() },
      { requiredKeys: ['input_schema', 'cache'] },
    )
    .map(({ description, input_schema, cache, strict }) => {
      const t: Obj = { name, input_schema };
      if (description !== undefined) t['description'] = description;
      if (strict !== undefined) t['strict'] = strict;
      return withCache(t, cache);
    });

const toolChoice = (names: string[]): fc.Arbitrary<Obj> =>
  fc.oneof(
    fc.constantFrom({ type: 'auto' }, { type: 'any' }, { type: 'none' }, { type: 'auto', disable_parallel_tool_use: true }),
    fc.constantFrom(...names).map((name) => ({ type: 'tool', name })),
  );

const system = (): fc.Arbitrary<unknown> => fc.oneof(text(), fc.array(textBlock(), { minLength: 1, maxLength: 2 }));

/**
 * The API takes at most 4 cache breakpoints, and 1h entries must come before 5m ones (in the order
 * tools, system, messages): keeps the first 4 and downgrades a 1h that follows a shorter one.
 */
function limitCacheBreakpoints(body: Obj): Obj {
  let count = 0;
  let sawShort = false;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const o = node as Obj;
    const cc = o['cache_control'] as Obj | undefined;
    if (cc !== undefined) {
      if (count >= 4) delete o['cache_control'];
      else {
        count++;
        if (cc['ttl'] === '1h' && sawShort) o['cache_control'] = { type: 'ephemeral' };
        else if (cc['ttl'] !== '1h') sawShort = true;
      }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'cache_control' && k !== 'input') visit(v);
  };
  visit(body['tools']);
  visit(body['system']);
  visit(body['messages']);
  return body;
}

/** A valid Anthropic Messages request body. */
export const anthropicRequest = (): fc.Arbitrary<Obj> =>
  fc
    .record({
      names: fc.uniqueArray(toolName(), { maxLength: 3 }),
      thinking: fc.option(
        fc.oneof(
          fc.integer({ min: 1024, max: 4000 }).map((budget_tokens) => ({ type: 'enabled', budget_tokens })),
          fc.constant({ type: 'adaptive' }),
          fc.constant({ type: 'disabled' }),
        ),
        { nil: undefined },
      ),
      firstAsString: fc.boolean(),
      endWithAssistant: fc.boolean(),
    })
    .chain(({ names, thinking, firstAsString, endWithAssistant }) =>
      fc
        .record(
          {
            model: modelName('claude'),
            max_tokens: fc.integer({ min: 4097, max: 16000 }),
            first: firstAsString ? text() : fc.array(fc.oneof(textBlock(), imageBlock()), { minLength: 1, maxLength: 3 }),
            turns: fc.array(turnSpec(names.length > 0 ? names : undefined), { maxLength: 4 }),
            system: system(),
            metadata: fc.string({ minLength: 1, maxLength: 20 }).map((user_id) => ({ user_id })),
            stop_sequences: fc.array(fc.constantFrom('\n\nHuman:', 'END', '###'), { minLength: 1, maxLength: 2 }),
            temperature: decimal(0, 1),
            top_p: decimal(0, 1),
            top_k: fc.integer({ min: 1, max: 500 }),
            tools: names.length > 0 ? fc.tuple(...names.map(tool)) : fc.constant(undefined),
            tool_choice: names.length > 0 ? toolChoice(names) : fc.constant(undefined),
            stream: fc.constant(false),
          },
          { requiredKeys: ['model', 'max_tokens', 'first', 'turns'] },
        )
        .map((r) => {
          const body: Obj = { model: r.model, max_tokens: r.max_tokens, messages: buildMessages(r.first, r.turns, endWithAssistant) };
          for (const key of ['system', 'metadata', 'stop_sequences', 'tools', 'tool_choice', 'stream'] as const) {
            if (r[key] !== undefined) body[key] = r[key];
          }
          if (thinking) body['thinking'] = thinking;
          // With extended thinking on, the API rejects temperature and top_k changes.
          if (!thinking || thinking.type === 'disabled') {
            for (const key of ['temperature', 'top_p', 'top_k'] as const) if (r[key] !== undefined) body[key] = r[key];
          }
          return plain(limitCacheBreakpoints(body));
        }),
    );

/** A valid non-streaming Anthropic Messages response body. */
export const anthropicResponse = (): fc.Arbitrary<Obj> =>
  fc
    .record({
      id: fc.string({ unit: fc.constantFrom(...'abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789'.split('')), minLength: 12, maxLength: 24 }),
      model: modelName('claude'),
      thinking: fc.option(thinkingBlock(), { freq: 3, nil: undefined }),
      texts: fc.array(text(), { maxLength: 3 }),
      calls: fc.array(fc.record({ id: anthropicToolId(), name: toolName(), input: jsonObject() }), { maxLength: 3 }),
      stop: fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence'),
      input: fc.integer({ min: 1, max: 100_000 }),
      output: fc.integer({ min: 1, max: 8000 }),
      cacheRead: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
      cacheWrite: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
      tier: fc.option(fc.constantFrom('standard', 'priority'), { nil: undefined }),
    })
    .map((r) => {
      const content: Obj[] = [];
      if (r.thinking) content.push(r.thinking);
      for (const t of r.texts) content.push({ type: 'text', text: t });
      r.calls.forEach((c, i) => content.push({ type: 'tool_use', id: `${c.id}${i}`, name: c.name, input: c.input }));
      if (r.texts.length === 0 && r.calls.length === 0) content.push({ type: 'text', text: 'Done.' });
      const stop = r.calls.length > 0 ? 'tool_use' : r.stop;
      const usage: Obj = { input_tokens: r.input, output_tokens: r.output };
      if (r.cacheWrite !== undefined) usage['cache_creation_input_tokens'] = r.cacheWrite;
      if (r.cacheRead !== undefined) usage['cache_read_input_tokens'] = r.cacheRead;
      if (r.tier !== undefined) usage['service_tier'] = r.tier;
      return plain({
        id: `msg_${r.id}`,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content,
        stop_reason: stop,
        stop_sequence: stop === 'stop_sequence' ? 'END' : null,
        usage,
      });
    });
