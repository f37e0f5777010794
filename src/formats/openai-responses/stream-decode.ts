/**
 * Responses stream events -> canonical stream events, one event at a time.
 *
 * Blocks are addressed on the wire by `output_index` (+ `content_index`), never by item id (some
 * proxies rotate ids per event). One canonical block per content part of a message item, per
 * reasoning item and per function call, indexed in the order they start; every other item
 * (built-in tool calls, custom tools, MCP ...) arrives whole at its `output_item.done` as the
 * `part` the response codec decodes it into, and its progress events before that are own
 * provider events marked keepalive (they say nothing the whole item does not).
 *
 * Each block ends at its item's `output_item.done`, with the item's fields as the response codec
 * keeps them (`ext`), so accumulating the stream gives what decoding the final response gives:
 * the text blocks of a message end together there (the item's final status is known only then).
 * A done event's whole text adds what the deltas did not say (captures trimmed of deltas, gateways
 * that send only done events). `response.completed` / `response.incomplete` give usage, the stop
 * reason and the response's own fields; `error` and `response.failed` end the stream with an error.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { decodeOutputPart } from './content-decode.js';
import { decodeItems } from './items-decode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { decodeResponse } from './response.js';
import { decodeStatus, endsInClientCall } from './stop-reason.js';
import { fail, failedError, int, obj, Said, str, streamError, within } from './stream-wire.js';
import { validateResponse } from './validate.js';

const OR = OPENAI_RESPONSES;
const MESSAGE_KEYS = new Set(['role', 'content']);
const CALL_KEYS = new Set(['type', 'call_id', 'name', 'arguments']);
/** Fields of a lifecycle event besides its response. */
const LIFECYCLE_KEYS = new Set(['type', 'sequence_number', 'response']);

interface Content { index: number; said: Said; citations: number }
interface MessageItem { kind: 'message'; added: JsonObject; parts: Map<number, Content> }
interface ReasoningItem {
  kind: 'reasoning';
  index: number;
  summaries: Map<number, Said>;
  /** Summaries that have their slot (a delta was emitted, maybe empty). */
  slots: Set<number>;
  text: Said;
}
interface CallItem { kind: 'call'; index: number; said: Said; args?: string }
interface WholeItem { kind: 'whole' }
type Item = MessageItem | ReasoningItem | CallItem | WholeItem;
const WIRE_TYPE: Partial<Record<Item['kind'], string>> = { message: 'message', reasoning: 'reasoning', call: 'function_call' };
const WHAT: Record<Item['kind'], string> = { message: 'a message', reasoning: 'a reasoning item', call: 'a function call', whole: 'an item' };

export class ResponsesStreamDecoder implements StreamDecoder {
  private n = 0;
  private next = 0;
  private started = false;
  private over: 'end' | 'error' | undefined;
  private readonly items = new Map<number, Item>();
  /** Outputs whose output_item.done came: nothing may add to them. */
  private readonly closed = new Set<number>();
  /** Done items the client must run (function calls ...): they make the stop reason `tool-calls`. */
  private readonly calls: JsonObject[] = [];
  private readonly toolIds = new ToolCallIds();

  constructor(private readonly ctx: DecodeContext) {}

  push(wire: WireEvent): StreamEvent[] {
    const at = this.n++;
    const data = wire.data;
    if (typeof data === 'string') {
      // The `[DONE]` sentinel some gateways append carries nothing.
      if (data.trim() === '[DONE]') return [];
      return fail(at, ['data'], `expected a JSON event, received the text '${data.slice(0, 40)}'`);
    }
    if (!isJsonObject(data)) return fail(at, ['data'], 'expected a JSON object event');
    const type = typeof data['type'] === 'string' ? data['type'] : wire.event;
    if (type === undefined) return fail(at, ['type'], 'the event has no type');
    if (this.over !== undefined) return this.afterEnd(type, at);
    if (type === 'keepalive') return [{ type: 'provider-event', origin: OR, event: wire, keepalive: true }];
    const out: StreamEvent[] = [];
    if (!this.started && type !== 'response.created' && type !== 'response.queued' && type !== 'response.in_progress') {
      // A stream that skipped response.created (some gateways): the response still starts first.
      this.started = true;
      out.push({ type: 'response-start' });
    }
    this.event(type, data, wire, at, out);
    return out;
  }

  end(): StreamEvent[] {
    return []; // a stream cut off before its end stays cut off
  }

  private afterEnd(type: string, at: number): StreamEvent[] {
    if (type === 'keepalive') return [];
    // The API follows an `error` event with response.failed restating the same failure.
    if (this.over === 'error' && type === 'response.failed') return [];
    return fail(at, ['type'], `'${type}' after the response ${this.over === 'end' ? 'ended' : 'failed'}: one stream holds one response`, 'event_after_end');
  }

  private event(type: string, data: JsonObject, wire: WireEvent, at: number, out: StreamEvent[]): void {
    switch (type) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        // Lifecycle markers: the response opens once; the encoder writes them again itself.
        if (!this.started) out.push(this.start(obj(data, 'response', at, type), data, at));
        return;
      case 'response.output_item.added':
        return this.added(obj(data, 'item', at, type), int(data, 'output_index', at, type), wire, at, out);
      case 'response.output_item.done':
        return this.itemDone(obj(data, 'item', at, type), int(data, 'output_index', at, type), at, out);
      case 'response.content_part.added':
      case 'response.content_part.done': {
        const part = obj(data, 'part', at, type);
        const item = this.item(data, at, type);
        if (item.kind === 'reasoning') return this.reasoningText(item, part['text'], at, out);
        if (item.kind !== 'message') return void this.itemOf('message', data, at, type);
        const refusal = part['type'] === 'refusal';
        const text = refusal ? part['refusal'] : part['text'];
        const c = this.content(item, data, at, type, refusal, out);
        if (typeof text === 'string') this.whole(c, text, at, out);
        return;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.delta(this.content(this.itemOf('message', data, at, type), data, at, type, type === 'response.refusal.delta', out), str(data, 'delta', at, type), out);
      case 'response.output_text.done':
      case 'response.refusal.done': {
        const refusal = type === 'response.refusal.done';
        const c = this.content(this.itemOf('message', data, at, type), data, at, type, refusal, out);
        return this.whole(c, str(data, refusal ? 'refusal' : 'text', at, type), at, out);
      }
      case 'response.output_text.annotation.added':
        return this.annotation(this.content(this.itemOf('message', data, at, type), data, at, type, false, out), obj(data, 'annotation', at, type), out);
      case 'response.function_call_arguments.delta': {
        const call = this.itemOf('call', data, at, type);
        const delta = str(data, 'delta', at, type);
        if (delta !== '') out.push({ type: 'tool-call-delta', index: call.index, delta });
        call.said.add(delta);
        return;
      }
      case 'response.function_call_arguments.done':
        this.itemOf('call', data, at, type).args = str(data, 'arguments', at, type);
        return;
      case 'response.reasoning_summary_part.added':
      case 'response.reasoning_summary_part.done':
        return this.summary(data, obj(data, 'part', at, type)['text'], at, type, out);
      case 'response.reasoning_summary_text.delta':
        return this.summary(data, str(data, 'delta', at, type), at, type, out, true);
      case 'response.reasoning_summary_text.done':
        return this.summary(data, str(data, 'text', at, type), at, type, out);
      case 'response.reasoning_text.delta': {
        const r = this.itemOf('reasoning', data, at, type);
        const delta = str(data, 'delta', at, type);
        if (delta !== '') out.push({ type: 'reasoning-delta', index: r.index, text: delta });
        r.text.add(delta);
        return;
      }
      case 'response.reasoning_text.done':
        return this.reasoningText(this.itemOf('reasoning', data, at, type), str(data, 'text', at, type), at, out);
      case 'response.completed':
      case 'response.incomplete':
        return this.finish(obj(data, 'response', at, type), data, type, at, out);
      case 'response.failed': {
        const res = obj(data, 'response', at, type);
        this.lifecycleExtras(data, at);
        const decoded = within(at, ['response'], [], () => decodeResponse({ ...res, output: [] }, this.ctx));
        if (decoded.usage) out.push({ type: 'usage', usage: decoded.usage });
        out.push({ type: 'error', error: failedError(res['error']) });
        this.over = 'error';
        return;
      }
      case 'error':
        out.push({ type: 'error', error: streamError(data) });
        this.over = 'error';
        return;
      default: {
        // Progress of an item that arrives whole, or an event this codec does not know.
        const oi = data['output_index'];
        const whole = typeof oi === 'number' && this.items.get(oi)?.kind === 'whole';
        out.push(whole ? { type: 'provider-event', origin: OR, event: wire, keepalive: true } : { type: 'provider-event', origin: OR, event: wire });
      }
    }
  }

  private start(res: JsonObject, data: JsonObject, at: number): StreamEvent {
    this.started = true;
    this.lifecycleExtras(data, at);
    const e: StreamEvent = { type: 'response-start' };
    if (typeof res['id'] === 'string') e.id = res['id'];
    if (typeof res['model'] === 'string') e.model = res['model'];
    if (typeof res['created_at'] === 'number') e.created = res['created_at'];
    return e;
  }

  /** Fields a gateway adds beside `response` (e.g. a cost report) have no place: reported. */
  private lifecycleExtras(data: JsonObject, at: number): void {
    for (const key in residue(data, LIFECYCLE_KEYS) ?? {}) {
      this.ctx.losses.push({ code: 'unsupported-field', path: [at, key], message: `stream event field '${key}' has no canonical place`, action: 'dropped' });
    }
  }

  private mismatch(at: number, what: string, kept: string): void {
    this.ctx.losses.push({ code: 'stream-mismatch', path: [at], message: `the deltas of ${what} and its done event disagree: ${kept} kept`, action: 'approximated' });
  }

  private added(item: JsonObject, oi: number, wire: WireEvent | undefined, at: number, out: StreamEvent[]): void {
    if (this.items.has(oi)) fail(at, ['output_index'], `output ${oi} was already added`);
    switch (item['type']) {
      case 'message':
        this.items.set(oi, { kind: 'message', added: item, parts: new Map() });
        return;
      case 'reasoning': {
        const index = this.next++;
        this.items.set(oi, { kind: 'reasoning', index, summaries: new Map(), slots: new Set(), text: new Said() });
        out.push({ type: 'reasoning-start', index, origin: OR, ...(typeof item['id'] === 'string' ? { id: item['id'] } : {}) });
        return;
      }
      case 'function_call': {
        const index = this.next++;
        this.items.set(oi, { kind: 'call', index, said: new Said() });
        const e: StreamEvent = { type: 'tool-call-start', index, id: str(item, 'call_id', at, 'function_call'), name: str(item, 'name', at, 'function_call') };
        this.toolIds.claim(e.id, [at, 'item', 'call_id']);
        // The item's own fields (its fc_ id, status) as the response codec keeps them.
        const rest = residue(item, CALL_KEYS);
        if (rest) e.ext = { [OR]: rest };
        out.push(e);
        return;
      }
      default:
        this.items.set(oi, { kind: 'whole' });
        if (wire) out.push({ type: 'provider-event', origin: OR, event: wire, keepalive: true });
    }
  }

  private item(data: JsonObject, at: number, type: string): Item {
    const oi = int(data, 'output_index', at, type);
    const item = this.items.get(oi);
    if (item === undefined) return fail(at, ['output_index'], `${type}: no output ${oi} was added`);
    if (this.closed.has(oi)) return fail(at, ['output_index'], `${type}: output ${oi} is already done`);
    return item;
  }

  private itemOf<K extends Item['kind']>(kind: K, data: JsonObject, at: number, type: string): Extract<Item, { kind: K }> {
    const item = this.item(data, at, type);
    if (item.kind !== kind) return fail(at, ['output_index'], `${type}: output ${String(data['output_index'])} is not ${WHAT[kind]}`);
    return item as Extract<Item, { kind: K }>;
  }

  /** The content part's block, opened on first mention (gateways may skip content_part.added). */
  private content(item: MessageItem, data: JsonObject, at: number, type: string, refusal: boolean, out: StreamEvent[]): Content {
    return this.open(item, int(data, 'content_index', at, type), refusal, out);
  }

  private open(item: MessageItem, ci: number, refusal: boolean, out: StreamEvent[]): Content {
    let c = item.parts.get(ci);
    if (c !== undefined) return c;
    c = { index: this.next++, said: new Said(), citations: 0 };
    const e: StreamEvent = { type: 'text-start', index: c.index, ...(refusal ? { refusal: true as const } : {}) };
    // The first part carries the item (its id now; its final fields come at the end).
    if (item.parts.size === 0) {
      const rest = residue(item.added, MESSAGE_KEYS);
      e.ext = { [OR]: rest === undefined ? { $item: true } : { $item: true, item: rest } };
    }
    item.parts.set(ci, c);
    out.push(e);
    return c;
  }

  private delta(c: Content, delta: string, out: StreamEvent[]): void {
    if (delta === '') return;
    out.push({ type: 'text-delta', index: c.index, delta });
    c.said.add(delta);
  }

  /** A whole text (a done event's, or an added part's first text): what the deltas did not say yet. */
  private whole(c: Content, text: string, at: number, out: StreamEvent[]): void {
    const rest = c.said.rest(text);
    if (rest === undefined) this.mismatch(at, 'a text', 'the deltas');
    else this.delta(c, rest, out);
  }

  private annotation(c: Content, annotation: JsonObject, out: StreamEvent[]): void {
    // Mapped as the response codec maps annotations; one that does not map stays in the part's
    // final fields (its `annotations` list) at the item's end.
    const part = decodeOutputPart({ type: 'output_text', text: '', annotations: [annotation] });
    const citation = part.type === 'text' ? part.citations?.[0] : undefined;
    if (citation === undefined) return;
    out.push({ type: 'citation', index: c.index, citation });
    c.citations++;
  }

  /**
   * Summary text: deltas as they come; a part's or done event's whole text adds what they did not
   * say, and an empty summary still gets its slot (an empty delta) so the summary list keeps it.
   */
  private summary(data: JsonObject, text: unknown, at: number, type: string, out: StreamEvent[], delta = false): void {
    const r = this.itemOf('reasoning', data, at, type);
    const si = int(data, 'summary_index', at, type);
    if (typeof text === 'string') this.summaryText(r, si, text, delta, type.endsWith('done'), at, out);
  }

  private summaryText(r: ReasoningItem, si: number, text: string, delta: boolean, done: boolean, at: number, out: StreamEvent[]): void {
    let said = r.summaries.get(si);
    if (said === undefined) r.summaries.set(si, (said = new Said()));
    const rest = delta ? text : said.rest(text);
    if (rest === undefined) return this.mismatch(at, `summary ${si}`, 'the deltas');
    if (rest === '' && (!done || r.slots.has(si))) return;
    out.push({ type: 'reasoning-delta', index: r.index, summaryIndex: si, text: rest });
    said.add(rest);
    r.slots.add(si);
  }

  private reasoningText(r: ReasoningItem, text: unknown, at: number, out: StreamEvent[]): void {
    if (typeof text !== 'string') return;
    const rest = r.text.rest(text);
    if (rest === undefined) return this.mismatch(at, 'reasoning text', 'the deltas');
    if (rest === '') return;
    out.push({ type: 'reasoning-delta', index: r.index, text: rest });
    r.text.add(rest);
  }

  /** The item's parts as the response codec decodes the item (validated first). */
  private decodeItem(item: JsonObject, at: number): Part[] {
    return within(at, ['item'], ['output', 0], () => {
      const { args } = validateResponse({ id: '', output: [item] }, this.ctx.limits);
      return decodeItems([item], args, this.ctx, ['output'], true)[0]?.parts ?? [];
    });
  }

  private itemDone(item: JsonObject, oi: number, at: number, out: StreamEvent[]): void {
    if (this.closed.has(oi)) fail(at, ['output_index'], `output ${oi} is already done`);
    let state = this.items.get(oi);
    if (state === undefined) {
      // Done without added (gateways that send only done events): it starts now.
      this.added(item, oi, undefined, at, out);
      state = this.items.get(oi) as Item;
    }
    const expected = WIRE_TYPE[state.kind];
    if (expected !== undefined && item['type'] !== expected) {
      fail(at, ['item', 'type'], `output ${oi} was added as a ${expected} item, done as '${String(item['type'])}'`);
    }
    const parts = this.decodeItem(item, at);
    if (endsInClientCall([item])) this.calls.push(item);
    this.closed.add(oi);
    switch (state.kind) {
      case 'message':
        this.messageDone(state, item, parts, at, out);
        break;
      case 'reasoning':
        this.reasoningDone(state, parts[0], at, out);
        break;
      case 'call': {
        const part = parts[0];
        const args = state.args ?? (item['arguments'] as string);
        const rest = state.said.rest(args);
        if (rest === undefined) this.mismatch(at, 'the arguments', 'the done event’s text');
        else if (rest !== '') out.push({ type: 'tool-call-delta', index: state.index, delta: rest });
        out.push({ type: 'tool-call-end', index: state.index, arguments: args, ...(part?.ext ? { ext: part.ext } : {}) });
        break;
      }
      case 'whole':
        for (const part of parts) out.push({ type: 'part', index: this.next++, part });
    }
    this.items.set(oi, { kind: 'whole' }); // its late progress events are provider events
  }

  private reasoningDone(state: ReasoningItem, part: Part | undefined, at: number, out: StreamEvent[]): void {
    if (part?.type !== 'reasoning') return;
    (part.summary ?? []).forEach((text, si) => this.summaryText(state, si, text, false, true, at, out));
    if (part.text !== undefined) this.reasoningText(state, part.text, at, out);
    out.push({
      type: 'reasoning-end',
      index: state.index,
      ...(part.encryptedContent !== undefined ? { encryptedContent: part.encryptedContent } : {}),
      ...(part.ext ? { ext: part.ext } : {}),
    });
  }

  private messageDone(state: MessageItem, item: JsonObject, parts: Part[], at: number, out: StreamEvent[]): void {
    if (Array.isArray(item['content']) && item['content'].length === 0) {
      // No content part to carry the item: it is kept whole, as the response codec keeps it.
      for (const c of state.parts.values()) out.push({ type: 'text-end', index: c.index });
      for (const part of parts) out.push({ type: 'part', index: this.next++, part });
      return;
    }
    const ended = new Set<number>();
    parts.forEach((part, ci) => {
      if (part.type !== 'text' && part.type !== 'refusal') return;
      const c = this.open(state, ci, part.type === 'refusal', out);
      this.whole(c, part.text, at, out);
      if (part.type === 'text' && c.citations === 0) for (const citation of part.citations ?? []) out.push({ type: 'citation', index: c.index, citation });
      out.push({ type: 'text-end', index: c.index, ...(part.ext ? { ext: part.ext } : {}) });
      ended.add(ci);
    });
    for (const [ci, c] of state.parts) if (!ended.has(ci)) out.push({ type: 'text-end', index: c.index });
  }

  private finish(res: JsonObject, data: JsonObject, type: string, at: number, out: StreamEvent[]): void {
    this.lifecycleExtras(data, at);
    // The response's own fields as the response codec keeps them; its output came as items.
    const decoded = within(at, ['response'], [], () => decodeResponse({ ...res, output: [] }, this.ctx));
    if (decoded.usage) out.push({ type: 'usage', usage: decoded.usage });
    const status = typeof res['status'] === 'string' ? res['status'] : type === 'response.incomplete' ? 'incomplete' : 'completed';
    out.push({ type: 'finish', stopReason: decodeStatus(status, res['incomplete_details'], this.calls) });
    out.push(decoded.ext ? { type: 'response-end', ext: decoded.ext } : { type: 'response-end' });
    this.over = 'end';
  }
}
