/**
 * One choice of a Chat Completions stream -> canonical block events. Chat has no block start or
 * end: a block opens with the first non-empty fragment of its kind (reasoning_content / reasoning,
 * content, refusal, one tool call per tool_calls entry) and closes when another block opens, or
 * at the choice's finish_reason (or at [DONE]). One block is open at a time, as the official SDK
 * reads the stream (it ends a tool call when the next one starts); canonical indices count
 * blocks in the order they open, so parallel tool calls get distinct indices whatever their
 * wire `index` (a provider may start at 1, omit it, or reuse 0 with a new id).
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

const DELTA_KEYS = new Set(['role', 'content', 'refusal', 'reasoning_content', 'reasoning', 'tool_calls', 'function_call', 'annotations']);
const FRAGMENT_KEYS = new Set(['index', 'id', 'type', 'function']);
const FN_KEYS = new Set(['name', 'arguments']);
const CHOICE_KEYS = new Set(['index', 'delta', 'finish_reason', 'logprobs']);

type Kind = 'text' | 'refusal' | 'reasoning';

interface ToolState {
  index?: number;
  id?: string;
  name?: string;
  legacy: boolean;
  /** Arguments that came before the name, given as one delta when the call starts. */
  pending: string[];
  started: boolean;
  open: boolean;
  startRest?: JsonObject | undefined;
  endRest?: JsonObject | undefined;
}

const ext = (rest: JsonObject | undefined): { ext?: Ext } => (rest === undefined ? {} : { ext: { [OPENAI_CHAT]: rest } });

function merge(into: JsonObject | undefined, rest: JsonObject | undefined): JsonObject | undefined {
  if (rest === undefined) return into;
  return { ...into, ...rest };
}

export class ChoiceDecoder {
  private next = 0;
  private open: { kind: Kind; index: number; field?: string; start: number } | undefined;
  private tool: ToolState | undefined;
  private readonly byIndex = new Map<number, ToolState>();
  private readonly byId = new Map<string, ToolState>();
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
    private readonly toolIds: ToolCallIds,
  ) {}

  private ref(index: number): { choice?: number; index: number } {
    return this.choice === 0 ? { index } : { choice: this.choice, index };
  }

  /** One `choices[]` entry of chunk `at`; `leftover` gets the delta fields with no canonical meaning. */
  push(c: JsonObject, at: number, path: Path, out: StreamEvent[], leftover: (delta: JsonObject) => void): void {
    this.at = at;
    const delta = c['delta'];
    if (delta !== undefined && delta !== null) {
      if (this.finished && this.saysSomething(delta as JsonObject)) {
        throw new ValidationError([{ code: 'after_finish', path: [...path, 'delta'], message: `choice ${this.choice} continues after its finish_reason` }]);
      }
      this.delta(delta as JsonObject, [...path, 'delta'], out, leftover);
    }
    this.addLogprobs(c['logprobs']);
    this.rest = merge(this.rest, residue(c, CHOICE_KEYS));
    const finish = c['finish_reason'];
    if (typeof finish === 'string') {
      if (this.finished) throw new ValidationError([{ code: 'after_finish', path: [...path, 'finish_reason'], message: `choice ${this.choice} finished twice` }]);
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
    if (Array.isArray(calls)) calls.forEach((f, j) => this.fragment(f as JsonObject, [...path, 'tool_calls', j], out));
    const fc = d['function_call'];
    if (fc !== null && typeof fc === 'object') this.fragment(fc as JsonObject, [...path, 'function_call'], out, true);
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
      this.closeAll(out);
      index = this.next++;
      this.open = { kind, index, start: this.contentLength, ...(field === undefined ? {} : { field }) };
      if (kind === 'reasoning') out.push({ type: 'reasoning-start', ...this.ref(index), origin: OPENAI_CHAT, ...ext(field === 'reasoning' ? { $field: 'reasoning' } : undefined) });
      else out.push({ type: 'text-start', ...this.ref(index), ...(kind === 'refusal' ? { refusal: true as const } : {}) });
    }
    if (kind === 'reasoning') out.push({ type: 'reasoning-delta', ...this.ref(index), text: delta });
    else out.push({ type: 'text-delta', ...this.ref(index), delta });
    if (kind === 'text') this.contentLength += delta.length;
  }

  /** Which call a fragment continues: by wire index (unless it brings another id), else by id, else the open one. */
  private find(f: JsonObject, legacy: boolean): ToolState | undefined {
    if (legacy) return this.tool?.legacy === true ? this.tool : undefined;
    const id = typeof f['id'] === 'string' && f['id'] !== '' ? f['id'] : undefined;
    const idx = f['index'];
    if (typeof idx === 'number') {
      const t = this.byIndex.get(idx);
      return t !== undefined && id !== undefined && t.id !== undefined && t.id !== id ? undefined : t;
    }
    if (id !== undefined) return this.byId.get(id);
    return this.tool;
  }

  private fragment(f: JsonObject, path: Path, out: StreamEvent[], legacy = false): void {
    const fn = legacy ? f : ((f['function'] ?? undefined) as JsonObject | undefined);
    const id = legacy ? undefined : typeof f['id'] === 'string' && f['id'] !== '' ? f['id'] : undefined;
    const name = typeof fn?.['name'] === 'string' && fn['name'] !== '' ? fn['name'] : undefined;
    const args = typeof fn?.['arguments'] === 'string' ? fn['arguments'] : '';
    let rest = legacy ? residue(f, FN_KEYS) : residue(f, FRAGMENT_KEYS);
    const inner = !legacy && fn !== undefined ? residue(fn, FN_KEYS) : undefined;
    if (inner !== undefined) (rest ??= {})['function'] = inner;
    if (!legacy && typeof f['type'] === 'string' && f['type'] !== 'function') (rest ??= {})['type'] = f['type'];
    let t = this.find(f, legacy);
    if (t === undefined) {
      this.closeAll(out);
      t = { legacy, pending: [], started: false, open: true };
      if (!legacy && typeof f['index'] === 'number') this.byIndex.set(f['index'], t);
      if (id !== undefined) this.byId.set(id, t);
      this.tool = t;
    } else if (!t.open) {
      throw new ValidationError([{ code: 'interleaved_tool_call', path, message: `arguments for tool call '${t.id ?? t.name ?? '?'}' after another block started (interleaved tool calls are not supported)` }]);
    }
    if (id !== undefined && t.id === undefined) {
      t.id = id;
      this.byId.set(id, t);
    }
    if (name !== undefined) {
      if (t.name !== undefined && t.name !== name) throw new ValidationError([{ code: 'tool_name_changed', path: [...path, 'function', 'name'], message: `tool call name changed from '${t.name}' to '${name}'` }]);
      t.name = name;
    }
    if (t.started) t.endRest = merge(t.endRest, rest);
    else t.startRest = merge(t.startRest, rest);
    if (!t.started && t.name !== undefined) this.startTool(t, out, path);
    if (args === '') return;
    if (t.started) out.push({ type: 'tool-call-delta', ...this.ref(t.index as number), delta: args });
    else t.pending.push(args);
  }

  private startTool(t: ToolState, out: StreamEvent[], path: Path): void {
    t.index = this.next++;
    t.started = true;
    const name = t.name ?? '';
    // The legacy function_call is answered by name: its name is its id, as in a whole message.
    t.id ??= t.legacy ? name : `call_${this.choice}_${t.index}`;
    this.toolIds.claim(t.id, [...path, t.legacy ? 'name' : 'id']);
    const hints = t.legacy ? { ...t.startRest, $legacy: true } : t.startRest;
    out.push({ type: 'tool-call-start', ...this.ref(t.index), id: t.id, name, ...ext(hints) });
    if (t.pending.length > 0) out.push({ type: 'tool-call-delta', ...this.ref(t.index), delta: t.pending.join('') });
    t.pending = [];
  }

  /** Closes the open block and the open tool call (a call that never got a name starts with ''). */
  closeAll(out: StreamEvent[], at?: number): void {
    if (at !== undefined) this.at = at;
    const open = this.open;
    if (open !== undefined) {
      out.push(open.kind === 'reasoning' ? { type: 'reasoning-end', ...this.ref(open.index) } : { type: 'text-end', ...this.ref(open.index) });
      this.open = undefined;
    }
    const t = this.tool;
    if (t === undefined) return;
    if (!t.started) {
      this.losses.push({ code: 'missing-tool-name', path: [this.at], message: `tool call '${t.id ?? '?'}' of choice ${this.choice} never got a name: kept with an empty name`, action: 'approximated' });
      this.startTool(t, out, [this.at]);
    }
    out.push({ type: 'tool-call-end', ...this.ref(t.index as number), ...ext(t.endRest) });
    t.open = false;
    this.tool = undefined;
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
