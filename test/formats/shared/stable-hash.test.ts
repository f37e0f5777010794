/**
 * stableHash gives the same fingerprints as the first implementation (kept here as the reference):
 * stashes already written carry them, so the rendering it hashes must never change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';

function reference(value: unknown): string {
  let h = 0x811c9dc5;
  const feed = (s: string): void => {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  };
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      feed(JSON.stringify(v) ?? 'undefined');
      return;
    }
    if (Array.isArray(v)) {
      feed('[');
      for (const item of v) {
        walk(item);
        feed(',');
      }
      feed(']');
      return;
    }
    const obj = v as Record<string, unknown>;
    feed('{');
    for (const key of Object.keys(obj).sort()) {
      if (obj[key] === undefined) continue;
      feed(JSON.stringify(key));
      feed(':');
      walk(obj[key]);
      feed(',');
    }
    feed('}');
  };
  walk(value);
  return (h >>> 0).toString(16).padStart(8, '0');
}

describe('stableHash', () => {
  it.each([
    ['', 'a"b', 'back\\slash', 'line\nbreak', '\u0000\u001f', '\uD83D\uDE00', '\uD83D', 'x\uDE00y', '\u2028', 'é'],
    [{ b: 1, a: [true, null, 1.5, -0, 1e21] }, { a: undefined }, [undefined, NaN, Infinity], { 'k"ey': 'v', '\uD800': 1 }],
  ])('matches the reference on %j', (...values: unknown[]) => {
    for (const v of values) expect(stableHash(v)).toBe(reference(v));
  });

  it('matches the reference on arbitrary JSON, full-unicode strings included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (v, s, g) => {
        expect(stableHash(v)).toBe(reference(v));
        expect(stableHash({ [s]: s, g })).toBe(reference({ [s]: s, g }));
      }),
    );
  });
});
