/**
 * Cross-check against agentgateway's conversion vectors for the dialects of issue 3: OpenAI
 * Responses, Bedrock Converse and Gemini generateContent (test/fixtures/conversion/agentgateway,
 * Apache-2.0). As in agentgateway.test.ts: each vector's input goes through our `convert`, forms the
 * APIs document as the same are normalised (NORMALISED below), and every difference left is listed
 * with who is right by the official docs (docs/decisions/0003-agentgateway-dialect-vectors.md), so
 * a new difference fails and so does a listed one that goes away. The bugs of ours the vectors
 * showed (B4-B7) are fixed and checked at the end.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, ValidationError, type FormatId } from '../../src/index.js';
import { compare, expected, expectListed, isObj, readJson, ROOT, verdicts, type Json, type Kind, type Verdict, type Vector } from './agentgateway-support.js';
import { REASONING_WITHOUT_FORMAT, VECTORS } from './agentgateway-dialect-vectors.js';

/** Vectors whose every field agrees after normalising, and the listed differences by verdict (ADR 0003). */
const AGREE = 28;
const COUNTS: Record<Verdict, number> = { ours: 105, theirs: 6, neither: 0, either: 21, model: 9 };

interface VectorSet {
  dir: string;
  /** The snapshot suffix without `.snap`: agentgateway's name for the target. */
  target: string;
  from: FormatId;
  to: FormatId;
  kind: Kind;
}

/**
 * Snapshot suffixes, read from the snapshots' `parsed.provider` / `input_format` and agentgateway's
 * golden_tests.rs: `.bedrock` = Converse body; `.vertex-gemini` = Vertex generateContent body;
 * `.responses` = Responses body; `.gemini` = Chat Completions body for Gemini's OpenAI-compatible
 * endpoint; `.gemini-native` = generateContent passed through; `<from>-<to>` = a response converted.
 */
export const SETS: VectorSet[] = [
  { dir: 'requests/completions', target: 'bedrock', from: 'openai-chat', to: 'bedrock-converse', kind: 'request' },
  { dir: 'requests/completions', target: 'vertex-gemini', from: 'openai-chat', to: 'gemini', kind: 'request' },
  { dir: 'requests/messages', target: 'bedrock', from: 'anthropic-messages', to: 'bedrock-converse', kind: 'request' },
  { dir: 'requests/messages', target: 'responses', from: 'anthropic-messages', to: 'openai-responses', kind: 'request' },
  { dir: 'requests/responses', target: 'bedrock', from: 'openai-responses', to: 'bedrock-converse', kind: 'request' },
  { dir: 'requests/responses', target: 'gemini', from: 'openai-responses', to: 'openai-chat', kind: 'request' },
  { dir: 'requests/gemini', target: 'gemini-native', from: 'gemini', to: 'gemini', kind: 'request' },
  { dir: 'response/bedrock', target: 'bedrock-completions', from: 'bedrock-converse', to: 'openai-chat', kind: 'response' },
  { dir: 'response/bedrock', target: 'bedrock-messages', from: 'bedrock-converse', to: 'anthropic-messages', kind: 'response' },
  { dir: 'response/bedrock', target: 'bedrock-responses', from: 'bedrock-converse', to: 'openai-responses', kind: 'response' },
  { dir: 'response/responses', target: 'responses-messages', from: 'openai-responses', to: 'anthropic-messages', kind: 'response' },
  { dir: 'response/responses', target: 'responses-responses', from: 'openai-responses', to: 'openai-responses', kind: 'response' },
  { dir: 'response/completions', target: 'completions-responses', from: 'openai-chat', to: 'openai-responses', kind: 'response' },
  { dir: 'response/vertex-gemini', target: 'vertex-gemini-completions', from: 'gemini', to: 'openai-chat', kind: 'response' },
  { dir: 'response/vertex-gemini', target: 'gemini-native', from: 'gemini', to: 'gemini', kind: 'response' },
];

// --- NORMALISED: forms the APIs document as the same ------------------------------------------
/** One text part for a string content: Chat `content` and Responses message `content` are "string or array". */
function textParts(content: unknown, type: string): unknown {
  return typeof content === 'string' ? [{ type, text: content }] : content;
}

/** A Responses input message in its long form: `type: message` (optional, "Always message") and a part list. */
function responsesItem(item: unknown): unknown {
  if (!isObj(item) || !('role' in item) || (item['type'] !== undefined && item['type'] !== 'message')) return item;
  const type = item['role'] === 'assistant' ? 'output_text' : 'input_text';
  return { ...item, type: 'message', content: textParts(item['content'], type) };
}

/**
 * - `stream: false` = absent (the default of Chat Completions and Responses);
 * - string content = one text part (Chat messages, Responses input messages), a string Responses
 *   `input` = one user message, and an input message without `type` = with `type: message`;
 * - the model of a Bedrock or Gemini request is a path parameter (`/model/{modelId}/converse`,
 *   `/{model}:generateContent`): agentgateway's bodies leave it out, ours carry it as the SDK
 *   input (ConverseCommandInput.modelId, GenerateContentRequest.model) does;
 * - response `id`, `created`, `created_at` and output item ids are redacted in the snapshots, and
 *   a response `model` of `input-model` is the harness's stand-in for the request's model, which a
 *   response converter alone cannot know.
 */
export function normalise(body: Json, set: VectorSet, theirs: boolean): Json {
  const out: Json = { ...body };
  if (out['stream'] === false) delete out['stream'];
  if (set.kind === 'request' && !theirs && (set.to === 'bedrock-converse' || set.to === 'gemini') && set.from !== 'gemini') {
    delete out[set.to === 'gemini' ? 'model' : 'modelId'];
  }
  if (set.kind === 'response') {
    for (const key of ['id', 'created', 'created_at']) delete out[key];
    if (Array.isArray(out['output'])) out['output'] = (out['output'] as unknown[]).map((i) => (isObj(i) ? (({ id: _id, ...rest }) => rest)(i) : i));
  }
  if (Array.isArray(out['messages'])) {
    out['messages'] = (out['messages'] as unknown[]).map((m) => (isObj(m) && 'role' in m && !('parts' in m) && set.to !== 'bedrock-converse' ? { ...m, content: textParts(m['content'], 'text') } : m));
  }
  if (typeof out['input'] === 'string') out['input'] = [{ role: 'user', content: out['input'] }];
  if (Array.isArray(out['input'])) out['input'] = (out['input'] as unknown[]).map(responsesItem);
  return out;
}

/** The response `model` when agentgateway's is the harness stand-in: dropped on both sides. */
function withoutStandIn(ours: Json, theirs: Json): [Json, Json] {
  if (theirs['model'] !== 'input-model') return [ours, theirs];
  const { model: _a, ...o } = ours;
  const { model: _b, ...t } = theirs;
  return [o, t];
}

const key = (set: VectorSet, name: string): string => `${set.dir}/${name}.${set.target}`;
const namesOf = (set: VectorSet): string[] =>
  readdirSync(join(ROOT, set.dir))
    .filter((f) => f.endsWith(`.${set.target}.snap`))
    .map((f) => f.slice(0, -`.${set.target}.snap`.length))
    .sort();

for (const set of SETS) {
  describe(`agentgateway ${set.dir} -> ${set.target}: ${set.from} -> ${set.to}`, () => {
    const names = namesOf(set);

    it('has vectors, each with an entry in the table', () => {
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !(key(set, n) in VECTORS))).toEqual([]);
    });

    for (const name of names) {
      const v: Vector = VECTORS[key(set, name)] ?? {};
      it(`${name}: agrees except where listed`, () => {
        const input = readJson(`${set.dir}/${name}.json`);
        const run = () => convert<Json>(input, { from: set.from, to: set.to, kind: set.kind });
        if (v.rejects) {
          expect(run).toThrow(ValidationError);
          try {
            run();
          } catch (e) {
            expect((e as ValidationError).issues.map((i) => i.path.join('.'))).toContain(v.rejects.path);
          }
          return;
        }
        const out = run();
        const [ours, theirs] = withoutStandIn(normalise(out.value, set, false), normalise(expected(`${set.dir}/${name}.${set.target}.snap`), set, true));
        expectListed(compare(ours, theirs, v), v, out.losses);
      });
    }
  });
}

describe('agentgateway dialect vectors: bookkeeping', () => {
  it('lists no vector that is not in the fixtures', () => {
    const present = new Set(SETS.flatMap((s) => namesOf(s).map((n) => key(s, n))));
    expect(Object.keys(VECTORS).filter((k) => !present.has(k))).toEqual([]);
  });

  it('requests/messages/reasoning without its invalid output_format differs only where listed', () => {
    const set = SETS.find((s) => s.dir === 'requests/messages' && s.target === 'bedrock') as VectorSet;
    const { output_format: _dropped, ...input } = readJson('requests/messages/reasoning.json');
    const out = convert<Json>(input, { from: set.from, to: set.to });
    const theirs = normalise(expected('requests/messages/reasoning.bedrock.snap'), set, true);
    expectListed(compare(normalise(out.value, set, false), theirs, REASONING_WITHOUT_FORMAT), REASONING_WITHOUT_FORMAT, out.losses);
  });

  it('counts what the ADR reports', () => {
    expect(SETS.reduce((n, s) => n + namesOf(s).length, 0)).toBe(82);
    const agree = Object.values(VECTORS).filter((v) => !v.known && !v.reshape && !v.rejects).length;
    expect(agree).toBe(AGREE);
    expect(verdicts({ ...VECTORS, extra: REASONING_WITHOUT_FORMAT })).toEqual(COUNTS);
  });
});

// --- B4-B7: bugs of ours the vectors showed, fixed (minimal repros from the ADR) ----------------
describe('bugs the dialect vectors showed, fixed (docs/decisions/0003 B4-B7)', () => {
  it('B4: json_object reaches Bedrock as no output format, reported', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], response_format: { type: 'json_object' } };
    const out = convert<Json>(body, { from: 'openai-chat', to: 'bedrock-converse' });
    expect(out.value['outputConfig']).toBeUndefined();
    expect(out.losses).toContainEqual(expect.objectContaining({ code: 'json-object-format', path: ['responseFormat'], action: 'dropped' }));
  });

  it('B5: image/jpg reaches Gemini as image/jpeg, reported', () => {
    const body = readJson('requests/completions/image-inline.json');
    const out = convert<Json>(body, { from: 'openai-chat', to: 'gemini' });
    const contents = out.value['contents'] as { parts: Json[] }[];
    expect(contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQSkZJRgABAQ==' } });
    expect(out.losses).toContainEqual(expect.objectContaining({ code: 'media-type', action: 'approximated' }));
  });

  it('B6: another origin’s tool calls in a Responses response get an fc_ id and a status', () => {
    const out = convert<Json>(readJson('response/bedrock/tool.json'), { from: 'bedrock-converse', to: 'openai-responses', kind: 'response' });
    for (const item of out.value['output'] as Json[]) {
      expect(item).toMatchObject({ type: 'function_call', id: expect.stringMatching(/^fc_[0-9a-f]{32}$/), status: 'completed' });
    }
    // This codec's own items keep theirs.
    const own = convert<Json>(readJson('response/responses/truncated_tool_call.json'), { from: 'openai-responses', to: 'openai-responses', kind: 'response' });
    expect((own.value['output'] as Json[])[0]).toMatchObject({ id: 'fc_1', status: 'completed' });
  });

  it('B7: the item cut off by max tokens is incomplete, and preserve still comes back exactly', () => {
    const body = readJson('response/bedrock/max_tokens.json');
    const out = convert<Json>(body, { from: 'bedrock-converse', to: 'openai-responses', kind: 'response', preserve: true });
    expect(out.value['status']).toBe('incomplete');
    expect((out.value['output'] as Json[])[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(convert<Json>(out.value, { from: 'openai-responses', to: 'bedrock-converse', kind: 'response' }).value).toEqual(body);
  });
});
