/**
 * Properties (fast-check):
 * - chunk boundaries change nothing: the event-stream bytes of each capture, split at random points
 *   and read incrementally (frame reader -> decoder, one chunk at a time), give the same canonical
 *   events as the whole;
 * - bad input never crashes: any sequence of ConverseStream-shaped events with mutated payloads
 *   either decodes (to a stream verifyStream accepts) or is refused with a ValidationError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonValue } from '../../../src/model/json.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { frameReader } from '../../../src/stream/framing.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { allCaptures, decode, stream, toBytes } from './stream-helpers.js';

function decodeChunks(bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const reader = frameReader('aws-event-stream');
  const decoder = stream.decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
  const out: StreamEvent[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b).concat(bytes.length)) {
    for (const w of reader.push(bytes.subarray(from, cut))) out.push(...decoder.push(w));
    from = cut;
  }
  for (const w of reader.end()) out.push(...decoder.push(w));
  out.push(...decoder.end());
  return out;
}

describe('random chunk boundaries give the same canonical events', () => {
  // Every capture as the bytes Bedrock sent (.bin) or would send (the same events framed, padding included).
  for (const c of allCaptures()) {
    it(c.name, () => {
      const bytes = toBytes(c.events);
      const whole = decode(c.events).events;
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 24 }), (cuts) => {
          expect(decodeChunks(bytes, cuts)).toEqual(whole);
        }),
        { numRuns: 40 },
      );
    });
  }
});

/** Payload shapes of each event type, with any field replaced by arbitrary JSON now and then. */
const text = fc.oneof(fc.string(), fc.constant(''));
const index = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.jsonValue() });
const delta = fc.oneof(
  fc.record({ text }),
  fc.record({ toolUse: fc.record({ input: text }) }),
  fc.record({ reasoningContent: fc.oneof(fc.record({ text }), fc.record({ signature: text }), fc.record({ redactedContent: fc.base64String() })) }),
  fc.record({ citation: fc.record({ title: text, location: fc.record({ web: fc.record({ url: text }) }) }) }),
  fc.record({ toolResult: fc.array(fc.oneof(fc.record({ text }), fc.record({ json: fc.jsonValue() }))) }),
  fc.record({ image: fc.record({ source: fc.record({ bytes: fc.base64String() }) }) }),
  fc.jsonValue(),
);
const start = fc.oneof(
  fc.record({ toolUse: fc.record({ toolUseId: text, name: text }) }),
  fc.record({ toolResult: fc.record({ toolUseId: text, status: fc.constantFrom('success', 'error') }) }),
  fc.record({ image: fc.record({ format: fc.constantFrom('png', 'jpeg', 'gif', 'webp') }) }),
  fc.constant({}),
  fc.jsonValue(),
);
const wireEvent: fc.Arbitrary<WireEvent> = fc.oneof(
  fc.record({ event: fc.constant('messageStart'), data: fc.oneof(fc.constant({ role: 'assistant' }), fc.jsonValue()) }),
  fc.record({ event: fc.constant('contentBlockStart'), data: fc.record({ contentBlockIndex: index, start }) }),
  fc.record({ event: fc.constant('contentBlockDelta'), data: fc.record({ contentBlockIndex: index, delta }) }),
  fc.record({ event: fc.constant('contentBlockStop'), data: fc.record({ contentBlockIndex: index }) }),
  fc.record({ event: fc.constant('messageStop'), data: fc.record({ stopReason: fc.oneof(fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'new_reason'), fc.jsonValue()) }) }),
  fc.record({ event: fc.constant('metadata'), data: fc.record({ usage: fc.oneof(fc.constant({ inputTokens: 1, outputTokens: 2, totalTokens: 3 }), fc.jsonValue()) }) }),
  fc.record({ event: fc.constantFrom('throttlingException', 'somethingElse'), data: fc.jsonValue() }),
) as fc.Arbitrary<WireEvent>;

describe('bad input never crashes', () => {
  it('decodes or throws a ValidationError naming a wire event', () => {
    let decoded = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(wireEvent, { maxLength: 14 }), (wire) => {
        try {
          const { events } = decode(wire as { event: string; data: JsonValue }[]);
          expect(verifyStream(events)).toEqual([]);
          decoded++;
        } catch (e) {
          expect(e).toBeInstanceOf(ValidationError);
          const path = (e as ValidationError).issues[0]?.path ?? [];
          expect(typeof path[0]).toBe('number');
          expect(path[0] as number).toBeLessThan(wire.length);
          refused++;
        }
      }),
      { numRuns: 1500 },
    );
    // Both outcomes happen: the generator reaches valid streams and invalid ones.
    expect(decoded).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });
});
