/**
 * `redis://host:port/db?prefix=...` — ioredis (an optional peer dependency loaded only when a
 * redis: store opens). Every write is one Lua script (redis-scripts.ts), atomic on the server, so
 * writers in other connections and processes serialize without locks. All keys start with the
 * prefix, so several stores (and test runs) share a database without seeing each other.
 * Durability is the server's: with neither AOF nor RDB snapshots a Redis restart loses the store.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis as RedisClient } from 'ioredis';
import { MissingPackageError, UsageError } from '../../model/errors.js';
import type { Backend, ListQuery, Row, SessionRow } from '../backend.js';
import type { PreparedEvent } from '../event-shape.js';
import type { Position } from '../ids.js';
import { APPEND_LUA, DELETE_EVENT_LUA, DELETE_SESSION_LUA, LIST_LUA, PURGE_LUA, SESSIONS_LUA } from './redis-scripts.js';

export const REDIS_SCHEMA_VERSION = 1;
export const DEFAULT_PREFIX = 'interlingua:memory:';
/** Printable, no spaces: the prefix is part of every key and shown in messages. */
export const PREFIX_PATTERN = /^[\x21-\x7e]{1,100}$/;
const PURGE_BATCH = 1000;

interface Script {
  lua: string;
  sha: string;
}
const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const S = {
  append: script(APPEND_LUA),
  list: script(LIST_LUA),
  sessions: script(SESSIONS_LUA),
  deleteEvent: script(DELETE_EVENT_LUA),
  deleteSession: script(DELETE_SESSION_LUA),
  purge: script(PURGE_LUA),
};

/** The order-set member of a position: fixed-width digits, so byte order is (ts, seq) order. */
export function orderMember(pos: Position): string {
  return String(pos.ts).padStart(16, '0') + String(pos.seq).padStart(12, '0');
}

/** Reads an event value: `ts exp seq eventId metaLen\n<metadata><payload>` (metaLen -1: none). */
function parseEvent(v: string): Row {
  const a = v.indexOf(' ');
  const b = v.indexOf(' ', a + 1);
  const c = v.indexOf(' ', b + 1);
  const d = v.indexOf(' ', c + 1);
  const nl = v.indexOf('\n', d + 1);
  if (a < 0 || b < 0 || c < 0 || d < 0 || nl < 0) throw new Error(`redis: a stored event is malformed: ${JSON.stringify(v.slice(0, 80))}`);
  const metaLen = Number(v.slice(d + 1, nl));
  const body = v.slice(nl + 1);
  return {
    ts: Number(v.slice(0, a)),
    seq: Number(v.slice(b + 1, c)),
    eventId: v.slice(c + 1, d),
    metadataJson: metaLen < 0 ? null : body.slice(0, metaLen),
    payloadJson: body.slice(Math.max(metaLen, 0)),
  };
}

function tail(e: PreparedEvent): string {
  return e.metadataJson === undefined ? `-1\n${e.payloadJson}` : `${e.metadataJson.length}\n${e.metadataJson}${e.payloadJson}`;
}

export class RedisBackend implements Backend {
  readonly kind = 'redis';

  constructor(private readonly client: RedisClient, readonly prefix: string) {}

  /** EVALSHA, loading the script on first use (or after the server's script cache was flushed). */
  private async run(s: Script, args: (string | number)[]): Promise<unknown> {
    const argv = [this.prefix, ...args.map(String)];
    try {
      return await this.client.evalsha(s.sha, 0, ...argv);
    } catch (err) {
      if (!/NOSCRIPT/.test((err as Error).message)) throw err;
      return this.client.eval(s.lua, 0, ...argv);
    }
  }

  private key(kind: 'e' | 's', actorId: string, sessionId: string): string {
    return `${this.prefix}${kind}|${actorId}|${sessionId}`;
  }

  async append(actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): Promise<Row[]> {
    const args: (string | number)[] = [actorId, sessionId, now, expiresAt, events.length];
    for (const e of events) args.push(e.ts ?? '', randomBytes(4).toString('hex'), tail(e));
    const out = (await this.run(S.append, args)) as string[];
    return events.map((e, i) => ({
      seq: Number(out[i * 3]),
      ts: Number(out[i * 3 + 1]),
      eventId: out[i * 3 + 2]!,
      payloadJson: e.payloadJson,
      metadataJson: e.metadataJson,
    }));
  }

  async get(actorId: string, sessionId: string, seq: number, now: number): Promise<Row | undefined> {
    const v = await this.client.hget(this.key('e', actorId, sessionId), String(seq));
    if (v === null) return undefined;
    const row = parseEvent(v);
    return Number(v.split(' ', 2)[1]) > now ? row : undefined;
  }

  async list(actorId: string, sessionId: string, q: ListQuery, now: number): Promise<Row[]> {
    const after = q.after ? orderMember(q.after) : '';
    const out = (await this.run(S.list, [actorId, sessionId, now, q.limit, q.chronological ? '1' : '0', after])) as string[];
    return out.map(parseEvent);
  }

  async sessions(actorId: string, now: number): Promise<SessionRow[]> {
    const out = (await this.run(S.sessions, [actorId, now])) as string[];
    const rows: SessionRow[] = [];
    for (let i = 0; i < out.length; i += 2) rows.push({ sessionId: out[i]!, createdAt: Number(out[i + 1]) });
    return rows.sort((x, y) => (x.sessionId < y.sessionId ? -1 : x.sessionId > y.sessionId ? 1 : 0));
  }

  async actors(now: number): Promise<string[]> {
    const out = await this.client.zrangebyscore(`${this.prefix}actors`, `(${now}`, '+inf');
    return out.sort();
  }

  async deleteEvent(actorId: string, sessionId: string, seq: number, eventId: string, now: number): Promise<boolean> {
    return Number(await this.run(S.deleteEvent, [actorId, sessionId, seq, eventId, now])) === 1;
  }

  async deleteSession(actorId: string, sessionId: string, now: number): Promise<number> {
    return Number(await this.run(S.deleteSession, [actorId, sessionId, now]));
  }

  /** In batches, so one sweep of a large backlog does not hold the server for long. */
  async purge(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const [events, sessions] = (await this.run(S.purge, [now, PURGE_BATCH])) as [number, number];
      total += events;
      if (events < PURGE_BATCH && sessions < PURGE_BATCH) return total;
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

export interface RedisOptions {
  /** Prefix of every key (default interlingua:memory:). */
  prefix?: string;
}

/** Connects (failing fast when the server is not there) and checks the store's version. */
export async function openRedisBackend(url: string, options: RedisOptions = {}): Promise<RedisBackend> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (!PREFIX_PATTERN.test(prefix)) throw new UsageError(`redis: prefix must be 1-100 printable characters without spaces (got ${JSON.stringify(prefix)})`);
  let Redis: typeof RedisClient;
  try {
    Redis = (await import('ioredis')).Redis;
  } catch (err) {
    throw new MissingPackageError('redis: stores', 'ioredis', (err as Error).message);
  }
  // No reconnect loop while opening: an unreachable server is an error now, not a hang.
  let opening = true;
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => (opening || times > 10 ? null : Math.min(times * 100, 2000)),
  });
  // Connection errors surface on the command that meets them; an idle client must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const meta = `${prefix}meta`;
    await client.hsetnx(meta, 'version', String(REDIS_SCHEMA_VERSION));
    const version = Number(await client.hget(meta, 'version'));
    if (version > REDIS_SCHEMA_VERSION) {
      throw new UsageError(`redis: prefix ${prefix} holds memory schema version ${version}, newer than this interlingua reads (${REDIS_SCHEMA_VERSION})`);
    }
  } catch (err) {
    client.disconnect();
    if (err instanceof UsageError) throw err;
    throw new UsageError(`redis: cannot use ${redact(url)} as a memory store: ${(err as Error).message}`);
  }
  opening = false;
  return new RedisBackend(client, prefix);
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the redis URL';
  }
}
