/**
 * Messages <-> events, as groups and one at a time (the pure functions stores call):
 * - `messageToEvent` (exported from index.ts; the reading side is events-read.ts);
 * - exact round trips: an event this codec would not write back the same way from the messages it
 *   reads as (JSON text spelled otherwise, a layout of another writer) is kept verbatim in the first
 *   message's hints (`$event`, with `$hash` of the messages): written back as it came while the
 *   messages are unchanged, re-encoded once they change;
 * - `preserve`: a group of messages the events would not give back exactly is stashed (shared
 *   stash.ts) in an `interlingua.stash` blob, the last payload of the group's first event, so the
 *   event stays one CreateEvent accepts.
 */
import { UsageError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { DecodeContext, EncodeContext, LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { isOwnJsonText, jsonTextEquals } from '../shared/json-text.js';
import { stashHash, stashHashMatches } from '../shared/stash-hash.js';
import { STASH_KEY, stashGroup, takeMessageStash } from '../shared/stash.js';
import { AGENTCORE, BLOB, ENVELOPE_VERSION, EVENT_KEYS, LIMITS } from './agentcore-memory-api.js';
import { own } from './content.js';
import { namesFor, readCallNames, withoutCallNames, type CallNames } from './call-names.js';
import { messagesOf, parseEvent, checkEventMetadata, type ParsedBlobs } from './event-decode.js';
import { sameJsonText } from './blob-text.js';
import { encodeEvent, OWN_PAYLOADS, textBlobs } from './event-encode.js';
import { sameValue } from '../shared/same-value.js';
import { messagesWithoutPlainArgumentsJson } from '../shared/plain-arguments.js';
import { unpaired } from './older-results.js';
import { onlyKey } from '../shared/own-keys.js';
import { plainSegments, type Slot } from './slots.js';
import { strandsMessages } from './strands.js';
import { writesBackAsWritten, writtenEvent, type Written } from './written.js';

export interface At {
  m: Message;
  /** The message's index in the request, for loss paths. */
  i: number;
  /** The names of the calls before it that its results answer (call-names.ts namesFor). */
  names?: CallNames | undefined;
}

/** Deep equality of JSON values (object key order ignored, as JSON readers ignore it). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  // Loops, not filter/every closures: this runs on every payload of every event read.
  if (Array.isArray(a)) {
    const list = b as unknown[];
    if (a.length !== list.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], list[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  // for…in with hasOwn: the keys Object.keys gives, without a list made per object compared.
  let n = 0;
  for (const k in ra) {
    const v = ra[k];
    if (v === undefined || !Object.hasOwn(ra, k)) continue;
    n++;
    if (!sameJson(v, rb[k])) return false;
  }
  for (const k in rb) if (rb[k] !== undefined && Object.hasOwn(rb, k)) n--;
  return n === 0;
}

const joins = (m: Message): boolean => own(m.ext)?.['$join'] === true;

/** `m` without the verbatim-event hints. */
function bare(m: Message): Message {
  const o = own(m.ext);
  if (o === undefined || (!('$event' in o) && !('$hash' in o))) return m;
  const { $event: _e, $hash: _h, ...rest } = o;
  const ext = { ...m.ext };
  if (Object.keys(rest).length > 0) ext[AGENTCORE] = rest;
  else delete ext[AGENTCORE];
  const out: Message = { ...m };
  if (Object.keys(ext).length > 0) out.ext = ext;
  else delete out.ext;
  return out;
}

/** Consecutive messages that share one event (`$join`, from a plain event of several roles). */
function runsOf(group: readonly At[]): At[][] {
  const out: At[][] = [];
  let run: At[] = [];
  for (const at of group) {
    run.push(at);
    if (!joins(at.m)) {
      out.push(run);
      run = [];
    }
  }
  if (run.length > 0) out.push(run);
  return out;
}

const slotOfPayload = (p: JsonObject): Slot | undefined => {
  const c = p['conversational'];
  return isJsonObject(c) ? { kind: 'conversational', role: c['role'] as 'USER' } : undefined;
};

/** One event for a run of joined messages, when they still read back as that run; else undefined. */
function merged(run: readonly At[], events: readonly (JsonObject | undefined)[]): JsonObject | undefined {
  if (events.some((e, k) => e === undefined || (k > 0 && Object.keys(e).length !== 1))) return undefined;
  const payloads = events.flatMap((e) => (e as JsonObject)['payload'] as JsonObject[]);
  // Joined messages are plain conversational ones: any blob at all and they are written apart.
  const slots = payloads.map(slotOfPayload);
  if (payloads.length > OWN_PAYLOADS || slots.some((s) => s === undefined)) return undefined;
  const segs = plainSegments(slots as Slot[]);
  if (segs.length !== run.length || segs.some((s, k) => s.role !== run[k]?.m.role)) return undefined;
  return { ...(events[0] as JsonObject), payload: payloads };
}

/**
 * The events of a run. `written`, when given, gets each event encoded here (not one kept
 * verbatim) with what it was encoded from: its blob texts are JSON.stringify output, which the
 * read-back check need not verify, and messages read back as they were need no second encoding.
 */
function encodeRun(run: readonly At[], losses: LossSink, info: LossSink, preserve: boolean, metadataEntries: number = LIMITS.metadataEntries, blobs: 'text' | 'objects' = 'text', written?: Map<JsonValue, Written>): JsonObject[] {
  const o = own((run[0] as At).m.ext);
  const verbatim = o?.['$event'];
  if (isJsonObject(verbatim) && metadataFits(verbatim, metadataEntries) && stashHashMatches(run.map((a) => bare(a.m)), o?.['$hash'])) return [verbatim];
  const objects: (JsonValue | undefined)[][] = [];
  const events = run.map((a, k) => (written !== undefined && blobs === 'text' ? writtenEvent(a.m, ['messages', a.i], a.names, losses, info, preserve, metadataEntries, objects, k) : encodeEvent(a.m, ['messages', a.i], losses, info, preserve, metadataEntries, blobs, a.names)));
  if (run.length > 1) {
    const one = merged(run, events);
    if (one) {
      written?.set(one, { messages: run.map((a) => a.m), names: run.map((a) => a.names), metadataEntries, preserve });
      return [one];
    }
  }
  const out: JsonObject[] = [];
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    if (e === undefined) continue;
    out.push(e);
    written?.set(e, { messages: [(run[k] as At).m], names: [(run[k] as At).names], metadataEntries, preserve, blobs: objects[k] ?? [] });
  }
  return out;
}

const metadataFits = (event: JsonObject, max: number): boolean => !isJsonObject(event['metadata']) || Object.keys(event['metadata']).length <= max;

/** A group's stash, moved from the top of its first event (where stashGroup puts it) into a blob. */
function sinkStash(event: JsonObject | undefined): void {
  if (event === undefined || !(STASH_KEY in event)) return;
  const stash = event[STASH_KEY] as JsonValue;
  delete event[STASH_KEY];
  const payload = event['payload'] as JsonObject[];
  event['payload'] = [...payload, { blob: JSON.stringify({ blobType: BLOB.stash, version: ENVELOPE_VERSION, stash }) }];
}

const STASH_PREFIX = `{"blobType":"${BLOB.stash}","version":${ENVELOPE_VERSION},`;

/** A copy of an event with its stash blob (the last payload) lifted to the top, where takeMessageStash looks. */
function liftStash(event: JsonValue): JsonValue {
  if (!isJsonObject(event) || !Array.isArray(event['payload'])) return event;
  const payload = event['payload'];
  const last = payload[payload.length - 1];
  const blob = isJsonObject(last) && onlyKey(last) === 'blob' ? last['blob'] : undefined;
  let env: JsonValue | undefined;
  if (typeof blob === 'string' && blob.startsWith(STASH_PREFIX)) {
    try {
      env = JSON.parse(blob) as JsonValue;
    } catch {
      return event;
    }
  } else if (isJsonObject(blob) && blob['blobType'] === BLOB.stash && blob['version'] === ENVELOPE_VERSION) env = blob;
  if (!isJsonObject(env) || env['stash'] === undefined) return event;
  return { ...event, payload: payload.slice(0, -1), [STASH_KEY]: env['stash'] };
}

function withoutStash(event: JsonValue): JsonValue {
  if (!isJsonObject(event) || !(STASH_KEY in event)) return event;
  const { [STASH_KEY]: _s, ...rest } = event;
  return rest;
}

/**
 * One event's messages, checked; an event this codec would write otherwise is kept verbatim (see
 * above), unless `verbatim` is false: the caller keeps no hints of this format.
 */
function decodeOne(event: JsonValue, path: Path, ctx: DecodeContext, issues: Issue[], verbatim: boolean, written?: Written): Message[] {
  if (!isJsonObject(event)) {
    issues.push({ code: 'invalid_type', path, message: 'an event is not an object', expected: 'an event object' });
    return [];
  }
  const before = issues.length;
  const strands = strandsMessages(event, path, ctx, issues);
  if (strands !== undefined) return issues.length > before ? [] : verbatim ? verbatimUnlessSame(event, strands, [], written) : strands;
  const blobs: ParsedBlobs | undefined = verbatim ? [] : undefined;
  const items = parseEvent(event, path, ctx, issues, blobs, written?.blobs);
  if (items === undefined || (items.length === 0 && issues.length === before)) {
    checkEventMetadata(event, path, issues);
    ctx.losses.push({ code: 'empty-event', path, message: 'the event has no payloads (listed with includePayloads false?): no message to read', action: 'dropped' });
    return [];
  }
  const messages = messagesOf(event, items, path, ctx, issues);
  if (issues.length > before) return [];
  return blobs !== undefined ? verbatimUnlessSame(event, messages, blobs, written) : messages;
}

/**
 * Whether the messages encode to exactly this event. Encoded with `preserve`: it only adds fields
 * AgentCore has no slot for (into the metadata blob), and read messages have those only from such
 * a blob; without them both encodings are the same. Blobs are left objects and compared with the
 * text read without serializing them (megabytes of media each). `written`: the event was encoded
 * here (its blob texts are JSON.stringify output), from these messages if they read back as they were.
 */
export function writesBack(event: JsonObject, messages: readonly Message[], blobs: ParsedBlobs, written: Written | undefined, shortcut = true): boolean {
  if (shortcut && writesBackAsWritten(messages, written)) return true;
  const ownText = written !== undefined;
  const again = encodeRun(messages.map((m, i) => ({ m, i })), new LossList(), new LossList(), true, LIMITS.metadataEntries, 'objects');
  return again.length === 1 && sameEvent(again[0] as JsonObject, event, blobs, ownText);
}

/** sameJson, except that a payload's blob written as an object equals blob text that is exactly its JSON. */
function sameEvent(written: JsonObject, read: JsonObject, blobs: ParsedBlobs, ownText: boolean): boolean {
  const a = written['payload'];
  const b = read['payload'];
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return sameJson(written, read);
  if (!sameJsonBesidesPayload(written, read)) return false;
  for (let k = 0; k < a.length; k++) if (!samePayload(a[k] as JsonValue, b[k], blobs[k], ownText)) return false;
  return true;
}

/** sameJson of two events with their `payload` left out (written out: a spread per event cost more than the rest). */
function sameJsonBesidesPayload(a: JsonObject, b: JsonObject): boolean {
  let n = 0;
  for (const k in a) {
    if (k === 'payload' || a[k] === undefined) continue;
    n++;
    if (!Object.hasOwn(b, k) || !sameJson(a[k], b[k])) return false;
  }
  for (const k in b) if (k !== 'payload' && b[k] !== undefined) n--;
  return n === 0;
}

/**
 * `parsed`: the read blob's value, when it was read from text (it is `JSON.parse(text)`);
 * `ownText`: the text is `JSON.stringify` output (the event was just encoded: encodeRun's `written`).
 */
function samePayload(written: JsonValue, read: JsonValue | undefined, parsed: JsonValue | undefined, ownText: boolean): boolean {
  if (!isJsonObject(written) || !isJsonObject(read)) return sameJson(written, read);
  const blob = written['blob'];
  const text = read['blob'];
  if (!isJsonObject(blob) || typeof text !== 'string' || onlyKey(written) === undefined || onlyKey(read) === undefined) return sameJson(written, read);
  // Packed payloads hold their own blobs as text inside: written the usual way and compared as text.
  if (blob['blobType'] === BLOB.payloads) return textBlobs(written)['blob'] === text;
  if (parsed !== undefined) return sameJsonText(blob, parsed) && (ownText || isOwnJsonText(parsed, text));
  return jsonTextEquals(blob, text);
}

/** The messages, with the event kept verbatim in the first one's hints when they would not write it back as it came. */
function verbatimUnlessSame(event: JsonObject, messages: Message[], blobs: ParsedBlobs, written: Written | undefined): Message[] {
  if (messages.length === 0) return messages;
  if (!writesBack(event, messages, blobs, written)) {
    const hash = stashHash(messages);
    const first = messages[0] as Message;
    first.ext = { ...first.ext, [AGENTCORE]: { ...own(first.ext), $event: event, $hash: hash } };
  }
  return messages;
}

/**
 * An event without the fields a store adds around its content (eventId, eventTimestamp, actorId,
 * branch ...): a stash covers what the encoder wrote, which has them only if it read them.
 */
function contentOnly(event: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(event) || Object.keys(event).every((k) => EVENT_KEYS.has(k) || k === STASH_KEY)) return event;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(event)) if (EVENT_KEYS.has(key) || key === STASH_KEY) out[key] = value;
  return out;
}

/**
 * The stash at `k`, matched against the events as they are, else against their content only (the
 * events were stored and listed back with ids and timestamps): stale only when neither matches.
 */
function takeStash(lifted: readonly JsonValue[], k: number, ctx: DecodeContext): ReturnType<typeof takeMessageStash> {
  const head = lifted[k];
  if (!isJsonObject(head) || !(STASH_KEY in head)) return undefined;
  const quiet = new LossList();
  const asIs = takeMessageStash(lifted, k, { ...ctx, losses: quiet }, ['events']);
  if (asIs) return asIs;
  const stripped = lifted.map((e, i) => (i >= k ? (contentOnly(e) as JsonValue) : e));
  if (stripped.every((e, i) => e === lifted[i])) {
    for (const loss of quiet.items) ctx.losses.push(loss);
    return undefined;
  }
  return takeMessageStash(stripped, k, ctx, ['events']);
}

/**
 * Events -> messages. `indices[k]` is the index of `events[k]` in the body, for paths. A group's
 * stash (preserve) is taken when it still matches the events it covers; otherwise it is reported
 * and the visible events are read.
 */
export function decodeEvents(events: readonly JsonValue[], indices: readonly number[], ctx: DecodeContext, issues: Issue[], origins: number[] = [], verbatim = true, written?: ReadonlyMap<JsonValue, Written>): Message[] {
  const lifted = events.map(liftStash);
  const out: Message[] = [];
  const push = (messages: readonly Message[], k: number): void => {
    out.push(...messages);
    for (const _m of messages) origins.push(indices[k] ?? k);
  };
  for (let k = 0; k < lifted.length; ) {
    const stash = takeStash(lifted, k, ctx);
    if (stash) {
      push(stash.messages, k);
      k += stash.span;
      continue;
    }
    const event = withoutStash(lifted[k] as JsonValue);
    push(decodeOne(event, ['events', indices[k] ?? k], ctx, issues, verbatim, written?.get(event)), k);
    k++;
  }
  return out;
}

/**
 * Whether events decode back to exactly these messages. The group is read alone, as one event is:
 * its results keep the names they took from calls before the group, and its paired results are lone
 * texts again; in the conversation they read back as they were (readConversation).
 */
function decodesBack(events: readonly JsonObject[], group: readonly At[], written: ReadonlyMap<JsonValue, Written>): boolean {
  const issues: Issue[] = [];
  const read = decodeEvents(events, events.map((_e, i) => i), { limits: { maxTextBytes: Number.MAX_SAFE_INTEGER }, losses: new LossList() }, issues, [], true, written);
  if (issues.length > 0) return false;
  const back = readCallNames(read).map((m, k) => withoutCallNames(m, group[k]?.names));
  const messages = group.map((a) => unpaired(a.m));
  // A tool call's text that JSON.stringify of its arguments writes again is no difference: the events drop it.
  return sameValue(messagesWithoutPlainArgumentsJson(back), messagesWithoutPlainArgumentsJson(messages));
}

/**
 * The events of a group of messages (all of them, or one stash group of a request). Losses go to
 * `ctx.losses`; under `preserve` the group is stashed when anything was lost or would not come back.
 */
export function encodeMessageGroup(group: readonly At[], ctx: EncodeContext, metadataEntries: number = LIMITS.metadataEntries): JsonObject[] {
  const canonical = group.map((a) => a.m);
  // The events encoded here (not kept verbatim), for the read-back check: only under preserve, its only reader.
  const written = ctx.preserve ? new Map<JsonValue, Written>() : undefined;
  // Each group finished by stashGroup: no closures per group.
  const local = new LossList();
  const runs = runsOf(group);
  const events = runs.length === 1 ? encodeRun(runs[0] as At[], local, ctx.losses, ctx.preserve, metadataEntries, 'text', written) : runs.flatMap((run) => encodeRun(run, local, ctx.losses, ctx.preserve, metadataEntries, 'text', written));
  const wire = stashGroup(canonical, ctx, local, events, written !== undefined && local.length === 0 && !decodesBack(events, group, written));
  sinkStash(wire[0]);
  return wire;
}

export interface MessageToEventOptions {
  /** Stash what the event cannot hold inside it (an `interlingua.stash` blob), so reading it back is exact. */
  preserve?: boolean;
  /** The message's index, for loss paths (`['messages', index, ...]`); 0 by default. */
  index?: number;
  /**
   * Metadata entries the event may hold (1-15; AgentCore's 15 by default): a store that keeps
   * entries of its own asks for fewer, and the rest goes into the metadata blob, reported.
   */
  metadataEntries?: number;
  /**
   * The tool calls made before this message in its conversation, call id -> tool name
   * (`toolCallNames(earlierMessages)`): a tool result without a name of its own is written with
   * the name of the call it answers, as Camunda's envelope has it.
   */
  toolNames?: ReadonlyMap<string, string>;
}

/**
 * One canonical message -> one event ready for CreateEvent (`payload`, `metadata` when there is
 * any, and the event fields it was read with), and what it could not hold. A system or developer
 * message gives no event (`event` undefined) and a `system-message` loss.
 */
export function messageToEvent(message: Message, options: MessageToEventOptions = {}): { event: JsonObject | undefined; losses: Loss[] } {
  const losses = new LossList();
  const max = options.metadataEntries ?? LIMITS.metadataEntries;
  if (!Number.isInteger(max) || max < 1 || max > LIMITS.metadataEntries) throw new UsageError(`messageToEvent: metadataEntries must be a whole number from 1 to ${LIMITS.metadataEntries} (got ${String(max)})`);
  const names = options.toolNames === undefined ? undefined : namesFor(message, options.toolNames);
  const [event] = encodeMessageGroup([{ m: message, i: options.index ?? 0, names }], { preserve: options.preserve === true, losses }, max);
  return { event, losses: losses.items };
}
