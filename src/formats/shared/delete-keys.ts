/**
 * Removing keys from an object without turning it into a V8 dictionary. `delete` of any key but the
 * last one added makes the object a slow dictionary, and every later read of it (an encoder's walk,
 * the loss report, the caller's JSON.stringify) pays for that; deleting the last key only steps the
 * object back to its previous shape. So the keys from the first one removed on are deleted from
 * the last back, and those kept are put back in their order: the result has the same keys in the
 * same order as plain `delete` gives, in fast mode (bench/fast-properties.ts finds the objects a
 * conversion hands out in dictionary mode). Where a new object will do, `withoutKey` makes one.
 */
import type { JsonObject } from '../../model/json.js';
import { setOwn } from './residue.js';

/**
 * A new object with `obj`'s keys but `key` (and `other`), in their order (for objects of a few keys:
 * V8 also makes a dictionary of one given more than ~16 keys one by one).
 */
export function withoutKey(obj: JsonObject, key: string, other?: string): JsonObject {
  const out: JsonObject = {};
  for (const k in obj) if (k !== key && k !== other) setOwn(out, k, obj[k] as JsonObject[string]);
  return out;
}

/** Deletes from `obj`, in place, every own key for which `drop` holds. */
export function deleteKeys(obj: JsonObject, drop: (key: string) => boolean): void {
  const keys = Object.keys(obj);
  let first = 0;
  while (first < keys.length && !drop(keys[first] as string)) first++;
  if (first === keys.length) return;
  const values: JsonObject[string][] = [];
  for (let i = first; i < keys.length; i++) values.push(obj[keys[i] as string] as JsonObject[string]);
  for (let i = keys.length - 1; i >= first; i--) delete obj[keys[i] as string];
  for (let i = first; i < keys.length; i++) {
    const key = keys[i] as string;
    if (!drop(key)) setOwn(obj, key, values[i - first] as JsonObject[string]);
  }
}

/** Deletes `key` from `obj`, in place (deleteKeys for one key). */
export function deleteKey(obj: JsonObject, key: string): void {
  deleteKeys(obj, (k) => k === key);
}
