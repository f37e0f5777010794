/**
 * One AgentCore event -> canonical message(s), reading every shape the issue names:
 * - payloads in order: conversational USER / ASSISTANT / OTHER text -> text parts (kept as is);
 *   `camunda.messageContent` -> the part it holds; `camunda.toolCalls` (or the older bare JSON array)
 *   -> tool calls; `camunda.toolCallResults` -> tool results, the TOOL text right before it being
 *   their summary; a TOOL text with no results blob -> a minimal result (call id ''; read in
 *   its conversation, the result of the unanswered calls before it: older-results.ts);
 *   `interlingua.payloads` -> its payloads, in place;
 * - the role: from a `camunda.messageMetadata` blob's `properties.role` (Camunda's layout, always
 *   last there), else from the payloads (slots.ts); an event of several speaking roles (plain
 *   conversational `[USER, ASSISTANT]`) is several messages;
 * - metadata: event metadata and the metadata blob's `metadata` (metadata.ts); the blob's
 *   `userName` property is the message name; its other properties and the event's other fields
 *   (eventId, eventTimestamp, actorId, sessionId, branch ...) are kept in ext for the way back.
 * Problems are issues at `[...path, 'payload', j, ...]`; nothing is skipped silently.
 */
import type { Issue } from '../../model/errors.js';
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message, Role } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { DecodeContext } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { AGENTCORE, BLOB, EVENT_KEYS, PROP_MESSAGE, PROP_ROLE, PROP_USER_NAME, put, WIRE_ROLES, type WireRole } from './agentcore-memory-api.js';
import { decodeCall, decodeContent, decodeResult, hasResultsSummary, isResultsSummary, withOwn } from './content.js';
import { parseBlob, type Envelope } from './envelope.js';
import { readMetadata } from './metadata.js';
import { ExtSchema } from './part-schema.js';
import { isSummary, plainSegments, type Segment, type Slot } from './slots.js';
import { childPath } from '../shared/child-path.js';
import { hasKeys, keysWithin, onlyKey } from '../shared/own-keys.js';

/**
 * One payload, checked: a conversational text or a parsed blob. Its path is `[...base, 'payload',
 * j]` (itemPath), made only for an issue: most reads report none, and a path a payload was a tenth
 * of a memory read's garbage.
 */
export interface Item {
  slot: Slot;
  /** The event's path, or for a packed payload the path of the blob that packs it. */
  base: Path;
  j: number;
  text?: string;
  env?: Envelope;
  /** The blob came as an object, not JSON text. */
  object?: boolean;
}

const ROLE_OF: Readonly<Record<string, Role>> = { USER: 'user', ASSISTANT: 'assistant', TOOL: 'tool' };
/** The conversational role a text part of a message of each role is written with. */
export const TEXT_ROLE: Readonly<Record<Role, WireRole | undefined>> = { user: 'USER', assistant: 'ASSISTANT', tool: undefined, system: undefined, developer: undefined };

const itemPath = (it: Item): Path => childPath(it.base, 'payload', it.j);

/** Slots are only read: one of each, shared by every payload read (a memory read decodes tens of events per call). */
const SLOTS = {
  calls: Object.freeze({ kind: 'calls' }),
  results: Object.freeze({ kind: 'results' }),
  metadata: Object.freeze({ kind: 'metadata' }),
  stash: Object.freeze({ kind: 'stash' }),
  content: Object.freeze({ kind: 'content' }),
} as const satisfies Record<string, Slot>;
const TEXT_SLOTS: Readonly<Record<WireRole, Slot>> = Object.fromEntries(WIRE_ROLES.map((role) => [role, Object.freeze({ kind: 'conversational', role })])) as Record<WireRole, Slot>;

function slotOf(env: Envelope): Slot {
  switch (env.type) {
    case BLOB.toolCalls: return SLOTS.calls;
    case BLOB.toolCallResults: return SLOTS.results;
    case BLOB.messageMetadata: return SLOTS.metadata;
    case BLOB.stash: return SLOTS.stash;
    default: return SLOTS.content;
  }
}

/**
 * `blobs`, for a top-level payload: where to keep the parsed value of a blob read from text, at
 * the payload's index (`at`), for the read-back check (mapping.ts) to compare with.
 */
function parsePayload(p: JsonValue, base: Path, j: number, issues: Issue[], out: Item[], n: number, nested: boolean, ctx: DecodeContext, blobs?: ParsedBlobs, known?: JsonValue): number {
  const key = isJsonObject(p) ? onlyKey(p) : undefined;
  if (!isJsonObject(p) || (key !== 'conversational' && key !== 'blob')) {
    issues.push({ code: 'invalid_payload', path: childPath(base, 'payload', j), message: 'a payload is exactly one of {conversational} or {blob}', expected: '{conversational: {role, content: {text}}} | {blob}' });
    return n;
  }
  const conv = p['conversational'];
  if (conv !== undefined) {
    const content = isJsonObject(conv) ? conv['content'] : undefined;
    const role = isJsonObject(conv) ? conv['role'] : undefined;
    const text = isJsonObject(content) ? content['text'] : undefined;
    const bad = !isJsonObject(conv) || !keysWithin(conv, 'role', 'content') || !isJsonObject(content) || onlyKey(content) === undefined;
    if (bad || typeof text !== 'string' || typeof role !== 'string' || !(WIRE_ROLES as readonly string[]).includes(role)) {
      issues.push({ code: 'invalid_payload', path: childPath(childPath(base, 'payload', j), 'conversational'), message: `a conversational payload is {role: ${WIRE_ROLES.join(' | ')}, content: {text}}` });
      return n;
    }
    // The size check's own first test, made before building the path it would report.
    if (text.length * 3 > ctx.limits.maxTextBytes) checkTextSize(text, ctx.limits, childPath(childPath(base, 'payload', j), 'conversational', 'content', 'text'), issues);
    out[n] = { slot: TEXT_SLOTS[role as WireRole], base, j, text };
    return n + 1;
  }
  const parsed = parseBlob(p['blob'] as JsonValue, base, j, issues, known);
  if (!parsed) return n;
  if (blobs !== undefined && !parsed.object) blobs[j] = parsed.value;
  for (let u = 0; u < parsed.unknown.length; u++) {
    const k = parsed.unknown[u] as string;
    ctx.losses.push({ code: 'unsupported-field', path: childPath(childPath(base, 'payload', j), 'blob', k), message: `envelope field '${k}' is not read`, action: 'dropped' });
  }
  if (parsed.env.type === BLOB.payloads) {
    if (nested) issues.push({ code: 'invalid_blob', path: childPath(base, 'payload', j, 'blob'), message: 'packed payloads hold no further packed payloads' });
    else {
      const packed = parsed.env.payload;
      const blobPath = childPath(base, 'payload', j, 'blob');
      for (let k = 0; k < packed.length; k++) n = parsePayload(packed[k] as JsonValue, blobPath, k, issues, out, n, true, ctx);
    }
    return n;
  }
  out[n] = { slot: slotOf(parsed.env), base, j, env: parsed.env, object: parsed.object };
  return n + 1;
}

/** The parsed values of an event's blob payloads read from JSON text, by payload index. */
export type ParsedBlobs = (JsonValue | undefined)[];

/**
 * Checks an event's payloads (packed ones unpacked in place); undefined when the event has no
 * `payload` key. `blobs` receives the parsed value of each top-level blob read from text; `known`
 * holds, by payload index, the values of blob texts already at hand (written.ts).
 */
export function parseEvent(event: JsonObject, path: Path, ctx: DecodeContext, issues: Issue[], blobs?: ParsedBlobs, known?: readonly (JsonValue | undefined)[]): Item[] | undefined {
  const payload = event['payload'];
  if (payload === undefined) return undefined;
  if (!Array.isArray(payload)) {
    issues.push({ code: 'invalid_type', path: childPath(path, 'payload'), message: 'payload is not an array', expected: 'array' });
    return [];
  }
  // Sized for one item a payload (the usual count) and filled by index: `[]` and a push would
  // allocate room for 17. Items go to out[n], and n is what parsePayload returns.
  const out: Item[] = new Array<Item>(payload.length);
  let n = 0;
  for (let j = 0; j < payload.length; j++) n = parsePayload(payload[j] as JsonValue, path, j, issues, out, n, false, ctx, blobs, known?.[j]);
  if (n !== out.length) out.length = n;
  return out;
}

/** Checks event metadata: `{key: {stringValue: string}}`. */
export function checkEventMetadata(event: JsonObject, path: Path, issues: Issue[]): JsonObject | undefined {
  const meta = event['metadata'];
  if (meta === undefined) return undefined;
  if (!isJsonObject(meta)) {
    issues.push({ code: 'invalid_type', path: childPath(path, 'metadata'), message: 'event metadata is not an object', expected: '{key: {stringValue}}' });
    return undefined;
  }
  let ok = true;
  for (const key in meta) {
    const v = meta[key];
    if (!isJsonObject(v) || onlyKey(v) === undefined || typeof v['stringValue'] !== 'string') {
      issues.push({ code: 'invalid_type', path: childPath(path, 'metadata', key), message: 'an event metadata value is {stringValue: string}', expected: '{stringValue: string}' });
      ok = false;
    }
  }
  return ok ? meta : undefined;
}

interface MetaBlob {
  role: Role | undefined;
  name: string | undefined;
  metadata: JsonObject;
  /** The properties kept as they came (all but role, the message's fields and a string userName); undefined when none. */
  properties: JsonObject | undefined;
  /** From `interlingua.message`. */
  stringContent: boolean;
  ext: Ext | undefined;
}

const NO_PROPERTIES: JsonObject = Object.freeze({}) as JsonObject;

function readMetaBlob(items: readonly Item[], issues: Issue[]): MetaBlob | undefined {
  let it: Item | undefined;
  let second: Item | undefined;
  for (const item of items) {
    if (item.env?.type !== BLOB.messageMetadata) continue;
    if (it === undefined) it = item;
    else if (second === undefined) second = item;
  }
  if (second !== undefined) issues.push({ code: 'invalid_blob', path: itemPath(second), message: 'an event holds at most one camunda.messageMetadata blob' });
  if (it?.env?.type !== BLOB.messageMetadata) return undefined;
  // Only read: the envelope's own object (JSON.parse output) needs no copy.
  const props = it.env.properties ?? NO_PROPERTIES;
  const out: MetaBlob = { role: undefined, name: undefined, metadata: it.env.metadata, properties: undefined, stringContent: false, ext: undefined };
  const role = props[PROP_ROLE];
  if (role !== undefined) {
    if (typeof role !== 'string' || ROLE_OF[role] === undefined) issues.push({ code: 'invalid_blob', path: childPath(itemPath(it), 'blob', 'properties', PROP_ROLE), message: `metadata role ${JSON.stringify(role)} is not a message role`, expected: 'USER | ASSISTANT | TOOL' });
    else out.role = ROLE_OF[role];
  }
  const name = props[PROP_USER_NAME];
  if (typeof name === 'string') out.name = name;
  const msg = props[PROP_MESSAGE];
  if (msg !== undefined) {
    const ext = isJsonObject(msg) ? msg['ext'] : undefined;
    const okExt = ext === undefined || ExtSchema.safeParse(ext).success;
    if (!isJsonObject(msg) || !okExt || !keysWithin(msg, 'ext', 'stringContent') || (msg['stringContent'] !== undefined && msg['stringContent'] !== true)) {
      if (!okExt) issues.push(...fromZodIssues(ExtSchema.safeParse(ext).error?.issues ?? [], [...itemPath(it), 'blob', 'properties', PROP_MESSAGE, 'ext']));
      else issues.push({ code: 'invalid_blob', path: childPath(itemPath(it), 'blob', 'properties', PROP_MESSAGE), message: `'${PROP_MESSAGE}' is {stringContent?: true, ext?}` });
    } else {
      if (msg['stringContent'] === true) out.stringContent = true;
      if (ext !== undefined) out.ext = ext as Ext;
    }
  }
  for (const k in props) if (Object.hasOwn(props, k) && k !== PROP_ROLE && k !== PROP_MESSAGE && !(k === PROP_USER_NAME && typeof name === 'string')) put((out.properties ??= {}), k, props[k] as JsonValue);
  return out;
}

/** The parts of payloads [start, end) of a message of `role`. */
function partsOf(items: readonly Item[], slots: readonly Slot[], seg: Segment, ctx: DecodeContext, issues: Issue[]): Part[] {
  // Sized for one part a payload and filled by index (parts[n++]): `[]` and a push would allocate room for 17.
  const parts: Part[] = new Array<Part>(seg.end - seg.start);
  let n = 0;
  let summary: string | undefined;
  for (let i = seg.start; i < seg.end; i++) {
    const it = items[i] as Item;
    const slot = it.slot;
    if (slot.kind === 'conversational') {
      const text = it.text as string;
      if (slot.role === 'TOOL') {
        if (isSummary(slots, i)) summary = text;
        else parts[n++] = { type: 'tool-result', callId: '', content: [{ type: 'text', text }], stringContent: true, ext: { [AGENTCORE]: { $minimal: true } } };
        continue;
      }
      parts[n++] = slot.role === TEXT_ROLE[seg.role] ? { type: 'text', text } : { type: 'text', text, ext: { [AGENTCORE]: { $role: slot.role } } };
      continue;
    }
    const env = it.env as Envelope;
    // The metadata blob (most events have one) gives no parts: no path for it.
    if (env.type === BLOB.messageMetadata || env.type === BLOB.payloads) continue;
    const at = childPath(it.base, 'payload', it.j, 'blob');
    if (env.type === BLOB.toolCalls) {
      for (let k = 0; k < env.calls.length; k++) {
        const c = decodeCall(env.calls[k] as JsonValue, env.bare ? childPath(at, k) : childPath(at, 'toolCalls', k), issues);
        if (c) parts[n++] = k === 0 && env.bare ? { ...c, ext: withOwn(c.ext, { $bare: true }) as Ext } : c;
      }
    } else if (env.type === BLOB.toolCallResults) {
      const results = new Array<ToolResultPart>(env.results.length);
      let got = 0;
      for (let k = 0; k < env.results.length; k++) {
        const r = decodeResult(env.results[k] as JsonValue, childPath(at, 'results', k), ctx.limits, issues);
        if (r !== undefined) results[got++] = r;
      }
      if (got !== results.length) results.length = got;
      const first = results[0];
      if (first && (summary !== undefined ? !isResultsSummary(results, summary) : hasResultsSummary(results))) results[0] = { ...first, ext: withOwn(first.ext, { $summary: summary ?? false }) as Ext };
      summary = undefined;
      for (const r of results) parts[n++] = r;
    } else if (env.type === BLOB.messageContent) {
      const part = decodeContent(env.content, childPath(at, 'content'), ctx.limits, issues);
      if (part) parts[n++] = part;
    } else if (env.type === BLOB.stash) {
      issues.push({ code: 'invalid_blob', path: at, message: 'an interlingua.stash blob is read only as the first blob of its group' });
    }
  }
  if (n !== parts.length) parts.length = n;
  return parts;
}

/** Whether a message of `role` written from these payloads would need the metadata blob it has. */
function metaNeeded(slots: readonly Slot[], role: Role, meta: MetaBlob): boolean {
  // What the blob carries first: it decides most events without reading the payloads' roles.
  if (hasKeys(meta.metadata) || meta.name !== undefined || meta.properties !== undefined || meta.ext !== undefined || meta.stringContent) return true;
  const rest = slots.filter((s) => s.kind !== 'metadata');
  const segs = plainSegments(rest);
  return rest.length === 0 || segs.length !== 1 || segs[0]?.role !== role;
}

/**
 * The canonical messages of one event (already parsed: see parseEvent). `path` is the event's
 * (`['events', i]`). Usually one message; several for a plain event of several speaking roles.
 */
export function messagesOf(event: JsonObject, items: readonly Item[], path: Path, ctx: DecodeContext, issues: Issue[]): Message[] {
  const eventMeta = checkEventMetadata(event, path, issues);
  const meta = readMetaBlob(items, issues);
  const slots = new Array<Slot>(items.length);
  let objectBlobs = false;
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as Item;
    slots[i] = it.slot;
    if (it.object === true) objectBlobs = true;
  }
  let messages: Message[];
  if (meta?.role !== undefined) {
    const parts = partsOf(items, slots, { role: meta.role, start: 0, end: items.length }, ctx, issues);
    // With its stringContent at once where no name comes before it (the key order): no second shape.
    messages = [meta.stringContent && meta.name === undefined ? { role: meta.role, parts, stringContent: true } : { role: meta.role, parts }];
  }
  else messages = plainSegments(slots).map((seg) => ({ role: seg.role, parts: partsOf(items, slots, seg, ctx, issues) }) as Message);
  const first = messages[0] as Message;
  // Built only when there is a hint to hold (most events have none): in this order, the hints' key order.
  let hints: JsonObject | undefined;
  let rest: JsonObject | undefined;
  for (const k in event) if (!EVENT_KEYS.has(k) && event[k] !== undefined) put((rest ??= {}), k, event[k] as JsonValue);
  if (rest !== undefined) (hints ??= {})['event'] = rest;
  if (eventMeta !== undefined || (meta !== undefined && hasKeys(meta.metadata))) {
    const md = readMetadata(eventMeta, meta?.metadata);
    if (md.metadata !== undefined) (hints ??= {})['metadata'] = md.metadata;
    if (hasKeys(md.hints)) Object.assign((hints ??= {}), md.hints);
  }
  if (meta) {
    if (meta.name !== undefined) first.name = meta.name;
    if (meta.stringContent) first.stringContent = true;
    if (meta.properties !== undefined) (hints ??= {})['properties'] = meta.properties;
    if (meta.role === undefined || !metaNeeded(slots, meta.role, meta)) (hints ??= {})['$metaBlob'] = true;
  }
  if (objectBlobs) (hints ??= {})['$objectBlobs'] = true;
  const ext = hints === undefined ? meta?.ext : withOwn(meta?.ext, hints);
  if (ext) first.ext = ext;
  for (let k = 0; k < messages.length - 1; k++) {
    const m = messages[k] as Message;
    m.ext = withOwn(m.ext, { $join: true }) as Ext;
  }
  return messages;
}
