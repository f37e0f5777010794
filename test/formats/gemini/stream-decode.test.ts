/**
 * Gemini streamGenerateContent -> canonical stream, on real captures: every capture decodes to a
 * well-ordered stream whose accumulation the response codec encodes and decodes back; streams
 * recorded beside a non-streaming twin accumulate to the same parts; Vertex streamed arguments
 * assemble to what their JSON paths say; signatures stay byte-exact; a mid-stream error and a
 * cut-off stream are said as such; bad chunks are refused with their wire path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeUsage } from '../../../src/formats/gemini/usage.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../src/model/json.js';
import type { Part } from '../../../src/model/part.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures, LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { decodeResponse, encodeResponse, issuesOf } from './helpers.js';
import { decodeStream } from './stream-support.js';

const local = localStreamCaptures('gemini');
const capture = (name: string): WireEvent[] => {
  const c = local.find((x) => x.name === `local:${name}`);
  if (c === undefined) throw new Error(`no local capture ${name}`);
  return c.events;
};
const chunks = (w: WireEvent[]): JsonObject[] => w.map((e) => e.data as JsonObject);
const ofType = <T extends StreamEvent['type']>(events: StreamEvent[], type: T): Extract<StreamEvent, { type: T }>[] =>
  events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);

/** What a part says, ids aside (a streamed call's minted id cannot hash arguments it has not seen yet). */
function shape(p: Part): unknown {
  const sig = p.type === 'reasoning' ? p.signature : p.ext?.['gemini']?.['thoughtSignature'];
  switch (p.type) {
    case 'text':
      return { type: p.type, text: p.text, sig };
    case 'reasoning':
      return { type: p.type, text: p.text, sig };
    case 'tool-call':
      return { type: p.type, name: p.name, arguments: p.arguments, sig, server: p.providerExecuted === true };
    case 'tool-result':
      return { type: p.type, name: p.name, content: p.content };
    default:
      return p;
  }
}
const shapes = (r: Response): unknown[] => r.choices.map((c) => c.message.parts.map(shape));

function checkCapture(c: StreamCapture): void {
  const { events } = decodeStream(c.events);
  expect(verifyStream(events)).toEqual([]);
  const acc = accumulate(events);
  if (acc.error !== undefined) {
    expect(acc.complete).toBe(false);
    return;
  }
  expect(acc.complete).toBe(true);
  const out = encodeResponse(acc.response);
  expect(out.losses).toEqual([]);
  expect(shapes(decodeResponse(out.value))).toEqual(shapes(acc.response));
}

describe('every local Gemini stream capture', () => {
  it('holds the captures the tests below name', () => expect(local.length).toBeGreaterThanOrEqual(15));
  it.each(local.map((c) => [c.name, c] as const))('%s: decodes, verifies, accumulates into a body the response codec takes back', (_n, c) => checkCapture(c));
});

const shared = hasSharedFixtures();
describe.skipIf(!shared)('every Gemini stream capture in ../shared/fixtures', () => {
  const all = sharedStreamCaptures('gemini');
  it('finds the corpus', () => expect(all.length).toBeGreaterThanOrEqual(60));
  it.each(all.map((c) => [c.name, c] as const))('%s', (_n, c) => checkCapture(c));
});
describe.skipIf(shared)('Gemini stream corpus sweep', () => {
  it.skip('skipped: ../shared/fixtures is absent (the local captures above still run)', () => {});
});

describe('streams recorded beside a non-streaming twin accumulate to the same parts', () => {
  const twin = (name: string): Response => decodeResponse(JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'gemini/responses', name), 'utf8')));
  const kinds = (r: Response): unknown => r.choices[0]?.message.parts.map((p) => ({ type: p.type, signed: shape(p) !== null && (shape(p) as { sig?: string }).sig !== undefined }));

  it.each(['google-text', 'google-reasoning-gemini3', 'google-tool-call', 'google-tool-call-gemini3'])('%s', (name) => {
    const streamed = accumulate(decodeStream(capture(`${name}.chunks.txt`)).events).response;
    const whole = twin(`${name}.json`);
    // Gemini 3 streams the text's signature on a trailing empty part; it lands on the one text part, as unstreamed.
    expect(kinds(streamed)).toEqual(kinds(whole));
    const calls = (r: Response): unknown => r.choices[0]?.message.parts.filter((p) => p.type === 'tool-call').map((p) => p.type === 'tool-call' && [p.name, p.arguments]);
    expect(calls(streamed)).toEqual(calls(whole));
    expect(streamed.usage?.inputTokens).toBe(whole.usage?.inputTokens);
    expect(streamed.choices[0]?.stopReason).toEqual(whole.choices[0]?.stopReason);
  });

  it('server-side MCP: the call, Google\'s answer and the text, as the unstreamed exchange has them', () => {
    const exchange = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'gemini/exchanges/Client_Tests_server_side_MCP_server_ML_Dev_should_call_server_side_MCP_server.json'), 'utf8')) as {
      interactions: { response: { bodySegments: JsonValue[] } }[];
    };
    const whole = decodeResponse(exchange.interactions[0]?.response.bodySegments[0]);
    const { events } = decodeStream(capture('js-genai-server-side-mcp.chunks.txt'));
    const streamed = accumulate(events).response;
    const calls = (r: Response): unknown => r.choices[0]?.message.parts.filter((p) => p.type !== 'text').map(shape);
    expect(calls(streamed)).toEqual(calls(whole));
    expect(streamed.choices[0]?.message.parts.map((p) => p.type)).toEqual(['tool-call', 'tool-result', 'text']);
    // Gemini said STOP after the call and went on: that first finish is kept for Gemini, not as the stop reason.
    expect(ofType(events, 'finish')).toHaveLength(1);
    expect(ofType(events, 'provider-event')[0]?.event.data).toEqual({ candidates: [{ finishReason: 'STOP', finishMessage: 'Model generated function call(s).', index: 0 }] });
    expect(encodeResponse(streamed).losses).toEqual([]);
  });
});

/** The arguments the partialArgs of a capture describe, assembled independently (set each path, join strings). */
function assemble(wire: WireEvent[]): JsonObject[] {
  const calls: JsonObject[] = [];
  for (const chunk of chunks(wire)) {
    for (const part of ((chunk['candidates'] as JsonObject[] | undefined)?.[0]?.['content'] as JsonObject | undefined)?.['parts'] as JsonObject[] ?? []) {
      const fc = part['functionCall'] as JsonObject | undefined;
      if (fc === undefined) continue;
      if (typeof fc['name'] === 'string') calls.push({});
      for (const a of (fc['partialArgs'] as JsonObject[] | undefined) ?? []) {
        const keys = [...String(a['jsonPath']).matchAll(/\.([^.[]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : (m[1] as string)));
        let target = calls[calls.length - 1] as Record<string | number, JsonValue>;
        keys.slice(0, -1).forEach((k, i) => {
          target[k] ??= typeof keys[i + 1] === 'number' ? [] : {};
          target = target[k] as Record<string | number, JsonValue>;
        });
        const leaf = keys[keys.length - 1] as string | number;
        const value = a['stringValue'] ?? a['numberValue'] ?? a['boolValue'] ?? null;
        target[leaf] = typeof value === 'string' && typeof target[leaf] === 'string' ? (target[leaf] as string) + value : value;
      }
    }
  }
  return calls;
}

describe('Vertex streamed function-call arguments', () => {
  it.each([
    'google-vertex-stream-tool-call-arguments-nested.1.chunks.txt',
    'google-stream-tool-call-arguments.chunks.txt',
    'google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt',
    'js-genai-vertex-partial-args.chunks.txt',
    'js-genai-vertex-partial-args-one-part.chunks.txt',
  ])('%s: deltas build valid JSON text that is the arguments the paths describe', (name) => {
    const wire = capture(name);
    const { events } = decodeStream(wire);
    const ends = ofType(events, 'tool-call-end');
    expect(ends.map((e) => JSON.parse(e.arguments ?? '') as JsonValue)).toEqual(assemble(wire));
    for (const end of ends) {
      const deltas = ofType(events, 'tool-call-delta').filter((d) => d.index === end.index).map((d) => d.delta);
      expect(deltas.join('')).toBe(end.arguments);
      expect(deltas.length).toBeGreaterThan(0);
    }
  });

  it('the nested recipe arrives piece by piece: one delta per value fragment, not one at the end', () => {
    const wire = capture('google-vertex-stream-tool-call-arguments-nested.1.chunks.txt');
    const { events } = decodeStream(wire);
    expect(ofType(events, 'tool-call-delta').length).toBeGreaterThan(40);
    const start = ofType(events, 'tool-call-start')[0];
    const firstPart = (((chunks(wire)[0]?.['candidates'] as JsonObject[])[0]?.['content'] as JsonObject)['parts'] as JsonObject[])[0];
    expect(start?.ext?.['gemini']?.['thoughtSignature']).toBe(firstPart?.['thoughtSignature']);
  });

  it('parallel streamed calls of one name get distinct ids and indices, after the reasoning block', () => {
    const { events } = decodeStream(capture('google-stream-no-args-tool-call.chunks.txt'));
    const starts = ofType(events, 'tool-call-start');
    expect(starts.map((s) => s.name)).toEqual(['read_theme', 'read_screen', 'read_screen', 'read_screen']);
    expect(new Set(starts.map((s) => s.id)).size).toBe(4);
    expect(starts.map((s) => s.index)).toEqual([1, 2, 3, 4]);
    expect(ofType(events, 'reasoning-start').map((r) => r.index)).toEqual([0]);
  });
});

describe('signatures, residue, usage', () => {
  it('a Gemini 3 text signature sent on a trailing empty part ends the text block, byte-exact', () => {
    const wire = capture('google-reasoning-gemini3.chunks.txt');
    const sig = (((chunks(wire)[2]?.['candidates'] as JsonObject[])[0]?.['content'] as JsonObject)['parts'] as JsonObject[])[0]?.['thoughtSignature'];
    const { events } = decodeStream(wire);
    expect(ofType(events, 'text-start')).toHaveLength(1);
    expect(ofType(events, 'text-end')[0]?.ext?.['gemini']?.['thoughtSignature']).toBe(sig);
  });

  it('a signature on the first answer part (Gemini 2.5) opens the text block; thoughts are one reasoning block', () => {
    const wire = capture('test_google_model_thinking_part_iter.sse');
    const parts = chunks(wire).map((c) => (((c['candidates'] as JsonObject[])[0]?.['content'] as JsonObject)['parts'] as JsonObject[])[0] as JsonObject);
    const { events } = decodeStream(wire);
    const sig = parts.find((p) => p['thoughtSignature'] !== undefined)?.['thoughtSignature'];
    expect(ofType(events, 'text-start')[0]?.ext?.['gemini']?.['thoughtSignature']).toBe(sig);
    const thoughts = parts.filter((p) => p['thought'] === true).map((p) => p['text']).join('');
    expect(ofType(events, 'reasoning-delta').map((d) => d.text).join('')).toBe(thoughts);
    expect(ofType(events, 'reasoning-start')).toHaveLength(1);
  });

  it('usage is the non-stream mapping of the latest usageMetadata, given whenever it changes', () => {
    for (const name of ['test_google_model_file_search_tool_stream.3.sse', 'js-genai-vertex-partial-args.chunks.txt']) {
      const wire = capture(name);
      const acc = accumulate(decodeStream(wire).events).response;
      const last = chunks(wire).at(-1)?.['usageMetadata'] as JsonObject;
      expect(acc.usage).toEqual(decodeUsage(last));
    }
    // Vertex's early chunks carry only trafficType: no token count is made up for them.
    const first = ofType(decodeStream(capture('js-genai-vertex-partial-args.chunks.txt')).events, 'usage')[0];
    expect(first?.usage.inputTokens).toBeUndefined();
    expect(first?.usage.outputTokens).toBeUndefined();
  });

  it('responseId, modelVersion and createTime open the response; grounding stays on the choice', () => {
    const wire = capture('js-genai-vertex-partial-args.chunks.txt');
    const start = decodeStream(wire).events[0];
    expect(start).toMatchObject({ type: 'response-start', id: chunks(wire)[0]?.['responseId'], model: chunks(wire)[0]?.['modelVersion'] });
    expect(start?.type === 'response-start' && start.ext?.['gemini']?.['createTime']).toBe(chunks(wire)[0]?.['createTime']);
    const fetch = capture('test_google_model_web_fetch_tool_stream.sse');
    const cands = chunks(fetch).map((c) => (c['candidates'] as JsonObject[])[0] as JsonObject);
    const finish = ofType(decodeStream(fetch).events, 'finish')[0];
    // The full grounding comes on the last chunk ({} before); urlContextMetadata only on the first: each kept as last given.
    expect(finish?.ext?.['gemini']?.['groundingMetadata']).toEqual(cands.at(-1)?.['groundingMetadata']);
    expect(finish?.ext?.['gemini']?.['urlContextMetadata']).toEqual(cands[0]?.['urlContextMetadata']);
    expect(cands.at(-1)?.['urlContextMetadata']).toBeUndefined();
  });

  it('executableCode comes whole as a Gemini provider block, through the non-stream part decoder', () => {
    const { events } = decodeStream(capture('test_google_model_file_search_tool_stream.3.sse'));
    const part = ofType(events, 'part')[0];
    expect(part?.part).toMatchObject({ type: 'provider-block', origin: 'gemini', block: { executableCode: { language: 'PYTHON' } } });
    expect(part?.index).toBe(0);
  });
});

describe('ends, errors, cut-off streams', () => {
  it('an error body mid-stream is the canonical error, and nothing may follow it', () => {
    const wire = capture('js-genai-stream-with-error.chunks.txt');
    const { events } = decodeStream(wire);
    const err = (wire[0]?.data as JsonObject)['error'] as JsonObject;
    expect(events).toEqual([{ type: 'response-start' }, { type: 'error', error: { message: err['message'], type: 'NOT_FOUND', code: 404, raw: err } }]);
    const more = [...wire, ...capture('google-text.chunks.txt')];
    expect(issuesOf(() => decodeStream(more))[0]).toMatchObject({ code: 'after_error', path: [1] });
  });

  it('a stream cut before its finishReason ends with nothing invented', () => {
    const wire = capture('google-text.chunks.txt').slice(0, -1);
    const { events } = decodeStream(wire);
    expect(events.map((e) => e.type)).not.toContain('finish');
    expect(events.map((e) => e.type)).not.toContain('response-end');
    expect(events.map((e) => e.type)).not.toContain('text-end');
    const acc = accumulate(events);
    expect(acc.complete).toBe(false);
    expect(acc.losses.map((l) => l.code)).toContain('incomplete-stream');
  });

  it('a streamed call cut off mid-arguments stays open (its text so far is kept, not closed up)', () => {
    const wire = capture('google-stream-tool-call-arguments.chunks.txt').slice(0, 2);
    const { events } = decodeStream(wire);
    expect(ofType(events, 'tool-call-end')).toEqual([]);
    expect(ofType(events, 'tool-call-delta').map((d) => d.delta).join('')).toBe('{"location":"Boston');
  });

  it('an empty text part after the finishReason does not reopen the candidate', () => {
    const wire = [...capture('google-text.chunks.txt'), { data: { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0 }] } }];
    const { events } = decodeStream(wire);
    expect(ofType(events, 'finish')).toHaveLength(1);
    expect(ofType(events, 'provider-event')).toEqual([]);
    expect(accumulate(events).complete).toBe(true);
  });

  it('a blocked prompt (no candidates, promptFeedback) is a complete stream that encodes back as it came', () => {
    const body = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'gemini/responses/vertex-blocked.json'), 'utf8')) as JsonObject;
    const { events } = decodeStream([{ data: body }]);
    expect(events.map((e) => e.type)).toEqual(['response-start', 'usage', 'response-end']);
    expect(encodeResponse(accumulate(events).response).value).toEqual(body);
  });

  it('a non-JSON data line (a proxy\'s [DONE]) is a provider event, not an error', () => {
    const { events } = decodeStream([...capture('google-text.chunks.txt'), { data: '[DONE]' }]);
    expect(ofType(events, 'provider-event')[0]).toEqual({ type: 'provider-event', origin: 'gemini', event: { data: '[DONE]' }, keepalive: true });
    expect(verifyStream(events)).toEqual([]);
  });

  it('every finishReason goes through the non-stream mapper: MAX_TOKENS (recorded), SAFETY with its ratings and no content', () => {
    const wire = capture('js-genai-vertex-max-tokens.chunks.txt');
    expect(ofType(decodeStream(wire).events, 'finish')[0]?.stopReason).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
    const ratings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }];
    const blocked = { candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: ratings }], usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 }, modelVersion: 'gemini-2.5-flash' };
    const { events } = decodeStream([{ data: blocked }]);
    const finish = ofType(events, 'finish')[0];
    expect(finish?.stopReason).toEqual({ unified: 'content-filter', raw: 'SAFETY' });
    expect(finish?.ext?.['gemini']?.['safetyRatings']).toEqual(ratings);
    // The whole-response codec writes the accumulated stream back as that very chunk.
    expect(encodeResponse(accumulate(events).response).value).toEqual(blocked);
  });

  it('several candidates are several choices, each with its own blocks and finish', () => {
    const cand = (index: number, text: string, finish?: string): JsonObject => ({ content: { parts: [{ text }], role: 'model' }, index, ...(finish ? { finishReason: finish } : {}) });
    const wire: WireEvent[] = [{ data: { candidates: [cand(0, 'a'), cand(1, 'b')] } }, { data: { candidates: [cand(0, 'c', 'STOP'), cand(1, 'd', 'MAX_TOKENS')] } }];
    const { events } = decodeStream(wire);
    expect(verifyStream(events)).toEqual([]);
    const res = accumulate(events).response;
    expect(res.choices.map((c) => [c.message.parts, c.stopReason?.unified])).toEqual([
      [[{ type: 'text', text: 'ac' }], 'stop'],
      [[{ type: 'text', text: 'bd' }], 'length'],
    ]);
  });
});

describe('bad chunks are refused with their wire path', () => {
  const text = (t: string): JsonObject => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] } }] });
  const call = (fc: JsonObject): JsonObject => ({ candidates: [{ content: { role: 'model', parts: [{ functionCall: fc }] } }] });

  it('a chunk that is not an object, a part with two members, a wrong type', () => {
    expect(issuesOf(() => decodeStream([{ data: text('a') }, { data: [1] as JsonValue }]))[0]).toMatchObject({ path: [1], message: expect.stringMatching(/without alt=sse/) });
    const two = { candidates: [{ content: { parts: [{ text: 'a', functionCall: { name: 'f' } }] } }] };
    expect(issuesOf(() => decodeStream([{ data: two }]))[0]).toMatchObject({ code: 'invalid_part', path: [0, 'candidates', 0, 'content', 'parts', 0] });
    expect(issuesOf(() => decodeStream([{ data: { candidates: [{ finishReason: 7 }] } }]))[0]?.path).toEqual([0, 'candidates', 0, 'finishReason']);
  });

  it('streamed-argument parts out of place: no open call, a path that goes back, a bad path, two values', () => {
    expect(issuesOf(() => decodeStream([{ data: call({ partialArgs: [{ jsonPath: '$.a', stringValue: 'x' }] }) }]))[0]?.path).toEqual([0, 'candidates', 0, 'content', 'parts', 0, 'functionCall', 'name']);
    const back = [{ data: call({ name: 'f', willContinue: true, partialArgs: [{ jsonPath: '$.a.x', numberValue: 1 }, { jsonPath: '$.b', numberValue: 2 }] }) }, { data: call({ partialArgs: [{ jsonPath: '$.a.y', numberValue: 3 }] }) }];
    expect(issuesOf(() => decodeStream(back))[0]).toMatchObject({ path: [1, 'candidates', 0, 'content', 'parts', 0, 'functionCall', 'partialArgs', 0], message: expect.stringMatching(/document order/) });
    expect(issuesOf(() => decodeStream([{ data: call({ name: 'f', partialArgs: [{ jsonPath: 'a.b', boolValue: true }] }) }]))[0]?.message).toMatch(/start with '\$'/);
    expect(issuesOf(() => decodeStream([{ data: call({ name: 'f', partialArgs: [{ jsonPath: '$.a', boolValue: true, numberValue: 1 }] }) }]))[0]?.message).toMatch(/exactly one/);
  });

  it('a text block over the size limit', () => {
    const wire = [{ data: text('x'.repeat(600)) }, { data: text('y'.repeat(600)) }];
    expect(issuesOf(() => decodeStream(wire, { maxTextBytes: 1000 }))[0]).toMatchObject({ code: 'too_large', path: [1, 'candidates', 0, 'content', 'parts', 0, 'text'] });
  });

  it('paths with quoted names and every value kind assemble', () => {
    const wire = [{ data: call({ name: 'f', willContinue: true, partialArgs: [
      { jsonPath: "$['a b'][0]", boolValue: true },
      { jsonPath: "$['a b'][1]", nullValue: 'NULL_VALUE' },
      { jsonPath: '$["q\\"t"].n', numberValue: 1.5 },
      { jsonPath: '$.s', stringValue: 'he said "hi"\n', willContinue: true },
    ] }) }, { data: call({ partialArgs: [{ jsonPath: '$.s', stringValue: 'é' }] }) }];
    const end = ofType(decodeStream(wire).events, 'tool-call-end')[0];
    expect(isJsonObject(JSON.parse(end?.arguments ?? ''))).toBe(true);
    expect(JSON.parse(end?.arguments ?? '')).toEqual({ 'a b': [true, null], 'q"t': { n: 1.5 }, s: 'he said "hi"\né' });
  });
});
