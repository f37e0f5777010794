/**
 * Chat Completions stream (SSE `data:` chunks of `chat.completion.chunk`, then `data: [DONE]`) ->
 * canonical stream events, one chunk at a time.
 *
 * - The response starts at the first chunk with choices or usage; chunks before it (Azure's
 *   prompt_filter_results chunk, with empty id and model) only add their fields to it. id, model
 *   and created come from that chunk (the spec says every chunk repeats them); other top-level
 *   fields of it (system_fingerprint, service_tier, x_groq ...) are `response-start` ext. A later
 *   chunk's field that differs from what the response started with (Groq's final x_groq with
 *   usage, a moderation result) is kept, last value wins, on `response-end` ext.
 *   `obfuscation` is random padding against length side channels (OpenAPI spec): not kept.
 * - Choices are interleaved by `index` (n > 1): each has its own blocks (stream-choice.ts).
 * - `usage` (the last chunk, with empty choices, under stream_options.include_usage; or with the
 *   finish chunk on Groq, Mistral, Moonshot) -> `usage`, normalized by the response codec.
 * - Delta fields with no canonical meaning (audio, OpenRouter reasoning_details ...) -> a
 *   provider-event holding a chunk with just those fields, which this codec's encoder re-emits.
 * - `{"error": {...}}` (or an SSE `event: error`) -> canonical `error`; the stream ends there.
 * - `[DONE]` closes what is open -> `response-end`. Without `[DONE]`, `end()` completes the stream
 *   only when every choice gave its finish_reason (what the official SDK requires to accept a
 *   stream); the end then carries `$noDone` so this codec's encoder leaves `[DONE]` out too.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ResponseStartEvent, StreamError, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { ChoiceDecoder } from './stream-choice.js';
import { checkChunk } from './stream-validate.js';
import { decodeUsage } from './usage.js';

const CHUNK_KEYS = new Set(['id', 'object', 'created', 'model', 'choices', 'usage', 'obfuscation', 'error']);

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A provider's error object (OpenAI `{message, type, param, code}`, or a bare string) -> StreamError. */
export function decodeStreamError(error: JsonValue): StreamError {
  if (!isJsonObject(error)) return { message: typeof error === 'string' ? error : JSON.stringify(error), raw: error };
  const out: StreamError = { message: typeof error['message'] === 'string' ? error['message'] : JSON.stringify(error), raw: error };
  if (typeof error['type'] === 'string') out.type = error['type'];
  const code = error['code'];
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  return out;
}

export class ChatStreamDecoder implements StreamDecoder {
  private n = -1;
  private state: 'before' | 'open' | 'over' = 'before';
  private overBy: '[DONE]' | 'error' = '[DONE]';
  private readonly head: { id?: string; model?: string; created?: number } = {};
  private startRest: JsonObject | undefined;
  private late: JsonObject | undefined;
  private readonly choices = new Map<number, ChoiceDecoder>();
  private readonly toolIds = new ToolCallIds();

  constructor(private readonly ctx: DecodeContext) {}

  /** The chunk and choice being read, for onLeftover: one callback for the decoder's life, not one made per chunk. */
  private chunkData: JsonObject = {};
  private chunkIndex = 0;
  private chunkOut: StreamEvent[] = [];
  private readonly onLeftover = (rest: JsonObject): void => {
    this.chunkOut.push(this.leftover(this.chunkData, this.chunkIndex, rest));
  };

  push(wire: WireEvent): StreamEvent[] {
    const at = ++this.n;
    const data = wire.data;
    if (this.state === 'over') {
      // OpenAI closes the stream after an error; a [DONE] after it says nothing more.
      if (this.overBy === 'error' && typeof data === 'string' && data.trim() === '[DONE]') return [];
      throw new ValidationError([{ code: 'after_end', path: [at], message: `a stream event after ${this.overBy}` }]);
    }
    const out: StreamEvent[] = [];
    if (typeof data === 'string') {
      if (data.trim() !== '[DONE]') throw new ValidationError([{ code: 'invalid_json', path: [at], message: `expected a JSON chunk or [DONE], received ${JSON.stringify(data.slice(0, 40))}` }]);
      this.start(out);
      for (const c of this.choices.values()) c.closeAll(out, at);
      out.push(this.endEvent(false));
      return out;
    }
    if (!isJsonObject(data)) throw new ValidationError([{ code: 'invalid_type', path: [at], message: 'a chunk must be a JSON object' }]);
    const error = data['error'];
    const isError = wire.event === 'error' || (error !== undefined && error !== null);
    if (!isError) checkChunk(data, at, this.ctx.limits);
    if (!isError) this.readHead(data);
    const choices = Array.isArray(data['choices']) ? (data['choices'] as JsonObject[]) : [];
    const usage = data['usage'];
    if (this.state === 'before' && (choices.length > 0 || isJsonObject(usage) || isError)) this.start(out);
    else if (this.state === 'open') this.lateFields(data);
    if (isError) {
      for (const c of this.choices.values()) c.closeAll(out, at);
      out.push({ type: 'error', error: decodeStreamError(error ?? data) });
      this.state = 'over';
      this.overBy = 'error';
      return out;
    }
    for (let i = 0; i < choices.length; i++) {
      const c = choices[i] as JsonObject;
      const index = c['index'] as number;
      let choice = this.choices.get(index);
      if (choice === undefined) this.choices.set(index, (choice = new ChoiceDecoder(index, this.ctx.losses, this.toolIds)));
      this.chunkData = data;
      this.chunkIndex = index;
      this.chunkOut = out;
      choice.push(c, at, [at, 'choices', i], out, this.onLeftover);
    }
    if (isJsonObject(usage)) out.push({ type: 'usage', usage: decodeUsage(usage) });
    return out;
  }

  end(): StreamEvent[] {
    if (this.state !== 'open' || this.choices.size === 0) return [];
    for (const c of this.choices.values()) if (!c.finished) return [];
    return [this.endEvent(true)];
  }

  private readHead(data: JsonObject): void {
    if (this.state !== 'before') return;
    // Take each from the chunk that starts the response, else from an earlier one (never '').
    for (const key of ['id', 'model'] as const) {
      const v = data[key];
      if (typeof v === 'string' && (v !== '' || this.head[key] === undefined)) this.head[key] = v;
    }
    const created = data['created'];
    if (typeof created === 'number' && (created !== 0 || this.head.created === undefined)) this.head.created = created;
    const rest = residue(data, CHUNK_KEYS);
    if (rest !== undefined) this.startRest = { ...this.startRest, ...rest };
  }

  private start(out: StreamEvent[]): void {
    if (this.state !== 'before') return;
    const e: ResponseStartEvent = { type: 'response-start' };
    if (this.head.id !== undefined && this.head.id !== '') e.id = this.head.id;
    if (this.head.model !== undefined && this.head.model !== '') e.model = this.head.model;
    if (this.head.created !== undefined) e.created = this.head.created;
    if (this.startRest !== undefined) e.ext = { [OPENAI_CHAT]: this.startRest };
    out.push(e);
    this.state = 'open';
  }

  /** Top-level fields of a later chunk that say something new: kept for the end, objects merged. */
  private lateFields(data: JsonObject): void {
    const rest = residue(data, CHUNK_KEYS);
    if (rest === undefined) return;
    for (const key in rest) {
      const v = rest[key] as JsonValue;
      const prev = this.late?.[key] ?? this.startRest?.[key];
      if (sameJson(prev, v)) continue;
      (this.late ??= {})[key] = isJsonObject(prev) && isJsonObject(v) ? { ...prev, ...v } : v;
    }
  }

  private endEvent(noDone: boolean): StreamEvent {
    this.state = 'over';
    this.overBy = '[DONE]';
    const rest = noDone ? { ...this.late, $noDone: true } : this.late;
    return rest === undefined ? { type: 'response-end' } : { type: 'response-end', ext: { [OPENAI_CHAT]: rest } };
  }

  /** Delta fields with no canonical slot, as a chunk of their own that this codec can re-emit. */
  private leftover(data: JsonObject, index: number, delta: JsonObject): StreamEvent {
    const chunk: JsonObject = {};
    for (const key of ['id', 'object', 'created', 'model']) if (data[key] !== undefined) chunk[key] = data[key] as JsonValue;
    chunk['choices'] = [{ index, delta, finish_reason: null }];
    return { type: 'provider-event', origin: OPENAI_CHAT, event: { data: chunk } };
  }
}

export function streamDecoder(ctx: DecodeContext): StreamDecoder {
  return new ChatStreamDecoder(ctx);
}
