/**
 * Canonical stream events -> Responses stream events, with the lifecycle the OpenAI SDK's
 * ResponseStream expects: response.created + response.in_progress, each item between
 * output_item.added and output_item.done (message content parts between content_part.added and
 * .done, with their deltas), sequence_number from 0, and response.completed (or .incomplete /
 * .failed) carrying the whole final response built by the response codec's envelope around the
 * items streamed (each item is built once, when it ends, by the response codec's item encoders).
 *
 * Content blocks that follow each other share one message item, as the response codec groups
 * them; a block this codec decoded says where its item starts (`$item`) and carries the item's
 * fields. Ids the canonical stream does not give are made up from a counter (`resp_il1`,
 * `msg_il2` ...), never at random. This codec's own provider events (built-in tool progress) are
 * written again with their output index moved to where this stream put their item.
 */
import type { Citation } from '../../model/citation.js';
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type {
  ReasoningStartEvent, StreamEvent, ToolCallStartEvent, WireEvent,
} from '../../model/stream-event.js';
import type { StreamEncodeContext, StreamEncoder } from '../codec.js';
import { isHintKey } from '../shared/residue.js';
import { Template } from '../shared/stream-written.js';
import { outputPart, own } from './content-encode.js';
import { functionCallItem } from './item-encode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { incompleteFor } from './stop-reason.js';
import { DISCARD, envelope, mapped, mergeExt, ownOnly, type Head } from './stream-envelope.js';
import { MessageItem, WholeItems } from './stream-items.js';
import { ReasoningWriter, type EventWriter } from './stream-reasoning.js';
import { passThrough, written } from './stream-wire.js';
import { argumentsValue } from './validate.js';

const OR = OPENAI_RESPONSES;

// `tpl`: the block's delta event as JSON text cut at the delta and sequence number (stream-written.ts); null when it could not be.
interface TextBlock { kind: 'text'; msg: MessageItem; ci: number; refusal: boolean; chunks: string[]; annotations: JsonObject[]; ext: Ext | undefined; tpl?: Template | null }
interface ReasoningBlock { kind: 'reasoning'; w: ReasoningWriter }
interface CallBlock { kind: 'call'; oi: number; id: string; start: ToolCallStartEvent; chunks: string[]; tpl?: Template | null }
interface DroppedBlock { kind: 'dropped' }
type Block = TextBlock | ReasoningBlock | CallBlock | DroppedBlock;

export class ResponsesStreamEncoder implements StreamEncoder {
  private n = -1;
  private seq = 0;
  private ids = 0;
  private head: Head | undefined;
  private over = false;
  private out: WireEvent[] = [];
  /** Final items by output index (undefined while the item is open). */
  private readonly output: (JsonObject | undefined)[] = [];
  private readonly blocks = new Map<number, Block>();
  /** The message item content blocks join, until something else starts. */
  private msg: MessageItem | undefined;
  private readonly whole = new WholeItems();
  private readonly extraChoices = new Set<number>();
  private readonly at = { usage: 0, finish: 0, end: 0 };

  constructor(private readonly ctx: StreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    this.n++;
    this.out = [];
    if (this.over) {
      this.loss('after-end', `a ${e.type} event after the end of the stream is not written`);
      return [];
    }
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) {
      this.extra(e.choice);
      return [];
    }
    if (e.type === 'provider-event') {
      this.provider(e.origin, e.event, e.keepalive === true);
      return this.out;
    }
    if (this.head === undefined) this.start(e.type === 'response-start' ? e : { type: 'response-start' });
    this.event(e);
    return this.out;
  }

  /** A stream cut off before its end is left cut off: no completion is made up. */
  end(): WireEvent[] {
    return [];
  }

  private event(e: StreamEvent): void {
    switch (e.type) {
      case 'response-start':
        return;
      case 'text-start':
        return this.textStart(e.index, e.refusal === true, e.ext);
      case 'text-delta':
        return this.textDelta(e.index, e.delta);
      case 'citation':
        return this.citation(e.index, e.citation);
      case 'text-end':
        return this.textEnd(e.index, e.ext);
      case 'reasoning-start':
        return this.reasoningStart(e);
      case 'reasoning-delta':
        return this.block(e.index, 'reasoning')?.w.delta(e.text, e.summaryIndex, e.signature);
      case 'reasoning-end': {
        const b = this.block(e.index, 'reasoning');
        this.blocks.delete(e.index);
        if (b) this.output[b.w.oi] = b.w.end(e, [this.n], this.ctx.losses);
        return;
      }
      case 'tool-call-start':
        return this.callStart(e);
      case 'tool-call-delta': {
        const b = this.block(e.index, 'call');
        if (!b || e.delta === '') return;
        b.chunks.push(e.delta);
        const type = 'response.function_call_arguments.delta';
        const seq = this.seq++;
        if (b.tpl === undefined) b.tpl = Template.of(2, (d, n) => ({ type, item_id: b.id, output_index: b.oi, delta: d, sequence_number: n }), this.ctx.eventText) ?? null;
        this.out.push(written(b.tpl, type, { type, item_id: b.id, output_index: b.oi, delta: e.delta, sequence_number: seq }, e.delta, seq));
        return;
      }
      case 'tool-call-end':
        return this.callEnd(e.index, e.arguments, e.ext);
      case 'part':
        return this.part(e.part);
      case 'usage':
        this.at.usage = this.n;
        (this.head as Head).usage = { ...(this.head as Head).usage, ...e.usage };
        return;
      case 'finish': {
        const head = this.head as Head;
        this.at.finish = this.n;
        head.stopReason = e.stopReason;
        if (e.ext !== undefined) head.choiceExt = e.ext;
        return;
      }
      case 'response-end':
        return this.finish(e.ext);
      case 'error':
        return this.fail(e.error.message, e.error.code ?? e.error.type, e.error.raw);
    }
  }

  // ---- lifecycle ----

  private start(e: Extract<StreamEvent, { type: 'response-start' }>): void {
    this.head = { id: e.id ?? this.mint('resp'), created: e.created ?? Math.floor(Date.now() / 1000) };
    if (e.model !== undefined) this.head.model = e.model;
    if (e.ext !== undefined) this.head.ext = e.ext;
    // Only own residue goes on the opening envelope; other origins' ext is reported once, at the end.
    const { ext: _all, ...bare } = this.head;
    const mine = ownOnly(e.ext);
    const body = envelope(mine ? { ...bare, ext: mine } : bare, [], DISCARD, this.at);
    body['status'] = 'in_progress';
    this.emit('response.created', { response: body });
    this.emit('response.in_progress', { response: { ...body } });
  }

  private finish(ext: Ext | undefined): void {
    this.seal();
    const head = this.head as Head;
    this.at.end = this.n;
    const merged = mergeExt(head.ext, ext);
    if (merged !== undefined) head.ext = merged;
    const body = envelope(head, this.items(), this.ctx.losses, this.at);
    const status = body['status'];
    this.emit(status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed', { response: body });
    this.over = true;
  }

  /**
   * The error event in its documented form plus the `error` object the API really sends (capture
   * openai-error.1), which is what openai-node raises as an APIError; then response.failed.
   */
  private fail(message: string, code: string | number | undefined, raw: JsonValue | undefined): void {
    const param = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw['param'] : undefined;
    const wireCode = code === undefined ? null : String(code);
    const wireParam = typeof param === 'string' ? param : null;
    this.emit('error', { code: wireCode, message, param: wireParam, error: { type: wireCode ?? 'server_error', code: wireCode, message, param: wireParam } });
    const head = this.head as Head;
    this.at.end = this.n;
    const body = envelope({ ...head, stopReason: { unified: 'error', raw: 'failed' } }, this.items(), DISCARD, this.at);
    body['error'] = { code: wireCode ?? 'server_error', message };
    this.emit('response.failed', { response: body });
    this.over = true;
  }

  private items(): JsonObject[] {
    return this.output.filter((i): i is JsonObject => i !== undefined);
  }

  // ---- text ----

  private textStart(index: number, refusal: boolean, ext: Ext | undefined): void {
    const hints = own(ext);
    if (hints?.['$item'] === true || this.msg === undefined) {
      this.seal();
      const rest = hints?.['item'];
      const fields = rest !== null && typeof rest === 'object' && !Array.isArray(rest) ? rest : undefined;
      const oi = this.output.push(undefined) - 1;
      this.msg = new MessageItem(oi, typeof fields?.['id'] === 'string' ? fields['id'] : this.mint('msg'), fields);
      this.emit('response.output_item.added', { output_index: oi, item: this.msg.added() });
    }
    const msg = this.msg;
    const ci = msg.open();
    const part: JsonObject = refusal ? { type: 'refusal', refusal: '' } : { type: 'output_text', annotations: [], logprobs: [], text: '' };
    this.emit('response.content_part.added', { item_id: msg.id, output_index: msg.oi, content_index: ci, part });
    this.blocks.set(index, { kind: 'text', msg, ci, refusal, chunks: [], annotations: [], ext });
  }

  private textDelta(index: number, delta: string): void {
    const b = this.block(index, 'text');
    if (!b || delta === '') return;
    b.chunks.push(delta);
    // The hottest events are written as their final object at once (the keys in emit's order):
    // two object spreads per delta cost more than the rest of the encoder.
    const { id, oi } = b.msg;
    const seq = this.seq++;
    const ci = b.ci;
    // An output_text delta carries logprobs before its sequence number; a refusal delta none.
    const make = b.refusal
      ? (d: string, n: string | number): JsonObject => ({ type: 'response.refusal.delta', item_id: id, output_index: oi, content_index: ci, delta: d, sequence_number: n })
      : (d: string, n: string | number): JsonObject => ({ type: 'response.output_text.delta', item_id: id, output_index: oi, content_index: ci, delta: d, logprobs: [], sequence_number: n });
    if (b.tpl === undefined) b.tpl = Template.of(2, make, this.ctx.eventText) ?? null;
    const data = make(delta, seq);
    this.out.push(written(b.tpl, data['type'] as string, data, delta, seq));
  }

  private citation(index: number, citation: Citation): void {
    const b = this.block(index, 'text');
    if (!b) return;
    if (b.refusal) return this.loss('citations', 'a refusal carries no annotations');
    // The response codec's annotation mapping, on a text holding just this citation.
    // The text matters only for a URL citation without a range (it then spans the text so far).
    const text = citation.type === 'url' && citation.endIndex === undefined ? b.chunks.join('') : '';
    const part = outputPart({ type: 'text', text, citations: [citation] }, [this.n, 'citation'], this.ctx.losses);
    const annotation = (part?.['annotations'] as JsonObject[] | undefined)?.[0];
    if (annotation === undefined) return;
    this.emit('response.output_text.annotation.added', {
      item_id: b.msg.id, output_index: b.msg.oi, content_index: b.ci, annotation_index: b.annotations.length, annotation,
    });
    b.annotations.push(annotation);
  }

  private textEnd(index: number, endExt: Ext | undefined): void {
    const b = this.block(index, 'text');
    if (!b) return;
    this.blocks.delete(index);
    const text = b.chunks.join('');
    const ext = mergeExt(b.ext, endExt);
    const part: Part = b.refusal ? { type: 'refusal', text } : { type: 'text', text };
    if (ext !== undefined) part.ext = ext;
    // Citations were mapped (and any loss reported) as they came; the part takes their annotations.
    const final = outputPart(part, [this.n], this.ctx.losses) as JsonObject;
    if (!b.refusal && Array.isArray(final['annotations']) && own(ext)?.['annotations'] === undefined) final['annotations'] = b.annotations;
    const where = { item_id: b.msg.id, output_index: b.msg.oi, content_index: b.ci };
    if (b.refusal) this.emit('response.refusal.done', { ...where, refusal: text });
    else this.emit('response.output_text.done', { ...where, text, logprobs: Array.isArray(final['logprobs']) ? final['logprobs'] : [] });
    this.emit('response.content_part.done', { ...where, part: final });
    const fields = own(ext)?.['item'];
    b.msg.close(b.ci, final, own(ext)?.['$item'] === true && fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? fields : undefined);
    this.done(b.msg);
  }

  /** The open message item takes no more content parts; it is done once its parts are. */
  private seal(): void {
    const msg = this.msg;
    if (msg === undefined) return;
    this.msg = undefined;
    msg.sealed = true;
    this.done(msg);
  }

  private done(msg: MessageItem): void {
    if (!msg.sealed || !msg.complete) return;
    const item = msg.final(incompleteFor((this.head as Head).stopReason) !== null);
    this.output[msg.oi] = item;
    this.emit('response.output_item.done', { output_index: msg.oi, item });
  }

  // ---- reasoning ----

  private reasoningStart(e: ReasoningStartEvent): void {
    this.seal();
    if (e.origin !== OR) {
      this.blocks.set(e.index, { kind: 'dropped' });
      return this.loss('foreign-reasoning', `reasoning from ${e.origin} cannot be sent to the Responses API`);
    }
    const oi = this.output.push(undefined) - 1;
    this.blocks.set(e.index, { kind: 'reasoning', w: new ReasoningWriter(oi, e.id ?? this.mint('rs'), e, this.writer) });
  }

  // ---- function calls ----

  private callStart(e: ToolCallStartEvent): void {
    this.seal();
    if (e.providerExecuted === true) {
      this.blocks.set(e.index, { kind: 'dropped' });
      return this.loss('provider-executed-tool', `call of provider-run tool '${e.name}' has no Responses equivalent`);
    }
    const oi = this.output.push(undefined) - 1;
    const item: JsonObject = {};
    // This codec's own item fields (its fc_ id, status) as they came.
    for (const [key, value] of Object.entries(own(e.ext) ?? {})) if (!isHintKey(key) && value !== undefined) item[key] = value;
    const id = typeof item['id'] === 'string' ? item['id'] : this.mint('fc');
    Object.assign(item, { id, type: 'function_call', status: item['status'] ?? 'in_progress', arguments: '', call_id: e.id, name: e.name });
    this.blocks.set(e.index, { kind: 'call', oi, id, start: e, chunks: [] });
    this.emit('response.output_item.added', { output_index: oi, item });
  }

  private callEnd(index: number, args: string | undefined, endExt: Ext | undefined): void {
    const b = this.block(index, 'call');
    this.blocks.delete(index);
    if (!b) return;
    const text = args ?? b.chunks.join('');
    const where = { item_id: b.id, output_index: b.oi };
    // Clients read the arguments from deltas: arguments given only at the end come as one delta.
    if (b.chunks.length === 0 && text !== '') this.emit('response.function_call_arguments.delta', { ...where, delta: text });
    this.emit('response.function_call_arguments.done', { ...where, arguments: text });
    const ext = mergeExt(b.start.ext, endExt);
    const part: Part = { type: 'tool-call', id: b.start.id, name: b.start.name, arguments: argumentsValue(text) ?? {}, argumentsJson: text };
    if (ext !== undefined) part.ext = ext;
    const item = functionCallItem(part, [this.n], this.ctx.losses, true) as JsonObject;
    if (own(ext) === undefined) Object.assign(item, { id: b.id, status: 'completed' });
    this.output[b.oi] = item;
    this.emit('response.output_item.done', { output_index: b.oi, item });
  }

  // ---- whole parts and provider events ----

  private part(part: Part): void {
    this.seal();
    const at = this.n;
    // The response codec's paths for a one-part message ([] 'parts', 0, ...) re-rooted at this event.
    const sink = mapped(this.ctx.losses, (path) => [at, 'part', ...path.slice(2)]);
    for (const { item, oi } of this.whole.items(part, sink, (prefix) => this.mint(prefix))) {
      const place = oi ?? this.output.push(undefined) - 1;
      this.output[place] = item;
      for (const [type, fields] of this.whole.events(item, place, oi !== undefined)) this.emit(type, fields);
    }
  }

  private provider(origin: string, event: WireEvent, keepalive: boolean): void {
    if (origin !== OR) {
      if (!keepalive) this.loss('provider-event', `a ${origin} stream event has no place in a Responses stream`);
      return;
    }
    const data = event.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return void this.out.push(event);
    // Nothing may come before response.created; a keepalive that early says nothing anyway.
    if (this.head === undefined) {
      if (keepalive && data['type'] === 'keepalive') return;
      this.start({ type: 'response-start' });
    }
    let oi: number | undefined;
    if (data['type'] === 'response.output_item.added') {
      this.seal();
      oi = this.whole.open(data, this.output.push(undefined) - 1);
    } else if (typeof data['output_index'] === 'number') {
      oi = this.whole.moved(data['output_index']);
      if (oi === undefined) return this.loss('provider-event', `a ${String(data['type'])} event for an output this stream does not hold is not written`);
    }
    const type = typeof data['type'] === 'string' ? data['type'] : (event.event ?? 'unknown');
    this.out.push({ event: type, data: passThrough(data, type, oi, this.seq++) });
  }

  // ---- plumbing ----

  private block<K extends Block['kind']>(index: number, kind: K): Extract<Block, { kind: K }> | undefined {
    const b = this.blocks.get(index);
    return b?.kind === kind ? (b as Extract<Block, { kind: K }>) : undefined;
  }

  private emit(type: string, fields: JsonObject): void {
    this.out.push({ event: type, data: { type, ...fields, sequence_number: this.seq++ } });
  }

  /** How the reasoning writer emits: through `emit`, or its deltas whole (with the next sequence number). */
  private readonly writer: EventWriter = {
    emit: (type, fields) => this.emit(type, fields),
    push: (data) => void this.out.push({ event: data.type, data }),
    pushWritten: (tpl, data) => void this.out.push(written(tpl, data.type, data, data.delta, data.sequence_number)),
    eventText: () => this.ctx.eventText === true,
    seq: () => this.seq++,
  };

  private mint(prefix: string): string {
    return `${prefix}_il${++this.ids}`;
  }

  private loss(code: string, message: string): void {
    this.ctx.losses.push({ code, path: [this.n], message, action: 'dropped' });
  }

  private extra(choice: number): void {
    if (this.extraChoices.has(choice)) return;
    this.extraChoices.add(choice);
    this.loss('extra-choices', `a Responses stream holds one output: choice ${choice} is dropped`);
  }
}
