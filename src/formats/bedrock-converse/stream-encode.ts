/**
 * Canonical stream events -> Bedrock ConverseStream events, one canonical event at a time, in the
 * lifecycle the AWS SDK and Bedrock's own streams have: messageStart, per block (contentBlockStart
 * for tool use / tool results / images only) deltas and contentBlockStop, then messageStop and
 * metadata {usage, metrics}. Accepts any valid canonical sequence:
 * - blocks get Bedrock indices 0, 1, 2 ... in the order they start; blocks Bedrock cannot carry are
 *   dropped with a loss and take no index;
 * - messageStop is held from `finish` until `response-end` (the only thing held): it carries
 *   additionalModelResponseFields, which a decoded Bedrock stream has only on response-end's ext,
 *   and metadata must follow it with the final usage;
 * - reasoning of another origin is dropped (`foreign-reasoning`: its signature is not valid here,
 *   and unsigned text must not pass for Bedrock reasoning); tool calls another provider ran itself
 *   likewise;
 * - an empty tool call id gets a deterministic one from a counter; ids and names Bedrock refuses
 *   are rewritten deterministically (names.ts), with a loss;
 * - no usage -> metadata with zeros and a loss, unless the canonical stream came from a Bedrock
 *   stream that had no metadata (the decoder's `$noUsage`/`$noMetrics` hints): then none is written;
 * - a cut-off canonical stream (no response-end) stays cut off: end() writes only blocks held back;
 * - blocks go out one at a time, in start order (Bedrock's blocks do not interleave): parallel
 *   tool calls whose fragments interleave are put one after another (serial-blocks.ts).
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { StopReason } from '../../model/stop-reason.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { StreamEncodeContext, StreamEncoder } from '../codec.js';
import { isHintKey, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { SerialBlocks } from '../shared/serial-blocks.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { encodeCitation } from './citations.js';
import { encodeParts } from './content-encode.js';
import { DocumentNamer, mapToolId, mapToolName } from './names.js';
import { encodeStopReason } from './stop-reason.js';
import { partEvents, prefixed, splitBlock } from './stream-parts.js';
import { base64After, exceptionFor } from './stream-wire.js';
import { encodeUsage } from './usage.js';
import { ID, lose, own } from './wire-util.js';

type Kind = 'text' | 'reasoning' | 'tool-call';

/** The deltas that carry one string: text, reasoning text, tool arguments. */
const STRING_DELTAS = [(v: string): JsonObject => ({ text: v }), (v: string): JsonObject => ({ reasoningContent: { text: v } }), (v: string): JsonObject => ({ toolUse: { input: v } })] as const;

interface Open {
  kind: Kind;
  /** The Bedrock contentBlockIndex, or undefined when the block is dropped. */
  wire: number | undefined;
  wrote: boolean;
  redacted?: string;
  /** Its string deltas as JSON text cut at the string (stream-written.ts), for the delta shape it was made for. */
  tpl?: { shape: number; tpl: Template | null };
}

/** Response-level residue keys that belong to messageStart / messageStop (the rest go to metadata). */
const NOT_METADATA = new Set(['messageStart', 'messageStop', 'additionalModelResponseFields', 'outputExtra']);

export class BedrockStreamEncoder implements StreamEncoder {
  private readonly serial = new SerialBlocks();
  private started = false;
  private done = false;
  private nextWire = 0;
  private toolIds = 0;
  private readonly open = new Map<number, Open>();
  private stop: { reason: StopReason; at: number } | undefined;
  private usage: Partial<Usage> | undefined;
  private usageAt = 0;
  /** This codec's own response-level residue, from response-start and response-end. */
  private readonly residue: JsonObject = {};
  private extraChoices = false;

  constructor(private readonly ctx: StreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    const out: WireEvent[] = [];
    const at = this.serial.pushDelta(e);
    // Most events are text and argument deltas of the open block: straight to it (what `handle` would do).
    if (at >= 0 && (e.type === 'text-delta' || e.type === 'tool-call-delta') && this.started && !this.done && (e.choice === undefined || e.choice === 0)) {
      if (e.delta !== '') this.stringDelta(e.index, e.type === 'text-delta' ? 0 : 2, e.delta, out);
    } else if (at >= 0) this.handle(e, at, out);
    else for (const r of this.serial.push(e)) this.handle(r.event, r.at, out);
    return out;
  }

  /** Blocks held back go out as they came; an unfinished stream stays unfinished. */
  end(): WireEvent[] {
    const out: WireEvent[] = [];
    for (const { event, at } of this.serial.end()) this.handle(event, at, out);
    return out;
  }

  private handle(e: StreamEvent, at: number, out: WireEvent[]): void {
    if (this.done) return;
    if (e.type === 'provider-event') {
      if (e.origin === ID) out.push(e.event);
      else if (e.keepalive !== true) this.lose('provider-event', [at], `a ${e.origin} stream event has no Bedrock equivalent`);
      return;
    }
    if (e.type === 'response-start') {
      this.keepResidue(e.ext, at);
      for (const key of ['id', 'model', 'created'] as const) {
        if (e[key] !== undefined) this.lose('unsupported-field', [at, key], `a Bedrock stream has no '${key}'`);
      }
      this.begin(out);
      return;
    }
    this.begin(out);
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) {
      if (!this.extraChoices) this.lose('extra-choices', [at, 'choice'], 'a Bedrock stream holds one message; other choices are dropped');
      this.extraChoices = true;
      return;
    }
    switch (e.type) {
      case 'text-start':
        if (e.refusal) this.lose('refusal-as-text', [at], 'Bedrock has no refusal block; sent as text', 'approximated');
        reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
        this.openBlock(e.index, 'text', true);
        break;
      case 'text-delta':
        if (e.delta !== '') this.stringDelta(e.index, 0, e.delta, out);
        break;
      case 'citation':
        this.delta(e.index, { citation: encodeCitation(e.citation, [at, 'citation'], this.ctx.losses) }, out);
        break;
      case 'text-end':
        reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
        this.closeBlock(e.index, { text: '' }, out);
        break;
      case 'reasoning-start':
        this.reasoningStart(e, at, out);
        break;
      case 'reasoning-delta':
        if (e.summaryIndex !== undefined) {
          if (this.open.get(e.index)?.wire !== undefined) this.lose('reasoning-summary', [at], 'Bedrock reasoning has no summary');
        } else if (e.text !== undefined && e.text !== '') this.stringDelta(e.index, 1, e.text, out);
        if (e.signature !== undefined) this.delta(e.index, { reasoningContent: { signature: e.signature } }, out);
        break;
      case 'reasoning-end':
        this.reasoningEnd(e, at, out);
        break;
      case 'tool-call-start':
        this.toolCallStart(e, at, out);
        break;
      case 'tool-call-delta':
        if (e.delta !== '') this.stringDelta(e.index, 2, e.delta, out);
        break;
      case 'tool-call-end': {
        const b = this.open.get(e.index);
        // Arguments that came only whole at the end still reach Bedrock, as one delta.
        if (b?.wire !== undefined && !b.wrote && e.arguments !== undefined && e.arguments !== '') this.delta(e.index, { toolUse: { input: e.arguments } }, out);
        reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
        this.closeBlock(e.index, undefined, out);
        break;
      }
      case 'part':
        this.part(e.part, e.index, at, out);
        break;
      case 'usage':
        this.usage = { ...this.usage, ...e.usage };
        this.usageAt = at;
        break;
      case 'finish':
        this.stop = { reason: e.stopReason, at };
        reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
        break;
      case 'response-end':
        this.keepResidue(e.ext, at);
        this.finish(at, out);
        break;
      case 'error': {
        const { type, own: mine } = exceptionFor(e.error);
        const data: JsonObject = { message: e.error.message };
        const raw = e.error.raw;
        if (mine && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
          for (const k in raw) if (k !== 'p' && !(k in data)) data[k] = raw[k] as JsonValue;
        }
        if (!mine) this.lose('error-type', [at, 'error'], `error '${e.error.type ?? e.error.code ?? 'unknown'}' sent as Bedrock's ${type}`, 'approximated');
        out.push({ event: type, data, exception: true });
        this.done = true;
        break;
      }
    }
  }

  private begin(out: WireEvent[]): void {
    if (this.started) return;
    this.started = true;
    const data: JsonObject = { role: 'assistant' };
    const extra = this.residue['messageStart'];
    if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) Object.assign(data, extra);
    out.push({ event: 'messageStart', data });
  }

  private openBlock(index: number, kind: Kind, keep: boolean): Open {
    const b: Open = { kind, wire: keep ? this.nextWire++ : undefined, wrote: false };
    this.open.set(index, b);
    return b;
  }

  private delta(index: number, delta: JsonObject, out: WireEvent[]): void {
    const b = this.open.get(index);
    if (b?.wire === undefined) return;
    b.wrote = true;
    out.push({ event: 'contentBlockDelta', data: { contentBlockIndex: b.wire, delta } });
  }

  /** A text, reasoning text or argument delta (`STRING_DELTAS[shape]`), written from the block's template. */
  private stringDelta(index: number, shape: 0 | 1 | 2, value: string, out: WireEvent[]): void {
    const b = this.open.get(index);
    const wire = b?.wire;
    if (b === undefined || wire === undefined) return;
    b.wrote = true;
    const make = STRING_DELTAS[shape];
    const data = { contentBlockIndex: wire, delta: make(value) };
    let t = b.tpl;
    if (t === undefined || t.shape !== shape) b.tpl = t = { shape, tpl: Template.of(1, (v) => ({ contentBlockIndex: wire, delta: make(v) }), this.ctx.eventText) ?? null };
    out.push(t.tpl === null ? { event: 'contentBlockDelta', data } : new WrittenEvent(data, t.tpl.fill1(jsonString(value)), 'contentBlockDelta'));
  }

  /** Closes a block; one that wrote nothing gets `empty` first, so that it exists on the wire. */
  private closeBlock(index: number, empty: JsonObject | undefined, out: WireEvent[]): void {
    const b = this.open.get(index);
    this.open.delete(index);
    if (b?.wire === undefined) return;
    if (!b.wrote && empty !== undefined) out.push({ event: 'contentBlockDelta', data: { contentBlockIndex: b.wire, delta: empty } });
    out.push({ event: 'contentBlockStop', data: { contentBlockIndex: b.wire } });
  }

  private reasoningStart(e: Extract<StreamEvent, { type: 'reasoning-start' }>, at: number, out: WireEvent[]): void {
    const mine = e.origin === ID;
    if (!mine) this.lose('foreign-reasoning', [at], `reasoning from ${e.origin} cannot be replayed to Bedrock (its signature is not valid there)`);
    const b = this.openBlock(e.index, 'reasoning', mine);
    if (!mine) return;
    reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
    if (e.encryptedContent !== undefined) this.lose('unsupported-field', [at, 'encryptedContent'], 'Bedrock reasoning has no encrypted content');
    if (e.redactedData !== undefined) {
      b.redacted = e.redactedData;
      this.delta(e.index, { reasoningContent: { redactedContent: e.redactedData } }, out);
    }
  }

  private reasoningEnd(e: Extract<StreamEvent, { type: 'reasoning-end' }>, at: number, out: WireEvent[]): void {
    const b = this.open.get(e.index);
    if (b?.wire !== undefined) {
      if (e.signature !== undefined) this.delta(e.index, { reasoningContent: { signature: e.signature } }, out);
      if (e.redactedData !== undefined && e.redactedData !== b.redacted) {
        // The whole redacted data at the end: write what the start did not carry yet.
        const rest = b.redacted === undefined ? e.redactedData : base64After(e.redactedData, b.redacted);
        if (rest === undefined) this.lose('redacted-data', [at, 'redactedData'], 'redacted data at the end does not continue the data at the start; the end is dropped');
        else if (rest !== '') this.delta(e.index, { reasoningContent: { redactedContent: rest } }, out);
      }
      if (e.encryptedContent !== undefined) this.lose('unsupported-field', [at, 'encryptedContent'], 'Bedrock reasoning has no encrypted content');
      reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
    }
    this.closeBlock(e.index, { reasoningContent: { text: '' } }, out);
  }

  private toolCallStart(e: Extract<StreamEvent, { type: 'tool-call-start' }>, at: number, out: WireEvent[]): void {
    const type = own(e.ext)?.['type'];
    const keep = !(e.providerExecuted === true && type !== 'server_tool_use');
    if (!keep) this.lose('provider-tool-call', [at], 'a tool call another provider ran itself cannot be sent to Bedrock');
    const b = this.openBlock(e.index, 'tool-call', keep);
    if (b.wire === undefined) return;
    const id = e.id === '' ? `tooluse_${this.toolIds++}` : mapToolId(e.id, [at, 'id'], this.ctx.losses);
    if (e.id === '') this.lose('missing-tool-id', [at, 'id'], `the tool call has no id; '${id}' made up`, 'approximated');
    const toolUse: JsonObject = { toolUseId: id, name: mapToolName(e.name, [at, 'name'], this.ctx.losses) };
    restoreResidue(toolUse, e.ext, ID);
    reportForeignExt(e.ext, ID, [at, 'ext'], this.ctx.losses);
    out.push({ event: 'contentBlockStart', data: { contentBlockIndex: b.wire, start: { toolUse } } });
  }

  /** A whole block: text, reasoning and tool calls as their events; tool results and images as start + delta + stop. */
  private part(p: Part, index: number, at: number, out: WireEvent[]): void {
    const events = partEvents(p, index);
    if (events !== undefined) {
      for (const e of events) this.handle(e, at, out);
      return;
    }
    const blocks = encodeParts([p], 'assistant', [at, 'part'], { namer: new DocumentNamer(), losses: this.ctx.losses, keepBlank: true });
    const block = blocks[0];
    if (blocks.length > 1) this.lose('cache-point', [at, 'part', 'cache'], 'a Bedrock stream has no cache points');
    if (block === undefined) return; // encodeParts reported why
    const split = splitBlock(block, [at, 'part'], this.ctx.losses);
    if (split === undefined) {
      this.lose('unsupported-part', [at, 'part'], `a Bedrock stream carries text, reasoning, tool use, tool results and images; ${p.type} dropped`);
      return;
    }
    const wire = this.nextWire++;
    out.push({ event: 'contentBlockStart', data: { contentBlockIndex: wire, start: split.start } });
    if (split.delta !== undefined) out.push({ event: 'contentBlockDelta', data: { contentBlockIndex: wire, delta: split.delta } });
    out.push({ event: 'contentBlockStop', data: { contentBlockIndex: wire } });
  }

  private finish(at: number, out: WireEvent[]): void {
    for (const index of [...this.open.keys()]) this.closeBlock(index, undefined, out);
    out.push({ event: 'messageStop', data: this.messageStop(at) });
    const metadata = this.metadata(at);
    if (metadata !== undefined) out.push({ event: 'metadata', data: metadata });
    this.done = true;
  }

  private messageStop(at: number): JsonObject {
    const data: JsonObject = {};
    const stop = this.stop;
    if (stop === undefined) {
      data['stopReason'] = 'end_turn';
      this.lose('missing-stop-reason', [at], "the stream gave no stop reason; 'end_turn' written", 'approximated');
    } else {
      const { value, exact } = encodeStopReason(stop.reason, this.residue['$stopRaw'] === true);
      if (!exact) this.lose('stop-reason', [stop.at, 'stopReason'], `stop reason '${stop.reason.raw ?? stop.reason.unified}' sent as '${value}'`, 'approximated');
      if (stop.reason.sequence !== undefined) this.lose('stop-sequence', [stop.at, 'stopReason', 'sequence'], 'Bedrock does not say which stop sequence matched');
      data['stopReason'] = value;
    }
    const fields = this.residue['additionalModelResponseFields'];
    if (fields !== undefined) data['additionalModelResponseFields'] = fields;
    const extra = this.residue['messageStop'];
    if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) restoreResidue(data, { [ID]: extra }, ID);
    return data;
  }

  private metadata(at: number): JsonObject | undefined {
    const r = this.residue;
    const usage = this.usage;
    if (usage === undefined && r['$noUsage'] === true && r['$noMetrics'] === true) return undefined;
    const data: JsonObject = {};
    if (usage === undefined) {
      // A Bedrock stream whose metadata had no usage gets none back; any other stream gets zeros.
      if (r['$noUsage'] !== true) {
        data['usage'] = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
        this.lose('missing-usage', [at], 'Bedrock streams end with usage; zeros written', 'approximated');
      }
    } else {
      if (usage.inputTokens === undefined || usage.outputTokens === undefined) this.lose('partial-usage', [this.usageAt, 'usage'], 'Bedrock usage needs input and output tokens; the missing count written as 0', 'approximated');
      const full: Usage = { ...usage, inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
      data['usage'] = encodeUsage(full, prefixed(this.ctx.losses, [this.usageAt]));
    }
    // A Bedrock stream that had metadata without metrics (test streams) gets none back.
    if (r['metrics'] === undefined && r['$noMetrics'] !== true) {
      data['metrics'] = { latencyMs: 0 };
      this.lose('missing-metrics', [at], 'Bedrock streams end with metrics.latencyMs; 0 written', 'approximated');
    }
    for (const key in r) if (!NOT_METADATA.has(key) && !isHintKey(key) && !(key in data)) data[key] = r[key] as JsonValue;
    if (r['outputExtra'] !== undefined) this.lose('unsupported-field', [at, 'ext', ID, 'outputExtra'], 'a Bedrock stream has no place for fields beside output.message');
    return data;
  }

  private keepResidue(ext: Ext | undefined, at: number): void {
    const mine = ext?.[ID];
    if (mine !== undefined) Object.assign(this.residue, mine);
    reportForeignExt(ext, ID, [at, 'ext'], this.ctx.losses);
  }

  private lose(code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
    lose(this.ctx.losses, code, path, message, action);
  }
}
