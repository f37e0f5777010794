/**
 * Same-dialect round trip and chunk boundaries. decode -> encode -> decode gives the same
 * canonical events for every capture (the wire differs: our chunks drop `obfuscation`, repeat
 * the first chunk's extra fields only once, number tool calls from 0, always send `type` and the
 * role, move logprobs to the finish chunk and leave out empty `content: ""` deltas). Splitting
 * the raw bytes at random points changes nothing, for our decoder and for the official SDK
 * reading our output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import type { Response } from '../../../src/model/response.js';
import { getKindCodec } from '../../../src/formats/registry.js';
import { frameReader } from '../../../src/stream/framing.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { parseSse } from '../../../src/stream/sse.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures } from '../../support/streams.js';
import { decodeWire, encodeEvents, sdkFinal, summarize, toSse } from './stream-helpers.js';

const caps = [...localStreamCaptures('openai-chat'), ...sharedStreamCaptures('openai-chat')];

describe('decode -> encode -> decode gives the same canonical events', () => {
  it.each(caps.map((c) => [c.name, c] as const))('%s', (_name, cap) => {
    const first = decodeWire(cap.events);
    const losses: Loss[] = [];
    const wire = encodeEvents(first, losses);
    expect(losses).toEqual([]);
    expect(decodeWire(wire)).toEqual(first);
    // [DONE] is written exactly when the source had it (vercel-ai captures are recorded without).
    const hadDone = cap.events.some((w) => w.data === '[DONE]');
    expect(wire.at(-1)?.data === '[DONE]').toBe(hadDone);
    expect(wire.filter((w) => w.data === '[DONE]')).toHaveLength(hadDone ? 1 : 0);
  });
});

/** Decodes raw SSE bytes delivered in pieces cut at `cuts`. */
function decodeBytes(bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const reader = frameReader(openaiChat.stream!.framing);
  const decoder = openaiChat.stream!.decoder({ limits: DEFAULT_LIMITS, losses: [] });
  const out: StreamEvent[] = [];
  const push = (ws: WireEvent[]): void => ws.forEach((w) => out.push(...decoder.push(w)));
  let from = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    push(reader.push(bytes.slice(from, c)));
    from = c;
  }
  push(reader.push(bytes.slice(from)));
  push(reader.end());
  out.push(...decoder.end());
  return out;
}

/** Raw SSE texts as recorded (SSE captures) or as agentgateway wrote them. */
const RAW = ['stream-is-robust-against-leading-newline-chunks-1.sse', 'parse-multiple-pydantic-tools.sse', 'anthropic-fallback-tool-call.sse', 'stream_tool_empty_content.json'];

describe('chunk boundaries', () => {
  for (const file of RAW) {
    const text = readFileSync(join(LOCAL_FIXTURES, 'streams/openai-chat', file), 'utf8');
    const bytes = new TextEncoder().encode(text);
    const whole = decodeWire(parseSse(text));
    it(`${file}: any split of the bytes decodes to the same events`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
          expect(decodeBytes(bytes, cuts)).toEqual(whole);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('every byte its own chunk (deepseek reasoning + tool call)', () => {
    const cap = caps.find((c) => c.name.endsWith('deepseek-tool-call.chunks.txt'));
    const bytes = new TextEncoder().encode(toSse(cap?.events ?? []));
    expect(bytes.length).toBeGreaterThan(1000);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(decodeBytes(bytes, cuts)).toEqual(decodeWire(cap?.events ?? []));
  });

  it('multi-byte UTF-8 split anywhere: our encoding of a response with non-ASCII text and citations', () => {
    const body = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'openai-responses/responses/vercel-ai/openai-web-search-tool.1.json'), 'utf8')) as unknown;
    const res = getKindCodec('openai-responses', 'response').decode(body, { limits: DEFAULT_LIMITS, losses: [] }) as Response;
    const bytes = new TextEncoder().encode(toSse(encodeEvents(responseToEvents(res))));
    const text = new TextDecoder().decode(bytes);
    expect(bytes.length).toBeGreaterThan(text.length); // some characters take several bytes
    const whole = decodeBytes(bytes, []);
    expect(whole.some((e) => e.type === 'citation')).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }), (cuts) => {
        expect(decodeBytes(bytes, cuts)).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });

  it('the SDK reads our output the same whatever the network chunks', async () => {
    const cap = caps.find((c) => c.name.endsWith('parse-pydantic-model-multiple-choices.sse'));
    const sse = toSse(encodeEvents(decodeWire(cap?.events ?? [])));
    const want = summarize(await sdkFinal(sse));
    expect(want.choices).toHaveLength(3);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: sse.length - 1 }), { maxLength: 30 }), async (cuts) => {
        expect(summarize(await sdkFinal(sse, cuts))).toEqual(want);
      }),
      { numRuns: 15 },
    );
  });
});
