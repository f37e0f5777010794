/**
 * Same-dialect round trip and chunk boundaries. decode -> encode -> decode gives the same
 * canonical events; the wire differs only where the encoder writes its own lifecycle: sequence
 * numbers run from 0 without gaps, output indices are this stream's own (a capture trimmed of an
 * item is renumbered), response.created carries no echo of the request (the canonical start has
 * none), and an `error` event is written in the documented flat form (so its `raw` differs).
 * Splitting the SSE text at random points changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { ResponsesStreamDecoder } from '../../../src/formats/openai-responses/stream-decode.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { parseSse, SseParser } from '../../../src/stream/sse.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { decodeStream, encodeStream, sseText, streams } from './stream-helpers.js';

/** Provider events keep their data but this stream's sequence number; errors compare by what they say. */
function comparable(events: StreamEvent[]): unknown[] {
  return events.map((e) => {
    if (e.type === 'provider-event') {
      const { sequence_number: _s, ...rest } = e.event.data as JsonObject;
      return { ...e, event: { data: rest } };
    }
    if (e.type === 'error') return { type: 'error', message: e.error.message, code: e.error.code };
    return e;
  });
}

function roundTrip(c: StreamCapture): void {
  const first = decodeStream(c.events);
  const losses: Loss[] = [];
  const wire = encodeStream(first, losses);
  // Only this codec's own events went in: nothing is lost on the way.
  expect(losses).toEqual([]);
  // The encoder's own lifecycle: named events, sequence numbers 0..n-1, items added in output order.
  wire.forEach((w, i) => {
    const d = w.data as JsonObject;
    expect(w.event).toBe(d['type']);
    expect(d['sequence_number']).toBe(i);
  });
  const added = wire.filter((w) => w.event === 'response.output_item.added').map((w) => (w.data as JsonObject)['output_index']);
  expect(added).toEqual(added.map((_, i) => i));
  expect(wire[0]?.event).toBe('response.created');
  expect(comparable(decodeStream(wire))).toEqual(comparable(first));
}

/** The capture as SSE text, decoded from text split at `cuts` (sorted offsets). */
function decodeSplit(text: string, cuts: number[]): StreamEvent[] {
  const parser = new SseParser();
  const decoder = new ResponsesStreamDecoder({ limits: DEFAULT_LIMITS, losses: [] });
  const out: StreamEvent[] = [];
  const feed = (wire: WireEvent[]): void => wire.forEach((w) => out.push(...decoder.push(w)));
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    feed(parser.push(text.slice(from, cut)));
    from = cut;
  }
  feed(parser.end());
  out.push(...decoder.end());
  return out;
}

const local = streams(localStreamCaptures('openai-responses'));
const shared = streams(sharedStreamCaptures('openai-responses'));

describe('openai-responses stream: decode -> encode -> decode', () => {
  it.each(local.map((c) => [c.name, c] as const))('%s', (_name, c) => roundTrip(c));
  describe.skipIf(!hasSharedFixtures())('shared captures (skipped: ../shared/fixtures is absent)', () => {
    it.each(shared.map((c) => [c.name, c] as const))('%s', (_name, c) => roundTrip(c));
  });

  it('keeps a built-in item’s progress events at the output index this stream gave the item', () => {
    // openai-phase was trimmed upstream: output 1 never comes, the next item is output 2.
    const c = local.find((s) => s.name.includes('openai-phase')) as StreamCapture;
    const wire = encodeStream(decodeStream(c.events));
    expect(wire.filter((w) => w.event === 'response.output_item.added').map((w) => (w.data as JsonObject)['output_index'])).toEqual([0, 1]);
    const image = local.find((s) => s.name.includes('openai-image-generation')) as StreamCapture;
    const out = encodeStream(decodeStream(image.events));
    const progress = out.filter((w) => String(w.event).startsWith('response.image_generation_call.'));
    expect(progress.length).toBeGreaterThan(0);
    const item = out.find((w) => w.event === 'response.output_item.added' && ((w.data as JsonObject)['item'] as JsonObject)['type'] === 'image_generation_call');
    for (const p of progress) expect((p.data as JsonObject)['output_index']).toBe((item?.data as JsonObject)['output_index']);
  });
});

describe('openai-responses stream: chunk boundaries', () => {
  const texts = local.map((c) => [c.name, sseText(c.events)] as const);
  it.each(texts)('%s split anywhere decodes the same', (_name, text) => {
    const whole = decodeSplit(text, []);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 40 }), (cuts) => {
        expect(decodeSplit(text, [...cuts].sort((a, b) => a - b))).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });

  it('splits inside multi-byte characters and CRLF line ends too (byte chunks through a TextDecoder)', () => {
    const c = local.find((s) => s.name.includes('logprobs_streaming')) as StreamCapture;
    const text = sseText(c.events).replace(/\n/g, '\r\n');
    const bytes = new TextEncoder().encode(text);
    // Against the same text read whole (a capture's `-0.0` logprob is written back as 0).
    const whole = decodeStream(parseSse(text));
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }), (cuts) => {
        const dec = new TextDecoder();
        const sorted = [...cuts].sort((a, b) => a - b);
        const text: string[] = [];
        let from = 0;
        for (const cut of [...sorted, bytes.length]) {
          text.push(dec.decode(bytes.slice(from, cut), { stream: true }));
          from = cut;
        }
        // Each decoded piece is a chunk boundary of its own.
        const parser = new SseParser();
        const decoder = new ResponsesStreamDecoder({ limits: DEFAULT_LIMITS, losses: [] });
        const out: StreamEvent[] = [];
        for (const piece of [...text, dec.decode()]) for (const w of parser.push(piece)) out.push(...decoder.push(w));
        for (const w of parser.end()) out.push(...decoder.push(w));
        expect(out).toEqual(whole);
      }),
      { numRuns: 20 },
    );
  });
});
