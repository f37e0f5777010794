import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sameBesidesOwn } from '../../../src/formats/openai-responses/same-besides-own.js';
import { withoutOwn } from '../../../src/formats/openai-responses/items-encode.js';

const OR = 'openai-responses';

// The copy items-encode.ts compared before (still its fallback): the reference the walk must agree with.
const reference = (a: unknown, b: unknown): boolean => isDeepStrictEqual(withoutOwn(a), withoutOwn(b));

const sparse = (): unknown[] => {
  const a: unknown[] = [1];
  a[2] = 3;
  return a;
};
class Sub extends Array<unknown> {}
const fn = (): void => undefined;

// Values that tell the reference's rules apart: undefined keys, holes, -0, NaN, ext shapes, prototypes.
const atoms: (() => unknown)[] = [
  () => undefined, () => null, () => 0, () => -0, () => NaN, () => 1, () => Infinity, () => '', () => 'x', () => 'null', () => true, () => false, () => 1n, () => fn,
  () => ({}), () => Object.create(null), () => [], () => [undefined], () => [null], () => sparse(), () => [1, undefined, 3], () => Sub.from([1]),
  () => ({ a: undefined }), () => ({ a: 1 }), () => ({ a: null }), () => ({ b: 1, a: 2 }), () => ({ a: 2, b: 1 }), () => new Date(0), () => new String('a'), () => ({ 0: 'a' }), () => ['a'],
  () => ({ ext: {} }), () => ({ ext: { [OR]: { x: 1 } } }), () => ({ ext: { [OR]: 1, o: undefined } }), () => ({ ext: { o: undefined } }), () => ({ ext: { o: 1 } }), () => ({ ext: { o: 1, [OR]: 2 } }),
  // Inherited enumerable keys (for-in visits them: the walk must not) and a non-enumerable own key.
  () => Object.create({ a: 1 }), () => Object.assign(Object.create({ a: 1 }), { b: 2 }), () => ({ ext: Object.create({ o: 1 }) }), () => Object.defineProperty({}, 'a', { value: 1, enumerable: false }),
  () => ({ ext: ['a'] }), () => ({ ext: { 0: 'a' } }), () => ({ ext: null }), () => ({ ext: 'x' }), () => ({ ext: undefined }), () => ({ ext: { o: { ext: { [OR]: 1 } } } }), () => ({ ext: { o: {} } }),
];

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function build(r: () => number, depth: number): unknown {
  const pick = r();
  if (depth === 0 || pick < 0.5) return (atoms[Math.floor(r() * atoms.length)] as () => unknown)();
  const keys = ['a', 'b', 'ext', OR, 'o'];
  if (pick < 0.7) return Array.from({ length: Math.floor(r() * 3) }, () => build(r, depth - 1));
  const out: Record<string, unknown> = {};
  for (const k of keys) if (r() < 0.4) out[k] = build(r, depth - 1);
  return out;
}

describe('sameBesidesOwn', () => {
  it('agrees with isDeepStrictEqual of the withoutOwn copies on every pair of edge values', () => {
    for (const x of atoms) {
      for (const y of atoms) {
        const a = x();
        const b = y();
        expect([a, b, sameBesidesOwn(a, b, OR, withoutOwn)]).toEqual([a, b, reference(a, b)]);
        expect(sameBesidesOwn({ m: [a] }, { m: [b] }, OR, withoutOwn)).toBe(reference({ m: [a] }, { m: [b] }));
      }
    }
  });

  it('agrees on random nested values, equal or nearly so', () => {
    const r = random(7);
    for (let n = 0; n < 20000; n++) {
      const seed = Math.floor(r() * 1e9);
      const a = build(random(seed), 4);
      // Half the time the same shape again (often equal), else another value.
      const b = r() < 0.5 ? build(random(seed), 4) : build(random(seed + (r() < 0.5 ? 1 : 2)), 4);
      expect(sameBesidesOwn(a, b, OR, withoutOwn)).toBe(reference(a, b));
    }
  });
});
