/**
 * `agentcore://<memoryId>?region=...` — an EventStore on AWS Bedrock AgentCore Memory's data plane
 * through `@aws-sdk/client-bedrock-agentcore` (an optional peer, imported only when such a store
 * opens). Every call maps onto CreateEvent / GetEvent / ListEvents / ListSessions / ListActors /
 * DeleteEvent; what the service does differently (no sequence, newest-first listing, blobs as text,
 * its own expiry, no transactions) and what that means for callers is in
 * docs/decisions/0005-agentcore-store.md. Identifiers, events and options are checked with the same
 * functions as on every other backend, before anything is sent. Opening (URL, SDK, client): agentcore-open.ts.
 */
import type * as Sdk from '@aws-sdk/client-bedrock-agentcore';
import { UsageError, ValidationError } from '../../model/errors.js';
import { checkListOptions, checkTurnCount } from '../checked-store.js';
import { prepareEvents } from '../event-shape.js';
import { checkId } from '../ids.js';
import { DAY_MS, type EventPage, type EventStore, type ListEventsOptions, type NewEvent, type SessionSummary, type StoredEvent } from '../store.js';
import { collectLastTurns } from '../turns.js';
import { isNotFound, isValidation, serviceError } from './agentcore-errors.js';
import { compareKeys, decodeToken, encodeToken, keyOf, newestFirst, SERVICE_PAGE, sortedNewestFirst, Unordered, type FetchPage, type Key, type Walk, type Walked } from './agentcore-paging.js';
import { checkRoomForStamp, fromWire, parseStamp, STAMP_KEY, toWire, USER_METADATA_ENTRIES, type Read } from './agentcore-wire.js';

export type SdkModule = typeof Sdk;

/** What the store knows of a session it wrote to (one writer per session: see 0005). */
interface SessionState {
  actorId: string;
  sessionId: string;
  lastSeq: number;
  lastTs: number;
  /** The earliest expiry among its live stamped events; when passed, the session is read again. */
  nextExpiry: number;
}

/** Sessions whose sequence and latest timestamp the store keeps in mind. */
const MAX_KNOWN_SESSIONS = 10_000;

const live = (at: number) => (r: Read): boolean => r.expiresAt > at;
const sessionKey = (actorId: string, sessionId: string): string => `${actorId}\u0000${sessionId}`;

export class AgentCoreStore implements EventStore {
  readonly backend = 'agentcore';
  readonly metadataEntries = USER_METADATA_ENTRIES;
  private closed = false;
  private readonly states = new Map<string, SessionState>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Switched to reading whole sessions once the service is seen to list out of time order. */
  private walk: Walk = newestFirst;
  private readonly name: string;

  constructor(
    private readonly sdk: SdkModule,
    private readonly client: Sdk.BedrockAgentCoreClient,
    private readonly ownsClient: boolean,
    private readonly memoryId: string,
    readonly expiryDays: number,
    private readonly clock: () => number,
  ) {
    this.name = `agentcore://${memoryId}`;
  }

  private now(): number {
    if (this.closed) throw new UsageError(`the agentcore memory store ${this.name} is closed`);
    return this.clock();
  }

  private ids(actorId: unknown, sessionId: unknown): [string, string] {
    return [checkId('actorId', actorId), checkId('sessionId', sessionId)];
  }

  private async run<T>(op: string, call: () => Promise<T>, event?: number): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw serviceError(err, event === undefined ? { store: this.name, op } : { store: this.name, op, event });
    }
  }

  /** The call's output, or undefined when the service says the event is not there. */
  private async unlessMissing<T>(op: string, call: () => Promise<T>): Promise<T | undefined> {
    return this.run(op, () => call().catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err))));
  }

  /** One writer per session inside this store: appends, sweeps and deletes of a session take turns. */
  private async locked<T>(actorId: string, sessionId: string, work: () => Promise<T>): Promise<T> {
    const key = sessionKey(actorId, sessionId);
    const before = this.locks.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.locks.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }

  /**
   * ListEvents pages of a session. Always with payloads: whether `includePayloads: false` keeps the
   * metadata (where the sequence is) is not documented, and a scan that missed it would restart sequences.
   */
  private fetcher(actorId: string, sessionId: string): FetchPage {
    return async (token, size) => {
      const input: Sdk.ListEventsCommandInput = { memoryId: this.memoryId, actorId, sessionId, includePayloads: true, maxResults: size };
      if (token !== undefined) input.nextToken = token;
      const out = await this.run('ListEvents', () => this.client.send(new this.sdk.ListEventsCommand(input)));
      return { events: (out.events ?? []).map(fromWire), nextToken: out.nextToken || undefined };
    };
  }

  /** A fetcher that starts again from the top when the service refuses a resume token it issued earlier. */
  private resuming(fetch: FetchPage, resume: string | undefined): FetchPage {
    let first = resume !== undefined;
    return async (token, size) => {
      if (!first) return fetch(token, size);
      first = false;
      try {
        return await fetch(token, size);
      } catch (err) {
        if (!(err instanceof ValidationError && isValidation((err as { cause?: unknown }).cause))) throw err;
        return fetch(undefined, size);
      }
    };
  }

  private async ordered<T>(read: (walk: Walk) => Promise<T>): Promise<T> {
    try {
      return await read(this.walk);
    } catch (err) {
      if (!(err instanceof Unordered)) throw err;
      this.walk = sortedNewestFirst;
      return read(this.walk);
    }
  }

  /** Visits every event of a session in the service's order, a page at a time (only what `visit` keeps stays in memory). */
  private async eachEvent(actorId: string, sessionId: string, visit: (r: Read) => void): Promise<void> {
    const fetch = this.fetcher(actorId, sessionId);
    let token: string | undefined;
    do {
      const page = await fetch(token, SERVICE_PAGE);
      page.events.forEach(visit);
      token = page.nextToken;
    } while (token !== undefined);
  }

  private async deleteWire(actorId: string, sessionId: string, eventId: string): Promise<boolean> {
    const out = await this.unlessMissing('DeleteEvent', () => this.client.send(new this.sdk.DeleteEventCommand({ memoryId: this.memoryId, actorId, sessionId, eventId })));
    return out !== undefined;
  }

  /** Reads the session, deletes its expired events, and learns its sequence and latest timestamp. */
  private async scan(actorId: string, sessionId: string, at: number): Promise<{ state: SessionState; live: number; expired: number }> {
    const state: SessionState = { actorId, sessionId, lastSeq: 0, lastTs: 0, nextExpiry: Number.POSITIVE_INFINITY };
    let liveCount = 0;
    const gone: string[] = [];
    // Deleted after the listing, not during it: nothing says a service token survives deletes.
    await this.eachEvent(actorId, sessionId, (r) => {
      if (r.expiresAt <= at) return void gone.push(r.event.eventId);
      liveCount++;
      state.lastSeq = Math.max(state.lastSeq, r.event.sequence);
      state.lastTs = Math.max(state.lastTs, r.ts);
      if (Number.isFinite(r.expiresAt)) state.nextExpiry = Math.min(state.nextExpiry, r.expiresAt);
    });
    let expired = 0;
    for (const eventId of gone) if (await this.deleteWire(actorId, sessionId, eventId)) expired++;
    const key = sessionKey(actorId, sessionId);
    this.states.delete(key);
    this.states.set(key, state);
    // A bounded memory of sessions: a forgotten one is read again at its next append.
    if (this.states.size > MAX_KNOWN_SESSIONS) this.states.delete(this.states.keys().next().value as string);
    return { state, live: liveCount, expired };
  }

  /** Sessions this store wrote to that now hold expired events are swept (the rest is the service's, or purgeExpired's). */
  private async sweepTouched(at: number): Promise<void> {
    for (const s of [...this.states.values()]) {
      if (s.nextExpiry <= at) await this.locked(s.actorId, s.sessionId, () => this.scan(s.actorId, s.sessionId, at));
    }
  }

  async probe(): Promise<void> {
    await this.run('ListActors', () => this.client.send(new this.sdk.ListActorsCommand({ memoryId: this.memoryId, maxResults: 1 })));
  }

  async appendEvents(actorIdIn: string, sessionIdIn: string, events: readonly NewEvent[]): Promise<StoredEvent[]> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const prepared = prepareEvents(events);
    checkRoomForStamp(prepared);
    const at = this.now();
    await this.sweepTouched(at);
    if (prepared.length === 0) return [];
    return this.locked(actorId, sessionId, async () => {
      const cached = this.states.get(sessionKey(actorId, sessionId));
      const state = cached && cached.nextExpiry > at ? cached : (await this.scan(actorId, sessionId, at)).state;
      const saved = { ...state };
      const expiresAt = at + this.expiryDays * DAY_MS;
      const written: StoredEvent[] = [];
      try {
        for (const [i, e] of prepared.entries()) {
          const seq = state.lastSeq + 1;
          const ts = e.ts ?? Math.max(at, state.lastTs);
          const input: Sdk.CreateEventCommandInput = { memoryId: this.memoryId, actorId, sessionId, eventTimestamp: new Date(ts), ...toWire(e, seq, expiresAt) };
          const out = await this.run('CreateEvent', () => this.client.send(new this.sdk.CreateEventCommand(input)), i);
          if (out.event === undefined) throw new UsageError(`${this.name}: CreateEvent returned no event`);
          written.push(fromWire(out.event).event);
          state.lastSeq = seq;
          state.lastTs = Math.max(state.lastTs, ts);
          state.nextExpiry = Math.min(state.nextExpiry, expiresAt);
        }
      } catch (err) {
        throw await this.undo(actorId, sessionId, written, state, saved, err);
      }
      return written;
    });
  }

  /** All or none, as far as a service without transactions allows: what this append wrote is deleted again. */
  private async undo(actorId: string, sessionId: string, written: StoredEvent[], state: SessionState, saved: SessionState, err: unknown): Promise<Error> {
    const left: string[] = [];
    for (const e of written) {
      const gone = await this.deleteWire(actorId, sessionId, e.eventId).catch(() => false);
      if (!gone) left.push(e.eventId);
    }
    if (left.length === 0) Object.assign(state, saved);
    const error = err instanceof Error ? err : new UsageError(String(err));
    if (left.length === 0) return error;
    const note = `events written before the failure could not be deleted again: ${left.join(', ')}`;
    if (error instanceof ValidationError) return new ValidationError([...error.issues, { code: 'agentcore_partial_append', path: ['events'], message: note }]);
    return new UsageError(`${error.message}; ${note}`);
  }

  async getEvent(actorIdIn: string, sessionIdIn: string, eventIdIn: string): Promise<StoredEvent | undefined> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const eventId = checkId('eventId', eventIdIn);
    const at = this.now();
    const out = await this.unlessMissing('GetEvent', () => this.client.send(new this.sdk.GetEventCommand({ memoryId: this.memoryId, actorId, sessionId, eventId })));
    if (out?.event === undefined) return undefined;
    const r = fromWire(out.event);
    return r.expiresAt > at ? r.event : undefined;
  }

  async listEvents(actorIdIn: string, sessionIdIn: string, opts: ListEventsOptions = {}): Promise<EventPage> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const { maxResults, nextToken, chronological } = checkListOptions(opts);
    const from = nextToken === undefined ? undefined : decodeToken(nextToken, actorId, sessionId, chronological);
    const at = this.now();
    const fetch = this.fetcher(actorId, sessionId);
    const got = await this.ordered((walk) =>
      chronological ? this.oldestFirst(walk, fetch, at, maxResults + 1, from?.after) : this.newest(walk, fetch, at, maxResults + 1, from),
    );
    const page = got.slice(0, maxResults);
    const out: EventPage = { events: page.map((w) => w.event) };
    const last = page[page.length - 1];
    if (got.length > maxResults && last !== undefined) out.nextToken = encodeToken(actorId, sessionId, chronological, last, got[maxResults]);
    return out;
  }

  /** Up to `n` live events before `from`, newest first, starting at the service page the token names. */
  private async newest(walk: Walk, fetch: FetchPage, at: number, n: number, from: { after: Key; resume: string | undefined } | undefined): Promise<Walked[]> {
    const got: Walked[] = [];
    const events = walk(this.resuming(fetch, from?.resume), { token: from?.resume, before: from?.after, keep: live(at), firstSize: Math.min(SERVICE_PAGE, n) });
    for await (const batch of events) {
      got.push(...batch);
      if (got.length >= n) break;
    }
    return got.slice(0, n);
  }

  /** Up to `n` live events after `after`, oldest first: the walk has to come down from the newest. */
  private async oldestFirst(walk: Walk, fetch: FetchPage, at: number, n: number, after: Key | undefined): Promise<Walked[]> {
    const tail: Walked[] = [];
    let passed = false;
    for await (const batch of walk(fetch, { keep: live(at) })) {
      for (const w of batch) {
        if (after !== undefined && compareKeys(keyOf(w), after) <= 0) {
          passed = true;
          break;
        }
        tail.push(w);
        if (tail.length > n) tail.shift();
      }
      if (passed) break;
    }
    return tail.reverse();
  }

  async lastTurns(actorIdIn: string, sessionIdIn: string, kIn?: number): Promise<StoredEvent[][]> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const k = checkTurnCount(kIn);
    if (k === 0) return [];
    const at = this.now();
    const fetch = this.fetcher(actorId, sessionId);
    return this.ordered(async (walk) => {
      // Turns are mostly a few events each: the first page asks for a few per turn, later ones for a full page.
      const events = walk(fetch, { keep: live(at), firstSize: Math.min(SERVICE_PAGE, Math.max(8, 4 * k)) });
      try {
        return await collectLastTurns(k, async () => {
          for (;;) {
            const next = await events.next();
            if (next.done) return undefined;
            if (next.value.length > 0) return next.value.map((w) => w.event);
          }
        });
      } finally {
        await events.return(undefined);
      }
    });
  }

  private async allSessions(actorId: string): Promise<Sdk.SessionSummary[]> {
    const out: Sdk.SessionSummary[] = [];
    let nextToken: string | undefined;
    do {
      const input: Sdk.ListSessionsCommandInput = { memoryId: this.memoryId, actorId, maxResults: SERVICE_PAGE };
      if (nextToken !== undefined) input.nextToken = nextToken;
      const page = await this.run('ListSessions', () => this.client.send(new this.sdk.ListSessionsCommand(input)));
      out.push(...(page.sessionSummaries ?? []));
      nextToken = page.nextToken || undefined;
    } while (nextToken !== undefined);
    return out;
  }

  private async allActors(): Promise<string[]> {
    const out: string[] = [];
    let nextToken: string | undefined;
    do {
      const input: Sdk.ListActorsCommandInput = { memoryId: this.memoryId, maxResults: SERVICE_PAGE };
      if (nextToken !== undefined) input.nextToken = nextToken;
      const page = await this.run('ListActors', () => this.client.send(new this.sdk.ListActorsCommand(input)));
      for (const a of page.actorSummaries ?? []) if (a.actorId !== undefined) out.push(a.actorId);
      nextToken = page.nextToken || undefined;
    } while (nextToken !== undefined);
    return out;
  }

  /** Whether a session still holds a live event (usually the first one read says). */
  private async hasLive(actorId: string, sessionId: string, at: number): Promise<boolean> {
    const fetch = this.fetcher(actorId, sessionId);
    let token: string | undefined;
    let size = 10;
    do {
      const page = await fetch(token, size);
      if (page.events.some(live(at))) return true;
      token = page.nextToken;
      size = SERVICE_PAGE;
    } while (token !== undefined);
    return false;
  }

  async listSessions(actorIdIn: string): Promise<SessionSummary[]> {
    const actorId = checkId('actorId', actorIdIn);
    const at = this.now();
    const out: SessionSummary[] = [];
    for (const s of await this.allSessions(actorId)) {
      if (s.sessionId === undefined || !(await this.hasLive(actorId, s.sessionId, at))) continue;
      out.push({ actorId, sessionId: s.sessionId, createdAt: (s.createdAt ?? new Date(0)).toISOString() });
    }
    return out.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  }

  async listActors(): Promise<{ actorId: string }[]> {
    const at = this.now();
    const out: string[] = [];
    for (const actorId of await this.allActors()) {
      for (const s of await this.allSessions(actorId)) {
        if (s.sessionId !== undefined && (await this.hasLive(actorId, s.sessionId, at))) {
          out.push(actorId);
          break;
        }
      }
    }
    return out.sort().map((actorId) => ({ actorId }));
  }

  async deleteEvent(actorIdIn: string, sessionIdIn: string, eventIdIn: string): Promise<boolean> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const eventId = checkId('eventId', eventIdIn);
    const at = this.now();
    const got = await this.unlessMissing('GetEvent', () => this.client.send(new this.sdk.GetEventCommand({ memoryId: this.memoryId, actorId, sessionId, eventId })));
    if (got?.event === undefined) return false;
    // Only the stamp matters here: an event this store cannot read can still be deleted.
    const stamp = parseStamp(got.event.metadata?.[STAMP_KEY]?.stringValue ?? '');
    const wasLive = stamp === undefined || stamp.expiresAt > at;
    return (await this.deleteWire(actorId, sessionId, eventId)) && wasLive;
  }

  /** AgentCore has no DeleteSession: each event is deleted. */
  async deleteSession(actorIdIn: string, sessionIdIn: string): Promise<number> {
    const [actorId, sessionId] = this.ids(actorIdIn, sessionIdIn);
    const at = this.now();
    return this.locked(actorId, sessionId, async () => {
      const all: { eventId: string; live: boolean }[] = [];
      await this.eachEvent(actorId, sessionId, (r) => void all.push({ eventId: r.event.eventId, live: r.expiresAt > at }));
      let count = 0;
      for (const e of all) if ((await this.deleteWire(actorId, sessionId, e.eventId)) && e.live) count++;
      this.states.delete(sessionKey(actorId, sessionId));
      return count;
    });
  }

  /** Reads the whole memory (every actor's every session) and deletes what expired under its stamp. */
  async purgeExpired(): Promise<number> {
    const at = this.now();
    let removed = 0;
    for (const actorId of await this.allActors()) {
      for (const s of await this.allSessions(actorId)) {
        if (s.sessionId === undefined) continue;
        const sessionId = s.sessionId;
        removed += (await this.locked(actorId, sessionId, () => this.scan(actorId, sessionId, at))).expired;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient) this.client.destroy();
  }
}
