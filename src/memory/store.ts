/**
 * The event store: AgentCore Memory's short-term memory (CreateEvent / GetEvent / ListEvents /
 * ListSessions / ListActors / DeleteEvent) as one interface every backend implements the same way.
 * Events are AgentCore-shaped (`{ payload: [...], metadata?: {key: {stringValue}} }`, reference §1.2);
 * the message <-> event mapping lives in src/formats/agentcore-memory.
 */
import type { JsonValue } from '../model/json.js';

export type ConversationalRole = 'USER' | 'ASSISTANT' | 'TOOL' | 'OTHER';

export interface Conversational {
  content: { text: string };
  role: ConversationalRole;
}

/** One payload item: exactly one of `conversational` or `blob` (an AgentCore union). */
export type PayloadItem = { conversational: Conversational } | { blob: JsonValue };

/** Event metadata in AgentCore's wire form: at most 15 entries, `{ key: { stringValue } }`. */
export type EventMetadata = Record<string, { stringValue: string }>;

/** An event to append. */
export interface NewEvent {
  payload: PayloadItem[];
  metadata?: EventMetadata;
  /**
   * When the event happened (ISO 8601 text, a Date, or epoch milliseconds); millisecond precision,
   * as AgentCore stores it. Left out, the store's clock gives it, never earlier than the session's
   * latest event, so an appended event always sorts last.
   */
  eventTimestamp?: string | number | Date;
}

/** An event as stored and returned. */
export interface StoredEvent {
  actorId: string;
  sessionId: string;
  eventId: string;
  /** ISO 8601 with milliseconds, UTC. */
  eventTimestamp: string;
  /** Per-session append order from 1; with eventTimestamp, the sort key (equal timestamps keep order). */
  sequence: number;
  payload: PayloadItem[];
  metadata?: EventMetadata;
}

export interface ListEventsOptions {
  /** Page size, 1-100 as AgentCore allows; default 100. */
  maxResults?: number;
  /** The `nextToken` of an earlier page of the same session and direction. */
  nextToken?: string;
  /** Oldest first (default). `false` gives newest first, AgentCore's own order. */
  chronological?: boolean;
}

export interface EventPage {
  events: StoredEvent[];
  /** Present when more events follow; resumes after the page's last event even if events were added or deleted since. */
  nextToken?: string;
}

export interface SessionSummary {
  actorId: string;
  sessionId: string;
  /** When the session's first event was written (ISO 8601). */
  createdAt: string;
}

export interface ActorSummary {
  actorId: string;
}

/** What a message is read from: an event's payload and metadata. */
export interface EventContent {
  payload: PayloadItem[];
  metadata?: EventMetadata;
}

export interface EventStore {
  /** Which backend this is: `memory`, `sqlite` ... */
  readonly backend: string;
  /** Days an event lives after it is written (7-365). */
  readonly expiryDays: number;
  /**
   * Metadata entries an event may hold here: AgentCore's 15, fewer on a store that keeps entries of
   * its own (agentcore:// keeps one). Left out: 15.
   */
  readonly metadataEntries?: number;
  /** Appends the events in order, all or none, and returns them as stored. */
  appendEvents(actorId: string, sessionId: string, events: readonly NewEvent[]): Promise<StoredEvent[]>;
  getEvent(actorId: string, sessionId: string, eventId: string): Promise<StoredEvent | undefined>;
  listEvents(actorId: string, sessionId: string, options?: ListEventsOptions): Promise<EventPage>;
  /**
   * The events of the session's last `k` turns (default 10), oldest first within and across turns.
   * A turn starts at an event that holds a user message (see turns.ts); events before the first
   * one form a turn of their own.
   */
  lastTurns(actorId: string, sessionId: string, k?: number): Promise<StoredEvent[][]>;
  /**
   * lastTurns' events with only what a message is read from (payload and metadata), for reading
   * them as messages: a store that can leave out the rest (ids, timestamps) offers it, and the
   * message-level calls use it when it is there.
   */
  lastTurnContents?(actorId: string, sessionId: string, k?: number): Promise<EventContent[][]>;
  /** Sessions of an actor that still hold an event, by sessionId. */
  listSessions(actorId: string): Promise<SessionSummary[]>;
  /** Actors that still hold an event, by actorId. */
  listActors(): Promise<ActorSummary[]>;
  /** True if the event existed (and had not expired). */
  deleteEvent(actorId: string, sessionId: string, eventId: string): Promise<boolean>;
  /** Deletes every event of the session; returns how many live events there were. */
  deleteSession(actorId: string, sessionId: string): Promise<number>;
  /** Removes expired events now (stores also do it when opened and while appending); returns how many. */
  purgeExpired(): Promise<number>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Days an event lives after it is written: 7-365 as AgentCore allows, default 7. */
  expiryDays?: number;
  /** The clock, epoch milliseconds (tests inject one). */
  now?: () => number;
}

export const DEFAULT_EXPIRY_DAYS = 7;
export const MIN_EXPIRY_DAYS = 7;
export const MAX_EXPIRY_DAYS = 365;
export const DEFAULT_TURNS = 10;
export const MAX_PAGE = 100;
export const DAY_MS = 86_400_000;
