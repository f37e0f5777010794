/**
 * JsonEnd says when streamed JSON text is one whole object or array: never before its last
 * structural character, from then on while only whitespace follows, never for scalars or for text
 * that continues after the value (a string's brackets and escaped quotes count for nothing).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonEnd } from '../../../src/formats/shared/json-end.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);

/** Completeness after each fragment of `text` cut at `cuts`, with how much text was pushed. */
function trace(text: string, cuts: number[]): [number, boolean][] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const j = new JsonEnd();
  const out: [number, boolean][] = [];
  let from = 0;
  for (const p of [...points, text.length]) {
    j.push(text.slice(from, p));
    from = p;
    out.push([p, j.complete]);
  }
  return out;
}

describe('JsonEnd', () => {
  it('a container is complete exactly once its text is all there, whatever the cuts', () => {
    const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.array(fc.jsonValue({ maxDepth: 3 })));
    fc.assert(
      fc.property(container, fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom('', ' ', '\n\t '), (v, cuts, pad) => {
        const text = JSON.stringify(v, null, cuts.length % 2 === 0 ? undefined : 1);
        // Complete from the closing bracket on (trailing whitespace allowed), never before it.
        const closed = pad.length + text.length;
        for (const [pushed, complete] of trace(pad + text + pad, cuts)) expect(complete, `after ${pushed} characters`).toBe(pushed >= closed);
      }),
      { numRuns: RUNS },
    );
  });

  it('brackets and escaped quotes inside strings do not count', () => {
    const j = new JsonEnd();
    for (const f of ['{"a":"}', '\\"', ']', '"', '}']) j.push(f);
    expect(j.complete).toBe(true);
    const k = new JsonEnd();
    k.push('{"a":"}\\"]"');
    expect(k.complete).toBe(false);
  });

  it('scalars and text after the value are never complete', () => {
    for (const text of ['1', '"x"', 'null', '{}}', '{} x', '[] []']) {
      const j = new JsonEnd();
      j.push(text);
      expect(j.complete, text).toBe(false);
    }
  });
});
