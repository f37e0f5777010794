/**
 * The EventStore every backend is wrapped in: it checks identifiers, events and options once (the
 * same errors on every backend), keeps the clock and the expiry, turns page positions into tokens,
 * and computes turns from newest-first pages, so backends only store and fetch rows.
 */
import { UsageError, ValidationError } from '../model/errors.js';
import type { Backend, Row } from './backend.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { prepareEvents } from './event-shape.js';
import { checkId, positionOfEventId, type Position } from './ids.js';
import { isoTime } from './iso-time.js';
import {
  DAY_MS,
  DEFAULT_EXPIRY_DAYS,
  DEFAULT_TURNS,
  MAX_EXPIRY_DAYS,
  MAX_PAGE,
  MIN_EXPIRY_DAYS,
  type EventContent,
  type EventPage,
  type EventStore,
  type ListEventsOptions,
  type NewEvent,
  type PayloadItem,
  type StoredEvent,
  type StoreOptions,
} from './store.js';
import { collectLastTurns } from './turns.js';

/** How often appends sweep expired events out (reads never return them in between). */
export const PURGE_INTERVAL_MS = 60_000;

export function checkExpiryDays(days: unknown): number {
  if (days === undefined) return DEFAULT_EXPIRY_DAYS;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < MIN_EXPIRY_DAYS || days > MAX_EXPIRY_DAYS) {
    throw new UsageError(`expiryDays must be a whole number of days from ${MIN_EXPIRY_DAYS} to ${MAX_EXPIRY_DAYS}, as AgentCore allows (got ${String(days)})`);
  }
  return days;
}

function invalid(field: string, message: string): never {
  throw new ValidationError([{ code: 'invalid_option', path: [field], message }]);
}

/** listEvents' options, checked as every store checks them (stores outside this wrapper reuse it). */
export function checkListOptions(opts: ListEventsOptions = {}): { maxResults: number; nextToken: string | undefined; chronological: boolean } {
  const { maxResults = MAX_PAGE, nextToken, chronological = true } = opts;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > MAX_PAGE) {
    invalid('maxResults', `maxResults must be a whole number from 1 to ${MAX_PAGE} (got ${String(maxResults)})`);
  }
  if (typeof chronological !== 'boolean') invalid('chronological', 'chronological must be true or false');
  return { maxResults, nextToken, chronological };
}

/** lastTurns' k, checked as every store checks it. */
export function checkTurnCount(k: unknown = DEFAULT_TURNS): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) invalid('k', `k must be a whole number of turns, 0 or more (got ${String(k)})`);
  return k;
}

function toEvent(actorId: string, sessionId: string, row: Row): StoredEvent {
  const event: StoredEvent = {
    actorId,
    sessionId,
    eventId: row.eventId,
    eventTimestamp: isoTime(row.ts),
    sequence: row.seq,
    payload: JSON.parse(row.payloadJson) as StoredEvent['payload'],
  };
  if (row.metadataJson != null) event.metadata = JSON.parse(row.metadataJson) as NonNullable<StoredEvent['metadata']>;
  return event;
}

/** What a message is read from: no ids or timestamp (a timestamp's text alone is ~80 bytes to make). */
function toContent(_actorId: string, _sessionId: string, row: Row): EventContent {
  const content: EventContent = { payload: JSON.parse(row.payloadJson) as EventContent['payload'] };
  if (row.metadataJson != null) content.metadata = JSON.parse(row.metadataJson) as NonNullable<EventContent['metadata']>;
  return content;
}

/** The first `count` rows made by `make`, each made (its JSON parsed) only when it is read. */
function* eventsOf<E>(actorId: string, sessionId: string, rows: readonly Row[], count: number, make: (actorId: string, sessionId: string, row: Row) => E): Generator<E> {
  for (let i = 0; i < count; i++) yield make(actorId, sessionId, rows[i] as Row);
}

/** Rows more than the last read needed that the first page of lastTurns asks for. */
const NEEDED_MARGIN = 4;
/** Sessions remembered for that; the map is emptied when full, so it stays small. */
const NEEDED_MAX = 10_000;

export function createEventStore(backend: Backend, options: StoreOptions = {}): EventStore {
  const expiryDays = checkExpiryDays(options.expiryDays);
  const clock = options.now ?? Date.now;
  let lastPurge = Number.NEGATIVE_INFINITY;
  /** Events the last lastTurns of a session (and k) read: the next one's first page size. */
  const lastNeeded = new Map<string, number>();
  let closed = false;

  const now = (): number => {
    if (closed) throw new UsageError(`the ${backend.kind} memory store is closed`);
    return clock();
  };
  const ids = (actorId: unknown, sessionId: unknown): [string, string] => [checkId('actorId', actorId), checkId('sessionId', sessionId)];

  async function purge(at: number): Promise<number> {
    lastPurge = at;
    return backend.purge(at);
  }

  async function page(actorId: string, sessionId: string, chronological: boolean, limit: number, after: Position | undefined, at: number) {
    const rows = await backend.list(actorId, sessionId, after ? { after, chronological, limit: limit + 1 } : { chronological, limit: limit + 1 }, at);
    const more = rows.length > limit;
    const kept = more ? rows.slice(0, limit) : rows;
    return { events: kept.map((r) => toEvent(actorId, sessionId, r)), more, last: kept[kept.length - 1] };
  }

  /** The last k turns, each event made by `make` (a StoredEvent, or only its content). */
  async function lastTurnsOf<E extends { payload: PayloadItem[] }>(actorIdIn: string, sessionIdIn: string, kIn: number | undefined, make: (actorId: string, sessionId: string, row: Row) => E): Promise<E[][]> {
    const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
    const k = checkTurnCount(kIn);
    if (k === 0) return [];
    // One clock reading for the whole read, so an event cannot expire between pages.
    const at = now();
    let after: Position | undefined;
    let done = false;
    // The first page asks for what this session's last read needed and a few more (a new turn
    // is mostly the size of the one it pushes out), else for a few per turn; later ones for a full page.
    const key = `${actorId}\u0000${sessionId}\u0000${k}`;
    const needed = lastNeeded.get(key);
    let size = Math.min(MAX_PAGE, Math.max(8, needed === undefined ? 4 * k : needed + NEEDED_MARGIN));
    const turns = await collectLastTurns(k, async () => {
      if (done) return undefined;
      const rows = await backend.list(actorId, sessionId, after ? { after, chronological: false, limit: size + 1 } : { chronological: false, limit: size + 1 }, at);
      done = rows.length <= size;
      const kept = done ? rows.length : size;
      after = kept > 0 ? rows[kept - 1] : undefined;
      size = MAX_PAGE;
      return kept > 0 ? eventsOf(actorId, sessionId, rows, kept, make) : undefined;
    });
    if (lastNeeded.size >= NEEDED_MAX) lastNeeded.clear();
    let count = 0;
    for (const t of turns) count += t.length;
    lastNeeded.set(key, count);
    return turns;
  }

  return {
    backend: backend.kind,
    expiryDays,

    async appendEvents(actorIdIn, sessionIdIn, events: readonly NewEvent[]) {
      const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
      const prepared = prepareEvents(events);
      const at = now();
      if (at - lastPurge >= PURGE_INTERVAL_MS) await purge(at);
      if (prepared.length === 0) return [];
      const rows = await backend.append(actorId, sessionId, prepared, at, at + expiryDays * DAY_MS);
      return rows.map((r) => toEvent(actorId, sessionId, r));
    },

    async getEvent(actorIdIn, sessionIdIn, eventIdIn) {
      const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
      const eventId = checkId('eventId', eventIdIn);
      const pos = positionOfEventId(eventId);
      if (!pos) return undefined;
      const row = await backend.get(actorId, sessionId, pos.seq, now());
      return row && row.eventId === eventId ? toEvent(actorId, sessionId, row) : undefined;
    },

    async listEvents(actorIdIn, sessionIdIn, opts: ListEventsOptions = {}): Promise<EventPage> {
      const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
      const { maxResults, nextToken, chronological } = checkListOptions(opts);
      const after = nextToken === undefined ? undefined : decodeCursor(nextToken, actorId, sessionId, chronological);
      const { events, more, last } = await page(actorId, sessionId, chronological, maxResults, after, now());
      const out: EventPage = { events };
      if (more && last) out.nextToken = encodeCursor(actorId, sessionId, chronological, last);
      return out;
    },

    lastTurns(actorId, sessionId, k) {
      return lastTurnsOf(actorId, sessionId, k, toEvent);
    },

    lastTurnContents(actorId, sessionId, k) {
      return lastTurnsOf(actorId, sessionId, k, toContent);
    },

    async listSessions(actorIdIn) {
      const actorId = checkId('actorId', actorIdIn);
      const rows = await backend.sessions(actorId, now());
      return rows.map((r) => ({ actorId, sessionId: r.sessionId, createdAt: isoTime(r.createdAt) }));
    },

    async listActors() {
      const actors = await backend.actors(now());
      return actors.map((actorId) => ({ actorId }));
    },

    async deleteEvent(actorIdIn, sessionIdIn, eventIdIn) {
      const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
      const eventId = checkId('eventId', eventIdIn);
      const pos = positionOfEventId(eventId);
      if (!pos) return false;
      return backend.deleteEvent(actorId, sessionId, pos.seq, eventId, now());
    },

    async deleteSession(actorIdIn, sessionIdIn) {
      const [actorId, sessionId] = ids(actorIdIn, sessionIdIn);
      return backend.deleteSession(actorId, sessionId, now());
    },

    async purgeExpired() {
      return purge(now());
    },

    async close() {
      if (closed) return;
      closed = true;
      await backend.close();
    },
  };
}
