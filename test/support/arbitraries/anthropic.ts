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

/** A PDF (base64), a plain-text or a URL document, with the optional title, context and citations switch. */
export const documentBlock = (): fc.Arbitrary<Obj> =>
  fc
    .record(
      {
        source: fc.oneof(
          fc.uint8Array({ minLength: 4, maxLength: 48 }).map((b) => ({
            type: 'base64',
            media_type: 'application/pdf',
            data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(b)]).toString('base64'),
          })),
          text().map((data) => ({ type: 'text', media_type: 'text/plain', data })),
          httpsImageUrl().map((url) => ({ type: 'url', url: url.replace(/\.\w+$/, '.pdf') })),
        ),
        title: text(),
        context: text(),
        citations: fc.boolean().map((enabled) => ({ enabled })),
      },
      { requiredKeys: ['source'] },
    )
    .map((d) => ({ type: 'document', ...d }));

/** A search result the caller supplies (RAG), with text content. */
export const searchResultBlock = (): fc.Arbitrary<Obj> =>
  fc
    .record(
      {
        source: httpsImageUrl().map((u) => u.replace('/img/', '/doc/')),
        title: text(),
        content: fc.array(text().map((t) => ({ type: 'text', text: t })), { minLength: 1, maxLength: 2 }),
        citations: fc.boolean().map((enabled) => ({ enabled })),
      },
      { requiredKeys: ['source', 'title', 'content'] },
    )
    .map((r) => ({ type: 'search_result', ...r }));

/** Citations an earlier answer carried, replayed on its text (document char ranges or search results). */
const citation = (): fc.Arbitrary<Obj> =>
  fc.oneof(
    fc.tuple(text(), fc.nat(50), fc.nat(50)).map(([cited_text, a, b]) => ({
      type: 'char_location',
      cited_text,
      document_index: 0,
      document_title: null,
      start_char_index: Math.min(a, b),
      end_char_index: Math.max(a, b),
    })),
    fc.tuple(text(), text()).map(([cited_text, title]) => ({
      type: 'search_result_location',
      cited_text,
      source: 'https://example.com/doc/a',
      title,
      search_result_index: 0,
      start_block_index: 0,
      end_block_index: 1,
    })),
  );

const citedTextBlock = (): fc.Arbitrary<Obj> =>
  fc.tuple(text(), fc.array(citation(), { minLength: 1, maxLength: 2 })).map(([t, citations]) => ({ type: 'text', text: t, citations }));

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
    { weight: 1, arbitrary: fc.tuple(searchResultBlock(), fc.option(documentBlock(), { nil: undefined })).map(([r, d]) => (d ? [r, d] : [r])) },
    // A tool that returned nothing: content is optional, or an empty list.
    { weight: 1, arbitrary: fc.constantFrom(undefined, []) },
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
  search: Obj[] | undefined;
  texts: Obj[];
  calls: CallSpec[];
  userAfter: Obj[];
  userAsString: string | undefined;
}

const turnSpec = (names: string[] | undefined): fc.Arbitrary<TurnSpec> =>
  fc.record({
    thinking: fc.option(thinkingBlock(), { freq: 3, nil: undefined }),
    search: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: webSearch() }),
    texts: fc.array(fc.oneof({ weight: 4, arbitrary: textBlock() }, { weight: 1, arbitrary: citedTextBlock() }), { maxLength: 2 }),
    calls: fc.array(callSpec(names), { maxLength: 3 }),
    userAfter: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: textBlock() },
        { weight: 2, arbitrary: imageBlock() },
        { weight: 1, arbitrary: documentBlock() },
        { weight: 1, arbitrary: searchResultBlock() },
      ),
      { maxLength: 2 },
    ),
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
    if (turn.search) content.push(...turn.search);
    content.push(...turn.texts);
    for (const c of calls) content.push(withCache({ type: 'tool_use', id: c.id, name: c.name, input: c.input }, c.cache));
    if (content.length === 0 || content.every((b) => b['type'] === 'thinking' || b['type'] === 'redacted_thinking')) content.push({ type: 'text', text: 'OK.' });
    messages.push({ role: 'assistant', content });
    const last = i === turns.length - 1;
    if (last && endWithAssistant && calls.length === 0) return;
    const results = calls.map((c) => {
      const block: Obj = { type: 'tool_result', tool_use_id: c.id };
      if (c.result !== undefined) block['content'] = c.result;
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
      { description: text(), input_schema: jsonSchema(), cache: cacheControl(), strict: fc.boolean(), custom: fc.boolean() },
      { requiredKeys: ['input_schema', 'cache', 'custom'] },
    )
    .map(({ description, input_schema, cache, strict, custom }) => {
      // `type: "custom"` is the explicit form of a user-defined tool (the SDK's ToolRunner sends it).
      const t: Obj = custom ? { type: 'custom', name, input_schema } : { name, input_schema };
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
            output_config: fc.oneof(
              jsonSchema().map((schema) => ({ format: { type: 'json_schema', schema } })),
              fc.constantFrom('low', 'medium', 'high').map((effort) => ({ effort })),
            ),
          },
          { requiredKeys: ['model', 'max_tokens', 'first', 'turns'] },
        )
        .map((r) => {
          const body: Obj = { model: r.model, max_tokens: r.max_tokens, messages: buildMessages(r.first, r.turns, endWithAssistant) };
          for (const key of ['system', 'metadata', 'stop_sequences', 'tools', 'tool_choice', 'stream', 'output_config'] as const) {
            if (r[key] !== undefined) body[key] = r[key];
          }
          if (thinking) body['thinking'] = thinking;
          // With extended thinking on, the API rejects temperature and top_k changes.
          if (!thinking || thinking.type === 'disabled') {
            for (const key of ['temperature', 'top_p', 'top_k'] as const) if (r[key] !== undefined) body[key] = r[key];
          }
          // A replayed server web search needs the server tool in the request.
          if (JSON.stringify(body['messages']).includes('"server_tool_use"')) {
            body['tools'] = [...((body['tools'] as Obj[] | undefined) ?? []), { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
          }
          return plain(limitCacheBreakpoints(body));
        }),
    );

/** A web search the server ran: its server_tool_use, its results, and a cited answer. */
const webSearch = (): fc.Arbitrary<Obj[]> =>
  fc
    .tuple(
      alnumId(),
      text(),
      fc.array(fc.tuple(httpsImageUrl(), text(), opaque(), fc.option(fc.constantFrom('2 days ago', 'March 1, 2025'), { nil: null })), { minLength: 1, maxLength: 3 }),
      text(),
      opaque(),
    )
    .map(([id, query, results, answer, index]) => {
      const first = results[0] as [string, string, string, string | null];
      return [
        { type: 'server_tool_use', id: `srvtoolu_${id}`, name: 'web_search', input: { query } },
        {
          type: 'web_search_tool_result',
          tool_use_id: `srvtoolu_${id}`,
          content: results.map(([url, title, encrypted_content, page_age]) => ({ type: 'web_search_result', url, title, encrypted_content, page_age })),
        },
        { type: 'text', text: answer, citations: [{ type: 'web_search_result_location', cited_text: answer, url: first[0], title: first[1], encrypted_index: index }] },
      ];
    });

const alnumId = (): fc.Arbitrary<string> => anthropicToolId().map((id) => id.slice('toolu_'.length));

/** A valid non-streaming Anthropic Messages response body. */
export const anthropicResponse = (): fc.Arbitrary<Obj> =>
  fc
    .record({
      id: fc.string({ unit: fc.constantFrom(...'abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789'.split('')), minLength: 12, maxLength: 24 }),
      model: modelName('claude'),
      thinking: fc.option(thinkingBlock(), { freq: 3, nil: undefined }),
      search: fc.option(webSearch(), { freq: 5, nil: undefined }),
      texts: fc.array(text(), { maxLength: 3 }),
      calls: fc.array(fc.record({ id: anthropicToolId(), name: toolName(), input: jsonObject() }), { maxLength: 3 }),
      stop: fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', 'end_turn', 'refusal', 'pause_turn', 'model_context_window_exceeded'),
      input: fc.integer({ min: 1, max: 100_000 }),
      output: fc.integer({ min: 1, max: 8000 }),
      cacheRead: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
      cacheWrite: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
      tier: fc.option(fc.constantFrom('standard', 'priority'), { nil: undefined }),
    })
    .map((r) => {
      const content: Obj[] = [];
      if (r.thinking) content.push(r.thinking);
      if (r.search) content.push(...r.search);
      for (const t of r.texts) content.push({ type: 'text', text: t });
      r.calls.forEach((c, i) => content.push({ type: 'tool_use', id: `${c.id}${i}`, name: c.name, input: c.input }));
      if (r.texts.length === 0 && r.calls.length === 0 && !r.search) content.push({ type: 'text', text: 'Done.' });
      const stop = r.calls.length > 0 ? 'tool_use' : r.stop;
      const usage: Obj = { input_tokens: r.input, output_tokens: r.output };
      if (r.cacheWrite !== undefined) usage['cache_creation_input_tokens'] = r.cacheWrite;
      if (r.cacheRead !== undefined) usage['cache_read_input_tokens'] = r.cacheRead;
      if (r.search) usage['server_tool_use'] = { web_search_requests: 1 };
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
