/**
 * AG-UI events -> canonical stream events, one wire event at a time (after stream-chunks.ts has
 * made chunks and retired names explicit). RUN_STARTED opens the response (runId as its id,
 * threadId in ext); text messages, tool calls and reasoning are blocks at the next part index of
 * choice 0; TOOL_CALL_RESULT is a whole tool-result part; RUN_FINISHED gives usage, a stop reason
 * and the end; RUN_ERROR the error. Everything else (steps, state, snapshots, activity, custom,
 * raw, subagents, unknown types) is a provider-event kept for AG-UI. A reasoning span
 * (REASONING_START..END) with its messages is one reasoning block per message (stream-reasoning.ts).
 */
import { ValidationError } from '../../model/errors.js';
import { isFormatId } from '../../model/format-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { AG_UI, type AguiEvent } from './ag-ui-api.js';
import { decodeContent } from './content-decode.js';
import { ChunkExpander } from './stream-chunks.js';
import { ReasoningBlocks, reasoningDelta, type Block, type Emit } from './stream-reasoning.js';
import { deltaFields, endFields, extOf, fields, splitResidue } from './stream-util.js';
import { decodeUsage } from './usage.js';
import { validateEvent } from './validate.js';

const UNIFIED = new Set<string>(['stop', 'length', 'tool-calls', 'stop-sequence', 'content-filter', 'refusal', 'pause', 'error', 'other']);

/** The fields each event maps (Sets made once: one per event cost more than a delta). */
const TEXT_DELTA_KEYS = fields('type', 'messageId', 'delta');
const ARGS_DELTA_KEYS = fields('type', 'toolCallId', 'delta');
const RUN_STARTED_FIELDS = fields('type', 'runId');
const RUN_FINISHED_FIELDS = fields('type', 'threadId', 'runId', 'outcome', 'usage');
const TEXT_START_FIELDS = fields('type', 'messageId', 'role');
const CALL_START_FIELDS = fields('type', 'toolCallId', 'toolCallName', 'parentMessageId');
const RESULT_FIELDS = fields('type', 'messageId', 'toolCallId', 'content', 'role');
const ENCRYPTED_FIELDS = fields('type', 'subtype', 'entityId', 'encryptedValue');
const RAW_FIELDS = fields('type', 'event', 'source');

function fail(at: number, message: string): ValidationError {
  return new ValidationError([{ code: 'invalid_sequence', path: [at], message: `event ${at}: ${message}` }]);
}

export class AguiStreamDecoder implements StreamDecoder {
  private at = -1;
  private state: 'before' | 'running' | 'finished' | 'errored' = 'before';
  private runStart: JsonObject | undefined;
  private nextIndex = 0;
  private readonly texts = new Map<string, Block>();
  private readonly calls = new Map<string, Block>();
  private readonly callsWithoutResult = new Set<string>();
  private readonly toolIds = new ToolCallIds();
  private readonly reasoning: ReasoningBlocks;
  private readonly chunks: ChunkExpander;

  constructor(private readonly ctx: DecodeContext) {
    this.reasoning = new ReasoningBlocks(() => this.nextIndex++, ctx.losses);
    this.chunks = new ChunkExpander((kind, id) => (kind === 'text' ? this.texts.has(id) : kind === 'tool' ? this.calls.has(id) : this.reasoning.hasMessage(id)));
  }

  push(wire: WireEvent): StreamEvent[] {
    const at = ++this.at;
    // Nearly every event of a stream is a delta with nothing for the general path to do.
    const delta = this.state === 'running' && this.chunks.idle() ? this.plainDelta(wire, at) : undefined;
    if (delta !== undefined) return [delta];
    const out: StreamEvent[] = [];
    for (const e of this.chunks.push(validateEvent(wire, at), at)) this.event(e, at, out);
    return out;
  }

  end(): StreamEvent[] {
    return [];
  }

  /**
   * A delta event for an open block whose fields beyond type, id and delta are none, or only ones
   * already reported for the block: its canonical event, or undefined for anything else (the
   * general path). For such an event the general path's steps change nothing: no lane to close,
   * no null whose removal matters, no loss to report; only its validation, when it has more fields.
   */
  private plainDelta(wire: WireEvent, at: number): StreamEvent | undefined {
    const data = wire.data;
    if (!isJsonObject(data)) return undefined;
    const delta = data['delta'];
    if (typeof delta !== 'string') return undefined;
    switch (data['type']) {
      case 'TEXT_MESSAGE_CONTENT': {
        const id = data['messageId'];
        const block = typeof id === 'string' ? this.texts.get(id) : undefined;
        if (block === undefined || !this.nothingToReport(wire, at, block, 'messageId')) return undefined;
        return { type: 'text-delta', index: block.index, delta };
      }
      case 'TOOL_CALL_ARGS': {
        const id = data['toolCallId'];
        const block = typeof id === 'string' ? this.calls.get(id) : undefined;
        if (block === undefined || !this.nothingToReport(wire, at, block, 'toolCallId')) return undefined;
        block.args = true;
        return { type: 'tool-call-delta', index: block.index, delta };
      }
      case 'REASONING_MESSAGE_CONTENT': {
        const id = data['messageId'];
        const msg = typeof id === 'string' ? this.reasoning.openMessage(id) : undefined;
        if (msg === undefined || !this.nothingToReport(wire, at, msg.block, 'messageId')) return undefined;
        return reasoningDelta(msg, delta);
      }
      default:
        return undefined;
    }
  }

  /** Whether a delta for `block` has no field to report; one with more fields is validated first, as the general path does. */
  private nothingToReport(wire: WireEvent, at: number, block: Block, idKey: string): boolean {
    const fields = deltaFields(wire.data as JsonObject, idKey, block);
    if (fields === 'more') validateEvent(wire, at);
    return fields !== undefined;
  }

  private event(e: AguiEvent, at: number, out: Emit): void {
    if (this.state === 'errored') throw fail(at, `${e.type} after RUN_ERROR: the run already failed`);
    if (this.state === 'finished') {
      throw fail(at, e.type === 'RUN_STARTED' ? 'a second run (RUN_STARTED after RUN_FINISHED): one stream decodes to one response; split the runs' : `${e.type} after RUN_FINISHED: the run already ended`);
    }
    switch (e.type) {
      case 'RUN_STARTED':
        return this.runStarted(e, out);
      case 'RUN_FINISHED':
        return this.runFinished(e, at, out);
      case 'RUN_ERROR':
        return this.runError(e, out);
      case 'TEXT_MESSAGE_START':
      case 'TEXT_MESSAGE_CONTENT':
      case 'TEXT_MESSAGE_END':
        this.needRun(e, at);
        return this.text(e, at, out);
      case 'TOOL_CALL_START':
      case 'TOOL_CALL_ARGS':
      case 'TOOL_CALL_END':
        this.needRun(e, at);
        return this.toolCall(e, at, out);
      case 'TOOL_CALL_RESULT':
        this.needRun(e, at);
        return this.toolResult(e, out);
      case 'REASONING_START':
      case 'REASONING_MESSAGE_START':
      case 'REASONING_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_END':
      case 'REASONING_END':
        this.needRun(e, at);
        return this.reasoning.event(e, at, out);
      case 'REASONING_ENCRYPTED_VALUE':
        if (this.encrypted(e)) return;
        break;
      case 'RAW':
        if (this.foreignRaw(e, out)) return;
        break;
      default:
    }
    out.push({ type: 'provider-event', origin: AG_UI, event: { data: e } });
  }

  /** Content outside a run: the 1.0 client refuses it ("First event must be 'RUN_STARTED'"). */
  private needRun(e: AguiEvent, at: number): void {
    if (this.state === 'before') throw fail(at, `${e.type} before RUN_STARTED: an AG-UI run starts with RUN_STARTED`);
  }

  private runStarted(e: AguiEvent, out: Emit): void {
    this.state = 'running';
    this.runStart = e;
    const { rest, ours } = splitResidue(e, RUN_STARTED_FIELDS);
    const start: StreamEvent = { type: 'response-start', id: e['runId'] as string, ...extOf(rest) };
    if (typeof ours?.['model'] === 'string') start.model = ours['model'];
    if (typeof ours?.['created'] === 'number') start.created = ours['created'];
    out.push(start);
  }

  private openBlocks(): string[] {
    return [...[...this.texts.keys()].map((id) => `text message '${id}'`), ...[...this.calls.keys()].map((id) => `tool call '${id}'`), ...this.reasoning.openIds()];
  }

  private runFinished(e: AguiEvent, at: number, out: Emit): void {
    this.needRun(e, at);
    const open = this.openBlocks();
    if (open.length > 0) throw fail(at, `RUN_FINISHED while ${open.join(', ')} ${open.length === 1 ? 'is' : 'are'} still open`);
    this.state = 'finished';
    const usage = e['usage'];
    if (Array.isArray(usage)) out.push({ type: 'usage', usage: decodeUsage(usage as JsonObject[]) });
    const { rest, ours } = splitResidue(e, RUN_FINISHED_FIELDS);
    // `stopReason: null` (this codec's encoder): the stream it came from named no stop reason.
    if (ours?.['stopReason'] !== null) out.push(this.finish(e, ours));
    const end: JsonObject = { ...rest };
    // The ids normally repeat RUN_STARTED's; only a difference is worth keeping.
    for (const key of ['threadId', 'runId']) if (e[key] !== this.runStart?.[key]) end[key] = e[key] as JsonValue;
    out.push({ type: 'response-end', ...extOf(end) });
  }

  /**
   * The stop reason: the one this codec's encoder wrote in `metadata.interlingua`, else what the
   * outcome says (interrupt = paused for input, cancelled, or success: tool calls left for the
   * client to answer, or a plain stop).
   */
  private finish(e: AguiEvent, ours: JsonObject | undefined): StreamEvent {
    const outcome = e['outcome'];
    const hints: JsonObject = {};
    const type = isJsonObject(outcome) ? outcome['type'] : undefined;
    if (type === 'success' && Object.keys(outcome as JsonObject).length === 1) hints['$outcome'] = 'success';
    else if (outcome !== undefined) hints['outcome'] = outcome as JsonValue;
    const given = ours?.['stopReason'];
    if (isJsonObject(given) && typeof given['unified'] === 'string' && UNIFIED.has(given['unified'])) {
      return { type: 'finish', stopReason: given as unknown as StopReason, ...extOf(hints) };
    }
    hints['$derived'] = true;
    let unified: UnifiedStopReason = 'stop';
    if (type === 'interrupt') unified = 'pause';
    else if (type === 'cancelled') unified = 'other';
    else {
      const pending = isJsonObject(outcome) ? outcome['pendingToolCallIds'] : undefined;
      if ((Array.isArray(pending) && pending.length > 0) || this.callsWithoutResult.size > 0) unified = 'tool-calls';
    }
    const stopReason: StopReason = typeof type === 'string' ? { unified, raw: type } : { unified };
    return { type: 'finish', stopReason, ...extOf(hints) };
  }

  private runError(e: AguiEvent, out: Emit): void {
    // AG-UI lets a stream fail before it starts; the canonical stream starts first, marked so the
    // AG-UI encoder does not write a RUN_STARTED that never came.
    if (this.state === 'before') out.push({ type: 'response-start', ext: { [AG_UI]: { $noRun: true } } });
    this.state = 'errored';
    const usage = e['usage'];
    if (Array.isArray(usage)) out.push({ type: 'usage', usage: decodeUsage(usage as JsonObject[]) });
    const error: StreamEvent = { type: 'error', error: { message: e['message'] as string, raw: e } };
    if (typeof e['code'] === 'string') error.error.code = e['code'];
    out.push(error);
  }

  /** Residue of a delta event has no canonical slot: reported once per block and field. */
  private deltaResidue(e: AguiEvent, block: Block, known: ReadonlySet<string>, at: number): void {
    const rest = residue(e, known);
    if (rest === undefined) return;
    for (const key in rest) {
      if (key === 'subagentRunId' && rest[key] === block.sub) continue;
      if (block.reported.has(key)) continue;
      block.reported.add(key);
      this.ctx.losses.push({ code: 'unsupported-field', path: [at, key], message: `${e.type} '${key}' has no canonical slot (delta events carry no ext); dropped here and on later events of this block`, action: 'dropped' });
    }
  }

  private open(map: Map<string, Block>, id: string, at: number, e: AguiEvent): Block {
    const label = e.type.startsWith('TEXT') ? 'text message' : 'tool call';
    if (map.has(id)) throw fail(at, `${e.type}: a ${label} with id '${id}' is already in progress`);
    const block: Block = { index: this.nextIndex++, reported: new Set(), ...(typeof e['subagentRunId'] === 'string' ? { sub: e['subagentRunId'] } : {}) };
    map.set(id, block);
    return block;
  }

  private find(map: Map<string, Block>, id: string, at: number, e: AguiEvent): Block {
    const block = map.get(id);
    if (block === undefined) throw fail(at, `${e.type}: no ${e.type.startsWith('TEXT') ? 'text message' : 'tool call'} with id '${id}' is open`);
    return block;
  }

  private text(e: AguiEvent, at: number, out: Emit): void {
    const id = e['messageId'] as string;
    if (e.type === 'TEXT_MESSAGE_START') {
      const block = this.open(this.texts, id, at, e);
      const { rest } = splitResidue(e, TEXT_START_FIELDS);
      const fields: JsonObject = { ...rest, $messageId: id };
      const role = e['role'];
      // An absent role means assistant; another role is meaning other formats lack (residue).
      if (role === undefined) fields['$role'] = null;
      else if (role === 'assistant') fields['$role'] = 'assistant';
      else fields['role'] = role as string;
      out.push({ type: 'text-start', index: block.index, ...extOf(fields) });
    } else if (e.type === 'TEXT_MESSAGE_CONTENT') {
      const block = this.find(this.texts, id, at, e);
      this.deltaResidue(e, block, TEXT_DELTA_KEYS, at);
      out.push({ type: 'text-delta', index: block.index, delta: e['delta'] as string });
    } else {
      const block = this.find(this.texts, id, at, e);
      this.texts.delete(id);
      const { rest } = splitResidue(e, endFields('messageId', e['subagentRunId'] === block.sub));
      out.push({ type: 'text-end', index: block.index, ...extOf({ ...rest, ...block.held }) });
    }
  }

  private toolCall(e: AguiEvent, at: number, out: Emit): void {
    const id = e['toolCallId'] as string;
    if (e.type === 'TOOL_CALL_START') {
      const block = this.open(this.calls, id, at, e);
      this.toolIds.claim(id, [at, 'toolCallId']);
      this.callsWithoutResult.add(id);
      const { rest } = splitResidue(e, CALL_START_FIELDS);
      const parent = e['parentMessageId'];
      const fields: JsonObject = { ...rest, $parentMessageId: typeof parent === 'string' ? parent : null };
      out.push({ type: 'tool-call-start', index: block.index, id, name: e['toolCallName'] as string, ...extOf(fields) });
    } else if (e.type === 'TOOL_CALL_ARGS') {
      const block = this.find(this.calls, id, at, e);
      block.args = true;
      this.deltaResidue(e, block, ARGS_DELTA_KEYS, at);
      out.push({ type: 'tool-call-delta', index: block.index, delta: e['delta'] as string });
    } else {
      const block = this.find(this.calls, id, at, e);
      this.calls.delete(id);
      const { rest } = splitResidue(e, endFields('toolCallId', e['subagentRunId'] === block.sub));
      out.push({ type: 'tool-call-end', index: block.index, ...extOf({ ...rest, ...block.held, ...(block.args ? {} : { $noArgs: true }) }) });
    }
  }

  private toolResult(e: AguiEvent, out: Emit): void {
    this.callsWithoutResult.delete(e['toolCallId'] as string);
    const { parts, string } = decodeContent(e['content'] as JsonValue);
    const { rest } = splitResidue(e, RESULT_FIELDS);
    const fields: JsonObject = { ...rest, $messageId: e['messageId'] as string };
    if (e['role'] === 'tool') fields['$role'] = 'tool';
    const part = { type: 'tool-result' as const, callId: e['toolCallId'] as string, content: parts, ...(string ? { stringContent: true as const } : {}), ...extOf(fields) };
    out.push({ type: 'part', index: this.nextIndex++, part });
  }

  /** An encrypted value for an open message, tool call or reasoning: it joins that block's end. */
  private encrypted(e: AguiEvent): boolean {
    const entity = e['entityId'] as string;
    const { rest, ours } = splitResidue(e, ENCRYPTED_FIELDS);
    if (e['subtype'] === 'message' && this.reasoning.hold(entity, e['encryptedValue'] as string, ours, rest)) return true;
    const block = e['subtype'] === 'tool-call' ? this.calls.get(entity) : this.texts.get(entity);
    if (block === undefined) return false;
    block.held = { encryptedValue: e['encryptedValue'] as string, ...(rest ? { encryptedEvent: rest } : {}) };
    return true;
  }

  /** A RAW event this codec's encoder wrote for another dialect's provider-event gives it back. */
  private foreignRaw(e: AguiEvent, out: Emit): boolean {
    const { rest, ours } = splitResidue(e, RAW_FIELDS);
    const source = e['source'];
    if (ours?.['unknown'] === true && rest === undefined && source === AG_UI) {
      out.push({ type: 'provider-event', origin: AG_UI, event: { data: e['event'] as JsonValue } });
      return true;
    }
    if (ours === undefined || rest !== undefined || typeof source !== 'string' || !isFormatId(source) || source === AG_UI) return false;
    const wire: WireEvent = { data: e['event'] as JsonValue };
    if (typeof ours['event'] === 'string') wire.event = ours['event'];
    if (ours['exception'] === true) wire.exception = true;
    out.push({ type: 'provider-event', origin: source, event: wire });
    return true;
  }
}
