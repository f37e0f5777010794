/** Small helpers the Anthropic codec's decoders and encoders share. */
import type { CacheHint } from '../../model/cache.js';
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import { residue } from '../shared/residue.js';
import { STASH_KEY } from '../shared/stash.js';

export const ID = 'anthropic-messages';

/**
 * Residue of a wire object: unknown keys, plus known keys whose value is an explicit `null`
 * (the decoder maps no canonical slot from a null, so it must come back verbatim).
 */
export function rest(obj: JsonObject, known: ReadonlySet<string>): JsonObject | undefined {
  // Most wire objects hold only known, non-null keys: one pass over their own keys says so,
  // without walking the known set; the others build the residue in its usual key order.
  for (const key in obj) {
    const value = obj[key];
    if (known.has(key) ? value === null : key !== STASH_KEY && value !== undefined) return restOf(obj, known);
  }
  return undefined;
}

function restOf(obj: JsonObject, known: ReadonlySet<string>): JsonObject | undefined {
  let out = residue(obj, known);
  for (const key of known) if (obj[key] === null) (out ??= {})[key] = null;
  return out;
}

/** Adds codec-private `$` hints to a residue object. */
export function withHints(res: JsonObject | undefined, hints: JsonObject): JsonObject {
  return res === undefined ? hints : Object.assign(res, hints);
}

/** The codec's own ext entry, if any. */
export function own(ext: Ext | undefined): JsonObject | undefined {
  return ext?.[ID];
}

/**
 * A cache_control the canonical CacheHint holds exactly ({type: 'ephemeral', ttl?}); anything
 * else (null, extra keys such as `scope`) is undefined here and stays residue.
 */
export function decodeCache(value: JsonValue | undefined): CacheHint | undefined {
  if (!isJsonObject(value) || value['type'] !== 'ephemeral') return undefined;
  const hint: CacheHint = { type: 'ephemeral' };
  let keys = 1;
  if (typeof value['ttl'] === 'string') {
    hint.ttl = value['ttl'];
    keys++;
  }
  for (const _ in value) keys--;
  return keys === 0 ? hint : undefined;
}

/** Residue of an object with a cache_control: adds a cache_control decodeCache could not hold. */
export function restWithCache(obj: JsonObject, known: ReadonlySet<string>, cache: CacheHint | undefined): JsonObject | undefined {
  const out = rest(obj, known);
  const cc = obj['cache_control'];
  if (cache !== undefined || cc === undefined || cc === null) return out;
  return { ...out, cache_control: cc };
}

export function encodeCache(hint: CacheHint): JsonObject {
  return hint.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: hint.ttl };
}

/** Every other origin's ext entry, or undefined when there is none. */
export function foreignExt(ext: Ext | undefined): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const origin in ext) if (origin !== ID && ext[origin] !== undefined) (out ??= {})[origin] = ext[origin];
  return out;
}
