import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { STASH_KEY } from './stash.js';
import { childPath } from './child-path.js';

/**
 * The fields of a wire object that the decoder did not map to a canonical slot. They are kept
 * under `ext[origin]` and written back only by the same format, so A -> canonical -> A is exact.
 */
export function residue(obj: JsonObject, known: ReadonlySet<string>, skip?: (key: string, value: JsonValue) => boolean): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const key in obj) {
    if (known.has(key) || key === STASH_KEY) continue;
    const value = obj[key];
    if (value === undefined || (skip !== undefined && skip(key, value))) continue;
    setOwn((out ??= {}), key, value);
  }
  return out;
}

/**
 * `residue` plus the known keys whose value is an explicit `null`: for formats whose decoders map
 * no canonical slot from a null (Bedrock, Gemini), so it must come back verbatim. One pass over the
 * keys; the known keys are looked up again only when one of them is null (or may be inherited).
 */
export function residueWithNulls(obj: JsonObject, known: ReadonlySet<string>): JsonObject | undefined {
  let out: JsonObject | undefined;
  let nullKnown = false;
  for (const key in obj) {
    const value = obj[key];
    if (known.has(key)) {
      if (value === null) nullKnown = true;
      continue;
    }
    if (key === STASH_KEY || value === undefined) continue;
    setOwn((out ??= {}), key, value);
  }
  if (nullKnown || Object.getPrototypeOf(obj) !== Object.prototype) for (const key of known) if (obj[key] === null) (out ??= {})[key] = null;
  return out;
}

/**
 * `obj[key] = value` as an own data property, also for a wire key named `__proto__` (JSON.parse
 * makes it an ordinary own key; plain assignment would set the object's prototype instead).
 */
export function setOwn(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * `{ ...obj }` copied key by key: for a copy that then gets keys of its own, as V8 gives each
 * object that a spread copied into and then gave a new key a hidden class of its own (every later
 * read of them megamorphic; bench/fast-properties.ts finds such paths).
 */
export function copyKeys(obj: JsonObject): JsonObject {
  return putAll({}, obj);
}

/** `{ ...out, ...more }` written into `out` itself (a fresh object of the caller's), for the same reason as copyKeys. */
export function putAll(out: JsonObject, more: JsonObject): JsonObject {
  for (const key in more) setOwn(out, key, more[key] as JsonValue);
  return out;
}

/** Sets `target.ext[origin] = rest` when there is any rest. */
export function keepResidue(target: { ext?: Ext }, origin: string, rest: JsonObject | undefined): void {
  if (rest === undefined) return;
  // copyKeys, not `{ ...target.ext, [origin]: rest }`: V8 (Node 20) takes a slow path,
  // ~0.7 µs an object, for a spread followed by a key the spread object does not have.
  const ext = copyKeys((target.ext ?? {}) as JsonObject);
  setOwn(ext, origin, rest);
  target.ext = ext as Ext;
}

/**
 * Keys starting with '$' in `ext[origin]` are the codec's own private hints (e.g. which of two
 * equivalent wire fields the source used), never wire fields: they are not written out and not
 * reported as losses elsewhere. No wire format has '$'-prefixed keys.
 */
export function isHintKey(key: string): boolean {
  return key.charCodeAt(0) === 36; // '$'
}

/** Copies the format's own residue (not its hints) onto the object being written. */
export function restoreResidue(out: JsonObject, ext: Ext | undefined, origin: string): void {
  const own = ext?.[origin];
  if (own === undefined) return;
  for (const key in own) {
    const value = own[key];
    if (value !== undefined && !isHintKey(key) && !Object.hasOwn(out, key)) setOwn(out, key, value);
  }
}

/** A value that says nothing: null, an empty array or an empty object. Not worth a loss line. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * Reports every meaningful field another format left in `ext`: the target has no slot for it.
 * Returns whether anything was reported.
 */
export function reportForeignExt(
  ext: Ext | undefined,
  target: string,
  path: Path,
  losses: LossSink,
): boolean {
  if (ext === undefined) return false;
  let reported = false;
  for (const origin in ext) {
    if (origin === target) continue;
    const fields = ext[origin];
    if (fields === undefined) continue;
    for (const key in fields) {
      if (isHintKey(key) || isEmptyValue(fields[key])) continue;
      losses.push({
        code: 'unsupported-field',
        path: childPath(path, key),
        message: `${origin} field '${key}' has no equivalent in ${target}`,
        action: 'dropped',
      });
      reported = true;
    }
  }
  return reported;
}
