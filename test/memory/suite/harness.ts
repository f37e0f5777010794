/** Shared plumbing for the conformance parts: a settable clock and a store on fresh storage. */
import { onTestFinished } from 'vitest';
import type { EventStore, StoreOptions } from '../../../src/memory/index.js';
import type { BackendUnderTest, Storage } from '../conformance.js';

/** 2026-01-15T10:00:00.000Z */
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0, 0);
export const DAY = 86_400_000;

export interface Clock {
  now: () => number;
  set(t: number): void;
  advance(ms: number): void;
}

export function clock(start = T0): Clock {
  let t = start;
  return { now: () => t, set: (v) => (t = v), advance: (ms) => (t += ms) };
}

export interface Fixture {
  storage: Storage;
  store: EventStore;
  clock: Clock;
}

/** Fresh storage and a store on it with an injected clock; both closed when the test ends. */
export async function fresh(backend: BackendUnderTest, options: Omit<StoreOptions, 'now'> = {}): Promise<Fixture> {
  const storage = await backend.storage();
  const c = clock();
  const store = await storage.open({ ...options, now: c.now });
  onTestFinished(async () => {
    await store.close();
    await storage.dispose();
  });
  return { storage, store, clock: c };
}
