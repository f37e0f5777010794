/**
 * One Responses reasoning item as the stream encoder writes it: added, summary parts opened in
 * order (the one before closes when the next opens), reasoning text as content part 0, and the
 * done item built by the response codec's reasoning item encoder (encrypted content byte-exact).
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { ReasoningEndEvent, ReasoningStartEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { reasoningItem } from './item-encode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { Template } from '../shared/stream-written.js';
import { mergeExt } from './stream-envelope.js';

/** The encoder's output: `emit` adds the type and sequence number; `push` takes a delta's final object, built with `seq()`. */
export interface EventWriter {
  emit(type: string, fields: JsonObject): void;
  push(data: JsonObject & { type: string }): void;
  /** A delta's final object, written from `tpl` (cut at its delta and sequence number) when not null. */
  pushWritten(tpl: Template | null, data: JsonObject & { type: string; delta: string; sequence_number: number }): void;
  /** Whether delta events may carry their JSON text (StreamEncodeContext.eventText). */
  eventText(): boolean;
  seq(): number;
}

export class ReasoningWriter {
  private readonly summary: string[][] = [];
  private openSummary = -1;
  private text: string[] | undefined;
  private readonly signature: string[] = [];
  /** Delta templates: the reasoning text's, and the open summary's (its index with it). */
  private textTpl: Template | null | undefined;
  private summaryTpl: { si: number; tpl: Template | null } | undefined;

  constructor(
    readonly oi: number,
    readonly id: string,
    private readonly start: ReasoningStartEvent,
    private readonly out: EventWriter,
  ) {
    out.emit('response.output_item.added', { output_index: oi, item: { id, type: 'reasoning', summary: [] } });
  }

  delta(text: string | undefined, si: number | undefined, signature: string | undefined): void {
    if (signature !== undefined) this.signature.push(signature);
    if (text === undefined) return;
    if (si !== undefined) {
      while (this.summary.length <= si) {
        this.closeSummary();
        this.openSummary = this.summary.push([]) - 1;
        this.out.emit('response.reasoning_summary_part.added', { item_id: this.id, output_index: this.oi, summary_index: this.openSummary, part: { type: 'summary_text', text: '' } });
      }
      (this.summary[si] as string[]).push(text);
      if (text !== '') {
        const type = 'response.reasoning_summary_text.delta';
        const { id, oi } = this;
        if (this.summaryTpl?.si !== si) this.summaryTpl = { si, tpl: Template.of(2, (d, n) => ({ type, item_id: id, output_index: oi, summary_index: si, delta: d, sequence_number: n }), this.out.eventText()) ?? null };
        this.out.pushWritten(this.summaryTpl.tpl, { type, item_id: id, output_index: oi, summary_index: si, delta: text, sequence_number: this.out.seq() });
      }
      return;
    }
    if (this.text === undefined) {
      this.text = [];
      this.out.emit('response.content_part.added', { item_id: this.id, output_index: this.oi, content_index: 0, part: { type: 'reasoning_text', text: '' } });
    }
    this.text.push(text);
    if (text !== '') {
      const type = 'response.reasoning_text.delta';
      const { id, oi } = this;
      if (this.textTpl === undefined) this.textTpl = Template.of(2, (d, n) => ({ type, item_id: id, output_index: oi, content_index: 0, delta: d, sequence_number: n }), this.out.eventText()) ?? null;
      this.out.pushWritten(this.textTpl, { type, item_id: id, output_index: oi, content_index: 0, delta: text, sequence_number: this.out.seq() });
    }
  }

  private closeSummary(): void {
    const si = this.openSummary;
    if (si < 0) return;
    this.openSummary = -1;
    const text = (this.summary[si] ?? []).join('');
    const where = { item_id: this.id, output_index: this.oi, summary_index: si };
    this.out.emit('response.reasoning_summary_text.done', { ...where, text });
    this.out.emit('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text } });
  }

  /** Closes what is open and writes the done item; returns it. */
  end(e: ReasoningEndEvent, path: Path, losses: LossSink): JsonObject {
    this.closeSummary();
    const part: Part = { type: 'reasoning', origin: OPENAI_RESPONSES, id: this.id };
    if (this.text !== undefined) {
      const text = this.text.join('');
      const where = { item_id: this.id, output_index: this.oi, content_index: 0 };
      this.out.emit('response.reasoning_text.done', { ...where, text });
      this.out.emit('response.content_part.done', { ...where, part: { type: 'reasoning_text', text } });
      part.text = text;
    }
    if (this.summary.length > 0) part.summary = this.summary.map((chunks) => chunks.join(''));
    const encrypted = e.encryptedContent ?? this.start.encryptedContent;
    if (encrypted !== undefined) part.encryptedContent = encrypted;
    // A signature or redacted data has no place here: the item encoder reports them.
    const signature = e.signature ?? (this.signature.length > 0 ? this.signature.join('') : undefined);
    if (signature !== undefined) part.signature = signature;
    const redacted = e.redactedData ?? this.start.redactedData;
    if (redacted !== undefined) part.redactedData = redacted;
    const ext = mergeExt(this.start.ext, e.ext);
    if (ext !== undefined) part.ext = ext;
    const item = reasoningItem(part, path, losses) as JsonObject;
    this.out.emit('response.output_item.done', { output_index: this.oi, item });
    return item;
  }
}
