/**
 * One turn at a time per session. In one process a keyed mutex queues the turns of a session (other
 * sessions run freely). Hosts that share a store across processes also take the store's own lock
 * (memory/locks.ts: a PostgreSQL advisory lock, a Redis lock with expiry) while they hold the local
 * one, so a turn's memory read and writes never interleave with another host's turn of that session.
 */
import type { StoreLock } from '../memory/locks.js';

export type Release = () => Promise<void>;

export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits until every earlier holder of `key` has released it; the returned function releases it. */
  async acquire(key: string): Promise<() => void> {
    const before = this.tails.get(key);
    let done!: () => void;
    const mine = new Promise<void>((r) => (done = r));
    const tail = before === undefined ? mine : before.then(() => mine);
    this.tails.set(key, tail);
    if (before !== undefined) await before;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }

  /** Keys held or waited for. */
  get size(): number {
    return this.tails.size;
  }
}

export class SessionLocks {
  private readonly local = new KeyedMutex();

  constructor(private readonly store: StoreLock | undefined) {}

  /** The session's lock: the local one, then the store's. */
  async acquire(actorId: string, sessionId: string): Promise<Release> {
    // A sessionId holds no '/', so the last '/' parts the two (actor ids may hold '/').
    const key = `${actorId}/${sessionId}`;
    const releaseLocal = await this.local.acquire(key);
    if (this.store === undefined) return async () => releaseLocal();
    let releaseStore: Release;
    try {
      releaseStore = await this.store.acquire(key);
    } catch (err) {
      releaseLocal();
      throw err;
    }
    return async () => {
      try {
        await releaseStore();
      } finally {
        releaseLocal();
      }
    };
  }

  async run<T>(actorId: string, sessionId: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(actorId, sessionId);
    try {
      return await fn();
    } finally {
      await release();
    }
  }

  get held(): number {
    return this.local.size;
  }

  async close(): Promise<void> {
    await this.store?.close();
  }
}
