/**
 * streamGenerateContent (`alt=sse`) -> canonical stream events. Each SSE `data:` is a whole
 * GenerateContentResponse holding the next slice of each candidate (stream-candidate.ts turns the
 * parts into blocks). responseId / modelVersion open the response, other top-level fields are
 * residue as in the non-stream codec (first seen on response-start, later changes on
 * response-end); usageMetadata is cumulative and becomes a usage event whenever it changes. Gemini
 * has no end event: the input ending after every candidate gave a finishReason (or after a
 * blocked prompt's promptFeedback) is a complete stream; otherwise it was cut off and nothing is
 * invented. An `{error: {...}}` body mid-stream is the canonical error.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ResponseStartEvent, StreamError, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { deleteKeys } from '../shared/delete-keys.js';
import { plainObject } from '../shared/fast-guards.js';
import { jsonTextEquals } from '../shared/json-text.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { CallIds } from './call-ids.js';
import { CandidateDecoder } from './stream-candidate.js';
import { plainChunk } from './stream-fast.js';
import { validateChunk } from './stream-validate.js';
import { decodeUsage } from './usage.js';
import { ID, rest } from './wire-util.js';

const RESPONSE_KEYS = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);

export class GeminiStreamDecoder implements StreamDecoder {
  private n = 0;
  private started = false;
  private failed = false;
  private blocked = false;
  /** Whether any chunk had a `candidates` key (a blocked prompt may send `[]` or none). */
  private listed = false;
  private readonly ids = new CallIds();
  private readonly toolIds = new ToolCallIds();
  private readonly candidates = new Map<number, CandidateDecoder>();
  /** usageMetadata as last seen, as JSON text, and as its keys and values when they are all primitives (compared first). */
  private usage: string | undefined;
  private usageFlat: Flat | undefined;
  /** Top-level residue as last seen (JSON text per key, and the value when a string), and what changed after the start. */
  private readonly seen = new Map<string, Seen>();
  private late: JsonObject | undefined;

  constructor(private readonly ctx: DecodeContext) {}

  push(wire: WireEvent): StreamEvent[] {
    const at = this.n++;
    if (this.failed) throw new ValidationError([{ code: 'after_error', path: [at], message: 'a chunk came after the stream error' }]);
    const data = wire.data;
    // Gemini names no SSE events and sends only JSON. A named event is kept as is; a non-JSON line
    // (a proxy's `[DONE]`) says nothing in Gemini: a keepalive.
    if (wire.event !== undefined) return [{ type: 'provider-event', origin: ID, event: wire }];
    if (typeof data === 'string') return [{ type: 'provider-event', origin: ID, event: wire, keepalive: true }];
    if (!isJsonObject(data)) {
      const what = Array.isArray(data) ? 'a JSON array (a stream read without alt=sse?)' : `a ${data === null ? 'null' : typeof data}`;
      throw new ValidationError([{ code: 'invalid_type', path: [at], message: `a stream chunk is a GenerateContentResponse object, got ${what}` }]);
    }
    const out: StreamEvent[] = [];
    const err = data['error'];
    if (isJsonObject(err) && data['candidates'] === undefined) {
      if (!this.started) out.push({ type: 'response-start' });
      this.started = true;
      this.failed = true;
      out.push({ type: 'error', error: decodeError(err) });
      return out;
    }
    // The common chunk is valid and has no residue but a createTime: one walk says so.
    const plain = plainChunk(data);
    if (!plain) validateChunk(data, at);
    const list = data['candidates'];
    if (list !== undefined) this.listed = true;
    if (!this.started) out.push(this.start(data, Array.isArray(list) ? list[0] : undefined));
    else if (!plain) this.noteResidue(data);
    else if (data['createTime'] !== undefined) this.noteField('createTime', data['createTime']);
    // Usage counts the chunk's own content too; it goes first so a re-encoded chunk carries it.
    const u = data['usageMetadata'];
    if (isJsonObject(u) && this.usageChanged(u)) out.push({ type: 'usage', usage: usageSoFar(u) });
    if (Array.isArray(list)) {
      for (let k = 0; k < list.length; k++) {
        const c: unknown = list[k];
        if (!isJsonObject(c)) continue;
        const choice = typeof c['index'] === 'number' ? c['index'] : k;
        let cand = this.candidates.get(choice);
        if (cand === undefined) this.candidates.set(choice, (cand = new CandidateDecoder(choice, this.ids, this.ctx, this.toolIds)));
        cand.push(c, [at, 'candidates', k], out, plain);
      }
    }
    const feedback = data['promptFeedback'];
    if (isJsonObject(feedback) && typeof feedback['blockReason'] === 'string') this.blocked = true;
    return out;
  }

  end(): StreamEvent[] {
    if (this.failed || !this.started) return [];
    const out: StreamEvent[] = [];
    let complete = this.candidates.size > 0 || this.blocked;
    for (const choice of [...this.candidates.keys()].sort((a, b) => a - b)) {
      if (!(this.candidates.get(choice) as CandidateDecoder).end(out)) complete = false;
    }
    if (complete) {
      const own: JsonObject = { ...this.late };
      if (!this.listed) own['$noCandidates'] = true;
      out.push({ type: 'response-end', ...(Object.keys(own).length > 0 ? { ext: { [ID]: own } } : {}) });
    }
    return out;
  }

  private start(data: JsonObject, first: unknown): ResponseStartEvent {
    this.started = true;
    const e: ResponseStartEvent = { type: 'response-start' };
    if (typeof data['responseId'] === 'string') e.id = data['responseId'];
    if (typeof data['modelVersion'] === 'string') e.model = data['modelVersion'];
    const own: JsonObject = rest(data, RESPONSE_KEYS) ?? {};
    for (const key in own) this.seen.set(key, seen(own[key] as JsonValue));
    // Vertex leaves index 0 out of every chunk: the encoder does the same.
    if (isJsonObject(first) && typeof first['index'] !== 'number') own['$noIndex'] = true;
    if (Object.keys(own).length > 0) e.ext = { [ID]: own };
    return e;
  }

  /** Top-level residue that is new or changed after the first chunk (createTime repeats unchanged). */
  private noteResidue(data: JsonObject): void {
    const r = rest(data, RESPONSE_KEYS);
    for (const key in r) this.noteField(key, r[key]);
  }

  /** One top-level residue field (a plain chunk's only one is its createTime: no residue object made). */
  private noteField(key: string, value: JsonValue | undefined): void {
    const last = this.seen.get(key);
    // createTime repeats in every Vertex chunk: the same string is the same text.
    if (last !== undefined && typeof value === 'string' && last.str === value) return;
    if (writtenAs(value, last?.text)) return;
    const json = JSON.stringify(value);
    if (json === last?.text) return;
    this.seen.set(key, seen(value, json));
    (this.late ??= {})[key] = value ?? null;
  }

  /** Whether usageMetadata differs from the last one given. */
  private usageChanged(u: JsonObject): boolean {
    if (this.usageFlat !== undefined && sameFlat(u, this.usageFlat)) return false;
    if (writtenAs(u, this.usage)) return false;
    const json = JSON.stringify(u);
    if (json === this.usage) return false;
    this.usage = json;
    this.usageFlat = flatOf(u);
    return true;
  }
}

/**
 * usageMetadata as a usage event: only the counts the chunk gives (Vertex's early chunks carry
 * just trafficType), normalized by the non-stream usage mapper.
 */
function usageSoFar(u: JsonObject): Partial<Usage> {
  const usage: Partial<Usage> = decodeUsage(u);
  const noInput = u['promptTokenCount'] === undefined && u['toolUsePromptTokenCount'] === undefined;
  const noOutput = u['candidatesTokenCount'] === undefined && u['thoughtsTokenCount'] === undefined;
  // deleteKeys, not delete: a key deleted before the last makes the event's usage a dictionary.
  if (noInput || noOutput) deleteKeys(usage as JsonObject, (k) => (noInput && k === 'inputTokens') || (noOutput && k === 'outputTokens'));
  return usage;
}

/** google.rpc.Status -> the canonical stream error. */
function decodeError(err: JsonObject): StreamError {
  const message = err['message'];
  const e: StreamError = { message: typeof message === 'string' ? message : 'Gemini stream error', raw: err };
  if (typeof err['status'] === 'string') e.type = err['status'];
  const code = err['code'];
  if (typeof code === 'number' || typeof code === 'string') e.code = code;
  return e;
}

export function streamDecoder(ctx: DecodeContext): StreamDecoder {
  return new GeminiStreamDecoder(ctx);
}

/** A residue field as last seen: its JSON text, and the value itself when it is a string. */
interface Seen {
  text: string;
  str: string | undefined;
}

function seen(value: JsonValue | undefined, text: string = JSON.stringify(value)): Seen {
  return { text, str: typeof value === 'string' ? value : undefined };
}

/** An object's keys and values in order, all of them strings, numbers, booleans or null. */
interface Flat {
  keys: string[];
  values: (string | number | boolean | null)[];
}

/**
 * `u` as a Flat (a copy: the caller may change its event later), or undefined when a value is an
 * object, an array or undefined, or `u` is not a plain object (its for-in could list inherited keys
 * JSON.stringify does not write).
 */
function flatOf(u: JsonObject): Flat | undefined {
  if (!plainObject(u)) return undefined;
  const keys: string[] = [];
  const values: (string | number | boolean | null)[] = [];
  for (const k in u) {
    const v = u[k];
    if (typeof v === 'object' && v !== null) return undefined;
    if (v === undefined) return undefined;
    keys.push(k);
    values.push(v);
  }
  return { keys, values };
}

/**
 * Whether `u` has the same keys in the same order with the same values (===) as `flat`: then
 * JSON.stringify writes both alike (a number is written the same whatever its spelling was; NaN is
 * never ===, and goes to the text comparison).
 */
function sameFlat(u: JsonObject, flat: Flat): boolean {
  if (!plainObject(u)) return false;
  const { keys, values } = flat;
  let i = 0;
  for (const k in u) {
    if (i >= keys.length || keys[i] !== k || u[k] !== values[i]) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * Whether `value` is surely written as `last`, JSON text kept from an earlier chunk. usageMetadata
 * and createTime repeat unchanged in every Vertex chunk: compared with the kept text without writing
 * theirs (jsonTextEquals); false sends the caller to compare the text itself.
 */
function writtenAs(value: JsonValue | undefined, last: string | undefined): boolean {
  return last !== undefined && value !== undefined && jsonTextEquals(value, last);
}
