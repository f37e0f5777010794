/**
 * Canonical stream events -> Anthropic Messages SSE events, with the lifecycle Anthropic's SDK
 * expects: message_start first (a message shell with usage), each block as content_block_start /
 * deltas / content_block_stop with consecutive indices, message_delta (stop reason + usage), then
 * message_stop. Accepts any valid canonical stream:
 * - message_start waits only for the one usage event that may follow response-start (so input
 *   tokens reported at the start land in it); anything else writes it. No response-start: a made-up id
 *   from a counter. Usage reported later goes in message_delta, which is written at response-end
 *   (other dialects report usage after their stop reason).
 * - Tool arguments are input_json_delta; a tool-call-end with `arguments` and no delta before it
 *   becomes one delta. Signatures are gathered and written as one signature_delta at the block's
 *   end (Anthropic's SDK keeps only the last one). Reasoning of another origin is dropped
 *   (`foreign-reasoning`); a redacted block becomes redacted_thinking.
 * - Whole parts are encoded by the response codec's block encoder and written whole in
 *   content_block_start (compaction as Anthropic streams it: empty start + compaction_delta).
 * - One message per stream: choices other than 0 are dropped (`extra-choices`), and Anthropic
 *   provider events of earlier messages' lifecycle cannot be replayed inside it (reported).
 * - Blocks go out one at a time (Anthropic's blocks do not interleave): parallel tool calls whose
 *   fragments interleave in the canonical stream are put one after another (serial-blocks.ts).
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { FinishEvent, ProviderEvent, ResponseStartEvent, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink, StreamEncodeContext, StreamEncoder } from '../codec.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { SerialBlocks } from '../shared/serial-blocks.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { encodePart, encodeText } from './content-encode.js';
import { at, errorEvent, messageDelta, messageStart, wire } from './stream-message.js';
import { mapId, mapName } from './tool-names.js';
import { ID, own } from './wire-util.js';

/** A canonical block of choice 0 and the Anthropic block it became (none when dropped). */
interface Block {
  wire: number | undefined;
  kind: 'text' | 'thinking' | 'redacted' | 'tool' | 'whole';
  signature: string[];
  argsSent: boolean;
  /** The block's string deltas as JSON text cut at the string (stream-written.ts), for the delta type and wire index it was made for. */
  tpl?: { type: unknown; wire: number; tpl: Template | null };
}

const LIFECYCLE: ReadonlySet<string> = new Set(['message_start', 'message_delta', 'message_stop']);

export class AnthropicStreamEncoder implements StreamEncoder {
  private readonly serial = new SerialBlocks();
  private start: ResponseStartEvent | undefined;
  private written = false;
  private startUsage = false;
  private ended = false;
  private nextWire = 0;
  private ids = 0;
  private readonly blocks = new Map<number, Block>();
  private readonly extraChoices = new Set<number>();
  private usage: Partial<Usage> | undefined;
  private finish: { event: FinishEvent; losses: LossSink } | undefined;

  constructor(private readonly ctx: StreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    const delta = this.serial.pushDelta(e);
    if (delta >= 0) return this.write(e, delta);
    const ready = this.serial.push(e);
    // One event in, usually one ready: its wire events as they are, no copy (no flatMap per event).
    if (ready.length === 1) return this.write((ready[0] as (typeof ready)[number]).event, (ready[0] as (typeof ready)[number]).at);
    const out: WireEvent[] = [];
    for (const r of ready) for (const w of this.write(r.event, r.at)) out.push(w);
    return out;
  }

  private write(e: StreamEvent, i: number): WireEvent[] {
    if (this.ended) return [];
    const losses = at(this.ctx.losses, i);
    const out: WireEvent[] = [];
    if (e.type === 'response-start') {
      this.start = e;
      return out;
    }
    if (e.type === 'usage') {
      // message_start takes the first report after response-start; later ones are message_delta's.
      if (this.startUsage) this.open(out, losses);
      if (!this.written) this.startUsage = true;
      this.usage = { ...this.usage, ...e.usage };
      return out;
    }
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) {
      if (!this.extraChoices.has(e.choice)) {
        this.extraChoices.add(e.choice);
        losses.push({ code: 'extra-choices', path: [], message: `Anthropic streams one message; choice ${e.choice} dropped`, action: 'dropped' });
      }
      return out;
    }
    if (e.type === 'error') {
      // An error before anything was said needs no message around it (Anthropic sends it bare too).
      if (this.start?.id !== undefined || this.start?.model !== undefined || this.nextWire > 0) this.open(out, losses);
      out.push(errorEvent(e.error, losses));
      this.ended = true;
      return out;
    }
    if (e.type === 'provider-event') {
      this.providerEvent(e, out, losses);
      return out;
    }
    this.open(out, losses);
    switch (e.type) {
      case 'text-start':
        if (e.refusal) losses.push({ code: 'refusal-as-text', path: [], message: 'Anthropic has no refusal block; sent as text', action: 'approximated' });
        this.startBlock(e.index, 'text', withExt({ type: 'text', text: '', ...(own(e.ext)?.['$citations'] === true ? { citations: [] } : {}) }, e.ext, losses), out);
        break;
      case 'text-delta':
        this.delta(e.index, { type: 'text_delta', text: e.delta }, out, 'text');
        break;
      case 'citation': {
        // The response codec's citation encoder, reached through a one-citation text block.
        const block = encodeText({ type: 'text', text: '', citations: [e.citation] }, ['citation'], losses, true);
        const citation = Array.isArray(block?.['citations']) ? block['citations'][0] : undefined;
        if (citation !== undefined) this.delta(e.index, { type: 'citations_delta', citation }, out);
        break;
      }
      case 'reasoning-start':
        if (e.origin !== ID) {
          losses.push({ code: 'foreign-reasoning', path: [], message: `reasoning from ${e.origin} cannot be sent as Anthropic thinking (its signature is not valid there)`, action: 'dropped' });
          this.blocks.set(e.index, { wire: undefined, kind: 'thinking', signature: [], argsSent: false });
        } else if (e.redactedData !== undefined) {
          this.startBlock(e.index, 'redacted', withExt({ type: 'redacted_thinking', data: e.redactedData }, e.ext, losses), out);
        } else {
          this.startBlock(e.index, 'thinking', withExt({ type: 'thinking', thinking: '', signature: '' }, e.ext, losses), out);
        }
        break;
      case 'reasoning-delta': {
        const b = this.blocks.get(e.index);
        if (b?.wire === undefined) break;
        if (e.signature !== undefined) b.signature.push(e.signature);
        if (e.text === undefined) break;
        if (b.kind !== 'thinking' || e.summaryIndex !== undefined) {
          losses.push({ code: 'reasoning-text', path: [], message: e.summaryIndex !== undefined ? 'Anthropic thinking has no summaries' : 'redacted thinking holds no readable text', action: 'dropped' });
        } else this.delta(e.index, { type: 'thinking_delta', thinking: e.text }, out, 'thinking');
        break;
      }
      case 'reasoning-end': {
        const b = this.blocks.get(e.index);
        if (b?.wire === undefined) break;
        const signature = e.signature ?? b.signature.join('');
        if (b.kind === 'thinking') {
          if (signature !== '') this.delta(e.index, { type: 'signature_delta', signature }, out);
          else losses.push({ code: 'unsigned-reasoning', path: [], message: 'thinking without a signature is written with an empty one (Anthropic will not accept it back)', action: 'approximated' });
        }
        if (e.redactedData !== undefined && b.kind !== 'redacted') losses.push({ code: 'redacted-data', path: ['redactedData'], message: 'redacted data arriving at the end of a thinking block cannot be written', action: 'dropped' });
        if (e.encryptedContent !== undefined) losses.push({ code: 'unsupported-field', path: ['encryptedContent'], message: 'Anthropic thinking has no encrypted content', action: 'dropped' });
        this.stopBlock(e.index, e.ext, losses, out);
        break;
      }
      case 'tool-call-start':
        this.toolStart(e, losses, out);
        break;
      case 'tool-call-delta': {
        const b = this.blocks.get(e.index);
        if (b?.wire === undefined || e.delta === '') break;
        b.argsSent = true;
        this.delta(e.index, { type: 'input_json_delta', partial_json: e.delta }, out, 'partial_json');
        break;
      }
      case 'tool-call-end': {
        const b = this.blocks.get(e.index);
        if (b?.wire === undefined) break;
        if (!b.argsSent && e.arguments !== undefined && e.arguments !== '') this.delta(e.index, { type: 'input_json_delta', partial_json: e.arguments }, out);
        this.stopBlock(e.index, e.ext, losses, out);
        break;
      }
      case 'text-end':
        this.stopBlock(e.index, e.ext, losses, out);
        break;
      case 'part':
        this.part(e.index, e.part, losses, out);
        break;
      case 'finish':
        this.finish = { event: e, losses };
        break;
      case 'response-end':
        // Blocks still open (an invalid stream) are closed so the message is well formed.
        for (const [index, b] of this.blocks) if (b.wire !== undefined) this.stopBlock(index, undefined, losses, out);
        out.push(messageDelta(this.finish, e.ext, this.start?.ext, this.usage, losses));
        out.push(wire({ type: 'message_stop' }));
        this.ended = true;
        break;
    }
    return out;
  }

  /** Input ended: a response that started is opened (it was said); a cut-off stream stays cut off. */
  end(): WireEvent[] {
    const out = this.serial.end().flatMap(({ event, at: i }) => this.write(event, i));
    if (!this.ended && this.start !== undefined) this.open(out, at(this.ctx.losses, this.serial.count));
    return out;
  }

  /** Writes message_start once, with the usage known so far. */
  private open(out: WireEvent[], losses: LossSink): void {
    if (this.written) return;
    this.written = true;
    const id = this.start?.id ?? `msg_interlingua_${++this.ids}`;
    out.push(messageStart(this.start, id, this.usage, losses));
  }

  private startBlock(index: number, kind: Block['kind'], block: JsonObject, out: WireEvent[]): void {
    const w = this.nextWire++;
    this.blocks.set(index, { wire: w, kind, signature: [], argsSent: false });
    out.push(wire({ type: 'content_block_start', index: w, content_block: block }));
  }

  /** A content_block_delta; `field`: the delta's one string that changes from delta to delta, written from the block's template. */
  private delta(index: number, delta: JsonObject, out: WireEvent[], field?: string): void {
    const b = this.blocks.get(index);
    const w = b?.wire;
    if (b === undefined || w === undefined) return;
    const data: JsonObject = { type: 'content_block_delta', index: w, delta };
    const value = field === undefined ? undefined : delta[field];
    if (typeof value !== 'string') {
      out.push(wire(data));
      return;
    }
    let t = b.tpl;
    if (t === undefined || t.type !== delta['type'] || t.wire !== w) {
      const tpl = Template.of(1, (v) => ({ type: 'content_block_delta', index: w, delta: { ...delta, [field as string]: v } }), this.ctx.eventText);
      b.tpl = t = { type: delta['type'], wire: w, tpl: tpl ?? null };
    }
    out.push(t.tpl === null ? wire(data) : new WrittenEvent(data, t.tpl.fill1(jsonString(value)), 'content_block_delta'));
  }

  private stopBlock(index: number, ext: Ext | undefined, losses: LossSink, out: WireEvent[]): void {
    const b = this.blocks.get(index);
    if (b?.wire === undefined) return;
    if (ext) reportForeignExt(ext, ID, [], losses);
    out.push(wire({ type: 'content_block_stop', index: b.wire }));
    b.wire = undefined;
  }

  private toolStart(e: Extract<StreamEvent, { type: 'tool-call-start' }>, losses: LossSink, out: WireEvent[]): void {
    const type = own(e.ext)?.['$type'];
    if (e.providerExecuted && typeof type !== 'string') {
      losses.push({ code: 'provider-tool-call', path: [], message: 'a tool call another provider ran itself cannot be sent as an Anthropic block', action: 'dropped' });
      this.blocks.set(e.index, { wire: undefined, kind: 'tool', signature: [], argsSent: false });
      return;
    }
    const server = e.providerExecuted === true;
    const block: JsonObject = {
      type: server ? (type as string) : 'tool_use',
      id: server ? e.id : mapId(e.id, ['id'], losses),
      name: server ? e.name : mapName(e.name, ['name'], losses),
      input: {},
    };
    this.startBlock(e.index, 'tool', withExt(block, e.ext, losses), out);
  }

  private part(index: number, part: Part, losses: LossSink, out: WireEvent[]): void {
    const path = ['part'];
    const block = part.type === 'text' ? encodeText(part, path, losses, true) : encodePart(part, 'assistant', path, losses);
    if (block === undefined) return;
    if (block['type'] === 'compaction') {
      // As Anthropic streams it: an empty block, then its final value in one compaction_delta.
      const { type, content, encrypted_content, ...rest } = block;
      const hasEncrypted = encrypted_content !== undefined;
      this.startBlock(index, 'whole', { type, content: null, ...(hasEncrypted ? { encrypted_content: null } : {}), ...rest }, out);
      this.delta(index, { type: 'compaction_delta', content: content ?? null, ...(hasEncrypted ? { encrypted_content } : {}) }, out);
    } else this.startBlock(index, 'whole', block, out);
    this.stopBlock(index, undefined, losses, out);
  }

  /**
   * Anthropic's own events are written back (pings, newer event types, deltas of newer types at
   * their block's index now); other dialects' keepalives are skipped, their other events reported.
   */
  private providerEvent(e: ProviderEvent, out: WireEvent[], losses: LossSink): void {
    const data = e.event.data;
    if (e.origin !== ID || !isJsonObject(data) || typeof data['type'] !== 'string') {
      if (e.keepalive !== true) losses.push({ code: 'provider-event', path: [], message: `a ${e.origin} stream event has no Anthropic equivalent`, action: 'dropped' });
      return;
    }
    const type = data['type'];
    if (LIFECYCLE.has(type)) {
      if (e.keepalive !== true) {
        losses.push({ code: 'provider-event', path: [], message: `an earlier or later message's ${type}: Anthropic's SDK reads one message per stream, so it is not written`, action: 'dropped' });
      }
      return;
    }
    if (type.startsWith('content_block_')) {
      const w = typeof data['index'] === 'number' ? this.blocks.get(data['index'])?.wire : undefined;
      if (w === undefined) {
        losses.push({ code: 'provider-event', path: [], message: `a ${type} for a block that is not open here`, action: 'dropped' });
        return;
      }
      this.open(out, losses);
      out.push(wire({ ...data, index: w }));
      return;
    }
    // Pings and newer events may come anywhere; a response that started is opened first to keep the order.
    if (this.start !== undefined) this.open(out, losses);
    out.push(wire(data));
  }
}

/** Writes the block's own residue and reports other origins' ext. */
function withExt(block: JsonObject, ext: Ext | undefined, losses: LossSink): JsonObject {
  if (ext) {
    restoreResidue(block, ext, ID);
    reportForeignExt(ext, ID, [], losses);
  }
  return block;
}

export function anthropicStreamEncoder(ctx: StreamEncodeContext): StreamEncoder {
  return new AnthropicStreamEncoder(ctx);
}
