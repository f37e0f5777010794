/**
 * A JSON value kept to tell whether a later chunk repeats it. usageMetadata and top-level residue
 * (createTime) come again in every chunk, nearly always unchanged; the decoder compared their JSON
 * text, one JSON.stringify per value per chunk. A walk of the new value against the kept one is a
 * few property reads. It answers "same" only where JSON.stringify would give the same text (same
 * keys in the same order, equal strings, booleans, nulls and finite numbers); anything it cannot
 * vouch for (undefined, a toJSON, another prototype, a non-finite number) is "not known", and the
 * caller compares the JSON text as before.
 */
import type { JsonValue } from '../../model/json.js';

/** An object's keys and values in their order (arrays are kept as arrays). */
class ObjectShot {
  constructor(
    readonly keys: string[],
    readonly values: Shot[],
  ) {}
}
type Shot = string | number | boolean | null | ObjectShot | Shot[];

export class SameJson {
  private readonly shot: Shot | undefined;

  /** `json`: the value's JSON text (undefined for what JSON leaves out), kept for the "not known" case. */
  constructor(readonly json: string | undefined) {
    if (json !== undefined) this.shot = shotOf(JSON.parse(json) as JsonValue);
  }

  /** Whether `value` is certainly written as `json` (false: not known). */
  matches(value: unknown): boolean {
    return this.shot !== undefined && same(value, this.shot);
  }
}

function shotOf(v: JsonValue): Shot {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(shotOf);
  const keys = Object.keys(v);
  return new ObjectShot(keys, keys.map((k) => shotOf(v[k] as JsonValue)));
}

function same(a: unknown, b: Shot): boolean {
  if (typeof a !== 'object' || a === null) return a === b && (typeof a !== 'number' || Number.isFinite(a));
  if (typeof b !== 'object' || b === null || (a as { toJSON?: unknown }).toJSON !== undefined) return false;
  if (Array.isArray(a)) return Array.isArray(b) && Object.getPrototypeOf(a) === Array.prototype && sameItems(a, b);
  return b instanceof ObjectShot && Object.getPrototypeOf(a) === Object.prototype && sameMembers(a as Record<string, unknown>, b);
}

function sameItems(a: unknown[], b: Shot[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i] as Shot)) return false;
  return true;
}

/** Same keys in the same order (for-in gives own keys in JSON.stringify's order) with same values. */
function sameMembers(a: Record<string, unknown>, b: ObjectShot): boolean {
  let i = 0;
  for (const key in a) {
    if (key !== b.keys[i] || !same(a[key], b.values[i] as Shot)) return false;
    i++;
  }
  return i === b.keys.length;
}
