/**
 * Checks events to append against what CreateEvent accepts (reference §1.2 and §1.5: at most 100
 * payloads, conversational text 1-100,000 characters, roles USER/ASSISTANT/TOOL/OTHER, at most 15
 * metadata entries with keys of 1-128 and values of 0-256 characters from `[a-zA-Z0-9\s._:/=+@-]`),
 * so every backend refuses the same events the real service would, with the path of the problem.
 * Blobs must be plain JSON: what JSON.stringify would change or drop (undefined, NaN, a Date, a
 * cycle) is refused rather than stored differently.
 */
import { ValidationError, type Issue } from '../model/errors.js';
import type { Path } from '../model/loss.js';
import { plainObject as isPlainObject } from '../formats/shared/fast-guards.js';
import type { PayloadItem } from './store.js';

export const EVENT_LIMITS = {
  payloads: 100,
  text: 100_000,
  metadataEntries: 15,
  metadataKey: 128,
  metadataValue: 256,
} as const;

const ROLES = new Set(['USER', 'ASSISTANT', 'TOOL', 'OTHER']);
/** `\s` read as Java's default (ASCII whitespace), the narrow reading that the real service surely accepts. */
const METADATA_CHARSET = /^[a-zA-Z0-9 \t\n\x0B\f\r._:/=+@-]*$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** 9999-12-31T23:59:59.999Z: keeps the eventId's 19-digit millisecond prefix. */
const MAX_TS = 253_402_300_799_999;

/** An event checked and serialized once, ready for any backend. */
export interface PreparedEvent {
  /** Caller's timestamp in epoch ms, if given. */
  ts?: number;
  payloadJson: string;
  metadataJson?: string;
  /** The parsed input, for the turn rule. */
  payload: PayloadItem[];
}

function fail(path: Path, message: string, code = 'invalid_event'): never {
  const issue: Issue = { code, path, message };
  throw new ValidationError([issue]);
}


function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], path: Path): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail([...path, key], `unexpected field '${key}' (allowed: ${allowed.join(', ')})`);
  }
}

/** Counts Unicode code points only when UTF-16 length could exceed the limit (Smithy lengths count characters). */
function charLength(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Throws unless `value` is JSON that serializes to itself. */
function checkJson(value: unknown, path: Path, onPath: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(path, `${String(value)} is not a JSON number`);
    return;
  }
  if (typeof value !== 'object') fail(path, `a ${typeof value} is not JSON`);
  if (onPath.has(value)) fail(path, 'the blob refers to itself (a cycle)');
  onPath.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) fail([...path, i], 'a hole in an array is not JSON');
      checkJson(value[i], [...path, i], onPath);
    }
  } else {
    if (!isPlainObject(value)) fail(path, `a ${value.constructor?.name ?? 'non-plain'} object is not JSON`);
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) fail([...path, k], 'undefined is not JSON');
      checkJson(v, [...path, k], onPath);
    }
  }
  onPath.delete(value);
}

function checkPayloadItem(item: unknown, path: Path): void {
  if (!isPlainObject(item)) fail(path, 'a payload item must be an object with one of conversational or blob');
  const keys = Object.keys(item);
  if (keys.length !== 1 || (keys[0] !== 'conversational' && keys[0] !== 'blob')) {
    fail(path, `a payload item holds exactly one of conversational or blob (got ${keys.join(', ') || 'nothing'})`);
  }
  if ('blob' in item) {
    if (item.blob === undefined) fail([...path, 'blob'], 'blob must be a JSON value');
    checkJson(item.blob, [...path, 'blob'], new Set());
    return;
  }
  const conv = item.conversational;
  const cpath = [...path, 'conversational'];
  if (!isPlainObject(conv)) fail(cpath, 'conversational must be an object { content: { text }, role }');
  onlyKeys(conv, ['content', 'role'], cpath);
  if (typeof conv.role !== 'string' || !ROLES.has(conv.role)) {
    fail([...cpath, 'role'], `role must be one of USER, ASSISTANT, TOOL, OTHER (got ${JSON.stringify(conv.role)})`);
  }
  const content = conv.content;
  if (!isPlainObject(content)) fail([...cpath, 'content'], 'content must be an object { text }');
  onlyKeys(content, ['text'], [...cpath, 'content']);
  const text = content.text;
  if (typeof text !== 'string') fail([...cpath, 'content', 'text'], 'text must be a string');
  const n = charLength(text, EVENT_LIMITS.text);
  if (n < 1 || n > EVENT_LIMITS.text) {
    fail([...cpath, 'content', 'text'], `text must be 1-${EVENT_LIMITS.text} characters (got ${n})`);
  }
}

function checkMetadata(metadata: unknown, path: Path): void {
  if (!isPlainObject(metadata)) fail(path, 'metadata must be an object { key: { stringValue } }');
  const entries = Object.entries(metadata);
  if (entries.length > EVENT_LIMITS.metadataEntries) {
    fail(path, `at most ${EVENT_LIMITS.metadataEntries} metadata entries (got ${entries.length})`);
  }
  for (const [key, value] of entries) {
    const kpath = [...path, key];
    if (key.length < 1 || key.length > EVENT_LIMITS.metadataKey || !METADATA_CHARSET.test(key)) {
      fail(kpath, `metadata key must be 1-${EVENT_LIMITS.metadataKey} characters from [a-zA-Z0-9\\s._:/=+@-]`);
    }
    if (!isPlainObject(value)) fail(kpath, 'a metadata value must be { stringValue: string }');
    onlyKeys(value, ['stringValue'], kpath);
    const s = value.stringValue;
    if (typeof s !== 'string') fail([...kpath, 'stringValue'], 'stringValue must be a string');
    if (s.length > EVENT_LIMITS.metadataValue || !METADATA_CHARSET.test(s)) {
      fail([...kpath, 'stringValue'], `stringValue must be 0-${EVENT_LIMITS.metadataValue} characters from [a-zA-Z0-9\\s._:/=+@-]`);
    }
  }
}

/** Epoch milliseconds of an eventTimestamp (sub-millisecond digits are cut: AgentCore keeps milliseconds). */
export function timestampMs(value: unknown, path: Path): number {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'number') ms = Math.floor(value);
  else if (typeof value === 'string') {
    if (!ISO_8601.test(value)) fail(path, `eventTimestamp ${JSON.stringify(value)} is not an ISO 8601 date-time with a zone`);
    ms = Date.parse(value);
  } else fail(path, 'eventTimestamp must be an ISO 8601 string, a Date or epoch milliseconds');
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TS) fail(path, 'eventTimestamp must be a valid time between 1970 and 9999');
  return ms;
}

/** Checks every event before anything is written; throws a ValidationError at `events[i]...`. */
export function prepareEvents(events: unknown): PreparedEvent[] {
  if (!Array.isArray(events)) fail(['events'], 'events must be an array');
  return events.map((event: unknown, i): PreparedEvent => {
    const path: Path = ['events', i];
    if (!isPlainObject(event)) fail(path, 'an event must be an object { payload, metadata?, eventTimestamp? }');
    onlyKeys(event, ['payload', 'metadata', 'eventTimestamp'], path);
    const payload = event.payload;
    if (!Array.isArray(payload)) fail([...path, 'payload'], 'payload must be an array');
    if (payload.length > EVENT_LIMITS.payloads) {
      fail([...path, 'payload'], `at most ${EVENT_LIMITS.payloads} payload items per event (got ${payload.length})`);
    }
    payload.forEach((item: unknown, j) => checkPayloadItem(item, [...path, 'payload', j]));
    const prepared: PreparedEvent = { payloadJson: JSON.stringify(payload), payload: payload as PayloadItem[] };
    if (event.metadata !== undefined) {
      checkMetadata(event.metadata, [...path, 'metadata']);
      prepared.metadataJson = JSON.stringify(event.metadata);
    }
    if (event.eventTimestamp !== undefined) prepared.ts = timestampMs(event.eventTimestamp, [...path, 'eventTimestamp']);
    return prepared;
  });
}

