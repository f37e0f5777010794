/**
 * `memory:` — events in this process only, gone when it exits. Each session keeps its events sorted
 * by (timestamp, sequence) and indexed by sequence; payloads are kept as JSON text, so what comes
 * back is a copy, exactly as from the other backends. Operations are synchronous inside, hence
 * atomic with respect to each other.
 */
import { comparePositions, type Backend, type ListQuery, type Row, type SessionRow } from '../backend.js';
import type { PreparedEvent } from '../event-shape.js';
import { makeEventId, type Position } from '../ids.js';

interface Rec extends Row {
  expiresAt: number;
}

interface Session {
  createdAt: number;
  lastSeq: number;
  lastTs: number;
  events: Rec[];
  bySeq: Map<number, Rec>;
}

/** Index of the first event after `pos` in (ts, seq) order. */
function firstAfter(events: readonly Rec[], pos: Position): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePositions(events[mid] as Rec, pos) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MemoryBackend implements Backend {
  readonly kind = 'memory';
  private readonly actorsMap = new Map<string, Map<string, Session>>();

  /** Events held, expired ones not yet purged included (tests check that expired events go). */
  get size(): number {
    let n = 0;
    for (const sessions of this.actorsMap.values()) for (const s of sessions.values()) n += s.events.length;
    return n;
  }

  private session(actorId: string, sessionId: string): Session | undefined {
    return this.actorsMap.get(actorId)?.get(sessionId);
  }

  append(actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): Row[] {
    let sessions = this.actorsMap.get(actorId);
    if (!sessions) this.actorsMap.set(actorId, (sessions = new Map()));
    let s = sessions.get(sessionId);
    if (!s) sessions.set(sessionId, (s = { createdAt: now, lastSeq: 0, lastTs: 0, events: [], bySeq: new Map() }));
    const out: Row[] = [];
    for (const e of events) {
      const seq = ++s.lastSeq;
      const ts = e.ts ?? Math.max(now, s.lastTs);
      s.lastTs = Math.max(s.lastTs, ts);
      const rec: Rec = { seq, ts, eventId: makeEventId({ ts, seq }), payloadJson: e.payloadJson, metadataJson: e.metadataJson, expiresAt };
      const last = s.events[s.events.length - 1];
      if (!last || comparePositions(last, rec) < 0) s.events.push(rec);
      else s.events.splice(firstAfter(s.events, rec), 0, rec);
      s.bySeq.set(seq, rec);
      out.push(rec);
    }
    return out;
  }

  get(actorId: string, sessionId: string, seq: number, now: number): Row | undefined {
    const rec = this.session(actorId, sessionId)?.bySeq.get(seq);
    return rec && rec.expiresAt > now ? rec : undefined;
  }

  list(actorId: string, sessionId: string, q: ListQuery, now: number): Row[] {
    const events = this.session(actorId, sessionId)?.events ?? [];
    const out: Row[] = [];
    if (q.chronological) {
      for (let i = q.after ? firstAfter(events, q.after) : 0; i < events.length && out.length < q.limit; i++) {
        const rec = events[i] as Rec;
        if (rec.expiresAt > now) out.push(rec);
      }
    } else {
      // firstAfter({ts, seq - 1}) is the index of `after` itself or of the first event past it.
      const start = q.after ? firstAfter(events, { ts: q.after.ts, seq: q.after.seq - 1 }) - 1 : events.length - 1;
      for (let i = start; i >= 0 && out.length < q.limit; i--) {
        const rec = events[i] as Rec;
        if (rec.expiresAt > now) out.push(rec);
      }
    }
    return out;
  }

  private static live(s: Session, now: number): number {
    let n = 0;
    for (const e of s.events) if (e.expiresAt > now) n++;
    return n;
  }

  private static hasLive(s: Session, now: number): boolean {
    for (let i = s.events.length - 1; i >= 0; i--) if ((s.events[i] as Rec).expiresAt > now) return true;
    return false;
  }

  sessions(actorId: string, now: number): SessionRow[] {
    const out: SessionRow[] = [];
    for (const [sessionId, s] of this.actorsMap.get(actorId) ?? []) {
      if (MemoryBackend.hasLive(s, now)) out.push({ sessionId, createdAt: s.createdAt });
    }
    return out.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  }

  actors(now: number): string[] {
    const out: string[] = [];
    for (const [actorId, sessions] of this.actorsMap) {
      for (const s of sessions.values()) {
        if (MemoryBackend.hasLive(s, now)) {
          out.push(actorId);
          break;
        }
      }
    }
    return out.sort();
  }

  deleteEvent(actorId: string, sessionId: string, seq: number, eventId: string, now: number): boolean {
    const s = this.session(actorId, sessionId);
    const rec = s?.bySeq.get(seq);
    if (!s || !rec || rec.eventId !== eventId) return false;
    s.bySeq.delete(seq);
    s.events.splice(s.events.indexOf(rec), 1);
    if (s.events.length === 0) this.dropSession(actorId, sessionId);
    return rec.expiresAt > now;
  }

  deleteSession(actorId: string, sessionId: string, now: number): number {
    const s = this.session(actorId, sessionId);
    if (!s) return 0;
    const live = MemoryBackend.live(s, now);
    this.dropSession(actorId, sessionId);
    return live;
  }

  private dropSession(actorId: string, sessionId: string): void {
    const sessions = this.actorsMap.get(actorId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.actorsMap.delete(actorId);
  }

  purge(now: number): number {
    let removed = 0;
    for (const [actorId, sessions] of [...this.actorsMap]) {
      for (const [sessionId, s] of [...sessions]) {
        const kept = s.events.filter((e) => e.expiresAt > now);
        if (kept.length === s.events.length) continue;
        removed += s.events.length - kept.length;
        for (const e of s.events) if (e.expiresAt <= now) s.bySeq.delete(e.seq);
        s.events = kept;
        if (kept.length === 0) this.dropSession(actorId, sessionId);
      }
    }
    return removed;
  }

  close(): void {
    this.actorsMap.clear();
  }
}
