/**
 * Valid OpenAI Chat Completions bodies (POST /v1/chat/completions), following the API reference:
 * system/developer instructions, user turns with text and image parts, assistant turns whose
 * tool_calls are answered by one tool message per call right after them, arguments as JSON text,
 * function tools and every tool_choice form, sampling parameters in their documented ranges.
 */
import fc from 'fast-check';
import { base64Image, plain, decimal, httpsImageUrl, jsonObject, jsonSchema, modelName, openaiToolId, text, toolName } from './common.js';

type Obj = Record<string, unknown>;

const textPart = (): fc.Arbitrary<Obj> => text().map((t) => ({ type: 'text', text: t }));

const imagePart = (): fc.Arbitrary<Obj> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: base64Image().map((img) => `data:${img.mediaType};base64,${img.data}`) },
        { weight: 1, arbitrary: httpsImageUrl() },
      ),
      fc.option(fc.constantFrom('auto', 'low', 'high'), { nil: undefined }),
    )
    .map(([url, detail]) => ({ type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } }));

/** A PDF as a data URL (magic bytes + random bytes) with a file name, or an uploaded file id. */
const filePart = (): fc.Arbitrary<Obj> =>
  fc.oneof(
    fc
      .tuple(fc.uint8Array({ minLength: 4, maxLength: 48 }), fc.constantFrom('report.pdf', 'a.pdf'))
      .map(([bytes, filename]) => ({
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(bytes)]).toString('base64')}`, filename },
      })),
    fc.constantFrom('file-abc123', 'file-XyZ9').map((file_id) => ({ type: 'file', file: { file_id } })),
  );

/** input_audio takes wav or mp3, inline base64. */
const audioPart = (): fc.Arbitrary<Obj> =>
  fc
    .tuple(fc.uint8Array({ minLength: 4, maxLength: 48 }), fc.constantFrom('wav', 'mp3'))
    .map(([bytes, format]) => ({ type: 'input_audio', input_audio: { data: Buffer.from(bytes).toString('base64'), format } }));

/** A value present about one time in eight. */
const rarely = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** String content or a list of parts; `parts` decides what a list may hold. */
const content = (parts: fc.Arbitrary<Obj>): fc.Arbitrary<unknown> => fc.oneof(text(), fc.array(parts, { minLength: 1, maxLength: 3 }));

const instruction = (): fc.Arbitrary<Obj> =>
  fc
    .record({ role: fc.constantFrom('system', 'developer'), content: content(textPart()), name: fc.constantFrom('ops', 'policy') }, { requiredKeys: ['role', 'content'] });

const user = (): fc.Arbitrary<Obj> =>
  fc.record(
    {
      role: fc.constant('user'),
      content: content(
        fc.oneof(
          { weight: 6, arbitrary: textPart() },
          { weight: 2, arbitrary: imagePart() },
          { weight: 1, arbitrary: filePart() },
          { weight: 1, arbitrary: audioPart() },
        ),
      ),
      name: fc.constantFrom('ann', 'bob_2'),
    },
    { requiredKeys: ['role', 'content'] },
  );

/** Arguments as the model writes them: compact JSON, sometimes spaced or with unicode escapes kept verbatim. */
const argumentsText = (): fc.Arbitrary<string> =>
  fc.tuple(jsonObject(), fc.constantFrom(0, 1, 2)).map(([args, style]) => (style === 1 ? JSON.stringify(args, null, 1) : JSON.stringify(args)));

interface Turn {
  content: unknown;
  refusal: string | undefined;
  name: string | undefined;
  calls: { id: string; name: string; args: string; result: unknown }[];
  after: Obj[];
}

const turn = (names: string[] | undefined): fc.Arbitrary<Turn> =>
  fc.record({
    // null, absent (undefined) and '' all occur beside tool calls in real requests.
    content: fc.oneof(
      { weight: 6, arbitrary: content(textPart()) },
      // Assistant content parts may be refusals (the API reference's assistant content part union).
      { weight: 1, arbitrary: fc.array(fc.oneof(textPart(), text().map((refusal) => ({ type: 'refusal', refusal }))), { minLength: 1, maxLength: 2 }) },
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constant('') },
    ),
    refusal: rarely(text()),
    name: rarely(fc.constantFrom('helper', 'bot')),
    calls: fc.array(
      fc.record({
        id: openaiToolId(),
        name: names && names.length > 0 ? fc.constantFrom(...names) : toolName(),
        args: argumentsText(),
        // A tool may return nothing: '' is a valid tool message content.
        result: fc.oneof({ weight: 8, arbitrary: content(textPart()) }, { weight: 1, arbitrary: fc.constant('') }),
      }),
      { maxLength: 3 },
    ),
    after: fc.array(fc.oneof({ weight: 4, arbitrary: user() }, { weight: 1, arbitrary: instruction() }), { maxLength: 1 }),
  });

function buildMessages(head: Obj[], first: Obj, turns: Turn[]): Obj[] {
  const messages: Obj[] = [...head, first];
  let counter = 0;
  for (const t of turns) {
    const calls = t.calls.map((c) => ({ ...c, id: `${c.id}${counter++}` }));
    const assistant: Obj = { role: 'assistant' };
    if (t.content !== undefined) assistant['content'] = t.content;
    if (t.refusal !== undefined) assistant['refusal'] = t.refusal;
    if (t.name !== undefined) assistant['name'] = t.name;
    if (calls.length > 0) {
      assistant['tool_calls'] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
    } else if (t.content === null || t.content === undefined || t.content === '') assistant['content'] = 'OK.';
    messages.push(assistant);
    for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: c.result });
    messages.push(...(t.after.length > 0 || calls.length > 0 ? t.after : [{ role: 'user', content: 'Go on.' }]));
  }
  return messages;
}

const tool = (name: string): fc.Arbitrary<Obj> =>
  fc
    .record({ description: text(), parameters: jsonSchema(), strict: fc.boolean() }, { requiredKeys: [] })
    .map((f) => ({ type: 'function', function: { name, ...f } }));

const toolChoice = (names: string[]): fc.Arbitrary<unknown> =>
  fc.oneof(fc.constantFrom('auto', 'none', 'required'), fc.constantFrom(...names).map((name) => ({ type: 'function', function: { name } })));

const responseFormat = (): fc.Arbitrary<Obj> =>
  fc.oneof(
    fc.constant({ type: 'text' }),
    fc.constant({ type: 'json_object' }),
    fc
      .record({ schema: jsonSchema(), strict: fc.boolean(), description: text() }, { requiredKeys: ['schema'] })
      .map((j) => ({ type: 'json_schema', json_schema: { name: 'answer', ...j } })),
  );

/** A valid OpenAI Chat Completions request body. */
export const openaiRequest = (): fc.Arbitrary<Obj> =>
  fc.uniqueArray(toolName(), { maxLength: 3 }).chain((names) =>
    fc
      .record(
        {
          model: modelName('gpt'),
          head: fc.array(instruction(), { maxLength: 2 }),
          first: user(),
          turns: fc.array(turn(names.length > 0 ? names : undefined), { maxLength: 4 }),
          tools: names.length > 0 ? fc.tuple(...names.map(tool)) : fc.constant(undefined),
          tool_choice: names.length > 0 ? toolChoice(names) : fc.constant(undefined),
          parallel_tool_calls: fc.boolean(),
          max_completion_tokens: fc.integer({ min: 1, max: 32000 }),
          // The legacy field, still sent by many clients (a body has one or the other here).
          legacy_max: fc.boolean(),
          temperature: decimal(0, 2),
          top_p: decimal(0, 1),
          stop: fc.oneof(fc.constant('END'), fc.array(fc.constantFrom('END', '###', '\n\n'), { minLength: 1, maxLength: 4 })),
          seed: fc.integer({ min: 0, max: 2 ** 31 }),
          presence_penalty: decimal(-2, 2),
          frequency_penalty: decimal(-2, 2),
          response_format: responseFormat(),
          reasoning_effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high'),
          user: fc.string({ minLength: 1, maxLength: 20 }),
          n: fc.integer({ min: 1, max: 3 }),
          stream: fc.constant(false),
          metadata: fc.dictionary(fc.constantFrom('team', 'run', 'env'), fc.string({ maxLength: 10 }), { maxKeys: 2 }),
        },
        { requiredKeys: ['model', 'head', 'first', 'turns'] },
      )
      .map(({ head, first, turns, ...rest }) => {
        const body: Obj = { model: rest.model, messages: buildMessages(head, first, turns) };
        for (const [k, v] of Object.entries(rest)) if (v !== undefined && k !== 'model') body[k] = v;
        if (body['tools'] === undefined) delete body['parallel_tool_calls'];
        if (body['legacy_max'] === true && body['max_completion_tokens'] !== undefined) body['max_tokens'] = body['max_completion_tokens'];
        if (body['legacy_max'] === true) delete body['max_completion_tokens'];
        delete body['legacy_max'];
        return plain(body);
      }),
  );

/** A valid non-streaming OpenAI Chat Completions response body. */
/** One generated choice: text (maybe cited), tool calls, or a refusal. */
const choiceSpec = () =>
  fc.record({
    content: fc.option(text(), { freq: 4, nil: null }),
    calls: fc.array(fc.record({ id: openaiToolId(), name: toolName(), args: argumentsText() }), { maxLength: 3 }),
    refusal: rarely(text()),
    cite: rarely(fc.tuple(httpsImageUrl(), text(), fc.nat(), fc.nat())),
    finish: fc.constantFrom('stop', 'length', 'stop', 'content_filter'),
  });

type ChoiceSpec = typeof choiceSpec extends () => fc.Arbitrary<infer T> ? T : never;

function buildChoice(r: ChoiceSpec, index: number): Obj {
  const message: Obj = { role: 'assistant', content: r.content, refusal: null, annotations: [] };
  if (r.refusal !== undefined && r.calls.length === 0) {
    // A refusal comes instead of an answer.
    message['content'] = null;
    message['refusal'] = r.refusal;
  } else if (r.calls.length > 0) {
    message['tool_calls'] = r.calls.map((c, i) => ({ id: `${c.id}${index}${i}`, type: 'function', function: { name: c.name, arguments: c.args } }));
  } else if (r.content === null) message['content'] = 'Done.';
  const content = message['content'];
  if (r.cite !== undefined && typeof content === 'string' && content.length > 0) {
    // A url_citation covers a range of the content.
    const [url, title, a, b] = r.cite;
    const start = a % content.length;
    const end = start + (b % (content.length - start + 1));
    message['annotations'] = [{ type: 'url_citation', url_citation: { url, title, start_index: start, end_index: end } }];
  }
  const finish = r.calls.length > 0 ? 'tool_calls' : message['refusal'] !== null ? 'stop' : r.finish;
  return { index, message, logprobs: null, finish_reason: finish };
}

/** A valid non-streaming OpenAI Chat Completions response body (sometimes n > 1 choices). */
export const openaiResponse = (): fc.Arbitrary<Obj> =>
  fc
    .record({
      id: fc.string({ unit: fc.constantFrom(...'abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789'.split('')), minLength: 12, maxLength: 29 }),
      created: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
      model: modelName('gpt'),
      choices: fc.oneof({ weight: 5, arbitrary: fc.tuple(choiceSpec()) }, { weight: 1, arbitrary: fc.array(choiceSpec(), { minLength: 2, maxLength: 3 }) }),
      prompt: fc.integer({ min: 1, max: 100_000 }),
      completion: fc.integer({ min: 1, max: 8000 }),
      cached: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
      reasoning: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
      fingerprint: fc.option(fc.constantFrom('fp_abc123', 'fp_0011'), { nil: undefined }),
      tier: fc.option(fc.constantFrom('default', 'flex', 'priority'), { nil: undefined }),
    })
    .map((r) => {
      const usage: Obj = { prompt_tokens: r.prompt + (r.cached ?? 0), completion_tokens: r.completion, total_tokens: r.prompt + (r.cached ?? 0) + r.completion };
      if (r.cached !== undefined) usage['prompt_tokens_details'] = { cached_tokens: r.cached, audio_tokens: 0 };
      if (r.reasoning !== undefined) {
        usage['completion_tokens_details'] = { reasoning_tokens: Math.min(r.reasoning, r.completion), audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 };
      }
      const body: Obj = {
        id: `chatcmpl-${r.id}`,
        object: 'chat.completion',
        created: r.created,
        model: r.model,
        choices: r.choices.map(buildChoice),
        usage,
      };
      if (r.tier !== undefined) body['service_tier'] = r.tier;
      if (r.fingerprint !== undefined) body['system_fingerprint'] = r.fingerprint;
      return plain(body);
    });
