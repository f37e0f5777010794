/**
 * What a storage backend implements. It gets checked input (identifiers, events, options are
 * validated once in checked-store.ts, so every backend refuses the same things alike) and keeps
 * AgentCore's event shape as JSON text, so every backend returns exactly what was appended.
 */
import type { PreparedEvent } from './event-shape.js';
import type { Position } from './ids.js';

export type MaybePromise<T> = T | Promise<T>;

/** An event as a backend keeps it. */
export interface Row {
  seq: number;
  ts: number;
  eventId: string;
  payloadJson: string;
  metadataJson?: string | null | undefined;
}

export interface ListQuery {
  /** Start strictly after this position (in the direction asked). */
  after?: Position;
  chronological: boolean;
  limit: number;
}

export interface SessionRow {
  sessionId: string;
  createdAt: number;
}

export interface Backend {
  readonly kind: string;
  /**
   * Appends in one transaction, in order: each event gets the session's next sequence (from 1) and
   * timestamp `event.ts`, or else max(now, the session's latest timestamp); an eventId from
   * `makeEventId`; and `expiresAt`. Concurrent appends to one session (other connections, other
   * processes) must serialize: no sequence given twice, none lost.
   */
  append(actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): MaybePromise<Row[]>;
  /** The live event with this sequence. */
  get(actorId: string, sessionId: string, seq: number, now: number): MaybePromise<Row | undefined>;
  /** Live events ordered by (ts, seq), ascending or descending, at most `limit`. */
  list(actorId: string, sessionId: string, query: ListQuery, now: number): MaybePromise<Row[]>;
  /** Sessions of the actor with a live event, ordered by sessionId. */
  sessions(actorId: string, now: number): MaybePromise<SessionRow[]>;
  /** Actors with a live event, ordered. */
  actors(now: number): MaybePromise<string[]>;
  deleteEvent(actorId: string, sessionId: string, seq: number, eventId: string, now: number): MaybePromise<boolean>;
  /** Removes the session; returns how many live events it had. */
  deleteSession(actorId: string, sessionId: string, now: number): MaybePromise<number>;
  /** Removes events that expired at or before `now` (and sessions left empty); returns how many events. */
  purge(now: number): MaybePromise<number>;
  close(): MaybePromise<void>;
}

/** Compare two positions in (ts, seq) order. */
export function comparePositions(a: Position, b: Position): number {
  return a.ts !== b.ts ? a.ts - b.ts : a.seq - b.seq;
}
