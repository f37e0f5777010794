/**
 * deleteKeys leaves the same keys, in the same order, with the same values, as `delete` of each
 * dropped key does, and withoutKey makes such an object anew (shared/delete-keys.ts; that they keep
 * objects out of dictionary mode is checked by test/cross/fast-properties.test.ts, which needs a
 * V8 flag).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import { deleteKeys, withoutKey } from '../../../src/formats/shared/delete-keys.js';

describe('deleteKeys', () => {
  it('gives what delete gives: keys, order and values', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'type', 'id', 'function', '__proto__', '1', '0', 'z');
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, fc.jsonValue()), { selector: (e) => e[0], maxLength: 10 }), fc.array(key, { maxLength: 4 }), (entries, dropped) => {
        const make = (): JsonObject => {
          const o: JsonObject = {};
          for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
          return o;
        };
        const expected = make();
        for (const k of dropped) delete expected[k];
        const actual = make();
        deleteKeys(actual, (k) => (dropped as string[]).includes(k));
        expect(Object.keys(actual)).toEqual(Object.keys(expected));
        expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
        for (const k of Object.keys(expected)) expect(actual[k]).toBe(expected[k]);
        const one = dropped[0];
        if (one !== undefined) {
          const source = make();
          const copy = withoutKey(source, one);
          const gone = make();
          delete gone[one];
          expect(Object.keys(copy)).toEqual(Object.keys(gone));
          expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
          for (const k of Object.keys(gone)) expect(copy[k]).toBe(gone[k]);
          expect(Object.keys(source)).toEqual(Object.keys(make())); // the source is left as it was
        }
      }),
    );
  });
});
