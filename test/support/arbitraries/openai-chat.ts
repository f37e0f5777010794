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

/** String content or a list of parts; `parts` decides what a list may hold. */
const content = (parts: fc.Arbitrary<Obj>): fc.Arbitrary<unknown> => fc.oneof(text(), fc.array(parts, { minLength: 1, maxLength: 3 }));

const instruction = (): fc.Arbitrary<Obj> =>
  fc
    .record({ role: fc.constantFrom('system', 'developer'), content: content(textPart()), name: fc.constantFrom('ops', 'policy') }, { requiredKeys: ['role', 'content'] });

const user = (): fc.Arbitrary<Obj> =>
  fc.record({ role: fc.constant('user'), content: content(fc.oneof({ weight: 3, arbitrary: textPart() }, { weight: 1, arbitrary: imagePart() })) });

/** Arguments as the model writes them: compact JSON, sometimes spaced or with unicode escapes kept verbatim. */
const argumentsText = (): fc.Arbitrary<string> =>
  fc.tuple(jsonObject(), fc.constantFrom(0, 1, 2)).map(([args, style]) => (style === 1 ? JSON.stringify(args, null, 1) : JSON.stringify(args)));

interface Turn {
  content: unknown;
  calls: { id: string; name: string; args: string; result: unknown }[];
  after: Obj[];
}

const turn = (names: string[] | undefined): fc.Arbitrary<Turn> =>
  fc.record({
    content: fc.option(content(textPart()), { freq: 2, nil: null }),
    calls: fc.array(
      fc.record({
        id: openaiToolId(),
        name: names && names.length > 0 ? fc.constantFrom(...names) : toolName(),
        args: argumentsText(),
        result: content(textPart()),
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
    const assistant: Obj = { role: 'assistant', content: t.content };
    if (calls.length > 0) {
      assistant['tool_calls'] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
    } else if (t.content === null) assistant['content'] = 'OK.';
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
          temperature: decimal(0, 2),
          top_p: decimal(0, 1),
          stop: fc.oneof(fc.constant('END'), fc.array(fc.constantFrom('END', '###', '\n\n'), { minLength: 1, maxLength: 4 })),
          seed: fc.integer({ min: 0, max: 2 ** 31 }),
          presence_penalty: decimal(-2, 2),
          frequency_penalty: decimal(-2, 2),
          response_format: responseFormat(),
          reasoning_effort: fc.constantFrom('minimal', 'low', 'medium', 'high'),
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
        return plain(body);
      }),
  );

/** A valid non-streaming OpenAI Chat Completions response body. */
export const openaiResponse = (): fc.Arbitrary<Obj> =>
  fc
    .record({
      id: fc.string({ unit: fc.constantFrom(...'abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789'.split('')), minLength: 12, maxLength: 29 }),
      created: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
      model: modelName('gpt'),
      content: fc.option(text(), { freq: 4, nil: null }),
      calls: fc.array(fc.record({ id: openaiToolId(), name: toolName(), args: argumentsText() }), { maxLength: 3 }),
      finish: fc.constantFrom('stop', 'length'),
      prompt: fc.integer({ min: 1, max: 100_000 }),
      completion: fc.integer({ min: 1, max: 8000 }),
      cached: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
      reasoning: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
      fingerprint: fc.option(fc.constantFrom('fp_abc123', 'fp_0011'), { nil: undefined }),
      tier: fc.option(fc.constantFrom('default', 'flex', 'priority'), { nil: undefined }),
    })
    .map((r) => {
      const message: Obj = { role: 'assistant', content: r.content, refusal: null, annotations: [] };
      if (r.calls.length > 0) {
        message['tool_calls'] = r.calls.map((c, i) => ({ id: `${c.id}${i}`, type: 'function', function: { name: c.name, arguments: c.args } }));
      } else if (r.content === null) message['content'] = 'Done.';
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
        choices: [{ index: 0, message, logprobs: null, finish_reason: r.calls.length > 0 ? 'tool_calls' : r.finish }],
        usage,
      };
      if (r.tier !== undefined) body['service_tier'] = r.tier;
      if (r.fingerprint !== undefined) body['system_fingerprint'] = r.fingerprint;
      return plain(body);
    });
