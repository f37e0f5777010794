/**
 * Agent input request bodies for property tests: every form (string, blocks, messages, legacy),
 * roles in any case and of no canonical meaning, media under either key with any source-type
 * case, tool calls with arguments spaced as clients write them, and unknown keys at every level.
 */
import fc from 'fast-check';
import { text } from '../../support/arbitraries/common.js';

type Obj = Record<string, unknown>;

/** Unknown keys a client may add anywhere (kept as residue). */
const extra = (): fc.Arbitrary<Obj> => fc.dictionary(fc.constantFrom('meta', 'lang', 'x_id', 'note'), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 2 });

const caseOf = (word: string): fc.Arbitrary<string> => fc.constantFrom(word, word.toUpperCase(), word.charAt(0).toUpperCase() + word.slice(1));

const textBlock = (): fc.Arbitrary<Obj> => fc.tuple(caseOf('text'), text(), extra()).map(([type, t, x]) => ({ ...x, type, text: t }));

const FORMATS: Record<string, string[]> = { image: ['png', 'jpeg', 'jpg', 'gif', 'webp'], video: ['mp4', 'mov', 'mpg', 'mpeg'], document: ['pdf', 'txt', 'md', 'csv'] };

const mediaBlock = (): fc.Arbitrary<Obj> =>
  fc.constantFrom('image', 'video', 'document').chain((kind) =>
    fc
      .record({
        type: caseOf(kind),
        key: fc.constantFrom(kind, 'source'),
        sourceType: fc.constantFrom('base64', 'BASE64', 'url', 'URL'),
        format: fc.constantFrom(...(FORMATS[kind] ?? [])),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }),
        url: fc.constantFrom('https://example.com/a', 's3://bucket/key', 'http://x.test/y?z=1'),
        inner: extra(),
        outer: extra(),
      })
      .map((r) => {
        const data = r.sourceType.toLowerCase() === 'base64' ? Buffer.from(r.bytes).toString('base64') : r.url;
        return { ...r.outer, type: r.type, [r.key]: { ...r.inner, type: r.sourceType, format: r.format, data } };
      }),
  );

const blocks = (media = true): fc.Arbitrary<Obj[]> =>
  fc.array(media ? fc.oneof({ weight: 3, arbitrary: textBlock() }, { weight: 1, arbitrary: mediaBlock() }) : textBlock(), { minLength: 1, maxLength: 4 });

export interface Options {
  /** Media blocks in tool messages (default true). */
  toolMedia?: boolean;
}

const args = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ v })),
    fc.constantFrom('{}', '', '  ', '{ "a" : 1 }', '{"city":"Paris","n":[1,2]}'),
  );

const toolCall = (id: string): fc.Arbitrary<Obj> =>
  fc.record({ hasType: fc.boolean(), name: fc.constantFrom('get_weather', 'search', 'f'), args: args(), x: extra() }).map((r) => ({
    ...r.x,
    id,
    ...(r.hasType ? { type: 'function' } : {}),
    function: { name: r.name, arguments: r.args },
  }));

/** A user / other-role turn, an assistant turn that may call tools, then its tool messages. */
const turn = (n: number, o: Options): fc.Arbitrary<Obj[]> =>
  fc.oneof(
    fc.tuple(fc.oneof(caseOf('user'), caseOf('system'), caseOf('developer'), fc.constantFrom('critic', 'observer')), blocks(), extra()).map(([role, content, x]) => [{ ...x, role, content }]),
    fc
      .tuple(caseOf('assistant'), fc.option(blocks(), { nil: undefined }), fc.integer({ min: 0, max: 2 }), extra())
      .chain(([role, content, calls, x]) =>
        fc.tuple(...Array.from({ length: calls }, (_, k) => toolCall(`call_${n}_${k}`))).chain((toolCalls) => {
          const assistant: Obj = { ...x, role, ...(content !== undefined || toolCalls.length === 0 ? { content: content ?? [{ type: 'text', text: 'ok' }] } : {}) };
          if (toolCalls.length > 0) assistant['toolCalls'] = toolCalls;
          const result = (c: Obj) => fc.tuple(caseOf('tool'), blocks(o.toolMedia ?? true)).map(([r, b]) => ({ role: r, content: b, toolCallId: c['id'] }));
          return fc.tuple(...toolCalls.map(result)).map((tools) => [assistant, ...tools]);
        }),
      ),
  );

const messages = (o: Options): fc.Arbitrary<Obj[]> =>
  fc.integer({ min: 1, max: 4 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, n) => turn(n, o))).map((turns) => turns.flat()));

const top = (): fc.Arbitrary<Obj> =>
  fc.record({ agent_id: fc.constantFrom('agent-1', 'a2'), tenant_id: fc.constant('t') }, { requiredKeys: [] }).map((r) => r as Obj);

/** A valid agent input request body. */
export const agentInputRequest = (o: Options = {}): fc.Arbitrary<Obj> =>
  fc.oneof(
    fc.tuple(text(), top()).map(([t, x]) => ({ ...x, input: t })),
    fc.tuple(blocks(), top()).map(([b, x]) => ({ ...x, input: b })),
    fc.tuple(messages(o), top()).map(([m, x]) => ({ ...x, input: m })),
    fc.tuple(text(), fc.dictionary(fc.constantFrom('verbose', 'top_k', 'index'), fc.oneof(fc.boolean(), fc.integer())), top()).map(([q, p, x]) => ({ ...x, parameters: { question: q, ...p } })),
  );
