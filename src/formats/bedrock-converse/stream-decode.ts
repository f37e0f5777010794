/**
 * Bedrock ConverseStream events -> canonical stream events, one wire event at a time.
 *
 * Bedrock's order: messageStart, then content blocks (contentBlockStart only for toolUse,
 * toolResult and image blocks; a text or reasoning block opens with its first contentBlockDelta),
 * contentBlockStop, messageStop {stopReason}, metadata {usage, metrics}. Every real capture ends
 * messageStop then metadata; AI SDK test streams also put metadata first, leave out messageStart or
 * contentBlockStop (reasoning.bin from agentgateway too), or end without metadata. So:
 * - the response starts at messageStart, or at the first event when messageStart is missing;
 * - messageStop closes every block still open (the message is complete: no content may follow);
 * - response-end comes once both messageStop and metadata have arrived, in either order. The API
 *   reference lists every ConverseStreamOutput member as optional and says nothing of their order,
 *   so a stream that ends after messageStop without metadata is complete, only without usage: end()
 *   then emits response-end (with `$noUsage`/`$noMetrics` hints, as the response codec keeps them).
 *   A stream that ends before messageStop was cut off: end() adds nothing.
 * - exception messages (and the five exception names as plain events, from JSON-lines captures)
 *   become `error`; unknown event types become provider events.
 * Contents map as the response codec maps them: stop reasons and usage through its mappers, tool
 * results and images through its block decoder (emitted whole as `part` at their stop), citations
 * through its citation decoder. Response-level fields with no canonical slot (metrics, trace,
 * additionalModelResponseFields ...) ride on response-end's ext under the same keys the response
 * codec uses, so accumulating a stream gives the response codec's exact Converse body back.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { DecodeContext, StreamDecoder } from '../codec.js';
import { residue } from '../shared/residue.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { decodeCitation } from './citations.js';
import { decodeBlocks } from './content-decode.js';
import { decodeStopReason } from './stop-reason.js';
import { decodeUsage } from './usage.js';
import {
  concatBase64, DELTA_MEMBERS, EXCEPTIONS, fail, indexOf, objectAt, PADDING, payloadOf, REASONING_MEMBERS, START_MEMBERS, stringAt,
} from './stream-wire.js';
import { ID, memberOf, rest } from './wire-util.js';

type Kind = 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'image';

interface Block {
  kind: Kind;
  /** Canonical index; held blocks (tool result, image) get theirs when they are emitted whole. */
  index: number;
  /** Held blocks: the start member and the delta items. */
  start?: JsonObject;
  items?: JsonValue[];
  /** Redacted reasoning chunks, and whether reasoning-start carried the first one. */
  redacted?: string[];
  redactedAtStart?: boolean;
}

const set = (...k: string[]): ReadonlySet<string> => new Set(k);
const BLOCK_EVENT = set('contentBlockIndex', 'start', 'delta', PADDING);
const TOOL_USE_START = set('toolUseId', 'name');
const USAGE_NUMBERS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;

export class BedrockStreamDecoder implements StreamDecoder {
  private n = 0;
  private started = false;
  private next = 0;
  /** Blocks by Bedrock contentBlockIndex: open ones, and the state of the others. */
  private readonly open = new Map<number, Block>();
  private readonly state = new Map<number, 'announced' | 'stopped'>();
  private stopped = false;
  private metadata = false;
  private readonly toolIds = new ToolCallIds();
  private over: 'response-end' | 'error' | undefined;
  /** Response-level residue, written on response-end. */
  private readonly tail: JsonObject = {};

  constructor(private readonly ctx: DecodeContext) {}

  push(w: WireEvent): StreamEvent[] {
    const at = this.n++;
    const type = w.event ?? '';
    if (this.over !== undefined) fail(at, [], `'${type}' comes after the stream ended (${this.over})`);
    const out: StreamEvent[] = [];
    if (w.exception === true || EXCEPTIONS.has(type)) {
      this.start(out);
      out.push({ type: 'error', error: errorOf(type, w.data) });
      this.over = 'error';
      return out;
    }
    switch (type) {
      case 'messageStart':
        this.messageStart(payloadOf(w.data, at, type), at, out);
        return out;
      case 'contentBlockStart':
      case 'contentBlockDelta':
      case 'contentBlockStop': {
        const p = payloadOf(w.data, at, type);
        if (this.stopped) fail(at, [], `${type} after messageStop: the message is complete`);
        this.start(out);
        this.extraKeys(p, BLOCK_EVENT, at, [], type);
        const i = indexOf(p, at, type);
        if (type === 'contentBlockStart') this.blockStart(p, i, at, out);
        else if (type === 'contentBlockDelta') this.blockDelta(p, i, at, out, w);
        else this.blockStop(i, at, out);
        return out;
      }
      case 'messageStop':
        this.messageStop(payloadOf(w.data, at, type), at, out);
        return out;
      case 'metadata':
        this.metadataEvent(payloadOf(w.data, at, type), at, out);
        return out;
      default:
        out.push({ type: 'provider-event', origin: ID, event: w });
        return out;
    }
  }

  end(): StreamEvent[] {
    if (this.over !== undefined || !this.stopped) return [];
    // messageStop came and metadata never did: complete, without usage (see the file comment).
    this.tail['$noUsage'] = true;
    this.tail['$noMetrics'] = true;
    return [this.responseEnd()];
  }

  private start(out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'response-start' });
  }

  private messageStart(p: JsonObject, at: number, out: StreamEvent[]): void {
    if (this.started) fail(at, [], 'messageStart after the message began');
    this.started = true;
    stringAt(p, 'role', at, [], 'messageStart.role');
    // Anything but role 'assistant' (a response's only role) is kept to be written back.
    const res = rest(p, p['role'] === 'assistant' ? set('role', PADDING) : set(PADDING));
    out.push(res ? { type: 'response-start', ext: { [ID]: { messageStart: res } } } : { type: 'response-start' });
  }

  private blockStart(p: JsonObject, i: number, at: number, out: StreamEvent[]): void {
    if (this.open.has(i) || this.state.has(i)) fail(at, ['contentBlockIndex'], `block ${i} already began`);
    const start = objectAt(p, 'start', at, [], 'contentBlockStart.start');
    const member = memberOf(start, START_MEMBERS);
    this.extraKeys(start, member === undefined ? set() : set(member), at, ['start'], 'the start union');
    if (member === undefined) {
      // An empty start (AI SDK test streams) announces a block its first delta opens.
      this.state.set(i, 'announced');
      return;
    }
    const value = objectAt(start, member, at, ['start'], `start.${member}`);
    if (member === 'toolUse') {
      const id = stringAt(value, 'toolUseId', at, ['start', member], 'toolUse.toolUseId');
      const name = stringAt(value, 'name', at, ['start', member], 'toolUse.name');
      this.toolIds.claim(id, [at, 'start', member, 'toolUseId']);
      const b = this.openBlock(i, 'tool-call');
      const res = rest(value, TOOL_USE_START);
      out.push({
        type: 'tool-call-start', index: b.index, id, name,
        // `type` stays residue (written back as it came), as the response codec keeps it.
        ...(value['type'] === 'server_tool_use' ? { providerExecuted: true as const } : {}),
        ...(res ? { ext: { [ID]: res } } : {}),
      });
      return;
    }
    if (member === 'toolResult') stringAt(value, 'toolUseId', at, ['start', member], 'toolResult.toolUseId');
    else stringAt(value, 'format', at, ['start', member], 'image.format');
    this.open.set(i, { kind: member === 'toolResult' ? 'tool-result' : 'image', index: -1, start: value, items: [] });
  }

  private blockDelta(p: JsonObject, i: number, at: number, out: StreamEvent[], w: WireEvent): void {
    const delta = objectAt(p, 'delta', at, [], 'contentBlockDelta.delta');
    const member = memberOf(delta, DELTA_MEMBERS);
    if (member === undefined) {
      // A delta kind newer than this codec: kept whole for Bedrock; its block's stop is then accepted.
      if (!this.open.has(i) && !this.state.has(i)) this.state.set(i, 'announced');
      out.push({ type: 'provider-event', origin: ID, event: w });
      return;
    }
    this.extraKeys(delta, set(member), at, ['delta'], 'the delta union');
    const value = delta[member] as JsonValue;
    const path = ['delta', member];
    switch (member) {
      case 'text': {
        if (typeof value !== 'string') fail(at, path, 'a text delta must be a string');
        const b = this.textBlock(i, at, out);
        if (value !== '') out.push({ type: 'text-delta', index: b.index, delta: value });
        return;
      }
      case 'citation': {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, path, 'a citation delta must be an object');
        const b = this.textBlock(i, at, out);
        out.push({ type: 'citation', index: b.index, citation: decodeCitation(value) });
        return;
      }
      case 'reasoningContent':
        this.reasoningDelta(objectAt(delta, member, at, ['delta'], 'reasoningContent'), i, at, out);
        return;
      case 'toolUse': {
        const b = this.existing(i, 'tool-call', at);
        const input = stringAt(objectAt(delta, member, at, ['delta'], 'toolUse'), 'input', at, path, 'toolUse.input');
        this.extraKeys(value as JsonObject, set('input'), at, path, 'toolUse delta');
        if (input !== '') out.push({ type: 'tool-call-delta', index: b.index, delta: input });
        return;
      }
      case 'toolResult': {
        const b = this.existing(i, 'tool-result', at);
        if (!Array.isArray(value)) fail(at, path, 'a toolResult delta must be a list');
        value.forEach((item, k) => {
          const m = typeof item === 'object' && item !== null && !Array.isArray(item) ? memberOf(item, set('text', 'json')) : undefined;
          if (m === undefined || (m === 'text' && typeof (item as JsonObject)['text'] !== 'string')) fail(at, [...path, k], 'a toolResult delta item is {text} or {json}');
        });
        b.items?.push(...value);
        return;
      }
      case 'image': {
        const b = this.existing(i, 'image', at);
        b.items?.push(objectAt(delta, member, at, ['delta'], 'image'));
        return;
      }
    }
  }

  private reasoningDelta(r: JsonObject, i: number, at: number, out: StreamEvent[]): void {
    const member = memberOf(r, REASONING_MEMBERS);
    if (member === undefined) fail(at, ['delta', 'reasoningContent'], 'reasoningContent holds text, signature or redactedContent');
    this.extraKeys(r, set(member), at, ['delta', 'reasoningContent'], 'reasoningContent');
    const value = stringAt(r, member, at, ['delta', 'reasoningContent'], `reasoningContent.${member}`);
    let b = this.current(i, 'reasoning', at);
    if (b === undefined) {
      b = this.openBlock(i, 'reasoning');
      // Redacted reasoning arrives whole in one delta: it opens the block carrying its data.
      if (member === 'redactedContent') {
        b.redacted = [value];
        b.redactedAtStart = true;
        out.push({ type: 'reasoning-start', index: b.index, origin: ID, redactedData: value });
        return;
      }
      out.push({ type: 'reasoning-start', index: b.index, origin: ID });
    }
    if (member === 'redactedContent') (b.redacted ??= []).push(value);
    else if (member === 'signature') out.push({ type: 'reasoning-delta', index: b.index, signature: value });
    else if (value !== '') out.push({ type: 'reasoning-delta', index: b.index, text: value });
  }

  private blockStop(i: number, at: number, out: StreamEvent[]): void {
    const b = this.open.get(i);
    if (b !== undefined) return this.close(i, b, out);
    const state = this.state.get(i);
    if (state === undefined) fail(at, ['contentBlockIndex'], `contentBlockStop for block ${i}, which never began`);
    if (state === 'stopped') fail(at, ['contentBlockIndex'], `block ${i} already stopped`);
    // An empty start and no delta: a block with nothing in it, so no canonical block.
    this.state.set(i, 'stopped');
  }

  private messageStop(p: JsonObject, at: number, out: StreamEvent[]): void {
    if (this.stopped) fail(at, [], 'a second messageStop');
    const raw = stringAt(p, 'stopReason', at, [], 'messageStop.stopReason');
    this.start(out);
    for (const [i, b] of this.open) this.close(i, b, out);
    this.stopped = true;
    const stopReason = decodeStopReason(raw);
    out.push({ type: 'finish', stopReason });
    if (stopReason.unified === 'other') this.tail['$stopRaw'] = true;
    if (p['additionalModelResponseFields'] !== undefined) this.tail['additionalModelResponseFields'] = p['additionalModelResponseFields'];
    const res = rest(p, set('stopReason', 'additionalModelResponseFields', PADDING));
    if (res) this.tail['messageStop'] = res;
    if (this.metadata) out.push(this.responseEnd());
  }

  private metadataEvent(p: JsonObject, at: number, out: StreamEvent[]): void {
    if (this.metadata) fail(at, [], 'a second metadata event');
    this.metadata = true;
    this.start(out);
    const usage = p['usage'];
    if (usage !== undefined) {
      const u = objectAt(p, 'usage', at, [], 'metadata.usage');
      for (const k of USAGE_NUMBERS) if (typeof u[k] !== 'number') fail(at, ['usage', k], `usage.${k} must be a number`);
      out.push({ type: 'usage', usage: decodeUsage(u) });
    } else this.tail['$noUsage'] = true;
    if (p['metrics'] === undefined) this.tail['$noMetrics'] = true;
    // metrics, trace, performanceConfig, serviceTier, newer fields: the response codec's residue keys.
    Object.assign(this.tail, rest(p, set('usage', PADDING)));
    if (this.stopped) out.push(this.responseEnd());
  }

  private responseEnd(): StreamEvent {
    this.over = 'response-end';
    return Object.keys(this.tail).length > 0 ? { type: 'response-end', ext: { [ID]: this.tail } } : { type: 'response-end' };
  }

  private openBlock(i: number, kind: Kind): Block {
    const b: Block = { kind, index: this.next++ };
    this.state.delete(i);
    this.open.set(i, b);
    return b;
  }

  /** The open block `i` if it is of `kind`, undefined if it has not begun; an error otherwise. */
  private current(i: number, kind: Kind, at: number): Block | undefined {
    const b = this.open.get(i);
    if (b === undefined) {
      if (this.state.get(i) === 'stopped') fail(at, ['contentBlockIndex'], `block ${i} already stopped`);
      return undefined;
    }
    if (b.kind !== kind) fail(at, ['delta'], `a ${kind} delta for block ${i}, which is a ${b.kind} block`);
    return b;
  }

  private textBlock(i: number, at: number, out: StreamEvent[]): Block {
    const b = this.current(i, 'text', at);
    if (b !== undefined) return b;
    const opened = this.openBlock(i, 'text');
    out.push({ type: 'text-start', index: opened.index });
    return opened;
  }

  /** A block that only contentBlockStart opens (tool use, tool result, image). */
  private existing(i: number, kind: Kind, at: number): Block {
    const b = this.current(i, kind, at);
    if (b === undefined) fail(at, ['contentBlockIndex'], `a ${kind} delta for block ${i}, which no contentBlockStart opened as ${kind}`);
    return b;
  }

  private close(i: number, b: Block, out: StreamEvent[]): void {
    this.open.delete(i);
    this.state.set(i, 'stopped');
    switch (b.kind) {
      case 'text':
        out.push({ type: 'text-end', index: b.index });
        return;
      case 'tool-call':
        out.push({ type: 'tool-call-end', index: b.index });
        return;
      case 'reasoning': {
        const r = b.redacted;
        // Redacted data the start did not carry whole: all of it at the end.
        const whole = r !== undefined && (r.length > 1 || b.redactedAtStart !== true);
        out.push(whole ? { type: 'reasoning-end', index: b.index, redactedData: concatBase64(r) } : { type: 'reasoning-end', index: b.index });
        return;
      }
      default:
        b.index = this.next++;
        out.push({ type: 'part', index: b.index, part: heldPart(b) });
    }
  }

  /** Keys a payload has beyond what the codec reads: reported, since nothing can carry them. */
  private extraKeys(obj: JsonObject, known: ReadonlySet<string>, at: number, path: (string | number)[], what: string): void {
    for (const key in residue(obj, known)) {
      this.ctx.losses.push({ code: 'unknown-field', path: [at, ...path, key], message: `${what} field '${key}' has no canonical slot`, action: 'dropped' });
    }
  }
}

/** A tool result or image block, whole, as the response codec decodes the same block. */
function heldPart(b: Block): Part {
  const start = b.start as JsonObject;
  const items = b.items as JsonObject[];
  if (b.kind === 'tool-result') return decodeBlocks([{ toolResult: { ...start, content: items } }])[0] as Part;
  const bytes: string[] = [];
  let source: JsonValue | undefined;
  const extra: JsonObject = {};
  for (const d of items) {
    const s = d['source'];
    if (typeof s === 'object' && s !== null && !Array.isArray(s) && typeof s['bytes'] === 'string') bytes.push(s['bytes']);
    else if (s !== undefined) source = s;
    for (const k in d) if (k !== 'source') extra[k] = d[k] as JsonValue;
  }
  if (bytes.length > 0) source = { bytes: concatBase64(bytes) };
  const image: JsonObject = { ...start, ...extra };
  // An image that came with an error (ImageBlockDelta.error) and no source is kept as Bedrock's block.
  if (source === undefined) return { type: 'provider-block', origin: ID, block: { image } };
  return decodeBlocks([{ image: { ...image, source } }])[0] as Part;
}

function errorOf(type: string, data: JsonValue): { message: string; type: string; raw: JsonValue; code?: number } {
  const obj = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
  const message = typeof obj['message'] === 'string' ? obj['message'] : `Bedrock ${type || 'exception'}`;
  const code = obj['originalStatusCode'];
  return typeof code === 'number' ? { message, type, raw: data, code } : { message, type, raw: data };
}
