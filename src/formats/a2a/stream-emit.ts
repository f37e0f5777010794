/**
 * Writes A2A stream objects for the stream encoder, in the shape the stream takes (`Mode`):
 * - task (default): a Task, status updates wrapping one message each, a final status update;
 * - status / artifact / message: the same, opened by what the decoded stream opened with (a
 *   status update, an artifact update, or bare typed messages with no task: the source design's
 *   event stream);
 * - message-only / task-only: the whole answer as one Message or one Task at the end.
 * Blocks marked `$untyped` go whole as one plain message; blocks of an artifact as artifact
 * updates (text by append / lastChunk).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { StreamError, WireEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { MESSAGE_TYPES as T, STATUS_TYPES as S, CANONICAL_TYPE, TERMINAL_STATES, type A2aVersion, type V1State } from './a2a-api.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { encodePart, loss } from './parts.js';
import { errorFrame, frame } from './stream-wire.js';
import { writeCall, writeResult } from './tool-data.js';
import type { ObjectKind } from './validate.js';
import type { Note } from './versions.js';

export type Mode = 'task' | 'status' | 'message' | 'message-only' | 'task-only' | 'artifact';

export interface EmitterOptions {
  version: A2aVersion;
  mode: Mode;
  rpcId: string | number;
  taskId: string;
  losses: LossSink;
  /** The response-start's `ext.a2a`: the decoded stream's first object (residue and hints). */
  start: JsonObject;
  created?: number;
  /** Whether events may carry their JSON text (StreamEncodeContext.eventText). */
  eventText?: boolean;
}

interface Block {
  messageId: string;
  whole: boolean;
  /** The artifact the block grows in (its fields), if any. */
  artifact: JsonObject | undefined;
  type: string;
  chunks: string[];
  sent: boolean;
  /** An artifact's latest text chunk, held until the next says whether it is the last. */
  held?: string;
  /** The JSON text of the block's fragment messages, cut at the fragment (null: it could not be). */
  template?: Template | null;
}

interface Call extends Block {
  id: string;
  name: string;
  provider: boolean;
}

const STATE_TYPE: Partial<Record<V1State, string>> = {
  TASK_STATE_SUBMITTED: S.runStarted,
  TASK_STATE_WORKING: S.stepStarted,
  TASK_STATE_INPUT_REQUIRED: S.stepFinished,
  TASK_STATE_AUTH_REQUIRED: S.stepFinished,
  TASK_STATE_COMPLETED: S.runFinished,
  TASK_STATE_FAILED: S.runError,
  TASK_STATE_CANCELED: S.runError,
  TASK_STATE_REJECTED: S.runError,
};

const textPart = (text: string): JsonObject => ({ text });

function fields(hints: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const k in hints) if (!k.startsWith('$')) out[k] = hints[k] as JsonValue;
  return out;
}

export class Emitter {
  private readonly contextId: string;
  private readonly defaultMessageId: string;
  private readonly oneShot: boolean;
  private readonly texts = new Map<number, Block>();
  private readonly calls = new Map<number, Call>();
  private readonly pending: JsonObject[] = [];
  private pendingId: string | undefined;
  private readonly artifacts = new Map<string, JsonObject>();
  private readonly sentArtifacts = new Set<string>();
  private wires = 0;
  private readonly note: Note;

  constructor(private readonly o: EmitterOptions) {
    this.contextId = typeof o.start['contextId'] === 'string' ? o.start['contextId'] : `ctx-${o.taskId}`;
    this.defaultMessageId = `msg-${o.taskId}`;
    this.oneShot = o.mode === 'message-only' || o.mode === 'task-only';
    this.note = (path, code, message) => o.losses.push({ code, path, message, action: 'dropped' });
  }

  private emit(kind: ObjectKind, obj: JsonObject, final: boolean, out: WireEvent[]): void {
    out.push(frame(kind, obj, this.o.version, this.o.rpcId, final, [this.wires++], this.note));
  }

  /** The first object of the stream, as the mode opens it. */
  open(out: WireEvent[]): void {
    const start = fields(this.o.start);
    const status: JsonObject = isJsonObject(start['status']) ? { ...start['status'] } : {};
    if (status['timestamp'] === undefined && this.o.created !== undefined) status['timestamp'] = new Date(this.o.created * 1000).toISOString();
    if (this.o.mode === 'task') {
      status['state'] ??= 'TASK_STATE_SUBMITTED';
      const meta = { ...(isJsonObject(start['metadata']) ? start['metadata'] : {}), [CANONICAL_TYPE]: S.runStarted };
      this.emit('task', { ...start, id: this.o.taskId, contextId: this.contextId, status, metadata: meta }, false, out);
    } else if (this.o.mode === 'status') {
      status['state'] ??= 'TASK_STATE_SUBMITTED';
      const meta = { ...(isJsonObject(start['metadata']) ? start['metadata'] : {}), [CANONICAL_TYPE]: STATE_TYPE[status['state'] as V1State] ?? S.runStarted };
      this.emit('status-update', { ...start, taskId: this.o.taskId, contextId: this.contextId, status, metadata: meta }, false, out);
    }
  }

  private message(messageId: string, parts: JsonObject[], type: string | null, agent: boolean, out: WireEvent[]): void {
    if (this.oneShot) {
      this.pending.push(...parts);
      this.pendingId ??= messageId;
      return;
    }
    const [kind, obj] = this.messageObject(messageId, parts, type, agent);
    this.emit(kind, obj, false, out);
  }

  /** A message as the stream sends it: bare in message mode, else wrapped in a working status update. */
  private messageObject(messageId: string, parts: JsonObject[], type: string | null, agent: boolean): [ObjectKind, JsonObject] {
    const msg: JsonObject = { messageId, role: agent ? 'ROLE_AGENT' : 'ROLE_USER', parts };
    if (this.o.mode === 'message') {
      // With no task, ids are written only as the stream had them.
      for (const k of ['contextId', 'taskId'] as const) if (typeof this.o.start[k] === 'string') msg[k] = this.o.start[k];
    } else {
      msg['contextId'] = this.contextId;
      msg['taskId'] = this.o.taskId;
    }
    if (type !== null) msg['metadata'] = { [CANONICAL_TYPE]: type };
    if (this.o.mode === 'message') return ['message', msg];
    return ['status-update', { taskId: this.o.taskId, contextId: this.contextId, status: { state: 'TASK_STATE_WORKING', message: msg } }];
  }

  /**
   * A text or argument fragment of a streamed block as its own message (`part` of the fragment),
   * written from the block's template (stream-written.ts): hundreds per stream, each otherwise
   * serialized whole.
   */
  private fragment(b: Block, type: string, part: (v: string) => JsonObject, value: string, out: WireEvent[]): void {
    const [kind, obj] = this.messageObject(b.messageId, [part(value)], type, true);
    const at = out.length;
    this.emit(kind, obj, false, out);
    if (b.template === undefined) {
      // The template's own objects go through `frame` with no loss sink: only the real event reports.
      const frameOf = (v: string): JsonValue => {
        const [k, o] = this.messageObject(b.messageId, [part(v)], type, true);
        return frame(k, o, this.o.version, this.o.rpcId, false, [], () => undefined).data;
      };
      b.template = Template.of(1, frameOf, this.o.eventText) ?? null;
    }
    const e = out[at] as WireEvent;
    if (b.template !== null && e.event === undefined) out[at] = new WrittenEvent(e.data, b.template.fill1(jsonString(value)));
  }

  /** Parts of an artifact: buffered for a task-only answer, else one artifact update. */
  private artifactUpdate(art: JsonObject, parts: JsonObject[], last: boolean, out: WireEvent[]): void {
    const id = String(art['artifactId']);
    if (this.o.mode === 'task-only') {
      const a = this.artifacts.get(id) ?? { ...art, parts: [] };
      (a['parts'] as JsonObject[]).push(...parts);
      this.artifacts.set(id, a);
      return;
    }
    const first = !this.sentArtifacts.has(id);
    this.sentArtifacts.add(id);
    const u: JsonObject = { taskId: this.o.taskId, contextId: this.contextId, artifact: first ? { ...art, parts } : { artifactId: art['artifactId'] as JsonValue, parts } };
    if (!first) u['append'] = true;
    if (last) u['lastChunk'] = true;
    this.emit('artifact-update', u, false, out);
  }

  private block(hints: JsonObject | undefined, type: string): Block {
    const art = hints?.['artifactId'] !== undefined ? fields(hints) : undefined;
    return {
      messageId: typeof hints?.['messageId'] === 'string' ? hints['messageId'] : this.defaultMessageId,
      whole: hints?.['$untyped'] === true || this.oneShot || (art !== undefined && type !== T.chunk),
      artifact: art,
      type: typeof hints?.['$fragment'] === 'string' ? hints['$fragment'] : type,
      chunks: [],
      sent: false,
    };
  }

  textStart(index: number, hints: JsonObject | undefined): void {
    const b = this.block(hints, T.chunk);
    // A2A tells text messages apart by messageId only: a text block opened while another is still
    // open (Bedrock closes all blocks at the end) needs its own id, or their fragments would merge.
    if (typeof hints?.['messageId'] !== 'string' && [...this.texts.values()].some((o) => o.messageId === b.messageId)) b.messageId = `${b.messageId}-${index}`;
    // An artifact's text streams as artifact updates (append / lastChunk), not as messages.
    if (b.artifact !== undefined && this.o.mode !== 'task-only') b.whole = false;
    this.texts.set(index, b);
  }

  textDelta(index: number, delta: string, out: WireEvent[]): void {
    const b = this.texts.get(index);
    if (b === undefined || delta === '') return;
    b.chunks.push(delta);
    if (b.whole) return;
    if (b.artifact !== undefined) {
      // The artifact's fields go with its first update; a new text block of it starts afresh.
      // Each chunk waits for the next, so the last one carries lastChunk (as A2A agents send it).
      if (b.held !== undefined) this.artifactText(b, b.held, false, out);
      b.held = delta;
      return;
    }
    this.fragment(b, b.type, textPart, delta, out);
    b.sent = true;
  }

  textEnd(index: number, out: WireEvent[]): void {
    const b = this.texts.get(index);
    if (b === undefined) return;
    this.texts.delete(index);
    const text = b.chunks.join('');
    if (b.artifact !== undefined) this.artifactText(b, b.held ?? '', true, out);
    else if (b.whole) this.message(b.messageId, [{ text }], null, true, out);
    else this.message(b.messageId, [{ text }], T.end, true, out);
  }

  private artifactText(b: Block, text: string, last: boolean, out: WireEvent[]): void {
    const art = b.artifact as JsonObject;
    if (!b.sent) this.sentArtifacts.delete(String(art['artifactId']));
    this.artifactUpdate(art, [{ text }], last, out);
    b.sent = true;
  }

  callStart(index: number, id: string, name: string, provider: boolean, hints: JsonObject | undefined, out: WireEvent[]): void {
    const c: Call = { ...this.block(hints, T.toolStart), id, name, provider };
    this.calls.set(index, c);
    if (!c.whole) this.message(c.messageId, [{ data: { tool_calls: [writeCall(id, name, '', undefined)] } }], T.toolStart, true, out);
  }

  callDelta(index: number, delta: string, out: WireEvent[]): void {
    const c = this.calls.get(index);
    if (c === undefined || delta === '') return;
    c.chunks.push(delta);
    if (!c.whole) this.fragment(c, T.toolArgs, (v) => ({ data: { tool_calls: [writeCall(c.id, c.name, v, undefined)] } }), delta, out);
  }

  callEnd(index: number, args: string | undefined, out: WireEvent[]): void {
    const c = this.calls.get(index);
    if (c === undefined) return;
    this.calls.delete(index);
    const text = c.chunks.length > 0 ? c.chunks.join('') : (args ?? '');
    if (!c.whole) {
      // Arguments that came only at the end go as one fragment.
      if (c.chunks.length === 0 && text !== '') this.message(c.messageId, [{ data: { tool_calls: [writeCall(c.id, c.name, text, undefined)] } }], T.toolArgs, true, out);
      return;
    }
    const data: JsonObject = { data: { tool_calls: [writeCall(c.id, c.name, text, undefined)] } };
    if (c.artifact !== undefined) this.artifactUpdate(c.artifact, [data], false, out);
    else this.message(c.messageId, [data], null, true, out);
  }

  part(_index: number, part: Part, path: Path, out: WireEvent[]): void {
    const hints = part.ext?.['a2a'];
    const messageId = typeof hints?.['$messageId'] === 'string' ? hints['$messageId'] : this.defaultMessageId;
    const art = isJsonObject(hints?.['$artifact']) ? hints['$artifact'] : undefined;
    let wire: JsonObject | undefined;
    let type: string = typeof hints?.['$fragment'] === 'string' ? hints['$fragment'] : T.content;
    if (part.type === 'tool-result') {
      wire = { data: { tool_results: [writeResult(part, path, this.o.losses)] } };
      type = T.toolResult;
    } else wire = encodePart(part, path, this.o.losses);
    if (wire === undefined) return;
    if (art !== undefined) this.artifactUpdate(art, [wire], false, out);
    else this.message(messageId, [wire], hints?.['$untyped'] === true ? null : type, part.type !== 'tool-result' || part.providerExecuted === true, out);
  }

  /** Replays an A2A event the decoder kept (v1.0 StreamResponse form). */
  replay(event: WireEvent, out: WireEvent[], final = false): void {
    const d = event.data;
    const kinds: Record<string, ObjectKind> = { task: 'task', message: 'message', statusUpdate: 'status-update', artifactUpdate: 'artifact-update' };
    const key = isJsonObject(d) ? Object.keys(d)[0] : undefined;
    if (key !== undefined && kinds[key] !== undefined && isJsonObject((d as JsonObject)[key])) {
      this.emit(kinds[key] as ObjectKind, (d as JsonObject)[key] as JsonObject, final, out);
    } else out.push(event);
  }

  error(err: StreamError, out: WireEvent[]): void {
    const raw = err.raw;
    if (isJsonObject(raw) && ('statusUpdate' in raw || 'task' in raw)) return this.replay({ data: raw }, out, true);
    if (err.type === 'jsonrpc-error' && isJsonObject(raw)) {
      out.push(errorFrame(raw, this.o.rpcId));
      return;
    }
    if (err.type !== undefined || err.code !== undefined) loss(this.o.losses, 'error-detail', [], `the error's type and code (${err.type ?? ''} ${err.code ?? ''}) have no A2A place: only its message is sent`, 'approximated');
    if (this.o.mode === 'message' || this.o.mode === 'message-only') {
      out.push(errorFrame({ code: -32603, message: err.message }, this.o.rpcId));
      return;
    }
    const msg: JsonObject = { messageId: `${this.o.taskId}-error`, role: 'ROLE_AGENT', parts: [{ text: err.message }], contextId: this.contextId, taskId: this.o.taskId };
    this.emit('status-update', { taskId: this.o.taskId, contextId: this.contextId, status: { state: 'TASK_STATE_FAILED', message: msg }, metadata: { [CANONICAL_TYPE]: S.runError } }, true, out);
  }

  /** The end: the final status update, or the one message / task of a one-shot answer. */
  finish(state: V1State, meta: JsonObject, finishExt: JsonObject, out: WireEvent[]): void {
    const endStatus = isJsonObject(finishExt['status']) ? finishExt['status'] : {};
    if (this.o.mode === 'message-only') {
      if (meta['usage'] !== undefined) loss(this.o.losses, 'usage', [], 'a message-only A2A answer has no place for usage');
      const msg: JsonObject = { messageId: this.o.taskId, role: 'ROLE_AGENT', parts: this.pending.length > 0 ? this.pending : [{ text: '' }] };
      for (const k of ['contextId', 'taskId'] as const) if (typeof this.o.start[k] === 'string') msg[k] = this.o.start[k];
      this.emit('message', msg, true, out);
      return;
    }
    const metadata = { ...meta, [CANONICAL_TYPE]: STATE_TYPE[state] ?? S.runFinished };
    if (this.o.mode === 'task-only') {
      const start = fields(this.o.start);
      const status: JsonObject = { ...(isJsonObject(start['status']) ? start['status'] : {}), ...endStatus, state };
      if (this.pending.length > 0) {
        status['message'] = { messageId: this.pendingId ?? `${this.o.taskId}-status`, role: 'ROLE_AGENT', parts: this.pending, contextId: this.contextId, taskId: this.o.taskId };
      }
      const task: JsonObject = { ...start, id: this.o.taskId, contextId: this.contextId, status, metadata: { ...(isJsonObject(start['metadata']) ? start['metadata'] : {}), ...metadata } };
      if (this.artifacts.size > 0) task['artifacts'] = [...this.artifacts.values()];
      this.emit('task', task, true, out);
      return;
    }
    const u: JsonObject = { taskId: this.o.taskId, contextId: this.contextId, ...fields(finishExt), status: { ...endStatus, state }, metadata };
    // v0.3 `final` marks terminal states only, as the SDK writes it (the stream also ends at input-required).
    this.emit('status-update', u, TERMINAL_STATES.has(state), out);
  }
}
