/**
 * Session locks held in the store itself, for hosts in several processes that share one store:
 * - postgres:// — a session-level advisory lock (`pg_advisory_lock(hashtextextended(key, 0))`) on a
 *   connection of a small pool of its own, held until released; the server frees it if the holder's
 *   connection dies;
 * - redis:// — `SET key token NX PX ttl`, renewed every ttl/3 while held and deleted only by its
 *   holder (a Lua compare-and-delete), so a crashed holder's lock expires after ttl.
 * Other stores (memory:, sqlite:, agentcore://) have none: `openStoreLock` gives undefined, and the
 * in-process lock is all there is (one host per SQLite file).
 * A wait longer than `timeoutMs` fails with a LockTimeoutError.
 */
import { randomBytes } from 'node:crypto';
import { InterlinguaError, UsageError } from '../model/errors.js';

export type Release = () => Promise<void>;

export interface StoreLock {
  readonly kind: string;
  /** Waits for the key's lock (up to the timeout); the Release gives it back. */
  acquire(key: string): Promise<Release>;
  close(): Promise<void>;
}

export interface StoreLockOptions {
  /** Longest wait for a lock; default 60 s. */
  timeoutMs?: number;
  /** Redis: how long a lock lives without renewal (a dead holder's lock frees after this); default 30 s. */
  ttlMs?: number;
}

export class LockTimeoutError extends InterlinguaError {
  constructor(key: string, ms: number) {
    super('lock_timeout', `waited ${ms} ms for the lock of session ${JSON.stringify(key)}`);
    this.name = 'LockTimeoutError';
  }
}

const LOCK_NAMESPACE = 'interlingua:session-lock:';

export async function openStoreLock(url: string, options: StoreLockOptions = {}): Promise<StoreLock | undefined> {
  const scheme = url.slice(0, Math.max(url.indexOf(':'), 0)).toLowerCase();
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (scheme === 'postgres' || scheme === 'postgresql') return postgresLock(url, timeoutMs);
  if (scheme === 'redis' || scheme === 'rediss') return redisLock(url, timeoutMs, options.ttlMs ?? 30_000);
  return undefined;
}

async function postgresLock(url: string, timeoutMs: number): Promise<StoreLock> {
  const u = new URL(url);
  for (const k of ['expiryDays', 'schema']) u.searchParams.delete(k);
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    throw new UsageError('a postgres:// store needs the pg package');
  }
  const pool = new pg.Pool({ connectionString: u.toString(), max: 10 });
  return {
    kind: 'postgres',
    async acquire(key) {
      const client = await pool.connect();
      try {
        // lock_timeout bounds the wait on the server; the lock itself outlives the statement.
        await client.query(`SET lock_timeout = ${Math.floor(timeoutMs)}`);
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [LOCK_NAMESPACE + key]);
      } catch (err) {
        client.release();
        if ((err as { code?: string }).code === '55P03') throw new LockTimeoutError(key, timeoutMs);
        throw err;
      }
      return async () => {
        try {
          await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [LOCK_NAMESPACE + key]);
          client.release();
        } catch (err) {
          // A connection that cannot unlock is destroyed, which frees the lock on the server.
          client.release(err as Error);
        }
      };
    },
    close: () => pool.end(),
  };
}

const RELEASE_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

async function redisLock(url: string, timeoutMs: number, ttlMs: number): Promise<StoreLock> {
  const u = new URL(url);
  const prefix = u.searchParams.get('prefix') ?? 'interlingua:memory:';
  u.search = '';
  let Redis: typeof import('ioredis').Redis;
  try {
    Redis = (await import('ioredis')).Redis;
  } catch {
    throw new UsageError('a redis:// store needs the ioredis package');
  }
  const client = new Redis(u.toString(), { lazyConnect: false, maxRetriesPerRequest: 3 });
  return {
    kind: 'redis',
    async acquire(key) {
      const k = `${prefix}lock:${key}`;
      const token = randomBytes(12).toString('hex');
      const deadline = Date.now() + timeoutMs;
      let wait = 2;
      for (;;) {
        if ((await client.set(k, token, 'PX', ttlMs, 'NX')) === 'OK') break;
        if (Date.now() >= deadline) throw new LockTimeoutError(key, timeoutMs);
        await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
        wait = Math.min(wait * 2, 50);
      }
      const renew = setInterval(() => void client.eval(RENEW_LUA, 1, k, token, String(ttlMs)).catch(() => undefined), Math.max(Math.floor(ttlMs / 3), 10));
      renew.unref();
      return async () => {
        clearInterval(renew);
        await client.eval(RELEASE_LUA, 1, k, token);
      };
    },
    close: async () => {
      await client.quit();
    },
  };
}
