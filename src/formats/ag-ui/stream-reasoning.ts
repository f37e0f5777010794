/**
 * AG-UI reasoning -> canonical reasoning blocks. AG-UI has spans (REASONING_START..END) holding
 * reasoning messages (REASONING_MESSAGE_START..END); the canonical block is one message, inside
 * its span (`$span`, and `$spanContinues` on a block another message of the same span follows) or
 * alone (`$noSpan`); a span with no message is one empty block (`$noMessage`). The block starts at
 * its message's start, so the span's facts are known by then: `metadata.interlingua` on
 * REASONING_START names the provider that minted the reasoning (origin) and its item id. An
 * encrypted value for the span or message joins the block's end as the field its metadata names
 * (signature, redactedData, encryptedContent), by default encryptedContent. Messages marked with a
 * `summaryIndex` (written by this codec for OpenAI reasoning summaries) are summary fragments of
 * the same block, and one marked `text` continues the block's text after them.
 */
import { ValidationError } from '../../model/errors.js';
import { isFormatId, type FormatId } from '../../model/format-id.js';
import type { JsonObject } from '../../model/json.js';
import type { ReasoningEndEvent, StreamEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { residue } from '../shared/residue.js';
import { AG_UI, type AguiEvent } from './ag-ui-api.js';
import { endFields, extOf, fields, splitResidue } from './stream-util.js';

export type Emit = StreamEvent[];

/** A canonical block being decoded; `held` is what its end event will carry. */
export interface Block {
  index: number;
  reported: Set<string>;
  sub?: string;
  held?: JsonObject;
  /** A tool call's arguments came (any TOOL_CALL_ARGS). */
  args?: boolean;
}

interface Held { value: string; ours?: JsonObject; rest?: JsonObject }
interface Span { id: string; rest?: JsonObject; ours?: JsonObject; block?: RBlock; held?: Held }
interface RBlock extends Block { span?: Span; end: JsonObject; value?: Held }
export interface RMsg { block: RBlock; summaryIndex?: number }

/** The fields each event maps (made once, not per event). */
const DELTA_KEYS = fields('type', 'messageId', 'delta');
const SPAN_START_FIELDS = fields('type', 'messageId');
const MESSAGE_START_FIELDS = fields('type', 'messageId', 'role');
const OPAQUE = ['signature', 'redactedData', 'encryptedContent'] as const;

function fail(at: number, message: string): ValidationError {
  return new ValidationError([{ code: 'invalid_sequence', path: [at], message: `event ${at}: ${message}` }]);
}

/** A reasoning message's delta: text of its block, or of its summary part. */
export function reasoningDelta(msg: RMsg, text: string): StreamEvent {
  const delta: StreamEvent = { type: 'reasoning-delta', index: msg.block.index, text };
  if (msg.summaryIndex !== undefined) delta.summaryIndex = msg.summaryIndex;
  return delta;
}

export class ReasoningBlocks {
  private readonly spans = new Map<string, Span>();
  private readonly msgs = new Map<string, RMsg>();

  constructor(
    private readonly nextIndex: () => number,
    private readonly losses: LossSink,
  ) {}

  hasMessage(id: string): boolean {
    return this.msgs.has(id);
  }

  openIds(): string[] {
    return [...[...this.spans.keys()].map((id) => `reasoning span '${id}'`), ...[...this.msgs.keys()].map((id) => `reasoning message '${id}'`)];
  }

  event(e: AguiEvent, at: number, out: Emit): void {
    const id = e['messageId'] as string;
    switch (e.type) {
      case 'REASONING_START': {
        if (this.spans.has(id)) throw fail(at, `REASONING_START: a reasoning span with id '${id}' is already in progress`);
        const { rest, ours } = splitResidue(e, SPAN_START_FIELDS);
        this.spans.set(id, { id, ...(rest ? { rest } : {}), ...(ours ? { ours } : {}) });
        return;
      }
      case 'REASONING_MESSAGE_START':
        return this.messageStart(e, id, at, out);
      case 'REASONING_MESSAGE_CONTENT': {
        const msg = this.msgs.get(id);
        if (msg === undefined) throw fail(at, `REASONING_MESSAGE_CONTENT: no reasoning message with id '${id}' is open`);
        this.report(e, msg.block, at);
        out.push(reasoningDelta(msg, e['delta'] as string));
        return;
      }
      case 'REASONING_MESSAGE_END': {
        const msg = this.msgs.get(id);
        if (msg === undefined) throw fail(at, `REASONING_MESSAGE_END: no reasoning message with id '${id}' is open`);
        this.msgs.delete(id);
        const rest = residue(e, endFields('messageId', e['subagentRunId'] === msg.block.sub));
        if (rest) msg.block.end['messageEnd'] = rest;
        if (msg.block.span === undefined) out.push(this.end(msg.block));
        return;
      }
      case 'REASONING_END': {
        const span = this.spans.get(id);
        if (span === undefined) throw fail(at, `REASONING_END: no reasoning span with id '${id}' is open`);
        for (const [mid, msg] of this.msgs) if (span.block !== undefined && msg.block === span.block) throw fail(at, `REASONING_END while reasoning message '${mid}' of the span is still open`);
        this.spans.delete(id);
        const rest = residue(e, endFields('messageId', span.block !== undefined && e['subagentRunId'] === span.block.sub));
        const block = span.block ?? this.startBlock(span, { $span: id, $noMessage: true, ...(span.rest ? { span: span.rest } : {}) }, e, out);
        if (rest) block.end['spanEnd'] = rest;
        out.push(this.end(block));
        return;
      }
    }
  }

  /** The open reasoning message `id`, if any. */
  openMessage(id: string): RMsg | undefined {
    return this.msgs.get(id);
  }

  /** An encrypted value for an open span or reasoning message; false when there is none. */
  hold(entity: string, value: string, ours: JsonObject | undefined, rest: JsonObject | undefined): boolean {
    const held: Held = { value, ...(ours ? { ours } : {}), ...(rest ? { rest } : {}) };
    const span = this.spans.get(entity);
    const block = span?.block ?? this.msgs.get(entity)?.block;
    if (block !== undefined) block.value = held;
    else if (span !== undefined) span.held = held;
    else return false;
    return true;
  }

  private messageStart(e: AguiEvent, id: string, at: number, out: Emit): void {
    if (this.msgs.has(id)) throw fail(at, `REASONING_MESSAGE_START: a reasoning message with id '${id}' is already in progress`);
    const { rest, ours } = splitResidue(e, MESSAGE_START_FIELDS);
    const span = [...this.spans.values()].pop();
    const summaryIndex = typeof ours?.['summaryIndex'] === 'number' ? ours['summaryIndex'] : undefined;
    if (span?.block !== undefined && (summaryIndex !== undefined || ours?.['text'] === true)) {
      // Another summary fragment of the same reasoning.
      if (rest) this.losses.push({ code: 'unsupported-field', path: [at], message: `REASONING_MESSAGE_START of a summary part: ${Object.keys(rest).join(', ')} dropped`, action: 'dropped' });
      this.msgs.set(id, { block: span.block, ...(summaryIndex === undefined ? {} : { summaryIndex }) });
      return;
    }
    const fields: JsonObject = { ...rest, $messageId: id };
    if (summaryIndex !== undefined) fields['$summaryIndex'] = summaryIndex;
    if (span?.block !== undefined) {
      for (const [other, msg] of this.msgs) if (msg.block === span.block) throw fail(at, `REASONING_MESSAGE_START '${id}' while reasoning message '${other}' of the same span is still open`);
      // A second message of the span: its own block, the span going on around both.
      span.block.end['$spanContinues'] = true;
      out.push(this.end(span.block));
      fields['$span'] = span.id;
    } else if (span !== undefined) {
      fields['$span'] = span.id;
      if (span.rest) fields['span'] = span.rest;
    } else fields['$noSpan'] = true;
    const block = this.startBlock(span, fields, e, out);
    this.msgs.set(id, { block, ...(summaryIndex === undefined ? {} : { summaryIndex }) });
  }

  private startBlock(span: Span | undefined, fields: JsonObject, e: AguiEvent, out: Emit): RBlock {
    const origin = span?.ours?.['origin'];
    const block: RBlock = { index: this.nextIndex(), reported: new Set(), end: {}, ...(span ? { span } : {}) };
    if (typeof e['subagentRunId'] === 'string') block.sub = e['subagentRunId'];
    if (span !== undefined) {
      span.block = block;
      if (span.held) block.value = span.held;
      delete span.held;
    }
    const start: StreamEvent = { type: 'reasoning-start', index: block.index, origin: typeof origin === 'string' && isFormatId(origin) ? (origin as FormatId) : AG_UI, ...extOf(fields) };
    if (typeof span?.ours?.['id'] === 'string') start.id = span.ours['id'];
    out.push(start);
    return block;
  }

  private end(block: RBlock): ReasoningEndEvent {
    if (block.span?.block === block) delete block.span.block;
    const end: ReasoningEndEvent = { type: 'reasoning-end', index: block.index };
    const held = block.value;
    if (held !== undefined) {
      const field = held.ours?.['field'];
      end[field === 'signature' || field === 'redactedData' ? field : 'encryptedContent'] = held.value;
      for (const f of OPAQUE) if (typeof held.ours?.[f] === 'string') end[f] = held.ours[f] as string;
      if (held.rest) block.end['encryptedEvent'] = held.rest;
    }
    const ext = extOf(block.end);
    if (ext.ext) end.ext = ext.ext;
    return end;
  }

  private report(e: AguiEvent, block: Block, at: number): void {
    const rest = residue(e, DELTA_KEYS);
    for (const key in rest) {
      if ((key === 'subagentRunId' && rest[key] === block.sub) || block.reported.has(key)) continue;
      block.reported.add(key);
      this.losses.push({ code: 'unsupported-field', path: [at, key], message: `${e.type} '${key}' has no canonical slot (delta events carry no ext); dropped here and on later events of this block`, action: 'dropped' });
    }
  }
}
