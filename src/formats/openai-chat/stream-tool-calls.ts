/**
 * The tool calls of one choice of a Chat Completions stream -> canonical tool-call blocks.
 *
 * Chat addresses a call's fragments by `tool_calls[].index` and never says a call is over, so
 * several calls may be open at once: servers that generate calls in parallel interleave their
 * argument fragments (call 1 starts, call 2 starts, more arguments for call 1). A call's block
 * starts at its first fragment that has its name (canonical indices in order of first
 * appearance) and ends:
 * - when a later block has opened and its arguments are a whole JSON object: nothing valid can
 *   follow then, so a call streamed one after another ends as soon as the next one starts, and an
 *   interleaved one as soon as its last fragment arrives (one-block-at-a-time encoders hold less);
 * - at the choice's finish_reason, at [DONE] or at an error, for every call still open.
 * A fragment for a call that ended that way would make its arguments invalid JSON: whitespace is
 * dropped with a loss, anything else is refused.
 */
import { ValidationError } from '../../model/errors.js';
import type { Ext } from '../../model/ext.js';
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { JsonEnd } from '../shared/json-end.js';
import { residue } from '../shared/residue.js';
import type { ToolCallIds } from '../shared/tool-call-ids.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { childPath } from '../shared/child-path.js';

const FRAGMENT_KEYS = new Set(['index', 'id', 'type', 'function']);
const FN_KEYS = new Set(['name', 'arguments']);

interface Call {
  index?: number;
  id?: string;
  name?: string;
  legacy: boolean;
  /** Arguments that came before the name, given as one delta when the call starts. */
  pending: string[];
  started: boolean;
  open: boolean;
  /** A block opened after this call's first fragment: the call ends once its arguments are whole. */
  superseded: boolean;
  args: JsonEnd;
  startRest?: JsonObject | undefined;
  endRest?: JsonObject | undefined;
}

const ext = (rest: JsonObject | undefined): { ext?: Ext } => (rest === undefined ? {} : { ext: { [OPENAI_CHAT]: rest } });

function merge(into: JsonObject | undefined, rest: JsonObject | undefined): JsonObject | undefined {
  if (rest === undefined) return into;
  return { ...into, ...rest };
}

export interface CallContext {
  choice: number;
  losses: LossSink;
  /** Shared by every choice of the response: the canonical stream holds each id once. */
  toolIds: ToolCallIds;
  /** The next canonical block index of the choice. */
  nextIndex(): number;
  ref(index: number): { choice?: number; index: number };
  /** A new block is about to open: the choice closes its open text or reasoning block. */
  closeText(out: StreamEvent[]): void;
}

/** A tool-call-delta written out (as `ref` places it), not `{ type, ...ref, delta }`: a spread followed by a new key is V8's slow path. */
function deltaEvent(choice: number, index: number, delta: string): StreamEvent {
  return choice === 0 ? { type: 'tool-call-delta', index, delta } : { type: 'tool-call-delta', choice, index, delta };
}

export class ToolCalls {
  /** Calls in order of first appearance, open ones only. */
  private readonly open: Call[] = [];
  /** The latest call, for fragments that name neither index nor id. */
  private last: Call | undefined;
  private readonly byIndex = new Map<number, Call>();
  private readonly byId = new Map<string, Call>();

  constructor(private readonly c: CallContext) {}

  /** A fragment of `tool_calls[]` (or the legacy `function_call` when `legacy`). */
  fragment(f: JsonObject, path: Path, at: number, out: StreamEvent[], legacy = false): void {
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
      this.opening(out, at);
      t = { legacy, pending: [], started: false, open: true, superseded: false, args: new JsonEnd() };
      if (!legacy && typeof f['index'] === 'number') this.byIndex.set(f['index'], t);
      if (id !== undefined) this.byId.set(id, t);
      this.open.push(t);
      this.last = t;
    } else if (!t.open) {
      this.late(t, args, rest, name, path, at);
      return;
    }
    if (id !== undefined && t.id === undefined) {
      t.id = id;
      this.byId.set(id, t);
    }
    if (name !== undefined) {
      if (t.name !== undefined && t.name !== name) throw new ValidationError([{ code: 'tool_name_changed', path: childPath(path, 'function', 'name'), message: `tool call name changed from '${t.name}' to '${name}'` }]);
      t.name = name;
    }
    if (t.started) t.endRest = merge(t.endRest, rest);
    else t.startRest = merge(t.startRest, rest);
    if (!t.started && t.name !== undefined) this.start(t, out, path);
    if (args === '') return;
    t.args.push(args);
    if (t.started) out.push(deltaEvent(this.c.choice, t.index as number, args));
    else t.pending.push(args);
    if (t.superseded && t.started && t.args.complete) this.end(t, out);
  }

  /**
   * Another block opens (a call, text, reasoning): calls that came before it are superseded, and
   * end now if their arguments are whole; a call still without a name starts now (with an empty
   * name, reported), so that blocks keep the order they appeared in.
   */
  opening(out: StreamEvent[], at: number): void {
    this.c.closeText(out);
    for (const t of [...this.open]) {
      t.superseded = true;
      if (!t.started) this.unnamed(t, out, at);
      if (t.args.complete) this.end(t, out);
    }
  }

  /** The choice finished (or the stream ended or failed): every open call ends, in start order. */
  closeAll(out: StreamEvent[], at: number): void {
    for (const t of [...this.open]) {
      if (!t.started) this.unnamed(t, out, at);
      this.end(t, out);
    }
  }

  /** Which call a fragment continues: by wire index (unless it brings another id), else by id, else the latest. */
  private find(f: JsonObject, legacy: boolean): Call | undefined {
    if (legacy) return this.last?.legacy === true && this.last.open ? this.last : undefined;
    const id = typeof f['id'] === 'string' && f['id'] !== '' ? f['id'] : undefined;
    const idx = f['index'];
    if (typeof idx === 'number') {
      const t = this.byIndex.get(idx);
      return t !== undefined && id !== undefined && t.id !== undefined && t.id !== id ? undefined : t;
    }
    if (id !== undefined) return this.byId.get(id);
    return this.last?.open === true ? this.last : undefined;
  }

  /** A fragment for a call that ended: it can only repeat what the call said, or break its JSON. */
  private late(t: Call, args: string, rest: JsonObject | undefined, name: string | undefined, path: Path, at: number): void {
    const label = t.id ?? t.name ?? '?';
    if (args.trim() !== '') {
      throw new ValidationError([{
        code: 'arguments_after_end',
        path: [...path, ...(t.legacy ? [] : ['function']), 'arguments'],
        message: `more arguments for tool call '${label}' after its arguments were a whole JSON object (they would no longer be valid JSON)`,
      }]);
    }
    if (name !== undefined && name !== t.name) throw new ValidationError([{ code: 'tool_name_changed', path: childPath(path, 'function', 'name'), message: `tool call name changed from '${t.name ?? ''}' to '${name}'` }]);
    if (args !== '') this.c.losses.push({ code: 'late-arguments', path: [at], message: `whitespace after the whole arguments of tool call '${label}' is dropped`, action: 'dropped' });
    if (rest !== undefined) this.c.losses.push({ code: 'late-arguments', path: [at], message: `fields ${Object.keys(rest).join(', ')} of a fragment after tool call '${label}' ended are dropped`, action: 'dropped' });
  }

  private unnamed(t: Call, out: StreamEvent[], at: number): void {
    this.c.losses.push({ code: 'missing-tool-name', path: [at], message: `tool call '${t.id ?? '?'}' of choice ${this.c.choice} never got a name: kept with an empty name`, action: 'approximated' });
    this.start(t, out, [at]);
  }

  private start(t: Call, out: StreamEvent[], path: Path): void {
    t.index = this.c.nextIndex();
    t.started = true;
    const name = t.name ?? '';
    // The legacy function_call is answered by name: its name is its id, as in a whole message.
    t.id ??= t.legacy ? name : `call_${this.c.choice}_${t.index}`;
    this.c.toolIds.claim(t.id, childPath(path, t.legacy ? 'name' : 'id'));
    const hints = t.legacy ? { ...t.startRest, $legacy: true } : t.startRest;
    out.push({ type: 'tool-call-start', ...this.c.ref(t.index), id: t.id, name, ...ext(hints) });
    if (t.pending.length > 0) out.push(deltaEvent(this.c.choice, t.index, t.pending.join('')));
    t.pending = [];
  }

  private end(t: Call, out: StreamEvent[]): void {
    out.push({ type: 'tool-call-end', ...this.c.ref(t.index as number), ...ext(t.endRest) });
    t.open = false;
    this.open.splice(this.open.indexOf(t), 1);
  }
}
