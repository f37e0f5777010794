/** Event expiry: 7 days by default, 7-365 configurable, counted per event from when it was written. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { assistant, labels, turnLabels, user } from '../events.js';
import { DAY, fresh, T0 } from './harness.js';

export function expirySuite(backend: BackendUnderTest): void {
  describe('expiry', () => {
    it('an event is gone 7 days after it was written: not returned by any read, then not kept', async () => {
      const { store, storage, clock } = await fresh(backend);
      expect(store.expiryDays).toBe(7);
      const [old] = await store.appendEvents('alice', 's', [user('old-u'), assistant('old-a')]);
      clock.advance(3 * DAY);
      await store.appendEvents('alice', 's', [user('new-u')]);
      await store.appendEvents('bob', 'b', [user('bob')]);

      clock.set(T0 + 7 * DAY - 1);
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['old-u', 'old-a', 'new-u']);

      clock.set(T0 + 7 * DAY);
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['new-u']);
      expect(labels((await store.listEvents('alice', 's', { chronological: false })).events)).toEqual(['new-u']);
      expect(await store.getEvent('alice', 's', old!.eventId)).toBeUndefined();
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([['new-u']]);
      expect(await storage.stored()).toBe(4);
      expect(await store.purgeExpired()).toBe(2);
      expect(await storage.stored()).toBe(2);
      expect(await store.purgeExpired()).toBe(0);

      clock.set(T0 + 10 * DAY);
      expect(await store.listSessions('alice')).toEqual([]);
      expect(await store.listActors()).toEqual([]);
      expect(await store.deleteSession('alice', 's')).toBe(0);
    });

    it('appending sweeps expired events out without being asked', async () => {
      const { store, storage, clock } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('a'), user('b')]);
      await store.appendEvents('bob', 't', [user('c')]);
      clock.advance(8 * DAY);
      await store.appendEvents('carol', 'u', [user('d')]);
      expect(await storage.stored()).toBe(1);
      // The session's sequence starts again: nothing of the old one is kept.
      const [again] = await store.appendEvents('alice', 's', [user('e')]);
      expect(again?.sequence).toBe(1);
    });

    it('expiryDays is configurable from 7 to 365 days and applies to events written under it', async () => {
      const { store, clock } = await fresh(backend, { expiryDays: 30 });
      expect(store.expiryDays).toBe(30);
      await store.appendEvents('alice', 's', [user('kept a month')]);
      clock.advance(29 * DAY);
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['kept a month']);
      clock.advance(DAY);
      expect((await store.listEvents('alice', 's')).events).toEqual([]);

      const long = await fresh(backend, { expiryDays: 365 });
      await long.store.appendEvents('alice', 's', [user('a year')]);
      long.clock.advance(365 * DAY - 1);
      expect((await long.store.listEvents('alice', 's')).events.length).toBe(1);
    });

    it('expiryDays outside 7-365 is refused', async () => {
      for (const expiryDays of [6, 366, 0, 7.5, -7]) {
        const storage = await backend.storage();
        try {
          await expect(storage.open({ expiryDays })).rejects.toBeInstanceOf(UsageError);
        } finally {
          await storage.dispose();
        }
      }
    });
  });
}
