/**
 * The SSE parser and writer give what the former line-slicing ones gave (sse-reference.ts): the
 * same events, `cutTail` and written text for any text, however it is chunked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../src/model/stream-event.js';
import { formatSse, SseParser } from '../../src/stream/sse.js';
import { ReferenceSseParser, referenceFormatSse } from './sse-reference.js';

/** SSE-ish text: field lines, comments, odd fields, JSON and non-JSON data, any line ends. */
const sseText = fc
  .array(
    fc.oneof(
      fc.constantFrom('data: {"a":1}', 'data:{"b":[1,2]}', 'data: [DONE]', 'data', 'data:', 'data:  x', 'event: e', 'event:', 'event', ': c', ':', 'id: 1', 'retry: 5', 'dat: x', 'datax: y', '', ' data: z', 'data: {"cut":', 'data: \u00a0{"w":1}', 'data:  {"s":2}', 'data: \t[1]'),
      fc.string({ unit: fc.constantFrom('d', 'a', 't', ':', ' ', 'e', 'v', 'n', '{', '}', '"', '1', 'é'), maxLength: 12 }),
    ),
    { maxLength: 14 },
  )
  .chain((lines) => fc.tuple(fc.constant(lines), fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: lines.length, maxLength: lines.length }), fc.boolean()))
  .map(([lines, ends, closed]) => lines.map((l, i) => l + (i < lines.length - 1 || closed ? (ends[i] as string) : '')).join(''));

function run(p: { push(t: string): WireEvent[]; end(): WireEvent[]; cutTail: string | undefined }, text: string, cuts: number[]): { events: WireEvent[]; cutTail: string | undefined } {
  const events: WireEvent[] = [];
  let last = 0;
  for (const c of [...new Set(cuts.map((x) => x % (text.length + 1)))].sort((a, b) => a - b)) {
    events.push(...p.push(text.slice(last, c)));
    last = c;
  }
  events.push(...p.push(text.slice(last)), ...p.end());
  return { events, cutTail: p.cutTail };
}

describe('SSE parser and writer against the former ones', () => {
  it('reads any text, in any chunks, to the same events and cut tail', () => {
    fc.assert(
      fc.property(sseText, fc.array(fc.nat(), { maxLength: 5 }), (text, cuts) => {
        expect(run(new SseParser(), text, cuts)).toEqual(run(new ReferenceSseParser(), text, cuts));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes any event as before', () => {
    const data = fc.oneof(fc.string(), fc.constantFrom('a\nb', '\n', '[DONE]', ''), fc.jsonValue());
    fc.assert(
      fc.property(data, fc.option(fc.string(), { nil: undefined }), (d, event) => {
        const e = (event === undefined ? { data: d } : { event, data: d }) as WireEvent;
        expect(formatSse(e)).toBe(referenceFormatSse(e));
      }),
      { numRuns: 2000 },
    );
  });
});
