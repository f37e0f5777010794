/** sameValue agrees with comparing stableHash fingerprints (which it replaces where hashes were compared). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from '../../../src/formats/shared/same-value.js';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';

const CASES: [unknown, unknown][] = [
  [{ a: 1, b: [1, 'x'] }, { b: [1, 'x'], a: 1 }],
  [{ a: 1, c: undefined }, { a: 1 }],
  [{ a: undefined }, {}],
  [{ a: 1 }, { a: 1, b: 2 }],
  [{ a: null }, {}],
  [[1, undefined], [1, undefined]],
  [[1], [1, undefined]],
  [NaN, null],
  [Infinity, null],
  [0, -0],
  ['a', 'b'],
  ['1', 1],
  [{}, []],
  [{ 0: 'x' }, ['x']],
  [null, undefined],
  [{ a: { b: { c: [true, false] } } }, { a: { b: { c: [true, false] } } }],
  [{ a: { b: { c: [true, false] } } }, { a: { b: { c: [true, true] } } }],
  // Inherited enumerable keys are not the object's own (for-in visits them; the comparison must not).
  [Object.create({ a: 1 }), {}],
  [Object.assign(Object.create({ a: 1 }), { b: 2 }), { b: 2 }],
  [Object.assign(Object.create({ a: 1 }), { b: 2 }), { a: 1, b: 2 }],
];

describe('sameValue', () => {
  it.each(CASES)('%j vs %j: as the hashes say', (a, b) => {
    expect(sameValue(a, b)).toBe(stableHash(a) === stableHash(b));
    expect(sameValue(b, a)).toBe(stableHash(a) === stableHash(b));
  });

  it('agrees with the hashes on arbitrary JSON and small edits of it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameValue(a, b)).toBe(stableHash(a) === stableHash(b));
        expect(sameValue(a, structuredClone(a))).toBe(true);
      }),
    );
  });
});
