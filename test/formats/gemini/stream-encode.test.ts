/**
 * Canonical stream -> Gemini chunks: the same-dialect round trip over every capture, the official
 * @google/genai SDK reading our SSE (generateContentStream over a fake fetch), streams of other
 * dialects' responses, and the encoder's handling of canonical sequences Gemini has no form for.
 */
import { ApiError } from '@google/genai';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getCodec } from '../../../src/formats/registry.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures, LOCAL_FIXTURES, listFiles } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeStream, encodeStream, expectedFacts, finalUsage, normalized, sdkRead, toSse } from './stream-support.js';

const local = localStreamCaptures('gemini');
const shared = hasSharedFixtures() ? sharedStreamCaptures('gemini') : [];
const codes = (l: { code: string }[]): string[] => l.map((x) => x.code);

function roundTrip(c: StreamCapture): void {
  const first = decodeStream(c.events).events;
  const { wire, losses } = encodeStream(first);
  expect(losses).toEqual([]);
  const second = decodeStream(wire).events;
  expect(verifyStream(second)).toEqual([]);
  if (first.some((e) => e.type === 'tool-call-delta')) {
    // Vertex streamed arguments go back as whole calls (Gemini's default form): same calls, no deltas, ids minted from the arguments.
    expect(normalized(second)).toEqual(normalized(first));
    expect(finalUsage(second)).toEqual(finalUsage(first));
    expect(second.some((e) => e.type === 'tool-call-delta')).toBe(false);
  } else expect(second).toEqual(first);
}

async function sdkAgrees(events: StreamEvent[], sse: string, api: 'gemini' | 'vertex' = 'gemini'): Promise<void> {
  const got = await sdkRead(sse, api);
  const want = expectedFacts(events);
  expect(got.text).toBe(want.text);
  expect(got.thoughts).toBe(want.thoughts);
  expect([...got.signatures].sort()).toEqual([...want.signatures].sort());
  // The SDK leaves `args` out for a call sent without (Gemini's no-argument call); canonical says {}.
  expect(got.calls.map((c) => ({ name: c.name, args: c.args ?? {} }))).toEqual(want.calls);
  expect(got.usage).toEqual(want.usage);
}

describe('same-dialect round trip: decode -> encode -> decode gives the same canonical events', () => {
  it.each(local.map((c) => [c.name, c] as const))('%s', (_n, c) => roundTrip(c));
  describe.skipIf(shared.length === 0)('../shared/fixtures', () => {
    it.each(shared.map((c) => [c.name, c] as const))('%s', (_n, c) => roundTrip(c));
  });

  it('each text delta is one chunk; ids, model and Vertex createTime on every chunk; the last chunk carries the finish', () => {
    const c = local.find((x) => x.name === 'local:js-genai-vertex-partial-args.chunks.txt') as StreamCapture;
    const src = c.events.map((e) => e.data as JsonObject);
    const { wire } = encodeStream(decodeStream(c.events).events);
    for (const w of wire) {
      const d = w.data as JsonObject;
      expect([d['responseId'], d['modelVersion'], d['createTime']]).toEqual([src[0]?.['responseId'], src[0]?.['modelVersion'], src[0]?.['createTime']]);
      // Vertex leaves the index out; so do we.
      expect((d['candidates'] as JsonObject[])[0]).not.toHaveProperty('index');
    }
    const last = wire.at(-1)?.data as JsonObject;
    expect((last['candidates'] as JsonObject[])[0]?.['finishReason']).toBe('STOP');
    expect(last['usageMetadata']).toEqual(src.at(-1)?.['usageMetadata']);
    const text = local.find((x) => x.name === 'local:google-text.chunks.txt') as StreamCapture;
    const out = encodeStream(decodeStream(text.events).events).wire.map((w) => w.data as JsonObject);
    const deltas = decodeStream(text.events).events.filter((e) => e.type === 'text-delta');
    expect(out.filter((d) => (d['candidates'] as JsonObject[])[0]?.['finishReason'] === undefined).length).toBeGreaterThanOrEqual(deltas.length);
  });
});

describe('the official @google/genai SDK reads our stream: same text, thoughts, signatures, calls, usage', () => {
  const both = local.flatMap((c) => (['gemini', 'vertex'] as const).map((api) => [`${c.name} (${api} client)`, c, api] as const));
  it.each(both)('%s', async (_n, c, api) => {
    const events = decodeStream(c.events).events;
    const sse = toSse(encodeStream(events).wire);
    if (events.some((e) => e.type === 'error')) {
      // The SDK raises an error chunk as an ApiError with its HTTP code.
      await expect(sdkRead(sse, api)).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.status === 404);
      return;
    }
    await sdkAgrees(events, sse, api);
  });
  describe.skipIf(shared.length === 0)('../shared/fixtures', () => {
    it.each(shared.filter((c) => !c.name.includes('stream_with_error')).map((c) => [c.name, c] as const))('%s', async (_n, c) => {
      const events = decodeStream(c.events).events;
      await sdkAgrees(events, toSse(encodeStream(events).wire));
    });
  });
});

/** Response bodies of the other dialects in test/fixtures, decoded by their own codecs. */
function otherResponses(): { name: string; res: Response }[] {
  const dirs: [string, string][] = [
    ['anthropic-messages', 'anthropic-messages/response'],
    ['openai-chat', 'openai-chat/responses'],
    ['openai-responses', 'openai-responses/responses'],
    ['bedrock-converse', 'bedrock-converse/responses'],
  ];
  const out: { name: string; res: Response }[] = [];
  for (const [id, dir] of dirs) {
    const codec = getCodec(id).response!;
    for (const file of listFiles(join(LOCAL_FIXTURES, dir), ['.json'])) {
      const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      try {
        out.push({ name: `${id}:${file.slice(file.lastIndexOf('/') + 1)}`, res: codec.decode(body, { limits: DEFAULT_LIMITS, losses: new LossList() }) });
      } catch {
        // Error bodies and the like are not responses: not part of this sweep.
      }
    }
  }
  return out;
}

describe('streams of other dialects\' responses (responseToEvents) encode to what the SDK reads', () => {
  const others = otherResponses();
  it('covers every other dialect', () => {
    expect(new Set(others.map((o) => o.name.split(':')[0]))).toEqual(new Set(['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse']));
    expect(others.length).toBeGreaterThanOrEqual(30);
  });
  it.each(others.map((o) => [o.name, o.res] as const))('%s', async (_n, res) => {
    const events = responseToEvents(res);
    const { wire, losses } = encodeStream(events);
    await sdkAgrees(events, toSse(wire));
    const back = decodeStream(wire).events;
    expect(verifyStream(back)).toEqual([]);
    const acc = accumulate(back);
    // A choice without a stop reason cannot be said complete in Gemini: reported.
    const stopped = res.choices.every((c) => c.stopReason !== undefined) && res.choices.length > 0;
    expect(acc.complete).toBe(stopped);
    if (!stopped) expect(codes(losses)).toContain('no-finish');
    // Reasoning of another origin never reaches Gemini as a thought, and says so.
    const foreign = res.choices.some((c) => c.message.parts.some((p) => p.type === 'reasoning' && p.origin !== 'gemini'));
    expect(codes(losses).includes('foreign-reasoning')).toBe(foreign);
    expect(back.some((e) => e.type === 'reasoning-start')).toBe(false);
  });
});

describe('live streams of other dialects (their stream decoders) re-emitted as Gemini', () => {
  const dialects = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse'] as const;
  const streams = dialects.flatMap((id) => [...localStreamCaptures(id), ...(hasSharedFixtures() ? sharedStreamCaptures(id) : [])].map((c) => ({ id, c })));
  // A capture another dialect's decoder refuses is that codec's concern; the others must all pass here.
  const decoded = streams.flatMap(({ id, c }) => {
    try {
      const d = getCodec(id).stream!.decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
      const events = [...c.events.flatMap((w) => d.push(w)), ...d.end()];
      return verifyStream(events).length === 0 ? [{ name: `${id} ${c.name}`, events }] : [];
    } catch {
      return [];
    }
  });
  it('decodes most of them', () => expect(decoded.length).toBeGreaterThanOrEqual(Math.min(20, streams.length)));
  it.each(decoded.map((d) => [d.name, d.events] as const))('%s', async (_n, events) => {
    const { wire } = encodeStream(events);
    const back = decodeStream(wire).events;
    expect(verifyStream(back)).toEqual([]);
    // Complete stays complete, cut off stays cut off, an error stays an error.
    expect([accumulate(back).complete, accumulate(back).error?.message]).toEqual([accumulate(events).complete, accumulate(events).error?.message]);
    if (!events.some((e) => e.type === 'error')) await sdkAgrees(events, toSse(wire));
  });
});

describe('canonical sequences Gemini has no form for', () => {
  const start: StreamEvent = { type: 'response-start' };

  it('text with no ids, a call with only its final arguments, usage at the end, several choices', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Hel' },
      { type: 'text-delta', index: 0, delta: 'lo' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_1', name: 'lookup' },
      { type: 'tool-call-end', index: 1, arguments: '{"q":"x"}' },
      { type: 'text-start', choice: 1, index: 0 },
      { type: 'text-delta', choice: 1, index: 0, delta: 'other' },
      { type: 'text-end', choice: 1, index: 0 },
      { type: 'finish', stopReason: { unified: 'tool-calls' } },
      { type: 'finish', choice: 1, stopReason: { unified: 'length' } },
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
      { type: 'response-end' },
    ];
    expect(verifyStream(events)).toEqual([]);
    const { wire, losses } = encodeStream(events);
    expect(losses).toEqual([]);
    const datas = wire.map((w) => w.data as JsonObject);
    expect(datas.every((d) => d['responseId'] === undefined)).toBe(true);
    const last = datas.at(-1) as JsonObject;
    expect((last['candidates'] as JsonObject[]).map((c) => [c['index'], c['finishReason']])).toEqual([[0, 'STOP'], [1, 'MAX_TOKENS']]);
    expect(last['usageMetadata']).toEqual({ promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 });
    const res = accumulate(decodeStream(wire).events).response;
    expect(res.choices.map((c) => [c.message.parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool-call' ? [p.id, p.arguments] : p.type)), c.stopReason])).toEqual([
      [['Hello', ['call_1', { q: 'x' }]], { unified: 'tool-calls', raw: 'STOP' }],
      [['other'], { unified: 'length', raw: 'MAX_TOKENS' }],
    ]);
    await sdkAgrees(events, toSse(wire));
  });

  it('refusals, citations, foreign events and a foreign error are sent as Gemini can, and reported', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'msg_1', model: 'claude', created: 1700000000 },
      { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
      { type: 'provider-event', origin: 'openai-responses', event: { event: 'response.queued', data: {} } },
      { type: 'text-start', index: 0, refusal: true },
      { type: 'text-delta', index: 0, delta: 'No.' },
      { type: 'citation', index: 0, citation: { type: 'url', url: 'https://example.com' } },
      { type: 'text-end', index: 0 },
      { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } },
    ];
    const { wire, losses } = encodeStream(events);
    expect(codes(losses)).toEqual(['unsupported-field', 'provider-event', 'refusal-as-text', 'citations', 'error-type']);
    expect(losses.map((l) => l.path[0])).toEqual([0, 2, 3, 5, 7]);
    expect(wire.at(-1)?.data).toEqual({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });
    await expect(sdkRead(toSse(wire))).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.status === 503);
    const back = decodeStream(wire).events;
    expect(back.at(-1)).toEqual({ type: 'error', error: { message: 'Overloaded', type: 'UNAVAILABLE', code: 503, raw: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } } });
  });

  it('a proxy\'s [DONE] line read from a Gemini stream is not written back: the SDK could not parse it', async () => {
    const c = local.find((x) => x.name === 'local:google-text.chunks.txt') as StreamCapture;
    const events = decodeStream([...c.events, { data: '[DONE]' }]).events;
    const { wire, losses } = encodeStream(events);
    expect([wire.some((w) => typeof w.data === 'string'), losses]).toEqual([false, []]);
    await sdkAgrees(events, toSse(wire));
  });

  it('a stream cut off after its finish is not completed: no finishReason is written', () => {
    const c = local.find((x) => x.name === 'local:google-text.chunks.txt') as StreamCapture;
    const events = decodeStream(c.events).events.filter((e) => e.type !== 'response-end');
    const { wire, losses } = encodeStream(events);
    expect(codes(losses)).toEqual(['incomplete-stream']);
    expect(wire.some((w) => isDeepStrictEqual(Object.keys(((w.data as JsonObject)['candidates'] as JsonObject[] | undefined)?.[0] ?? {}).includes('finishReason'), true))).toBe(false);
    expect(accumulate(decodeStream(wire).events).complete).toBe(false);
  });

  it('Gemini\'s own reasoning goes out as thoughts with its signature byte-exact; an invalid argument text is reported', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'reasoning-start', index: 0, origin: 'gemini' },
      { type: 'reasoning-delta', index: 0, text: 'thinking' },
      { type: 'reasoning-delta', index: 0, signature: 'c2lnbmF0dXJl/+==' },
      { type: 'reasoning-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 't1', name: 'f' },
      { type: 'tool-call-delta', index: 1, delta: '{"a":' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', stopReason: { unified: 'tool-calls' } },
      { type: 'response-end' },
    ];
    const { wire, losses } = encodeStream(events);
    expect(codes(losses)).toEqual(['invalid-arguments']);
    const got = await sdkRead(toSse(wire));
    expect([got.thoughts, got.signatures]).toEqual(['thinking', ['c2lnbmF0dXJl/+==']]);
    expect(got.calls).toEqual([{ name: 'f', args: {}, id: 't1' }]);
  });
});
