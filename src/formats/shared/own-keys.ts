/**
 * Key counts without the key list: `Object.keys(o).length` builds an array only to count it, and
 * on paths run for every payload or part read (a memory read decodes tens of events per call)
 * those arrays were a tenth of what the read allocated. Each test sees exactly the keys
 * `Object.keys` sees (own, enumerable, string-keyed): `for…in` adds inherited enumerable keys, so
 * each key is checked with `Object.hasOwn`.
 */

/** `Object.keys(o).length > 0`. */
export function hasKeys(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/** The only key of `o` when `Object.keys(o)` is one key long, else undefined. */
export function onlyKey(o: object): string | undefined {
  let only: string | undefined;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    if (only !== undefined) return undefined;
    only = k;
  }
  return only;
}

/** Whether every key `Object.keys(o)` gives is `a` or `b`. */
export function keysWithin(o: object, a: string, b: string): boolean {
  for (const k in o) if (Object.hasOwn(o, k) && k !== a && k !== b) return false;
  return true;
}

/** The last key `Object.keys(o)` gives when it gives two or more, else undefined. */
export function lastOfSeveralKeys(o: object): string | undefined {
  let last: string | undefined;
  let n = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    last = k;
    n++;
  }
  return n > 1 ? last : undefined;
}
