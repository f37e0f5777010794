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
import { decodeCall, decodeContent, decodeResult, resultsSummary, withOwn } from './content.js';
import { parseBlob, type Envelope } from './envelope.js';
import { readMetadata } from './metadata.js';
import { ExtSchema } from './part-schema.js';
import { isSummary, plainSegments, type Segment, type Slot } from './slots.js';
import { childPath } from '../shared/child-path.js';

/** One payload, checked: a conversational text or a parsed blob, with its path. */
export interface Item {
  slot: Slot;
  path: Path;
  text?: string;
  env?: Envelope;
  /** The blob came as an object, not JSON text. */
  object?: boolean;
}

const ROLE_OF: Readonly<Record<string, Role>> = { USER: 'user', ASSISTANT: 'assistant', TOOL: 'tool' };
/** The conversational role a text part of a message of each role is written with. */
export const TEXT_ROLE: Readonly<Record<Role, WireRole | undefined>> = { user: 'USER', assistant: 'ASSISTANT', tool: undefined, system: undefined, developer: undefined };

function slotOf(env: Envelope): Slot {
  switch (env.type) {
    case BLOB.toolCalls: return { kind: 'calls' };
    case BLOB.toolCallResults: return { kind: 'results' };
    case BLOB.messageMetadata: return { kind: 'metadata' };
    case BLOB.stash: return { kind: 'stash' };
    default: return { kind: 'content' };
  }
}

/** Whether `obj` has no keys but `a` and `b` (a loop: this runs for every payload read). */
function onlyKeys(obj: JsonObject, a: string, b: string): boolean {
  for (const k of Object.keys(obj)) if (k !== a && k !== b) return false;
  return true;
}

/**
 * `blobs`, for a top-level payload: where to keep the parsed value of a blob read from text, at
 * the payload's index (`at`), for the read-back check (mapping.ts) to compare with.
 */
function parsePayload(p: JsonValue, path: Path, issues: Issue[], out: Item[], nested: boolean, ctx: DecodeContext, blobs?: ParsedBlobs, at = 0, known?: JsonValue): void {
  const keys = isJsonObject(p) ? Object.keys(p) : [];
  if (!isJsonObject(p) || keys.length !== 1 || (keys[0] !== 'conversational' && keys[0] !== 'blob')) {
    issues.push({ code: 'invalid_payload', path, message: 'a payload is exactly one of {conversational} or {blob}', expected: '{conversational: {role, content: {text}}} | {blob}' });
    return;
  }
  const conv = p['conversational'];
  if (conv !== undefined) {
    const content = isJsonObject(conv) ? conv['content'] : undefined;
    const role = isJsonObject(conv) ? conv['role'] : undefined;
    const text = isJsonObject(content) ? content['text'] : undefined;
    const bad = !isJsonObject(conv) || !onlyKeys(conv, 'role', 'content') || !isJsonObject(content) || Object.keys(content).length !== 1;
    if (bad || typeof text !== 'string' || typeof role !== 'string' || !(WIRE_ROLES as readonly string[]).includes(role)) {
      issues.push({ code: 'invalid_payload', path: childPath(path, 'conversational'), message: `a conversational payload is {role: ${WIRE_ROLES.join(' | ')}, content: {text}}` });
      return;
    }
    // The size check's own first test, made before building the path it would report.
    if (text.length * 3 > ctx.limits.maxTextBytes) checkTextSize(text, ctx.limits, childPath(path, 'conversational', 'content', 'text'), issues);
    out.push({ slot: { kind: 'conversational', role: role as WireRole }, path, text });
    return;
  }
  const parsed = parseBlob(p['blob'] as JsonValue, childPath(path, 'blob'), issues, known);
  if (!parsed) return;
  if (blobs !== undefined && !parsed.object) blobs[at] = parsed.value;
  for (const k of parsed.unknown) ctx.losses.push({ code: 'unsupported-field', path: childPath(path, 'blob', k), message: `envelope field '${k}' is not read`, action: 'dropped' });
  if (parsed.env.type === BLOB.payloads) {
    if (nested) issues.push({ code: 'invalid_blob', path: childPath(path, 'blob'), message: 'packed payloads hold no further packed payloads' });
    else {
      const packed = parsed.env.payload;
      for (let k = 0; k < packed.length; k++) parsePayload(packed[k] as JsonValue, childPath(path, 'blob', 'payload', k), issues, out, true, ctx);
    }
    return;
  }
  out.push({ slot: slotOf(parsed.env), path, env: parsed.env, object: parsed.object });
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
  const out: Item[] = [];
  for (let j = 0; j < payload.length; j++) parsePayload(payload[j] as JsonValue, childPath(path, 'payload', j), issues, out, false, ctx, blobs, j, known?.[j]);
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
    if (!isJsonObject(v) || Object.keys(v).length !== 1 || typeof v['stringValue'] !== 'string') {
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
  properties: JsonObject;
  message: { stringContent?: true; ext?: Ext };
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
  if (second !== undefined) issues.push({ code: 'invalid_blob', path: second.path, message: 'an event holds at most one camunda.messageMetadata blob' });
  if (it?.env?.type !== BLOB.messageMetadata) return undefined;
  // Only read: the envelope's own object (JSON.parse output) needs no copy.
  const props = it.env.properties ?? NO_PROPERTIES;
  const out: MetaBlob = { role: undefined, name: undefined, metadata: it.env.metadata, properties: {}, message: {} };
  const at = it.path;
  const role = props[PROP_ROLE];
  if (role !== undefined) {
    if (typeof role !== 'string' || ROLE_OF[role] === undefined) issues.push({ code: 'invalid_blob', path: childPath(at, 'blob', 'properties', PROP_ROLE), message: `metadata role ${JSON.stringify(role)} is not a message role`, expected: 'USER | ASSISTANT | TOOL' });
    else out.role = ROLE_OF[role];
  }
  const name = props[PROP_USER_NAME];
  if (typeof name === 'string') out.name = name;
  const msg = props[PROP_MESSAGE];
  if (msg !== undefined) {
    const ext = isJsonObject(msg) ? msg['ext'] : undefined;
    const okExt = ext === undefined || ExtSchema.safeParse(ext).success;
    if (!isJsonObject(msg) || !okExt || Object.keys(msg).some((k) => k !== 'ext' && k !== 'stringContent') || (msg['stringContent'] !== undefined && msg['stringContent'] !== true)) {
      if (!okExt) issues.push(...fromZodIssues(ExtSchema.safeParse(ext).error?.issues ?? [], [...at, 'blob', 'properties', PROP_MESSAGE, 'ext']));
      else issues.push({ code: 'invalid_blob', path: childPath(at, 'blob', 'properties', PROP_MESSAGE), message: `'${PROP_MESSAGE}' is {stringContent?: true, ext?}` });
    } else {
      if (msg['stringContent'] === true) out.message.stringContent = true;
      if (ext !== undefined) out.message.ext = ext as Ext;
    }
  }
  for (const k of Object.keys(props)) if (k !== PROP_ROLE && k !== PROP_MESSAGE && !(k === PROP_USER_NAME && typeof name === 'string')) put(out.properties, k, props[k] as JsonValue);
  return out;
}

/** The parts of payloads [start, end) of a message of `role`. */
function partsOf(items: readonly Item[], slots: readonly Slot[], seg: Segment, ctx: DecodeContext, issues: Issue[]): Part[] {
  const parts: Part[] = [];
  let summary: string | undefined;
  for (let i = seg.start; i < seg.end; i++) {
    const it = items[i] as Item;
    const slot = it.slot;
    if (slot.kind === 'conversational') {
      const text = it.text as string;
      if (slot.role === 'TOOL') {
        if (isSummary(slots, i)) summary = text;
        else parts.push({ type: 'tool-result', callId: '', content: [{ type: 'text', text }], stringContent: true, ext: { [AGENTCORE]: { $minimal: true } } });
        continue;
      }
      parts.push(slot.role === TEXT_ROLE[seg.role] ? { type: 'text', text } : { type: 'text', text, ext: { [AGENTCORE]: { $role: slot.role } } });
      continue;
    }
    const env = it.env as Envelope;
    const at = childPath(it.path, 'blob');
    if (env.type === BLOB.toolCalls) {
      const calls = env.calls.map((c, k) => decodeCall(c, env.bare ? childPath(at, k) : childPath(at, 'toolCalls', k), issues));
      calls.forEach((c, k) => {
        if (!c) return;
        parts.push(k === 0 && env.bare ? { ...c, ext: withOwn(c.ext, { $bare: true }) as Ext } : c);
      });
    } else if (env.type === BLOB.toolCallResults) {
      const results = env.results.map((r, k) => decodeResult(r, childPath(at, 'results', k), ctx.limits, issues)).filter((r): r is ToolResultPart => r !== undefined);
      const generated = resultsSummary(results);
      const first = results[0];
      if (first && (summary !== undefined ? summary !== generated : generated !== '')) results[0] = { ...first, ext: withOwn(first.ext, { $summary: summary ?? false }) as Ext };
      summary = undefined;
      parts.push(...results);
    } else if (env.type === BLOB.messageContent) {
      const part = decodeContent(env.content, childPath(at, 'content'), ctx.limits, issues);
      if (part) parts.push(part);
    } else if (env.type === BLOB.stash) {
      issues.push({ code: 'invalid_blob', path: at, message: 'an interlingua.stash blob is read only as the first blob of its group' });
    }
  }
  return parts;
}

/** Whether a message of `role` written from these payloads would need the metadata blob it has. */
function metaNeeded(slots: readonly Slot[], role: Role, meta: MetaBlob): boolean {
  // What the blob carries first: it decides most events without reading the payloads' roles.
  if (Object.keys(meta.metadata).length > 0 || meta.name !== undefined || Object.keys(meta.properties).length > 0 || meta.message.ext !== undefined || meta.message.stringContent === true) return true;
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
  const slots = items.map((it) => it.slot);
  const segments: Segment[] = meta?.role !== undefined ? [{ role: meta.role, start: 0, end: items.length }] : plainSegments(slots);
  const messages = segments.map((seg) => ({ role: seg.role, parts: partsOf(items, slots, seg, ctx, issues) }) as Message);
  const first = messages[0] as Message;
  const hints: JsonObject = {};
  const rest: JsonObject = {};
  for (const k in event) if (!EVENT_KEYS.has(k) && event[k] !== undefined) put(rest, k, event[k] as JsonValue);
  if (Object.keys(rest).length > 0) hints['event'] = rest;
  const md = readMetadata(eventMeta, meta?.metadata);
  if (md.metadata !== undefined) hints['metadata'] = md.metadata;
  Object.assign(hints, md.hints);
  if (meta) {
    if (meta.name !== undefined) first.name = meta.name;
    if (meta.message.stringContent) first.stringContent = true;
    if (Object.keys(meta.properties).length > 0) hints['properties'] = meta.properties;
    if (meta.role !== undefined && !metaNeeded(slots, meta.role, meta)) hints['$metaBlob'] = true;
    if (meta.role === undefined) hints['$metaBlob'] = true;
  }
  if (items.some((it) => it.object === true)) hints['$objectBlobs'] = true;
  const ext = withOwn(meta?.message.ext, hints);
  if (ext) first.ext = ext;
  for (let k = 0; k < messages.length - 1; k++) {
    const m = messages[k] as Message;
    m.ext = withOwn(m.ext, { $join: true }) as Ext;
  }
  return messages;
}
