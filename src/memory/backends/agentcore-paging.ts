/**
 * Reading a session in our order from a service that only walks newest first
 * (docs/decisions/0005-agentcore-store.md):
 * - ListEvents gives events newest first by timestamp, events of one millisecond in no order;
 *   `newestFirst` holds back each group of equal timestamps until the walk has passed it, sorts it
 *   by (sequence, eventId), and yields events in exact (timestamp, sequence) descending order,
 *   reading a page only when the consumer asks for more;
 * - each event carries the service token of the page where its timestamp group began, so a
 *   newest-first listing resumes there instead of at the top;
 * - the docs promise no order at all: a page that goes back in time raises `Unordered`, and the
 *   caller reads the whole session and sorts it instead (`sortedNewestFirst`).
 * Page tokens are ours (cursor.ts's fields, so its checks apply) plus the eventId that breaks ties
 * between events without a sequence and the service's resume token.
 */
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { Read } from './agentcore-wire.js';

export const SERVICE_PAGE = 100;

export interface Key {
  ts: number;
  seq: number;
  eventId: string;
}

export const keyOf = (r: Read): Key => ({ ts: r.ts, seq: r.event.sequence, eventId: r.event.eventId });

export function compareKeys(a: Key, b: Key): number {
  if (a.ts !== b.ts) return a.ts - b.ts;
  if (a.seq !== b.seq) return a.seq - b.seq;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

export interface Walked extends Read {
  /** The service token of the page where this event's timestamp group began (undefined: the top). */
  resume: string | undefined;
}

export type FetchPage = (token: string | undefined, size: number) => Promise<{ events: Read[]; nextToken: string | undefined }>;

export interface WalkOptions {
  /** Start at this service token (a `resume` of an earlier walk). */
  token?: string | undefined;
  /** Only events strictly before this key. */
  before?: Key | undefined;
  /** Events to keep (live ones, usually). */
  keep: (r: Read) => boolean;
  /** Size of the first service page (later ones are full). */
  firstSize?: number;
}

/** The service gave a page that goes back in time: its order cannot be trusted. */
export class Unordered extends Error {}

const byKeyDescending = (a: Read, b: Read): number => compareKeys(keyOf(b), keyOf(a));

/** Events in exact descending order, a batch per service page read (batches may be empty). */
export async function* newestFirst(fetch: FetchPage, opts: WalkOptions): AsyncGenerator<Walked[]> {
  let token = opts.token;
  let size = opts.firstSize ?? SERVICE_PAGE;
  let group: Walked[] = [];
  let groupTs = Number.POSITIVE_INFINITY;
  let groupToken = token;
  for (;;) {
    const pageToken = token;
    const page = await fetch(pageToken, size);
    size = SERVICE_PAGE;
    const out: Walked[] = [];
    for (const r of page.events) {
      if (r.ts > groupTs) throw new Unordered(`ListEvents went back in time at event ${r.event.eventId}`);
      if (r.ts < groupTs) {
        out.push(...group.sort(byKeyDescending));
        group = [];
        groupTs = r.ts;
        groupToken = pageToken;
      }
      if (opts.before !== undefined && compareKeys(keyOf(r), opts.before) >= 0) continue;
      if (opts.keep(r)) group.push({ ...r, resume: groupToken });
    }
    if (page.nextToken === undefined) {
      out.push(...group.sort(byKeyDescending));
      yield out;
      return;
    }
    token = page.nextToken;
    yield out;
  }
}

/** The same from a service in no trusted order: every page read, then sorted. */
export async function* sortedNewestFirst(fetch: FetchPage, opts: WalkOptions): AsyncGenerator<Walked[]> {
  const all: Walked[] = [];
  let token: string | undefined;
  do {
    const page = await fetch(token, SERVICE_PAGE);
    for (const r of page.events) {
      if (opts.before !== undefined && compareKeys(keyOf(r), opts.before) >= 0) continue;
      if (opts.keep(r)) all.push({ ...r, resume: undefined });
    }
    token = page.nextToken;
  } while (token !== undefined);
  all.sort(byKeyDescending);
  for (let i = 0; i < all.length; i += SERVICE_PAGE) yield all.slice(i, i + SERVICE_PAGE);
}

export type Walk = (fetch: FetchPage, opts: WalkOptions) => AsyncGenerator<Walked[]>;

/**
 * A page token: cursor.ts's position fields (of `last`, the page's last event) plus the eventId
 * that breaks ties and, newest first, the service token to resume at: that of `next`, the first
 * event not given, since every event after `last` sits at or after the page where its group began.
 */
export function encodeToken(actorId: string, sessionId: string, chronological: boolean, last: Walked, next: Walked | undefined): string {
  const base = JSON.parse(Buffer.from(encodeCursor(actorId, sessionId, chronological, { ts: last.ts, seq: last.event.sequence }), 'base64url').toString('utf8')) as object;
  const resume = chronological ? undefined : next?.resume;
  const token = { ...base, e: last.event.eventId, ...(resume === undefined ? {} : { k: resume }) };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** The key a token resumes after, and the service token to start at; cursor.ts refuses bad tokens. */
export function decodeToken(token: string, actorId: string, sessionId: string, chronological: boolean): { after: Key; resume: string | undefined } {
  const pos = decodeCursor(token, actorId, sessionId, chronological);
  const extra = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { e?: unknown; k?: unknown };
  const eventId = typeof extra.e === 'string' ? extra.e : '';
  return { after: { ts: pos.ts, seq: pos.seq, eventId }, resume: typeof extra.k === 'string' ? extra.k : undefined };
}
