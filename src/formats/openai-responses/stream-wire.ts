/**
 * Small shared pieces of the Responses stream codec: field checks on one wire event (each failure
 * a ValidationError with path `[<wire event index>, ...]`), issue paths of the response codec
 * re-rooted at a stream event, and the canonical error of an `error` / `response.failed` event.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamError, WireEvent } from '../../model/stream-event.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';

export function fail(at: number, path: Path, message: string, code = 'invalid_event'): never {
  throw new ValidationError([{ code, path: [at, ...path], message }]);
}

function kind(v: JsonValue | undefined): string {
  return v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

export function int(data: JsonObject, key: string, at: number, type: string): number {
  const v = data[key];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  return fail(at, [key], `${type}: expected a non-negative integer ${key}, received ${kind(v)}`, 'invalid_type');
}

export function str(data: JsonObject, key: string, at: number, type: string): string {
  const v = data[key];
  if (typeof v === 'string') return v;
  return fail(at, [key], `${type}: expected a string ${key}, received ${kind(v)}`, 'invalid_type');
}

export function obj(data: JsonObject, key: string, at: number, type: string): JsonObject {
  const v = data[key];
  if (isJsonObject(v)) return v;
  return fail(at, [key], `${type}: expected an object ${key}, received ${kind(v)}`, 'invalid_type');
}

/** The response codec's issues (paths from `from`) as issues of wire event `at` under `under`. */
export function rebase(e: ValidationError, at: number, under: Path, from: Path): ValidationError {
  return new ValidationError(
    e.issues.map((i) => {
      const tail = from.every((seg, k) => i.path[k] === seg) ? i.path.slice(from.length) : i.path;
      return { ...i, path: [at, ...under, ...tail] };
    }),
  );
}

/** Runs a response-codec call on part of event `at`, re-rooting its validation issues. */
export function within<T>(at: number, under: Path, from: Path, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ValidationError) throw rebase(e, at, under, from);
    throw e;
  }
}

/**
 * An `error` event: the documented form carries `code`, `message`, `param` on the event itself;
 * the API has also been seen to nest them under `error`. `raw` is the error object either way.
 */
export function streamError(data: JsonObject): StreamError {
  let raw: JsonObject;
  if (isJsonObject(data['error'])) raw = data['error'];
  else {
    raw = {};
    for (const key in data) if (key !== 'type' && key !== 'sequence_number') raw[key] = data[key] as JsonValue;
  }
  return errorFrom(raw, 'error event without a message');
}

/** A response's `error` object (response.failed), or null when the API gave none. */
export function failedError(error: JsonValue | undefined): StreamError {
  return isJsonObject(error) ? errorFrom(error, 'the response failed') : { message: 'the response failed' };
}

function errorFrom(raw: JsonObject, fallback: string): StreamError {
  const out: StreamError = { message: typeof raw['message'] === 'string' ? raw['message'] : fallback, raw };
  if (typeof raw['type'] === 'string') out.type = raw['type'];
  const code = raw['code'];
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  return out;
}

/** What the deltas of one text said so far, to tell what a done event's whole text adds. */
export class Said {
  private chunks: string[] = [];
  /** A done event disagreed once (reported then): later ones are not compared again. */
  private diverged = false;

  add(delta: string): void {
    if (delta !== '') this.chunks.push(delta);
  }

  get empty(): boolean {
    return this.chunks.length === 0;
  }

  /** What `whole` adds to what was said: '' when nothing, undefined when the deltas said something else. */
  rest(whole: string): string | undefined {
    if (this.diverged) return '';
    if (this.chunks.length === 0) return whole;
    const said = this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join('');
    this.chunks = [said];
    if (whole.startsWith(said)) return whole.slice(said.length);
    this.diverged = true;
    return undefined;
  }
}

/**
 * A Responses event passed through as the encoder writes it: `type` first, the event's own fields
 * (output_index `oi` when given, in its place or last), `seq` as sequence_number. One copy: a
 * spread and two deletes left it a dictionary, slow to build and to serialize. An own `__proto__`
 * key (JSON.parse makes one) must be defined, not assigned, so that event takes the spreads.
 */
export function passThrough(data: JsonObject, type: string, oi: number | undefined, seq: number): JsonObject {
  const keys = Object.keys(data);
  if (keys.includes('__proto__')) {
    const fields: JsonObject = { ...data };
    delete fields['type'];
    delete fields['sequence_number'];
    if (oi !== undefined) fields['output_index'] = oi;
    return { type, ...fields, sequence_number: seq };
  }
  const out: JsonObject = { type };
  for (const k of keys) if (k !== 'type' && k !== 'sequence_number') out[k] = k === 'output_index' && oi !== undefined ? oi : (data[k] as JsonValue);
  if (oi !== undefined && out['output_index'] === undefined) out['output_index'] = oi;
  out['sequence_number'] = seq;
  return out;
}

/** A delta event, its text from the block's template when there is one (shared/stream-written.ts). */
export function written(tpl: Template | null, type: string, data: JsonObject, delta: string, seq: number): WireEvent {
  return tpl === null ? { event: type, data } : new WrittenEvent(data, tpl.fill2(jsonString(delta), String(seq)), type);
}
