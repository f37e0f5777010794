/**
 * A2A stream events -> canonical stream events. Each wire event is one SSE event of the JSON-RPC
 * binding (`{jsonrpc, id, result}`, or `event: error` with a JSON-RPC error), or the bare result
 * (JSON lines); results are v1.0 StreamResponses or v0.3 `kind`-tagged objects (validate.ts).
 *
 * Lifecycle, by the source design's state table:
 * - the first event opens the response: a Task (its id is the response id; the rest of it, history
 *   included, is kept under `ext.a2a`), a status update (submitted / created = RunStarted), or a
 *   message (a plain one is a whole message-only response; a typed one starts an event stream);
 * - messages (bare, or in a status update) become blocks (stream-content.ts); artifact updates
 *   become text blocks per artifact (append / lastChunk) and whole parts;
 * - completed (RunFinished) closes open blocks and ends with `finish` {stop, raw 'completed'};
 *   input-required (StepFinished) and auth-required end the same way when the stream ends there
 *   (always in v1.0, where the server closes at interrupted states; with `final` in v0.3),
 *   as `tool-calls` when calls of the client are open, else `pause`;
 * - failed / canceled / rejected (RunError) is the canonical `error`, as is a JSON-RPC error;
 * - a status update that says nothing else (working = StepStarted ...) is a keepalive provider event;
 * - usage rides in the final status update's `metadata.usage` (canonical names).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { A2A, CANONICAL_TYPE, INTERRUPTED_STATES, TERMINAL_STATES, USAGE_KEY, stateToV03, type V1State } from './a2a-api.js';
import { loss } from './parts.js';
import { Blocks } from './stream-blocks.js';
import { decodeContent, type ContentCtx } from './stream-content.js';
import { readUsage, stopFor, unframe, wrap } from './stream-wire.js';
import { decodeOne } from './compact.js';
import { invalid, readStreamObject, type Read } from './validate.js';
import type { Note } from './versions.js';
import { childPath } from '../shared/child-path.js';

const ARTIFACT_FIELDS = new Set(['parts']);

/**
 * Metadata without the keys this codec writes itself; undefined when nothing else is left (an
 * empty object says nothing, and the encoder always writes canonical_type into it).
 */
function ownMetadata(meta: JsonValue | undefined): JsonObject | undefined {
  if (!isJsonObject(meta)) return undefined;
  const { [CANONICAL_TYPE]: _t, [USAGE_KEY]: _u, ...rest } = meta;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** `drop` with `metadata`, as withoutOwnKeys takes it: the sets are made once, not per event. */
const keysOf = (...drop: string[]): ReadonlySet<string> => new Set([...drop, 'metadata']);
const TASK_DROP = keysOf('id', 'status', 'artifacts');
const UPDATE_DROP = keysOf('taskId', 'status');
const WRAPPER_DROP = keysOf('taskId', 'contextId', 'status');
const MESSAGE_ONLY: ReadonlySet<string> = new Set(['message']);
const STATE_MESSAGE: ReadonlySet<string> = new Set(['state', 'message']);

/** An object's residue with its metadata reduced to its own keys (`drop` includes `metadata`). */
function withoutOwnKeys(obj: JsonObject, drop: ReadonlySet<string>): JsonObject {
  const out = residue(obj, drop) ?? {};
  const meta = ownMetadata(obj['metadata']);
  if (meta !== undefined) out['metadata'] = meta;
  return out;
}

export class A2aStreamDecoder implements StreamDecoder {
  private n = -1;
  private started = false;
  private over = false;
  private readonly c: ContentCtx;
  private readonly note: Note;
  private reported = new Set<string>();
  /** An interrupted status that ends the stream unless another event follows. */
  private held: { status: JsonObject; read: Read } | undefined;

  constructor(private readonly ctx: DecodeContext) {
    this.c = { blocks: new Blocks(), losses: ctx.losses, taskId: undefined, contextId: undefined };
    this.note = (path, code, message) => ctx.losses.push({ code, path, message, action: 'approximated' });
  }

  push(w: WireEvent): StreamEvent[] {
    const at = ++this.n;
    const out: StreamEvent[] = [];
    if (this.over) throw invalid([at], 'the A2A stream already ended (a final status or an error); nothing may follow');
    if (this.held !== undefined) {
      // The stream went on after an interrupted state: it was a step (StepFinished), not the end.
      // Its message was decoded already: the kept event is the status without it.
      const { read, status } = this.held;
      const bare = { ...read, value: { ...read.value, status: residue(status, MESSAGE_ONLY) ?? {} } };
      out.push({ type: 'provider-event', origin: A2A, event: { data: this.wrapped(bare) }, keepalive: true });
      this.held = undefined;
    }
    const { result, error } = unframe(w);
    if (error !== undefined) {
      this.start(undefined, undefined, out);
      const message = typeof error['message'] === 'string' ? error['message'] : 'A2A error';
      const code = error['code'];
      out.push({ type: 'error', error: { message, type: 'jsonrpc-error', ...(typeof code === 'number' || typeof code === 'string' ? { code } : {}), raw: error } });
      this.over = true;
      return out;
    }
    const path: Path = isJsonObject(w.data) && 'result' in w.data ? [at, 'result'] : [at];
    const read = readStreamObject(result as JsonValue, path, this.note);
    switch (read.kind) {
      case 'task':
        this.task(read, path, out);
        break;
      case 'message':
        this.message(read, path, out);
        break;
      case 'status-update':
        this.status(read, path, out);
        break;
      case 'artifact-update':
        this.artifact(read, path, out);
        break;
    }
    return out;
  }

  end(): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (this.held !== undefined && !this.over) this.finishRun(this.held.status, this.held.read, out);
    this.held = undefined;
    return out;
  }

  private start(id: string | undefined, ext: JsonObject | undefined, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'response-start', ...(id !== undefined ? { id } : {}), ...(ext !== undefined ? { ext: { [A2A]: ext } } : {}) });
  }

  private wrapped(read: Read): JsonObject {
    return wrap(read.kind, read.value);
  }

  private task(read: Read, path: Path, out: StreamEvent[]): void {
    const task = read.value;
    const status = task['status'] as JsonObject;
    if (this.started) {
      // A task snapshot mid-stream: only its status is news.
      this.state(status, read, path, out);
      return;
    }
    this.c.taskId = task['id'] as string;
    this.c.contextId = task['contextId'] as string | undefined;
    const state = status['state'] as V1State;
    // A task that is already over is the whole answer in one event (a non-streaming reply).
    const whole = TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state);
    const rest = withoutOwnKeys(task, TASK_DROP);
    rest['status'] = residue(status, whole ? STATE_MESSAGE : MESSAGE_ONLY) ?? {};
    if (whole) rest['$start'] = 'task-only';
    rest['$version'] = read.version;
    this.start(this.c.taskId, rest, out);
    (Array.isArray(task['artifacts']) ? (task['artifacts'] as JsonObject[]) : []).forEach((a, i) => {
      this.artifactParts(a, true, true, childPath(path, 'artifacts', i), out);
    });
    this.state(status, read, childPath(path, 'status'), out, true);
  }

  private message(read: Read, path: Path, out: StreamEvent[]): void {
    const msg = read.value;
    if (!this.started) {
      const typed = isJsonObject(msg['metadata']) && typeof msg['metadata'][CANONICAL_TYPE] === 'string';
      this.c.taskId = msg['taskId'] as string | undefined;
      this.c.contextId = msg['contextId'] as string | undefined;
      const rest: JsonObject = { $start: typed ? 'message' : 'message-only', $version: read.version };
      for (const k of ['contextId', 'taskId'] as const) if (msg[k] !== undefined) rest[k] = msg[k] as JsonValue;
      this.start(typed ? ((msg['taskId'] as string | undefined) ?? (msg['messageId'] as string)) : (msg['messageId'] as string), rest, out);
      if (!typed) {
        // A message-only response: the one message is the whole answer (spec §3.1.2).
        decodeContent(msg, path, this.c, this.wrapped(read), out);
        this.c.blocks.closeAll(out);
        out.push({ type: 'finish', stopReason: { unified: 'stop' } }, { type: 'response-end' });
        this.over = true;
        return;
      }
    }
    decodeContent(msg, path, this.c, this.wrapped(read), out);
  }

  private status(read: Read, path: Path, out: StreamEvent[]): void {
    const u = read.value;
    const status = u['status'] as JsonObject;
    if (!this.started) {
      this.c.taskId = u['taskId'] as string;
      this.c.contextId = u['contextId'] as string;
      const rest = withoutOwnKeys(u, UPDATE_DROP);
      rest['status'] = residue(status, MESSAGE_ONLY) ?? {};
      rest['$start'] = 'status';
      rest['$version'] = read.version;
      this.start(this.c.taskId, rest, out);
      this.state(status, read, childPath(path, 'status'), out, true);
      return;
    }
    this.state(status, read, childPath(path, 'status'), out);
  }

  /** A status (of a task or a status update): its message, then what its state means. */
  private state(status: JsonObject, read: Read, path: Path, out: StreamEvent[], opening = false): void {
    const state = status['state'] as V1State;
    const u = read.value;
    const msg = status['message'];
    const hasMessage = isJsonObject(msg);
    const terminal = TERMINAL_STATES.has(state);
    if (terminal && state !== 'TASK_STATE_COMPLETED') {
      // Like every dialect's mid-stream error: open blocks stay open (the error ends the stream).
      out.push({ type: 'error', error: { message: hasMessage ? textOf(msg) || `task ${stateToV03(state)}` : `task ${stateToV03(state)}`, type: stateToV03(state), raw: this.wrapped(read) } });
      this.over = true;
      return;
    }
    if (hasMessage) decodeContent(msg, childPath(path, 'message'), this.c, this.wrapped(read), out);
    if (INTERRUPTED_STATES.has(state) && read.final !== true) {
      // The server closes the stream at an interrupted state (the SDK writes final: false there),
      // but the source design's streams may go on (StepFinished): the next event or the end decides.
      this.held = { status, read };
      return;
    }
    if (!terminal && read.final !== true) {
      if (!hasMessage && !opening) out.push({ type: 'provider-event', origin: A2A, event: { data: this.wrapped(read) }, keepalive: true });
      else if (!opening && read.kind === 'status-update') this.reportWrapper(u, path);
      return;
    }
    this.finishRun(status, read, out);
  }

  /** The run ends with this status: open blocks close, usage, the stop reason, the end. */
  private finishRun(status: JsonObject, read: Read, out: StreamEvent[]): void {
    const state = status['state'] as V1State;
    const u = read.value;
    this.c.blocks.closeAll(out);
    const meta = isJsonObject(u['metadata']) ? u['metadata'] : undefined;
    const usage = readUsage(meta?.[USAGE_KEY]);
    if (usage !== undefined) out.push({ type: 'usage', usage });
    const rest = read.kind === 'status-update' ? withoutOwnKeys(u, WRAPPER_DROP) : {};
    for (const k of ['taskId', 'contextId'] as const) if (read.kind === 'status-update' && u[k] !== (k === 'taskId' ? this.c.taskId : this.c.contextId)) rest[k] = u[k] as JsonValue;
    const st = residue(status, STATE_MESSAGE);
    if (st !== undefined) rest['status'] = st;
    const stop = stopFor(state, this.c.blocks.clientCalls);
    if (state !== 'TASK_STATE_COMPLETED' && !INTERRUPTED_STATES.has(state)) stop.unified = 'other';
    out.push({ type: 'finish', stopReason: stop, ...(Object.keys(rest).length > 0 ? { ext: { [A2A]: rest } } : {}) }, { type: 'response-end' });
    this.over = true;
  }

  /** A working update's own fields (timestamp, metadata) around a message have no canonical place. */
  private reportWrapper(u: JsonObject, path: Path): void {
    const fields = Object.keys(withoutOwnKeys(u, WRAPPER_DROP));
    const st = residue(u['status'] as JsonObject, STATE_MESSAGE);
    if (st !== undefined) fields.push(...Object.keys(st).map((k) => `status.${k}`));
    for (const f of fields) {
      if (this.reported.has(f)) continue;
      this.reported.add(f);
      loss(this.ctx.losses, 'a2a-status-fields', childPath(path.slice(0, -1), f), `status update field '${f}' around a streamed message has no canonical place (reported once per stream)`);
    }
  }

  private artifact(read: Read, path: Path, out: StreamEvent[]): void {
    const u = read.value;
    if (!this.started) {
      this.c.taskId = u['taskId'] as string;
      this.c.contextId = u['contextId'] as string;
      this.start(this.c.taskId, { $start: 'artifact', contextId: u['contextId'] as string, $version: read.version }, out);
    }
    const meta = ownMetadata(u['metadata']);
    if (meta !== undefined) loss(this.ctx.losses, 'a2a-message-fields', childPath(path, 'metadata'), 'artifact update metadata has no canonical place');
    this.artifactParts(u['artifact'] as JsonObject, u['append'] !== true, u['lastChunk'] === true, childPath(path, 'artifact'), out);
  }

  /** An artifact's parts: text grows the artifact's text block; other parts come whole. */
  private artifactParts(a: JsonObject, fresh: boolean, last: boolean, path: Path, out: StreamEvent[]): void {
    const key = `a:${String(a['artifactId'])}`;
    if (fresh) this.c.blocks.closeText(key, out);
    const ext = residue(a, ARTIFACT_FIELDS) ?? {};
    (a['parts'] as JsonObject[]).forEach((p, i) => {
      if (typeof p['text'] === 'string' && Object.keys(p).length === 1) this.c.blocks.text(key, p['text'], ext, out);
      else {
        this.c.blocks.closeText(key, out);
        for (const part of decodeOne(p, childPath(path, 'parts', i))) {
          if (part.type === 'tool-call') {
            this.c.blocks.callStart(part.id, part.name, ext, childPath(path, 'parts', i), out);
            this.c.blocks.callArgs(part.id, part.argumentsJson ?? JSON.stringify(part.arguments), out);
            this.c.blocks.callEnd(part.id, out);
          } else {
            part.ext = { ...part.ext, [A2A]: { ...part.ext?.[A2A], $artifact: ext } };
            this.c.blocks.part(part, out);
          }
        }
      }
    });
    if (last) this.c.blocks.closeText(key, out);
  }
}

function textOf(msg: JsonObject): string {
  return (msg['parts'] as JsonObject[])
    .map((p) => (typeof p['text'] === 'string' ? p['text'] : ''))
    .join('');
}
