/**
 * `isDeepStrictEqual(withoutOwn(a), withoutOwn(b))` answered by walking both at once, without the
 * two copies (`withoutOwn`: keys holding undefined left out, this format's own key left out of
 * every `ext` object and an `ext` left with no key dropped). The copy and compare were most of the
 * preserve read-back check (gemini -> responses: 13% of the samples).
 *
 * What the copies would have been, and so what is compared here:
 * - any non-array object becomes a plain object of its own enumerable string keys (prototype,
 *   symbols and non-enumerable keys gone), so objects compare by `Object.keys` alone;
 * - an array becomes `map`'s copy: holes stay holes (strict equality tells a hole from undefined),
 *   non-index keys go; an array of another prototype (map would make one of its species) is
 *   answered by the copies themselves;
 * - an `ext` object (an array too: the rest spread makes a plain object of it) keeps its other
 *   keys, and is kept when at least one other string key is left, even one holding undefined;
 * - primitives as isDeepStrictEqual compares them: Object.is (0 and -0 differ, NaN equals NaN).
 */
import { isDeepStrictEqual } from 'node:util';

/** A walk met a value whose copy this walk does not model (see above): compare the copies. */
const UNSURE = 2;
type Answer = 0 | 1 | typeof UNSURE;

export function sameBesidesOwn(a: unknown, b: unknown, origin: string, withoutOwn: (v: unknown) => unknown): boolean {
  const answer = walk(a, b, origin);
  return answer === UNSURE ? isDeepStrictEqual(withoutOwn(a), withoutOwn(b)) : answer === 1;
}

function walk(a: unknown, b: unknown, origin: string): Answer {
  if (a === b) return a !== 0 || Object.is(a, b) ? 1 : 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && a !== a && b !== b ? 1 : 0;
  }
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return 0;
  if (arrayA) {
    const listA = a as unknown[];
    const listB = b as unknown[];
    if (Object.getPrototypeOf(listA) !== Array.prototype || Object.getPrototypeOf(listB) !== Array.prototype) return UNSURE;
    if (listA.length !== listB.length) return 0;
    for (let i = 0; i < listA.length; i++) {
      const hasA = i in listA;
      if (hasA !== i in listB) return 0;
      if (!hasA) continue;
      const r = walk(listA[i], listB[i], origin);
      if (r !== 1) return r;
    }
    return 1;
  }
  return walkObject(a as Record<string, unknown>, b as Record<string, unknown>, origin, undefined);
}

/** Two objects as plain copies of their defined keys; `skip`: a key left out of both (ext's own). */
function walkObject(a: Record<string, unknown>, b: Record<string, unknown>, origin: string, skip: string | undefined): Answer {
  let count = 0;
  for (const key of Object.keys(a)) {
    if (key === skip) continue;
    const value = a[key];
    if (value === undefined) continue;
    const other = Object.hasOwn(b, key) ? b[key] : undefined;
    if (key === 'ext' && typeof value === 'object' && value !== null) {
      const keptA = keepsExt(value, origin);
      if (other === undefined) {
        if (keptA) return 0;
        continue;
      }
      if (typeof other !== 'object' || other === null) return 0;
      if (keptA !== keepsExt(other, origin)) return 0;
      if (!keptA) continue;
      count++;
      const r = walkObject(value as Record<string, unknown>, other as Record<string, unknown>, origin, origin);
      if (r !== 1) return r;
      continue;
    }
    if (other === undefined) return 0;
    count++;
    const r = walk(value, other, origin);
    if (r !== 1) return r;
  }
  for (const key of Object.keys(b)) {
    if (key === skip) continue;
    const value = b[key];
    if (value === undefined) continue;
    if (key === 'ext' && typeof value === 'object' && value !== null && !keepsExt(value, origin)) continue;
    count--;
  }
  return count === 0 ? 1 : 0;
}

/** Whether an `ext` object's copy is kept: it has a string key besides the format's own. */
function keepsExt(ext: object, origin: string): boolean {
  for (const key of Object.keys(ext)) if (key !== origin) return true;
  return false;
}
