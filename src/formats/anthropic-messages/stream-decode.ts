/**
 * Anthropic Messages SSE events -> canonical stream events, one wire event at a time. Events are
 * read by their data's `type` (the `event:` line repeats it; JSON-lines captures have none).
 *
 * - message_start opens the response (id, model, the message's other fields as residue) and
 *   reports usage; content_block_start/delta/stop map to blocks, each Anthropic index to the next
 *   canonical index in start order; message_delta reports usage (its counters are whole-message
 *   totals: the wire usage is merged and re-normalized with the response codec's `decodeUsage`)
 *   and the stop reason; ping is a keepalive; error is the canonical error; any other event type
 *   (and any newer delta type) is a provider event, its `index` rewritten to the canonical one.
 * - Several messages in one stream (programmatic tool calling and tool search captures send
 *   message_start again after message_stop): one canonical response. Later messages continue it,
 *   their blocks (including whole blocks in message_start's `content`) take the next indices, the
 *   stop reason is the last message's, and each message's usage replaces the earlier report. So
 *   `finish` and `response-end` are held from message_stop until the next event shows no message
 *   follows (or input ends); an earlier message's message_delta/message_stop and a later
 *   message_start then become provider events, so what they said is reported, not dropped.
 * - A message_start repeating the open message's id carries nothing new (keepalive provider
 *   event); one with another id while a message is open is invalid (Anthropic's SDK refuses it too).
 * - A message that stops with a block still open (max_tokens mid tool input) closes that block.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import { isJsonObject } from '../../model/json.js';
import type { FinishEvent, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { decodeStopReason } from './stop-reason.js';
import { applyCompactionDelta, closeBlock, decodeCitation, invalid, openBlock, type OpenBlock } from './stream-blocks.js';
import { decodeUsage } from './usage.js';
import { ID } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage']);
const DELTA_KEYS: ReadonlySet<string> = new Set(['stop_reason', 'stop_sequence']);
const MESSAGE_DELTA_KEYS: ReadonlySet<string> = new Set(['type', 'delta', 'usage']);

/** The end of a message, held until the next event says whether another message follows. */
interface Held {
  finish: FinishEvent | undefined;
  ext: JsonObject | undefined;
  wire: WireEvent[];
}

export class AnthropicStreamDecoder implements StreamDecoder {
  private n = 0;
  private started = false;
  private over = false;
  private messageId: string | undefined;
  private inMessage = false;
  private next = 0;
  /** Open blocks of the current message by Anthropic index; `used` remembers every index started. */
  private readonly open = new Map<number, OpenBlock>();
  private readonly used = new Set<number>();
  private readonly toolIds = new ToolCallIds();
  private usage: JsonObject = {};
  /** The current message's stop reason and response-level residue (from message_start or message_delta). */
  private stop: { finish: FinishEvent | undefined; ext: JsonObject | undefined; wire: WireEvent | undefined } = { finish: undefined, ext: undefined, wire: undefined };
  private held: Held | undefined;

  constructor(private readonly ctx: DecodeContext) {}

  push(w: WireEvent): StreamEvent[] {
    const at = this.n++;
    const d = w.data;
    if (!isJsonObject(d) || typeof d['type'] !== 'string') {
      throw invalid([at], 'expected an Anthropic stream event: a JSON object with a string "type"');
    }
    const type = d['type'];
    if (this.over) {
      // A keepalive after the error carries nothing; anything else cannot follow the stream's end.
      if (type === 'ping') return [];
      throw invalid([at, 'type'], `'${type}' comes after the stream's error event`);
    }
    const out: StreamEvent[] = [];
    if (this.held !== undefined) this.afterStop(type, at, out);
    switch (type) {
      case 'message_start':
        this.messageStart(d, at, out);
        break;
      case 'content_block_start':
        this.blockStart(d, at, out);
        break;
      case 'content_block_delta':
        this.blockDelta(d, at, out);
        break;
      case 'content_block_stop': {
        const [index, open] = this.openAt(d, at);
        this.open.delete(index);
        out.push(...closeBlock(open));
        break;
      }
      case 'message_delta':
        this.messageDelta(d, at, out);
        break;
      case 'message_stop':
        this.messageStop(d, at, out);
        break;
      case 'ping':
        out.push({ type: 'provider-event', origin: ID, event: named(d), keepalive: true });
        break;
      case 'error':
        this.error(d, at, out);
        break;
      default:
        out.push({ type: 'provider-event', origin: ID, event: named(d) });
    }
    return out;
  }

  /** A complete last message ends the response here; a cut-off one stays cut off. */
  end(): StreamEvent[] {
    const held = this.held;
    if (held === undefined) return [];
    this.held = undefined;
    return endEvents(held);
  }

  /** After a message_stop: another message continues the response; keepalives and unknown events pass. */
  private afterStop(type: string, at: number, out: StreamEvent[]): void {
    const held = this.held as Held;
    if (type === 'message_start') {
      for (const event of held.wire) out.push({ type: 'provider-event', origin: ID, event });
      this.held = undefined;
    } else if (type === 'error') {
      if (held.finish) out.push(held.finish);
      this.held = undefined;
    } else if (type.startsWith('content_block_') || type === 'message_delta' || type === 'message_stop') {
      throw invalid([at, 'type'], `'${type}' after message_stop, outside any message`);
    }
  }

  private messageStart(d: JsonObject, at: number, out: StreamEvent[]): void {
    const m = d['message'];
    if (!isJsonObject(m)) throw invalid([at, 'message'], 'message_start needs a message object');
    const id = m['id'];
    if (typeof id !== 'string') throw invalid([at, 'message', 'id'], 'the message needs a string id');
    if (this.inMessage) {
      if (id === this.messageId) {
        out.push({ type: 'provider-event', origin: ID, event: named(d), keepalive: true });
        return;
      }
      throw invalid([at, 'message', 'id'], `message_start of '${id}' while message '${this.messageId ?? ''}' is still open (no message_stop came)`);
    }
    if (typeof m['model'] !== 'string') throw invalid([at, 'message', 'model'], 'the message needs a string model');
    const usage = m['usage'];
    if (!isJsonObject(usage) || typeof usage['input_tokens'] !== 'number' || typeof usage['output_tokens'] !== 'number') {
      throw invalid([at, 'message', 'usage'], 'the message needs usage with numeric input_tokens and output_tokens');
    }
    const content = m['content'] ?? [];
    if (!Array.isArray(content)) throw invalid([at, 'message', 'content'], 'the message content must be an array');
    this.inMessage = true;
    this.messageId = id;
    this.open.clear();
    this.used.clear();
    this.stop = { finish: undefined, ext: undefined, wire: undefined };
    if (!this.started) {
      this.started = true;
      const rest = residue(m, MESSAGE_KEYS);
      out.push({ type: 'response-start', id, model: m['model'], ...(rest ? { ext: { [ID]: rest } } : {}) });
    } else {
      // A continuation: its id and fields are kept as a provider event; its content becomes blocks below.
      out.push({ type: 'provider-event', origin: ID, event: named({ ...d, message: { ...m, content: [] } }) });
    }
    this.usage = { ...usage };
    out.push({ type: 'usage', usage: decodeUsage(this.usage) });
    content.forEach((b, k) => {
      const path = [at, 'message', 'content', k];
      if (!isJsonObject(b) || typeof b['type'] !== 'string') throw invalid(path, 'a content block needs a string type');
      const { events, open } = openBlock(b, this.next++, path, true);
      this.claimCalls(events, path);
      out.push(...events, ...closeBlock(open));
    });
    // A message given whole (programmatic tool calling continuations) carries its stop reason here.
    // Its other fields went to response-start (or the provider event) above.
    if (typeof m['stop_reason'] === 'string') this.setStop(m['stop_reason'], m['stop_sequence'], {}, undefined);
  }

  private blockStart(d: JsonObject, at: number, out: StreamEvent[]): void {
    this.requireMessage('content_block_start', at);
    const index = d['index'];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) throw invalid([at, 'index'], 'content_block_start needs a non-negative integer index');
    if (this.used.has(index)) throw invalid([at, 'index'], `content block ${index} already started in this message`);
    const b = d['content_block'];
    if (!isJsonObject(b) || typeof b['type'] !== 'string') throw invalid([at, 'content_block'], 'content_block_start needs a content_block object with a string type');
    const ci = this.next++;
    this.used.add(index);
    const { events, open } = openBlock(b, ci, [at, 'content_block'], false);
    this.claimCalls(events, [at, 'content_block']);
    this.open.set(index, open);
    out.push(...events);
  }

  /** A tool_use id is claimed once per response, continuations included. */
  private claimCalls(events: readonly StreamEvent[], path: Path): void {
    for (const e of events) if (e.type === 'tool-call-start') this.toolIds.claim(e.id, childPath(path, 'id'));
  }

  private blockDelta(d: JsonObject, at: number, out: StreamEvent[]): void {
    const [, open] = this.openAt(d, at);
    const delta = d['delta'];
    if (!isJsonObject(delta) || typeof delta['type'] !== 'string') throw invalid([at, 'delta'], 'content_block_delta needs a delta object with a string type');
    const type = delta['type'];
    const index = open.index;
    switch (type) {
      case 'text_delta':
        expectBlock(open, 'text', 'a text block', d, type, at);
        out.push({ type: 'text-delta', index, delta: deltaField(delta, 'text', type, at) });
        return;
      case 'citations_delta':
        expectBlock(open, 'text', 'a text block', d, type, at);
        out.push({ type: 'citation', index, citation: decodeCitation(delta['citation'], [at, 'delta', 'citation']) });
        return;
      case 'input_json_delta': {
        expectBlock(open, 'tool-call', 'a tool use block', d, type, at);
        const text = deltaField(delta, 'partial_json', type, at);
        // An empty fragment carries nothing (Anthropic opens every input with one).
        if (text === '' || open.kind !== 'tool-call') return;
        open.args.push(text);
        out.push({ type: 'tool-call-delta', index, delta: text });
        return;
      }
      case 'thinking_delta':
        expectBlock(open, 'reasoning', 'a thinking block', d, type, at);
        out.push({ type: 'reasoning-delta', index, text: deltaField(delta, 'thinking', type, at) });
        return;
      case 'signature_delta':
        expectBlock(open, 'reasoning', 'a thinking block', d, type, at);
        out.push({ type: 'reasoning-delta', index, signature: deltaField(delta, 'signature', type, at) });
        return;
      case 'compaction_delta':
        if (open.kind !== 'held') throw invalid([at, 'delta', 'type'], `${type} for block ${String(d['index'])}, which is not a compaction block`);
        applyCompactionDelta(open.block, delta);
        return;
      default:
        // A newer delta type: kept for Anthropic, addressed by the canonical index.
        out.push({ type: 'provider-event', origin: ID, event: named({ ...d, index }) });
    }
  }

  private messageDelta(d: JsonObject, at: number, out: StreamEvent[]): void {
    this.requireMessage('message_delta', at);
    const delta = d['delta'];
    if (!isJsonObject(delta)) throw invalid([at, 'delta'], 'message_delta needs a delta object');
    const stop = delta['stop_reason'];
    if (stop !== undefined && stop !== null && typeof stop !== 'string') throw invalid([at, 'delta', 'stop_reason'], 'stop_reason must be a string or null');
    const usage = d['usage'];
    if (usage !== undefined && usage !== null) {
      if (!isJsonObject(usage)) throw invalid([at, 'usage'], 'usage must be an object');
      // Whole-message totals, omitted when they do not apply: overwrite what is given, never add.
      const merged: JsonObject = { ...this.usage };
      for (const key in usage) if (usage[key] !== null && usage[key] !== undefined) merged[key] = usage[key] as JsonObject[string];
      this.usage = merged;
      out.push({ type: 'usage', usage: decodeUsage(merged) });
    }
    const rest = { ...residue(delta, DELTA_KEYS), ...residue(d, MESSAGE_DELTA_KEYS) };
    if (!('stop_sequence' in delta)) rest['$noStopSequence'] = true;
    if (typeof stop === 'string') this.setStop(stop, delta['stop_sequence'], rest, named(d));
    else this.stop = { ...this.stop, ext: { ...this.stop.ext, ...rest }, wire: named(d) };
  }

  private setStop(raw: string, sequence: unknown, rest: JsonObject, wire: WireEvent | undefined): void {
    const stopReason = decodeStopReason(raw, typeof sequence === 'string' ? sequence : null);
    const ext: JsonObject = { ...this.stop.ext, ...rest };
    if (stopReason.unified === 'other') ext['$stopRaw'] = true;
    if (typeof sequence === 'string' && stopReason.sequence !== sequence) ext['stop_sequence'] = sequence;
    this.stop = { finish: { type: 'finish', stopReason }, ext, wire: wire ?? this.stop.wire };
  }

  private messageStop(d: JsonObject, at: number, out: StreamEvent[]): void {
    this.requireMessage('message_stop', at);
    for (const [index, open] of this.open) {
      this.ctx.losses.push({ code: 'unclosed-block', path: [at], message: `the message stopped with content block ${index} still open; it ends here with what arrived`, action: 'approximated' });
      out.push(...closeBlock(open));
    }
    this.open.clear();
    this.inMessage = false;
    const ext = this.stop.ext !== undefined && Object.keys(this.stop.ext).length > 0 ? this.stop.ext : undefined;
    const stop = named(d);
    this.held = { finish: this.stop.finish, ext, wire: this.stop.wire ? [this.stop.wire, stop] : [stop] };
  }

  private error(d: JsonObject, at: number, out: StreamEvent[]): void {
    const e = d['error'];
    if (!isJsonObject(e)) throw invalid([at, 'error'], 'an error event needs an error object');
    const message = typeof e['message'] === 'string' ? e['message'] : typeof e['type'] === 'string' ? e['type'] : 'error';
    // An error before message_start still belongs to a response: it opens one with nothing in it.
    if (!this.started) {
      this.started = true;
      out.push({ type: 'response-start' });
    }
    out.push({ type: 'error', error: { message, ...(typeof e['type'] === 'string' ? { type: e['type'] } : {}), raw: d } });
    this.over = true;
  }

  private requireMessage(type: string, at: number): void {
    if (!this.inMessage) throw invalid([at, 'type'], `'${type}' outside a message (no message_start before it)`);
  }

  private openAt(d: JsonObject, at: number): [number, OpenBlock] {
    this.requireMessage(d['type'] as string, at);
    const index = d['index'];
    const open = typeof index === 'number' ? this.open.get(index) : undefined;
    if (open === undefined) throw invalid([at, 'index'], `no content block ${JSON.stringify(index) ?? 'undefined'} is open in this message`);
    return [index as number, open];
  }
}

/** Provider events carry the event as Anthropic frames it (named by its type), whatever the capture layout. */
function named(data: JsonObject): WireEvent {
  return { event: data['type'] as string, data };
}

function endEvents(held: Held): StreamEvent[] {
  const out: StreamEvent[] = [];
  if (held.finish) out.push(held.finish);
  out.push({ type: 'response-end', ...(held.ext ? { ext: { [ID]: held.ext } } : {}) });
  return out;
}

export function anthropicStreamDecoder(ctx: DecodeContext): StreamDecoder {
  return new AnthropicStreamDecoder(ctx);
}

/** A delta's string field (module functions, not closures made per delta event). */
function deltaField(delta: JsonObject, name: string, type: string, at: number): string {
  const v = delta[name];
  if (typeof v !== 'string') throw invalid([at, 'delta', name], `${type} needs a string '${name}'`);
  return v;
}

/** Refuses a delta for a block of another kind. */
function expectBlock(open: OpenBlock, kind: OpenBlock['kind'], what: string, d: JsonObject, type: string, at: number): void {
  if (open.kind !== kind || (open.kind === 'reasoning' && open.redacted)) throw invalid([at, 'delta', 'type'], `${type} for block ${String(d['index'])}, which is not ${what}`);
}
