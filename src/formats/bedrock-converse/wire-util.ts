/** Small helpers the Bedrock Converse codec's decoders and encoders share. */
import type { CacheHint } from '../../model/cache.js';
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { LossAction, Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { residueWithNulls, setOwn } from '../shared/residue.js';
import { STASH_KEY } from '../shared/stash.js';
import { childPath } from '../shared/child-path.js';

export const ID = 'bedrock-converse';

/** Residue of a wire object with its known keys' explicit nulls (shared/residue.ts). */
export const rest = residueWithNulls;

/** `rest(obj, new Set([member]))` without a set per call: the keys of a union object beside its member. */
export function restBeside(obj: JsonObject, member: string): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const key in obj) {
    if (key === member || key === STASH_KEY) continue;
    const value = obj[key];
    if (value === undefined) continue;
    setOwn((out ??= {}), key, value);
  }
  if (obj[member] === null) (out ??= {})[member] = null;
  return out;
}

/** Adds codec-private `$` hints to a residue object. */
export function withHints(res: JsonObject | undefined, hints: JsonObject | undefined): JsonObject | undefined {
  if (hints === undefined || Object.keys(hints).length === 0) return res;
  return res === undefined ? hints : Object.assign(res, hints);
}

/** The codec's own ext entry, if any. */
export function own(ext: Ext | undefined): JsonObject | undefined {
  return ext?.[ID];
}

/**
 * The one key of a Bedrock union object (validation guarantees there is exactly one known key
 * that is set; a `null` member counts as unset).
 */
export function memberOf(obj: JsonObject, known: ReadonlySet<string>): string | undefined {
  for (const key in obj) if (known.has(key) && obj[key] !== null && obj[key] !== undefined) return key;
  return undefined;
}

/**
 * `{ [member]: value }` for a union object. The usual members are written as literals: an object
 * with a computed key is slower to build and, more, to JSON.stringify than one of a known shape.
 */
export function unionObject(member: string, value: JsonValue): JsonObject {
  switch (member) {
    case 'text':
      return { text: value };
    case 'toolUse':
      return { toolUse: value };
    case 'toolResult':
      return { toolResult: value };
    case 'reasoningContent':
      return { reasoningContent: value };
    case 'json':
      return { json: value };
    case 'image':
      return { image: value };
    case 'document':
      return { document: value };
    default:
      return { [member]: value };
  }
}

/** Every other origin's ext entry, or undefined when there is none. */
export function foreignExt(ext: Ext | undefined): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const origin in ext) if (origin !== ID && ext[origin] !== undefined) (out ??= {})[origin] = ext[origin];
  return out;
}

/**
 * The codec's own ext entry without the listed keys (the encoder writes them itself), except where
 * the value is an explicit null: that is the wire field's own residue and is written back as is.
 */
export function ownWithout(ext: Ext | undefined, keys: readonly string[]): Ext | undefined {
  const mine = ext?.[ID];
  if (mine === undefined) return undefined;
  const copy: JsonObject = { ...mine };
  for (const k of keys) if (copy[k] !== null) delete copy[k];
  return { [ID]: copy };
}

/** Bedrock `cachePoint {type: 'default', ttl?}` <-> canonical cache hint. */
export function decodeCachePoint(value: JsonValue | undefined): CacheHint {
  const hint: CacheHint = { type: 'ephemeral' };
  if (isJsonObject(value) && typeof value['ttl'] === 'string') hint.ttl = value['ttl'];
  return hint;
}

const TTLS: ReadonlySet<string> = new Set(['5m', '1h']);

export function encodeCachePoint(hint: CacheHint, path: Path, losses: LossSink): JsonObject {
  const point: JsonObject = { type: 'default' };
  if (hint.ttl !== undefined) {
    if (TTLS.has(hint.ttl)) point['ttl'] = hint.ttl;
    else lose(losses, 'cache-ttl', childPath(path, 'ttl'), `Bedrock cache points last 5m or 1h; ttl '${hint.ttl}' dropped`, 'approximated');
  }
  return { cachePoint: point };
}


export function lose(losses: LossSink, code: string, path: Path, message: string, action: LossAction = 'dropped'): undefined {
  losses.push({ code, path, message, action });
  return undefined;
}
