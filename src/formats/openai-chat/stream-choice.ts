/**
 * One choice of a Chat Completions stream -> canonical block events. Chat has no block start or
 * end: a text block (reasoning_content / reasoning, content, refusal) opens with the first
 * non-empty fragment of its kind and closes when another block opens, or at the choice's
 * finish_reason (or at [DONE]). Tool calls are addressed by their wire index and may interleave;
 * stream-tool-calls.ts says when each one ends. Canonical indices count blocks in the order they
 * first appear, so parallel tool calls get distinct indices whatever their wire `index` (a
 * provider may start at 1, omit it, or reuse 0 with a new id).
 */
import { ValidationError } from '../../model/errors.js';
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { residue } from '../shared/residue.js';
import type { ToolCallIds } from '../shared/tool-call-ids.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { decodeFinishReason } from './stop-reason.js';
import { annotationCitations } from './stream-annotations.js';
import { ToolCalls } from './stream-tool-calls.js';
import { childPath } from '../shared/child-path.js';

const DELTA_KEYS = new Set(['role', 'content', 'refusal', 'reasoning_content', 'reasoning', 'tool_calls', 'function_call', 'annotations']);
const CHOICE_KEYS = new Set(['index', 'delta', 'finish_reason', 'logprobs']);

type Kind = 'text' | 'refusal' | 'reasoning';

const ext = (rest: JsonObject | undefined): { ext?: Ext } => (rest === undefined ? {} : { ext: { [OPENAI_CHAT]: rest } });

function merge(into: JsonObject | undefined, rest: JsonObject | undefined): JsonObject | undefined {
  if (rest === undefined) return into;
  return { ...into, ...rest };
}

export class ChoiceDecoder {
  private next = 0;
  private open: { kind: Kind; index: number; field?: string; start: number } | undefined;
  private readonly calls: ToolCalls;
  private contentLength = 0;
  /** The wire event being decoded, for loss paths. */
  private at = 0;
  finished = false;
  /** Choice-level fields other than the known ones (Azure content_filter_results ...): last value wins. */
  private rest: JsonObject | undefined;
  /** logprobs, concatenated across chunks as the official SDK does: undefined = never present. */
  private logprobs: JsonObject | null | undefined;

  constructor(
    readonly choice: number,
    private readonly losses: LossSink,
    /** Shared by every choice of the response: the canonical stream holds each id once. */
    toolIds: ToolCallIds,
  ) {
    this.calls = new ToolCalls({
      choice,
      losses,
      toolIds,
      nextIndex: () => this.next++,
      ref: (index) => this.ref(index),
      closeText: (out) => this.closeText(out),
    });
  }

  private ref(index: number): { choice?: number; index: number } {
    return this.choice === 0 ? { index } : { choice: this.choice, index };
  }

  /** One `choices[]` entry of chunk `at`; `leftover` gets the delta fields with no canonical meaning. */
  push(c: JsonObject, at: number, path: Path, out: StreamEvent[], leftover: (delta: JsonObject) => void): void {
    this.at = at;
    const delta = c['delta'];
    if (delta !== undefined && delta !== null) {
      if (this.finished && this.saysSomething(delta as JsonObject)) {
        throw new ValidationError([{ code: 'after_finish', path: childPath(path, 'delta'), message: `choice ${this.choice} continues after its finish_reason` }]);
      }
      this.delta(delta as JsonObject, childPath(path, 'delta'), out, leftover);
    }
    this.addLogprobs(c['logprobs']);
    this.rest = merge(this.rest, residue(c, CHOICE_KEYS));
    const finish = c['finish_reason'];
    if (typeof finish === 'string') {
      if (this.finished) throw new ValidationError([{ code: 'after_finish', path: childPath(path, 'finish_reason'), message: `choice ${this.choice} finished twice` }]);
      this.finish(finish, out);
    }
  }

  private saysSomething(d: JsonObject): boolean {
    const c = d['content'];
    return (typeof c === 'string' && c !== '') || Array.isArray(c) || !!d['refusal'] || !!d['reasoning_content'] || !!d['reasoning'] || Array.isArray(d['tool_calls']) || !!d['function_call'];
  }

  private delta(d: JsonObject, path: Path, out: StreamEvent[], leftover: (delta: JsonObject) => void): void {
    let rest = residue(d, DELTA_KEYS);
    // Reasoning comes before the answer it led to, as in a whole message.
    const rc = d['reasoning_content'];
    const r = d['reasoning'];
    if (typeof rc === 'string' && rc !== '') {
      this.text('reasoning', rc, out, 'reasoning_content');
      if (typeof r === 'string' && r !== rc && r !== '') (rest ??= {})['reasoning'] = r;
    } else if (typeof r === 'string' && r !== '') this.text('reasoning', r, out, 'reasoning');
    const content = d['content'];
    if (typeof content === 'string') {
      if (content !== '') this.text('text', content, out);
    } else if (Array.isArray(content)) {
      const others = content.filter((p) => (p as JsonObject)['type'] !== 'text');
      for (const p of content) if ((p as JsonObject)['type'] === 'text' && (p as JsonObject)['text'] !== '') this.text('text', (p as JsonObject)['text'] as string, out);
      if (others.length > 0) (rest ??= {})['content'] = others;
    }
    const refusal = d['refusal'];
    if (typeof refusal === 'string' && refusal !== '') this.text('refusal', refusal, out);
    const calls = d['tool_calls'];
    if (Array.isArray(calls)) calls.forEach((f, j) => this.calls.fragment(f as JsonObject, childPath(path, 'tool_calls', j), this.at, out));
    const fc = d['function_call'];
    if (fc !== null && typeof fc === 'object') this.calls.fragment(fc as JsonObject, childPath(path, 'function_call'), this.at, out, true);
    const annotations = d['annotations'];
    if (Array.isArray(annotations) && annotations.length > 0) {
      const cites = this.open?.kind === 'text' ? annotationCitations(annotations, this.open.start) : undefined;
      if (cites === undefined) (rest ??= {})['annotations'] = annotations;
      else for (const citation of cites) out.push({ type: 'citation', ...this.ref((this.open as { index: number }).index), citation });
    }
    if (rest !== undefined) leftover(rest);
  }

  private text(kind: Kind, delta: string, out: StreamEvent[], field?: string): void {
    const open = this.open;
    let index: number;
    if (open !== undefined && open.kind === kind && open.field === field) index = open.index;
    else {
      // Another block opens: the open text block closes, tool calls before it may end.
      this.calls.opening(out, this.at);
      index = this.next++;
      this.open = { kind, index, start: this.contentLength, ...(field === undefined ? {} : { field }) };
      if (kind === 'reasoning') out.push({ type: 'reasoning-start', ...this.ref(index), origin: OPENAI_CHAT, ...ext(field === 'reasoning' ? { $field: 'reasoning' } : undefined) });
      else out.push({ type: 'text-start', ...this.ref(index), ...(kind === 'refusal' ? { refusal: true as const } : {}) });
    }
    // Written out, not `{ type, ...ref, key }`: a spread followed by a new key is V8's slow path.
    const c = this.choice;
    if (kind === 'reasoning') out.push(c === 0 ? { type: 'reasoning-delta', index, text: delta } : { type: 'reasoning-delta', choice: c, index, text: delta });
    else out.push(c === 0 ? { type: 'text-delta', index, delta } : { type: 'text-delta', choice: c, index, delta });
    if (kind === 'text') this.contentLength += delta.length;
  }

    /** Closes the open text or reasoning block, if any. */
  private closeText(out: StreamEvent[]): void {
    const open = this.open;
    if (open === undefined) return;
    out.push(open.kind === 'reasoning' ? { type: 'reasoning-end', ...this.ref(open.index) } : { type: 'text-end', ...this.ref(open.index) });
    this.open = undefined;
  }

  /** Closes every open block: the text block and the open tool calls (a call that never got a name starts with ''). */
  closeAll(out: StreamEvent[], at?: number): void {
    if (at !== undefined) this.at = at;
    this.closeText(out);
    this.calls.closeAll(out, this.at);
  }

  private addLogprobs(lp: JsonValue | undefined): void {
    if (lp === undefined) return;
    if (lp === null || typeof lp !== 'object' || Array.isArray(lp)) {
      if (this.logprobs === undefined) this.logprobs = null;
      return;
    }
    // Token lists are copied once, then appended to in place: work per chunk is its own tokens.
    const acc = (this.logprobs ??= {});
    for (const key in lp) {
      const v = lp[key] as JsonValue;
      const list = key === 'content' || key === 'refusal';
      if (!list) acc[key] = v;
      else if (!Array.isArray(v)) acc[key] ??= v;
      else {
        const prev = acc[key];
        if (Array.isArray(prev)) for (const t of v) prev.push(t);
        else acc[key] = [...v];
      }
    }
  }

  /** finish_reason: the open blocks close, then the stop reason with this choice's fields and logprobs. */
  finish(raw: string, out: StreamEvent[]): void {
    this.closeAll(out);
    const stopReason = decodeFinishReason(raw);
    let rest = this.rest;
    if (this.logprobs === undefined) rest = { ...rest, $noLogprobs: true };
    else rest = { ...rest, logprobs: this.logprobs };
    if (stopReason.unified === 'other') rest = { ...rest, $rawFinish: true };
    out.push({ type: 'finish', ...(this.choice === 0 ? {} : { choice: this.choice }), stopReason, ...ext(rest) });
    this.finished = true;
  }
}
