/**
 * Our events <-> AgentCore's wire events (docs/decisions/0005-agentcore-store.md).
 *
 * The service keeps no sequence and hands blobs back as text, so each event this store writes
 * carries one metadata entry of its own, `interlingua`, e.g.
 * `seq=12 expires=2026-01-22T10:00:00.000Z json=5 roleFirst=3`:
 * - `seq`: the per-session append order (equal timestamps sort by it);
 * - `expires`: when the event expires under the store's expiryDays (the memory's own
 *   eventExpiryDuration may end it sooner);
 * - `json` (hex bit mask of payload indexes): blobs that were not strings, sent as JSON text and
 *   parsed back; string blobs are sent as they are, so other readers (Camunda) see the same text;
 * - `roleFirst` (hex bit mask): conversational payloads written as `{role, content}` rather than
 *   `{content, role}`, so the payload comes back byte for byte as appended.
 * The entry is taken off on reading. An event without it (written by another tool) reads with
 * sequence 0, never expires here, and its blobs stay the strings the service gives.
 */
import type { Event as WireEvent, MetadataValue, PayloadType } from '@aws-sdk/client-bedrock-agentcore';
import { UsageError, ValidationError } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';
import { EVENT_LIMITS, type PreparedEvent } from '../event-shape.js';
import { isoTime } from '../iso-time.js';
import type { EventMetadata, PayloadItem, StoredEvent } from '../store.js';

export const STAMP_KEY = 'interlingua';
/** Metadata entries an event may hold of its own here: one goes to the stamp. */
export const USER_METADATA_ENTRIES = EVENT_LIMITS.metadataEntries - 1;

export interface Stamp {
  seq: number;
  expiresAt: number;
  /** Payload indexes of blobs sent as JSON text. */
  json: number[];
  /** Payload indexes of conversational items written role first. */
  roleFirst: number[];
}

/** An event as read, with what ordering and expiry need. */
export interface Read {
  event: StoredEvent;
  ts: number;
  /** Infinity for events without a stamp. */
  expiresAt: number;
}

const STAMP = /^seq=(\d{1,15}) expires=(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)(?: json=([0-9a-f]{1,25}))?(?: roleFirst=([0-9a-f]{1,25}))?$/;

function mask(indexes: number[]): string | undefined {
  if (indexes.length === 0) return undefined;
  let m = 0n;
  for (const i of indexes) m |= 1n << BigInt(i);
  return m.toString(16);
}

function unmask(hex: string | undefined): number[] {
  const out: number[] = [];
  if (hex === undefined) return out;
  const m = BigInt(`0x${hex}`);
  for (let i = 0; i < EVENT_LIMITS.payloads; i++) if ((m >> BigInt(i)) & 1n) out.push(i);
  return out;
}

export function formatStamp(s: Stamp): string {
  const json = mask(s.json);
  const roleFirst = mask(s.roleFirst);
  return `seq=${s.seq} expires=${new Date(s.expiresAt).toISOString()}${json ? ` json=${json}` : ''}${roleFirst ? ` roleFirst=${roleFirst}` : ''}`;
}

export function parseStamp(text: string): Stamp | undefined {
  const m = STAMP.exec(text);
  if (!m) return undefined;
  return { seq: Number(m[1]), expiresAt: Date.parse(m[2] as string), json: unmask(m[3]), roleFirst: unmask(m[4]) };
}

/** Refuses what only this store cannot hold: the stamp's metadata entry and its key. */
export function checkRoomForStamp(events: readonly PreparedEvent[]): void {
  events.forEach((e, i) => {
    if (e.metadataJson === undefined) return;
    const keys = Object.keys(JSON.parse(e.metadataJson) as object);
    if (keys.includes(STAMP_KEY)) {
      throw new ValidationError([{ code: 'invalid_event', path: ['events', i, 'metadata', STAMP_KEY], message: `the metadata key '${STAMP_KEY}' is kept for the agentcore:// store's own stamp` }]);
    }
    if (keys.length > USER_METADATA_ENTRIES) {
      throw new ValidationError([{
        code: 'invalid_event',
        path: ['events', i, 'metadata'],
        message: `at most ${USER_METADATA_ENTRIES} metadata entries on agentcore:// (got ${keys.length}): AgentCore takes ${EVENT_LIMITS.metadataEntries} and the store keeps one for the event's sequence`,
      }]);
    }
  });
}

/** The CreateEvent payload and metadata of a checked event. */
export function toWire(e: PreparedEvent, seq: number, expiresAt: number): { payload: PayloadType[]; metadata: Record<string, MetadataValue> } {
  const json: number[] = [];
  const roleFirst: number[] = [];
  const payload = e.payload.map((item, i): PayloadType => {
    if ('blob' in item) {
      if (typeof item.blob === 'string') return { blob: item.blob };
      json.push(i);
      return { blob: JSON.stringify(item.blob) };
    }
    const c = item.conversational;
    if (Object.keys(c)[0] === 'role') roleFirst.push(i);
    return { conversational: { content: { text: c.content.text }, role: c.role } };
  });
  const metadata: Record<string, MetadataValue> = e.metadataJson === undefined ? {} : (JSON.parse(e.metadataJson) as Record<string, MetadataValue>);
  metadata[STAMP_KEY] = { stringValue: formatStamp({ seq, expiresAt, json, roleFirst }) };
  return { payload, metadata };
}

function unreadable(e: WireEvent, why: string): never {
  throw new UsageError(`agentcore://: event ${String(e.eventId)} of ${String(e.actorId)}/${String(e.sessionId)} cannot be read: ${why}`);
}

function readPayload(e: WireEvent, stamp: Stamp | undefined): PayloadItem[] {
  const json = new Set(stamp?.json);
  const roleFirst = new Set(stamp?.roleFirst);
  return (e.payload ?? []).map((item, i): PayloadItem => {
    if (item.conversational !== undefined) {
      const { content, role } = item.conversational;
      const text = content?.text;
      if (typeof text !== 'string' || role === undefined) unreadable(e, `payload ${i} is a conversational item without text or role`);
      return { conversational: roleFirst.has(i) ? { role, content: { text } } : { content: { text }, role } };
    }
    if (item.blob !== undefined) {
      const blob = item.blob as JsonValue;
      if (!json.has(i) || typeof blob !== 'string') return { blob };
      try {
        return { blob: JSON.parse(blob) as JsonValue };
      } catch {
        return unreadable(e, `payload ${i} was written as JSON text but came back as ${JSON.stringify(blob.slice(0, 60))}`);
      }
    }
    return unreadable(e, `payload ${i} is a ${Object.keys(item).join('/') || 'empty'} item; this store reads conversational and blob payloads only`);
  });
}

/** A wire event as this store returns it; `payload` may be absent (includePayloads: false). */
export function fromWire(e: WireEvent): Read {
  if (e.eventId === undefined || e.eventTimestamp === undefined || e.actorId === undefined || e.sessionId === undefined) {
    unreadable(e, 'the service left out its id, timestamp, actor or session');
  }
  const wireMeta = e.metadata ?? {};
  const stampText = wireMeta[STAMP_KEY]?.stringValue;
  const stamp = stampText === undefined ? undefined : parseStamp(stampText);
  let metadata: EventMetadata | undefined;
  for (const [key, value] of Object.entries(wireMeta)) {
    if (stamp !== undefined && key === STAMP_KEY) continue;
    if (typeof value.stringValue !== 'string') unreadable(e, `metadata '${key}' is not a stringValue`);
    (metadata ??= {})[key] = { stringValue: value.stringValue };
  }
  const ts = e.eventTimestamp.getTime();
  const event: StoredEvent = {
    actorId: e.actorId,
    sessionId: e.sessionId,
    eventId: e.eventId,
    eventTimestamp: isoTime(ts),
    sequence: stamp?.seq ?? 0,
    payload: readPayload(e, stamp),
  };
  if (metadata !== undefined) event.metadata = metadata;
  return { event, ts, expiresAt: stamp?.expiresAt ?? Number.POSITIVE_INFINITY };
}
