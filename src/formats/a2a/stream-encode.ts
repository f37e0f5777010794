/**
 * Canonical stream events -> A2A stream events (JSON-RPC SSE results, v1.0 by default or v0.3).
 *
 * The lifecycle the spec and @a2a-js/sdk expect of a task stream: a Task first (state submitted,
 * RunStartedEvent), then status updates (state working) each carrying one message that names its
 * AG-UI event (stream-emit.ts), then a final status update: completed (RunFinishedEvent), or
 * input-required (StepFinishedEvent) when the model stopped for tool calls or to wait, with usage
 * in its metadata; a mid-stream error is a failed update (RunErrorEvent). Text deltas are
 * TextMessageChunkEvent messages and the block's end a TextMessageEndEvent with the whole text
 * (what the source design's compaction keeps); a tool call is a ToolCallStartEvent, its argument
 * fragments ToolCallArgsEvent (the whole arguments as one when no delta came); a tool result is a
 * ToolCallResultEvent; a whole part (image, data ...) a TextMessageContentEvent.
 *
 * A stream decoded from A2A keeps its shape (`ext.a2a` hints): message-only and task-only answers
 * come as that one object, artifacts as artifact updates, plain messages whole, and the first
 * event as it was.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { StopReason } from '../../model/stop-reason.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { StreamEncodeContext, StreamEncoder } from '../codec.js';
import { reportForeignExt } from '../shared/residue.js';
import { A2A, USAGE_KEY, type A2aVersion } from './a2a-api.js';
import { loss, own } from './parts.js';
import { Emitter, type Mode } from './stream-emit.js';
import { stateFor, writeUsage } from './stream-wire.js';

export interface A2aStreamEncodeContext extends StreamEncodeContext {
  /** The A2A version to write; default: the decoded stream's own, else 1.0. */
  a2aVersion?: A2aVersion;
  /** The JSON-RPC id of the request this stream answers; default 1 (the SDK clients' first id). */
  rpcId?: string | number;
}

const MODES: ReadonlySet<string> = new Set(['status', 'message', 'message-only', 'task-only', 'artifact']);

export class A2aStreamEncoder implements StreamEncoder {
  private n = -1;
  private em: Emitter | undefined;
  private over = false;
  private stop: StopReason | undefined;
  private finishExt: JsonObject | undefined;
  private usage: Partial<Usage> = {};
  private reportedChoices = false;

  constructor(private readonly ctx: A2aStreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    const at = ++this.n;
    const out: WireEvent[] = [];
    if (this.over) return out;
    if (e.type === 'provider-event') {
      if (e.origin === A2A) this.emitter(undefined, out).replay(e.event, out);
      else if (e.keepalive !== true) loss(this.ctx.losses, 'provider-event', [at], `a ${e.origin} event with no canonical meaning has no A2A form`);
      return out;
    }
    if (e.type === 'response-start') {
      this.emitter(e, out);
      return out;
    }
    const em = this.emitter(undefined, out);
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) {
      if (!this.reportedChoices) loss(this.ctx.losses, 'extra-choices', [at], 'an A2A task answers once: choices after the first are dropped');
      this.reportedChoices = true;
      return out;
    }
    switch (e.type) {
      case 'text-start':
        reportForeignExt(e.ext, A2A, [at], this.ctx.losses);
        if (e.refusal) loss(this.ctx.losses, 'refusal-as-text', [at], 'A2A has no refusal: sent as text', 'approximated');
        em.textStart(e.index, own(e.ext));
        break;
      case 'text-delta':
        em.textDelta(e.index, e.delta, out);
        break;
      case 'citation':
        loss(this.ctx.losses, 'citations', [at], 'A2A text carries no citations');
        break;
      case 'text-end':
        em.textEnd(e.index, out);
        break;
      case 'reasoning-start':
        loss(this.ctx.losses, 'foreign-reasoning', [at], `${e.origin} reasoning has no place in A2A`);
        break;
      case 'reasoning-delta':
      case 'reasoning-end':
        break;
      case 'tool-call-start':
        reportForeignExt(e.ext, A2A, [at], this.ctx.losses);
        em.callStart(e.index, e.id, e.name, e.providerExecuted === true, own(e.ext), out);
        break;
      case 'tool-call-delta':
        em.callDelta(e.index, e.delta, out);
        break;
      case 'tool-call-end':
        em.callEnd(e.index, e.arguments, out);
        break;
      case 'part':
        em.part(e.index, e.part, [at, 'part'], out);
        break;
      case 'usage':
        Object.assign(this.usage, e.usage);
        break;
      case 'finish':
        reportForeignExt(e.ext, A2A, [at], this.ctx.losses);
        this.stop = e.stopReason;
        this.finishExt = own(e.ext);
        break;
      case 'response-end':
        this.end1(at, out);
        break;
      case 'error':
        em.error(e.error, out);
        this.over = true;
        break;
    }
    return out;
  }

  end(): WireEvent[] {
    return [];
  }

  /** The emitter, created at response-start (or at the first event, when a stream has none). */
  private emitter(start: (StreamEvent & { type: 'response-start' }) | undefined, out: WireEvent[]): Emitter {
    if (this.em !== undefined) {
      if (start !== undefined) loss(this.ctx.losses, 'duplicate-start', [this.n], 'a second response-start is ignored');
      return this.em;
    }
    const hints = own(start?.ext) ?? {};
    if (start !== undefined) reportForeignExt(start.ext, A2A, [this.n], this.ctx.losses);
    const version: A2aVersion = this.ctx.a2aVersion ?? (hints['$version'] === '0.3' ? '0.3' : '1.0');
    const mode: Mode = typeof hints['$start'] === 'string' && MODES.has(hints['$start']) ? (hints['$start'] as Mode) : 'task';
    if (start?.model !== undefined) loss(this.ctx.losses, 'model', [this.n, 'model'], 'an A2A task does not say which model answered');
    // An empty id (some gateways send one) is no id: A2A requires a non-empty task id.
    const taskId = start?.id !== undefined && start.id !== '' ? start.id : 'task-1';
    this.em = new Emitter({ version, mode, rpcId: this.ctx.rpcId ?? 1, taskId, losses: this.ctx.losses, start: hints, eventText: this.ctx.eventText === true, ...(start?.created !== undefined ? { created: start.created } : {}) });
    this.em.open(out);
    return this.em;
  }

  private end1(at: number, out: WireEvent[]): void {
    const em = this.emitter(undefined, out);
    const { state, approximated } = stateFor(this.stop);
    if (approximated) loss(this.ctx.losses, 'stop-reason', [at], `A2A has no stop reason '${this.stop?.unified}': the task is completed`, 'approximated');
    const meta: JsonObject = { ...(isJsonObject(this.finishExt?.['metadata']) ? this.finishExt['metadata'] : {}) };
    const usage = writeUsage(this.usage);
    if (Object.keys(usage).length > 0) meta[USAGE_KEY] = usage;
    em.finish(state, meta, this.finishExt ?? {}, out);
    this.over = true;
  }
}
