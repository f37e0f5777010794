/**
 * Folds a canonical stream into the final canonical Response, event by event: each block keeps its
 * fragments and is built once, when it ends. A stream that stops without `response-end` is
 * `complete: false` and reported (`incomplete-stream`): what arrived is kept, nothing is invented
 * (no stop reason, no closing text). An `error` event ends it with `error` set.
 */
import type { Ext } from '../model/ext.js';
import type { JsonValue } from '../model/json.js';
import type { Loss } from '../model/loss.js';
import type { Citation } from '../model/citation.js';
import type { Part } from '../model/part.js';
import type { Choice, Response } from '../model/response.js';
import type { StreamError, StreamEvent } from '../model/stream-event.js';
import type { Usage } from '../model/usage.js';

interface OpenText { kind: 'text'; refusal: boolean; chunks: string[]; citations: Citation[]; ext?: Ext }
interface OpenReasoning {
  kind: 'reasoning';
  start: Extract<StreamEvent, { type: 'reasoning-start' }>;
  text: string[];
  signature: string[];
  summary: string[][];
}
interface OpenToolCall { kind: 'tool-call'; start: Extract<StreamEvent, { type: 'tool-call-start' }>; args: string[] }
type Open = OpenText | OpenReasoning | OpenToolCall;

export interface Accumulated {
  response: Response;
  /** The stream ended as a complete stream of its dialect does. */
  complete: boolean;
  /** The mid-stream error that ended it, if one did. */
  error?: StreamError;
  losses: Loss[];
}

export class Accumulator {
  private readonly res: Response = { choices: [] };
  private readonly byChoice = new Map<number, Choice>();
  private readonly open = new Map<string, Open>();
  private usage: Partial<Usage> | undefined;
  private complete = false;
  private error: StreamError | undefined;
  private readonly losses: Loss[] = [];
  private n = 0;

  push(e: StreamEvent): void {
    const at = this.n++;
    switch (e.type) {
      case 'response-start':
        if (e.id !== undefined) this.res.id = e.id;
        if (e.model !== undefined) this.res.model = e.model;
        if (e.created !== undefined) this.res.created = e.created;
        if (e.ext !== undefined) this.res.ext = mergeExt(this.res.ext, e.ext);
        return;
      case 'text-start':
        this.open.set(key(e), { kind: 'text', refusal: e.refusal === true, chunks: [], citations: [], ...(e.ext ? { ext: e.ext } : {}) });
        return;
      case 'text-delta':
        this.get(e, 'text')?.chunks.push(e.delta);
        return;
      case 'citation':
        this.get(e, 'text')?.citations.push(e.citation);
        return;
      case 'text-end': {
        const b = this.close(e, 'text');
        if (b) this.place(e, textPart(b, e.ext));
        return;
      }
      case 'reasoning-start':
        this.open.set(key(e), { kind: 'reasoning', start: e, text: [], signature: [], summary: [] });
        return;
      case 'reasoning-delta': {
        const b = this.get(e, 'reasoning');
        if (!b) return;
        if (e.text !== undefined) {
          if (e.summaryIndex === undefined) b.text.push(e.text);
          else (b.summary[e.summaryIndex] ??= []).push(e.text);
        }
        if (e.signature !== undefined) b.signature.push(e.signature);
        return;
      }
      case 'reasoning-end': {
        const b = this.close(e, 'reasoning');
        if (b) this.place(e, reasoningPart(b, e));
        return;
      }
      case 'tool-call-start':
        this.open.set(key(e), { kind: 'tool-call', start: e, args: [] });
        return;
      case 'tool-call-delta':
        this.get(e, 'tool-call')?.args.push(e.delta);
        return;
      case 'tool-call-end': {
        const b = this.close(e, 'tool-call');
        if (b) this.place(e, this.toolCallPart(b, e, at));
        return;
      }
      case 'part':
        this.place(e, e.part);
        return;
      case 'usage':
        this.usage = { ...this.usage, ...e.usage };
        return;
      case 'finish': {
        const c = this.choice(e.choice ?? 0);
        c.stopReason = e.stopReason;
        if (e.ext !== undefined) c.ext = mergeExt(c.ext, e.ext);
        return;
      }
      case 'response-end':
        if (e.ext !== undefined) this.res.ext = mergeExt(this.res.ext, e.ext);
        this.complete = true;
        return;
      case 'error':
        this.error = e.error;
        return;
      case 'provider-event':
        if (e.keepalive !== true) {
          this.losses.push({ code: 'provider-event', path: [at], message: `a ${e.origin} stream event has no place in a final response`, action: 'dropped' });
        }
        return;
    }
  }

  result(): Accumulated {
    if (!this.complete && this.error === undefined) {
      // Blocks still open keep what arrived, so nothing said is lost; nothing is made up to close them.
      for (const [k, b] of this.open) {
        const [choice, index] = k.split(':').map(Number) as [number, number];
        const ref = { choice, index };
        if (b.kind === 'text') this.place(ref, textPart(b, undefined));
        else if (b.kind === 'reasoning') this.place(ref, reasoningPart(b, { type: 'reasoning-end', index }));
        else this.place(ref, this.toolCallPart(b, { type: 'tool-call-end', index }, this.n));
      }
      this.open.clear();
      this.losses.push(incompleteStreamLoss(this.n));
    }
    const res: Response = { ...this.res, choices: [...this.byChoice.values()].sort((a, b) => a.index - b.index) };
    if (this.usage !== undefined) res.usage = { inputTokens: 0, outputTokens: 0, ...this.usage };
    const out: Accumulated = { response: res, complete: this.complete, losses: this.losses };
    if (this.error !== undefined) out.error = this.error;
    return out;
  }

  private choice(index: number): Choice {
    let c = this.byChoice.get(index);
    if (c === undefined) this.byChoice.set(index, (c = { index, message: { role: 'assistant', parts: [] } }));
    return c;
  }

  private get<K extends Open['kind']>(ref: { choice?: number; index: number }, kind: K): Extract<Open, { kind: K }> | undefined {
    const b = this.open.get(key(ref));
    return b?.kind === kind ? (b as Extract<Open, { kind: K }>) : undefined;
  }

  private close<K extends Open['kind']>(ref: { choice?: number; index: number }, kind: K): Extract<Open, { kind: K }> | undefined {
    const b = this.get(ref, kind);
    if (b) this.open.delete(key(ref));
    return b;
  }

  private place(ref: { choice?: number; index: number }, part: Part): void {
    this.choice(ref.choice ?? 0).message.parts[ref.index] = part;
  }

  private toolCallPart(b: OpenToolCall, end: Extract<StreamEvent, { type: 'tool-call-end' }>, at: number): Part {
    const text = end.arguments ?? b.args.join('');
    const part: Part = { type: 'tool-call', id: b.start.id, name: b.start.name, arguments: {} };
    if (text !== '') {
      try {
        part.arguments = JSON.parse(text) as JsonValue;
        // The exact text matters only where serializing the value would not give it back.
        if (JSON.stringify(part.arguments) !== text) part.argumentsJson = text;
      } catch {
        part.argumentsJson = text;
        this.losses.push({ code: 'invalid-arguments', path: [at], message: `tool call '${b.start.id}': the arguments are not valid JSON; kept as text, {} as the value`, action: 'approximated' });
      }
    }
    if (b.start.providerExecuted) part.providerExecuted = true;
    const ext = mergeExt(b.start.ext, end.ext);
    if (ext !== undefined) part.ext = ext;
    return part;
  }
}

/** The loss of a stream that stopped without its end event (or error): what arrived is all there is. */
export function incompleteStreamLoss(at: number, cutTail?: string): Loss {
  const cut = cutTail === undefined ? '' : ` (it was cut inside ${cutTail}, which is left out)`;
  return { code: 'incomplete-stream', path: [at], message: `the stream ended before its end event${cut}: the response is what arrived, with no stop reason`, action: 'approximated' };
}

const key = (ref: { choice?: number; index: number }): string => `${ref.choice ?? 0}:${ref.index}`;

function mergeExt(a: Ext, b: Ext | undefined): Ext;
function mergeExt(a: Ext | undefined, b: Ext): Ext;
function mergeExt(a: Ext | undefined, b: Ext | undefined): Ext | undefined;
function mergeExt(a: Ext | undefined, b: Ext | undefined): Ext | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out: Ext = { ...a };
  for (const [origin, v] of Object.entries(b)) out[origin] = { ...out[origin], ...v };
  return out;
}

function textPart(b: OpenText, endExt: Ext | undefined): Part {
  const text = b.chunks.join('');
  const ext = mergeExt(b.ext, endExt);
  if (b.refusal) return ext ? { type: 'refusal', text, ext } : { type: 'refusal', text };
  const part: Part = { type: 'text', text };
  if (b.citations.length > 0) part.citations = b.citations;
  if (ext !== undefined) part.ext = ext;
  return part;
}

function reasoningPart(b: OpenReasoning, end: Extract<StreamEvent, { type: 'reasoning-end' }>): Part {
  const s = b.start;
  const part: Part = { type: 'reasoning', origin: s.origin };
  if (b.text.length > 0) part.text = b.text.join('');
  const signature = end.signature ?? (b.signature.length > 0 ? b.signature.join('') : undefined);
  if (signature !== undefined) part.signature = signature;
  const redacted = end.redactedData ?? s.redactedData;
  if (redacted !== undefined) part.redactedData = redacted;
  const encrypted = end.encryptedContent ?? s.encryptedContent;
  if (encrypted !== undefined) part.encryptedContent = encrypted;
  if (b.summary.length > 0) part.summary = Array.from(b.summary, (chunks) => (chunks ?? []).join(''));
  if (s.id !== undefined) part.id = s.id;
  const ext = mergeExt(s.ext, end.ext);
  if (ext !== undefined) part.ext = ext;
  return part;
}

/** The final response of a whole canonical stream. */
export function accumulate(events: Iterable<StreamEvent>): Accumulated {
  const a = new Accumulator();
  for (const e of events) a.push(e);
  return a.result();
}
