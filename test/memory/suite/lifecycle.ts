/** Sessions and actors, isolation, deleting events and sessions, closing, and restarts. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { assistant, labels, user } from '../events.js';
import { clock, fresh, T0 } from './harness.js';

const iso = (t: number): string => new Date(t).toISOString();

export function lifecycleSuite(backend: BackendUnderTest): void {
  describe('sessions, actors, deletes', () => {
    it('lists sessions of an actor (by id, with when they began) and the actors that hold events', async () => {
      const { store, clock: c } = await fresh(backend);
      expect(await store.listActors()).toEqual([]);
      await store.appendEvents('bob', 'zeta', [user('b1')]);
      c.advance(1000);
      await store.appendEvents('alice', 'beta', [user('a1')]);
      c.advance(1000);
      await store.appendEvents('alice', 'alpha', [user('a2')]);
      await store.appendEvents('alice', 'beta', [assistant('a3')]);
      await store.appendEvents('tenant:7/user_1', 'zeta', [user('c1')]);
      expect(await store.listSessions('alice')).toEqual([
        { actorId: 'alice', sessionId: 'alpha', createdAt: iso(T0 + 2000) },
        { actorId: 'alice', sessionId: 'beta', createdAt: iso(T0 + 1000) },
      ]);
      expect(await store.listSessions('bob')).toEqual([{ actorId: 'bob', sessionId: 'zeta', createdAt: iso(T0) }]);
      expect(await store.listSessions('carol')).toEqual([]);
      expect(await store.listActors()).toEqual([{ actorId: 'alice' }, { actorId: 'bob' }, { actorId: 'tenant:7/user_1' }]);
    });

    it('sessions are isolated: same session id under two actors, two sessions of one actor', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 'shared', [user('alice-1')]);
      await store.appendEvents('bob', 'shared', [user('bob-1'), assistant('bob-2')]);
      await store.appendEvents('alice', 'other', [user('alice-other')]);
      await store.appendEvents('alice', 'shared', [assistant('alice-2')]);
      expect(labels((await store.listEvents('alice', 'shared')).events)).toEqual(['alice-1', 'alice-2']);
      expect(labels((await store.listEvents('bob', 'shared')).events)).toEqual(['bob-1', 'bob-2']);
      expect(labels((await store.listEvents('alice', 'other')).events)).toEqual(['alice-other']);
      // Sequences are per session.
      expect((await store.listEvents('alice', 'shared')).events.map((e) => e.sequence)).toEqual([1, 2]);
      expect((await store.listEvents('alice', 'other')).events.map((e) => e.sequence)).toEqual([1]);
      expect(await store.deleteSession('bob', 'shared')).toBe(2);
      expect(labels((await store.listEvents('alice', 'shared')).events)).toEqual(['alice-1', 'alice-2']);
      expect(await store.listActors()).toEqual([{ actorId: 'alice' }]);
    });

    it('deleteEvent removes one event; deleting the last one ends the session', async () => {
      const { store } = await fresh(backend);
      const [a, b] = await store.appendEvents('alice', 's', [user('one'), assistant('two')]);
      expect(await store.deleteEvent('alice', 's', a!.eventId)).toBe(true);
      expect(await store.deleteEvent('alice', 's', a!.eventId)).toBe(false);
      expect(await store.deleteEvent('bob', 's', b!.eventId)).toBe(false);
      expect(await store.getEvent('alice', 's', a!.eventId)).toBeUndefined();
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['two']);
      expect(await store.deleteEvent('alice', 's', b!.eventId)).toBe(true);
      expect(await store.listSessions('alice')).toEqual([]);
      expect(await store.listActors()).toEqual([]);
    });

    it('deleteSession removes every event of the session and only those; the session can start again', async () => {
      const { store, storage } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('one'), assistant('two'), user('three')]);
      await store.appendEvents('alice', 'keep', [user('kept')]);
      expect(await store.deleteSession('alice', 's')).toBe(3);
      expect(await store.deleteSession('alice', 's')).toBe(0);
      expect(await store.listEvents('alice', 's')).toEqual({ events: [] });
      expect(await store.lastTurns('alice', 's')).toEqual([]);
      expect(await store.listSessions('alice')).toEqual([{ actorId: 'alice', sessionId: 'keep', createdAt: iso(T0) }]);
      expect(await storage.stored()).toBe(1);
      await store.appendEvents('alice', 's', [user('again')]);
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['again']);
    });

    it('a closed store refuses work with a UsageError', async () => {
      const { store } = await fresh(backend);
      await store.close();
      await expect(store.listEvents('alice', 's')).rejects.toBeInstanceOf(UsageError);
      await expect(store.appendEvents('alice', 's', [user('x')])).rejects.toThrow(/closed/);
      await store.close();
    });
  });

  describe('restart', () => {
    it('a store opened after the first one closed holds everything, continues its sequence and its tokens', async (ctx) => {
      const storage = await backend.storage();
      try {
        if (!storage.durable) ctx.skip();
        const c = clock();
        const first = await storage.open({ now: c.now });
        await first.appendEvents('alice', 's', [user('u1'), assistant('a1'), user('u2')]);
        await first.appendEvents('bob', 't', [user('b1')]);
        const page = await first.listEvents('alice', 's', { maxResults: 1 });
        const before = (await first.listEvents('alice', 's')).events;
        await first.close();

        const second = await storage.open({ now: c.now });
        expect((await second.listEvents('alice', 's')).events).toEqual(before);
        expect(await second.getEvent('alice', 's', before[1]!.eventId)).toEqual(before[1]);
        const [next] = await second.appendEvents('alice', 's', [assistant('a2')]);
        expect(next?.sequence).toBe(4);
        expect(labels((await second.listEvents('alice', 's', { maxResults: 10, nextToken: page.nextToken! })).events)).toEqual(['a1', 'u2', 'a2']);
        expect(await second.listActors()).toEqual([{ actorId: 'alice' }, { actorId: 'bob' }]);
        expect(await second.listSessions('alice')).toEqual([{ actorId: 'alice', sessionId: 's', createdAt: iso(T0) }]);
        await second.close();
      } finally {
        await storage.dispose();
      }
    });
  });
}
