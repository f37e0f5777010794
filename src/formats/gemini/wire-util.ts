/**
 * Small helpers the Gemini codec's decoders and encoders share: the format id, residue with
 * explicit nulls, and proto3 JSON's two spellings of a field name.
 *
 * Google's JSON parser accepts both the lowerCamelCase JSON name (`mimeType`) and the proto field
 * name (`mime_type`); real clients send both (pydantic-ai sends `parameters_json_schema`,
 * `file_uri`). Decoders read a camelCase *view* of each wire message and remember which keys
 * arrived in snake_case as a `$snake` hint, so the encoder writes them back the same way.
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, residueWithNulls } from '../shared/residue.js';
import type { Loss, Path } from '../../model/loss.js';
import { deleteKeys } from '../shared/delete-keys.js';
import { childPath } from '../shared/child-path.js';


export const ID = 'gemini';

/** Residue of a wire object with its known keys' explicit nulls (shared/residue.ts). */
export const rest = residueWithNulls;

/** The codec's own ext entry, if any. */
export function own(ext: Ext | undefined): JsonObject | undefined {
  return ext?.[ID];
}

const SNAKE = new Map<string, string>();

/** `mimeType` -> `mime_type`. Memoized: it runs for every field of every part, over a small fixed set of names. */
export function snakeCase(key: string): string {
  let out = SNAKE.get(key);
  if (out === undefined) {
    out = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (SNAKE.size < 4096) SNAKE.set(key, out);
  }
  return out;
}

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Set of camelCase field names plus their snake_case spellings, for residue(). */
export function fieldSet(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const n of names) {
    out.add(n);
    out.add(snakeCase(n));
  }
  return out;
}

export interface View {
  obj: JsonObject;
  /** camelCase names of the keys that arrived in snake_case. */
  snake?: string[];
}

/**
 * `obj` with known snake_case keys renamed to camelCase. Returns `obj` itself (no copy) when no
 * key has an underscore, which is nearly always; otherwise a shallow copy.
 */
export function camelView(obj: JsonObject, known: ReadonlySet<string>): View {
  let snake: string[] | undefined;
  for (const key in obj) {
    if (key.includes('_') && known.has(key)) (snake ??= []).push(camelCase(key));
  }
  if (snake === undefined) return { obj };
  const copy: JsonObject = {};
  for (const key in obj) {
    const v = obj[key];
    if (v === undefined) continue;
    const name = key.includes('_') && known.has(key) ? camelCase(key) : key;
    // When both spellings are present the camelCase one wins and the other is residue.
    if (name !== key && name in obj) copy[key] = v;
    else copy[name] = v;
  }
  return { obj: copy, snake };
}


/** Renames the listed camelCase keys of `out` back to snake_case (the `$snake` hint). */
export function applySnake(out: JsonObject, snake: JsonValue | undefined): JsonObject {
  if (!Array.isArray(snake)) return out;
  const renamed: [string, JsonValue | undefined][] = [];
  for (const name of snake) if (typeof name === 'string' && name in out) renamed.push([name, out[name]]);
  if (renamed.length === 0) return out;
  // Each renamed key goes to the end, as delete and set would put it (without making a dictionary).
  deleteKeys(out, (k) => renamed.some(([name]) => name === k));
  for (const [name, v] of renamed) if (v !== undefined) out[snakeCase(name)] = v;
  return out;
}

/** Residue plus a `$snake` hint (when any key arrived in snake_case). */
export function withSnake(res: JsonObject | undefined, view: View): JsonObject | undefined {
  if (view.snake === undefined) return res;
  return { ...res, $snake: view.snake };
}

/** Every other origin's ext entry, or undefined when there is none. */
export function foreignExt(ext: Ext | undefined): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const origin in ext) if (origin !== ID && ext[origin] !== undefined) (out ??= {})[origin] = ext[origin];
  return out;
}

/** Whether foreignExt(ext) would give an object (without building it). */
function hasForeignExt(ext: Ext): boolean {
  for (const origin in ext) if (origin !== ID && ext[origin] !== undefined) return true;
  return false;
}

/** Adds `key: value` to `target.ext.gemini` (a residue field or a `$` hint). */
export function setOwn(target: { ext?: Ext }, key: string, value: JsonValue): void {
  target.ext = { ...target.ext, [ID]: { ...target.ext?.[ID], [key]: value } };
}

/**
 * The body-level preserve stash of an encode: a top-level canonical field whose encoding lost
 * anything is reported (marked 'stashed' under preserve) and kept whole for the way back.
 */
export class TopStash {
  readonly fields: JsonObject = {};
  constructor(private readonly ctx: EncodeContext) {}

  field<T>(key: string, value: unknown, encode: (losses: LossSink) => T): T {
    const local = new LossList();
    const out = encode(local);
    this.record(key, value, local.items);
    return out;
  }

  /** field() for losses already gathered (no closure to make). */
  record(key: string, value: unknown, losses: readonly Loss[]): void {
    if (losses.length > 0) {
      for (const l of losses) this.ctx.losses.push(this.ctx.preserve ? { ...l, action: 'stashed' } : l);
      this.fields[key] = (value === undefined ? null : value) as JsonValue;
    }
  }
}

/**
 * reportForeignExt, plus one `foreign-form` loss when another format's ext holds only empty values
 * or private hints (e.g. an explicit `null`): nothing meaningful is lost, but its exact wire form
 * comes back only through the preserve stash, which a loss is what triggers.
 */
export function reportExt(ext: Ext | undefined, path: Path, losses: LossSink): boolean {
  if (ext === undefined) return false;
  if (reportForeignExt(ext, ID, path, losses)) return true;
  if (!hasForeignExt(ext)) return false;
  losses.push({ code: 'foreign-form', path: childPath(path, 'ext'), message: 'wire-form details of another format are not sent', action: 'approximated' });
  return true;
}
