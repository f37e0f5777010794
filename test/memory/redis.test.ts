/**
 * The redis:// backend against the conformance suite, on the real server (127.0.0.1:6379, database
 * 15; MEMORY_TEST_REDIS_URL overrides), each storage under a random key prefix that is deleted after.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory, UsageError } from '../../src/memory/index.js';
import { conformance, type Storage } from './conformance.js';
import { user } from './events.js';
import { checkKilledWriter, checkProcessWriters } from './processes.js';

const REDIS_URL = process.env['MEMORY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';
const admin = new Redis(REDIS_URL, { lazyConnect: true });

let counter = 0;
const prefixes: string[] = [];
function freshPrefix(): string {
  const p = `il_test:${process.pid}:${++counter}:${Math.random().toString(36).slice(2, 8)}:`;
  prefixes.push(p);
  return p;
}
const storeUrl = (prefix: string): string => `${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;

async function keysOf(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
    out.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return out;
}

async function dropPrefix(prefix: string): Promise<void> {
  const keys = await keysOf(prefix);
  if (keys.length > 0) await admin.del(...keys);
}

async function redisStorage(): Promise<Storage> {
  if (admin.status === 'wait') await admin.connect();
  const prefix = freshPrefix();
  return {
    open: (options) => openMemory(storeUrl(prefix), options),
    // Counted from the event hashes themselves, not from the backend's expiry index.
    stored: async () => {
      let n = 0;
      for (const k of await keysOf(`${prefix}e|`)) n += await admin.hlen(k);
      return n;
    },
    durable: true,
    connections: true,
    dispose: () => dropPrefix(prefix),
  };
}

conformance({ name: 'redis:', storage: redisStorage });

afterAll(async () => {
  for (const p of prefixes) await dropPrefix(p);
  await admin.quit();
});

describe('redis: across processes', () => {
  it('4 processes of 8 writers each append to one session at once: nothing lost, each writer in order', async () => {
    await checkProcessWriters(storeUrl(freshPrefix()));
  });

  it('a process killed in the middle of appends loses no acknowledged event', async () => {
    await checkKilledWriter(storeUrl(freshPrefix()));
  });
});

describe('redis: the keys', () => {
  it('keeps every key under its prefix, and a deleted session leaves only the shared indexes', async () => {
    if (admin.status === 'wait') await admin.connect();
    const prefix = freshPrefix();
    const other = freshPrefix();
    const store = await openMemory(storeUrl(prefix));
    const neighbour = await openMemory(storeUrl(other));
    await store.appendEvents('team:alice/x', 's-1', [user('x'), user('y')]);
    await neighbour.appendEvents('bob', 's', [user('z')]);
    expect((await keysOf(prefix)).sort()).toEqual(
      ['actors', 'as|team:alice/x', 'e|team:alice/x|s-1', 'meta', 'o|team:alice/x|s-1', 's|team:alice/x|s-1', 'sx', 'x'].map((k) => prefix + k).sort(),
    );
    expect(await store.listActors()).toEqual([{ actorId: 'team:alice/x' }]);
    expect(await store.deleteSession('team:alice/x', 's-1')).toBe(2);
    expect(await keysOf(prefix)).toEqual([`${prefix}meta`]);
    expect((await neighbour.listEvents('bob', 's')).events.length).toBe(1);
    await store.close();
    await neighbour.close();
  });

  it('a newer store version, a bad prefix, an unknown parameter, an unreachable server: clear UsageErrors without the password', async () => {
    if (admin.status === 'wait') await admin.connect();
    const prefix = freshPrefix();
    await (await openMemory(storeUrl(prefix))).close();
    await admin.hset(`${prefix}meta`, 'version', '2');
    await expect(openMemory(storeUrl(prefix))).rejects.toThrow(/memory schema version 2, newer than this interlingua reads \(1\)/);
    await expect(openMemory(`${REDIS_URL}?prefix=has%20space`)).rejects.toThrow(/prefix must be/);
    await expect(openMemory(`${REDIS_URL}?ttl=3`)).rejects.toThrow(/unknown parameter 'ttl'/);
    const err = await openMemory('redis://someone:secret-pw@127.0.0.1:1/0').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/cannot use redis:\/\/someone:\*\*\*@127\.0\.0\.1:1\/0/);
    expect((err as Error).message).not.toContain('secret-pw');
  });
});
