/**
 * Same-dialect round trip over every capture: decode -> encode -> event-stream bytes -> parse ->
 * decode gives the same canonical events. Where the wire differs (and why):
 * - padding `p` is not written, and text/reasoning/tool deltas that were empty are not repeated
 *   (they carried nothing); an empty text block is written as one empty delta;
 * - a missing messageStart or contentBlockStop is written (the encoder always emits the lifecycle);
 * - AI SDK test streams with metadata before messageStop come back in Bedrock's order (messageStop,
 *   then metadata), so `usage` moves after `finish`; compared with usage moved back.
 * Frames are checked with @smithy/eventstream-codec (the SDK's own framing): prelude and message
 * CRCs, the three string headers Bedrock sends, JSON payloads.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { parseEventStream } from '../../../src/stream/event-stream.js';
import { allCaptures, decode, encode, toBytes } from './stream-helpers.js';

const captures = allCaptures();

/** Usage moved to just before response-end, where Bedrock's own order puts it. */
function bedrockOrder(events: StreamEvent[]): StreamEvent[] {
  const usage = events.filter((e) => e.type === 'usage');
  const rest = events.filter((e) => e.type !== 'usage');
  const end = rest.findIndex((e) => e.type === 'response-end');
  if (end < 0) return events;
  return [...rest.slice(0, end), ...usage, ...rest.slice(end)];
}

describe('decode -> encode -> decode gives the same canonical events', () => {
  for (const c of captures) {
    it(c.name, () => {
      const first = decode(c.events).events;
      const { wire, losses } = encode(first);
      expect(losses).toEqual([]);
      const again = decode(parseEventStream(toBytes(wire)));
      expect(again.losses).toEqual([]);
      expect(again.events).toEqual(bedrockOrder(first));
      // The encoder writes Bedrock's lifecycle: messageStart first, messageStop then metadata last.
      expect(wire[0]?.event).toBe('messageStart');
      // A capture without metadata gets none back (the decoder's hints say so), not made-up zeros.
      const tail = c.events.some((w) => w.event === 'metadata') ? ['messageStop', 'metadata'] : ['messageStop'];
      expect(wire.slice(-tail.length).map((w) => w.event)).toEqual(tail);
    });
  }

  it('real Bedrock streams come back event for event, without the padding', () => {
    const real = captures.filter((c) => c.name.endsWith('.eventstream.jsonl') || c.name.endsWith('basic.bin'));
    expect(real.length).toBeGreaterThanOrEqual(4);
    for (const c of real) {
      const { wire } = encode(decode(c.events).events);
      const strip = (data: unknown): unknown => {
        const { p: _p, ...rest } = data as Record<string, unknown>;
        return rest;
      };
      expect(wire.map((w) => [w.event, w.data]), c.name).toEqual(c.events.map((w) => [w.event, strip(w.data)]));
    }
  });
});

describe('frames as the SDK framing reads them (@smithy/eventstream-codec)', () => {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  for (const c of captures) {
    it(c.name, () => {
      const { wire } = encode(decode(c.events).events);
      for (const w of wire) {
        const bytes = toBytes([w]);
        const m = codec.decode(bytes); // throws on a bad prelude or message CRC
        expect(m.headers[':message-type']).toEqual({ type: 'string', value: w.exception ? 'exception' : 'event' });
        expect(m.headers[w.exception ? ':exception-type' : ':event-type']).toEqual({ type: 'string', value: w.event });
        expect(m.headers[':content-type']).toEqual({ type: 'string', value: 'application/json' });
        expect(JSON.parse(toUtf8(m.body))).toEqual(w.data);
        // And the SDK's encoder writes the very same bytes for the same message.
        expect(Buffer.from(codec.encode(m)).equals(Buffer.from(bytes))).toBe(true);
      }
    });
  }
});
