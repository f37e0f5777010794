/** Appending and reading events back exactly; getEvent; ordering with equal and explicit timestamps. */
import { describe, expect, it } from 'vitest';
import { checkId, type NewEvent } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { assistant, camunda, conv, DOCUMENT_BLOB, labels, user } from '../events.js';
import { fresh, T0 } from './harness.js';

export function eventsSuite(backend: BackendUnderTest): void {
  describe('append and read back', () => {
    it('assigns AgentCore-form eventIds, sequences from 1 and the clock time, and returns the events as given', async () => {
      const { store } = await fresh(backend);
      const input: NewEvent[] = [
        camunda.user('Hello world'),
        { payload: [conv('ASSISTANT', 'Here is the answer'), { blob: { zeta: 1, alpha: [1, 'two', null, { three: true, b: 2, a: 1 }], 'key with spaces': 0.5 } }], metadata: { seq: { stringValue: '1' }, 'a b:c/d=e+f@g-h_i.j': { stringValue: '' } } },
        { payload: [] },
        { payload: [{ blob: DOCUMENT_BLOB }, { blob: 'plain text blob, not JSON' }, { blob: 42 }, { blob: null }] },
        { payload: [conv('USER', 'émoji 🙂 and 中文 and "quotes" \\ and \n newline')] },
      ];
      const stored = await store.appendEvents('alice', 'chat-1', input);
      expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
      for (const [i, e] of stored.entries()) {
        expect(checkId('eventId', e.eventId)).toBe(e.eventId);
        expect(e.eventId.startsWith(`${String(T0).padStart(19, '0')}#`)).toBe(true);
        expect(e).toMatchObject({ actorId: 'alice', sessionId: 'chat-1', eventTimestamp: new Date(T0).toISOString() });
        expect(e.payload).toEqual(input[i]?.payload);
        expect(e.metadata).toEqual(input[i]?.metadata);
        // Byte for byte, key order included (a jsonb column would reorder keys).
        expect(JSON.stringify(e.payload)).toBe(JSON.stringify(input[i]?.payload));
      }
      expect(new Set(stored.map((e) => e.eventId)).size).toBe(5);
      const { events } = await store.listEvents('alice', 'chat-1');
      expect(events).toEqual(stored);
      expect(events.map((e) => JSON.stringify(e.payload))).toEqual(input.map((e) => JSON.stringify(e.payload)));
      // The metadata key is absent, not undefined, on events that had none.
      expect(Object.keys(events[0] ?? {})).not.toContain('metadata');
    });

    it('keeps its own copy: changing the input or a returned event changes nothing stored', async () => {
      const { store } = await fresh(backend);
      const event = { payload: [conv('USER', 'original'), { blob: { list: [1, 2] } }] } satisfies NewEvent;
      const [stored] = await store.appendEvents('alice', 's', [event]);
      event.payload[0] = conv('USER', 'changed');
      (stored?.payload as unknown[]).push({ blob: 'added' });
      const { events } = await store.listEvents('alice', 's');
      expect(events[0]?.payload).toEqual([conv('USER', 'original'), { blob: { list: [1, 2] } }]);
    });

    it('getEvent finds an event by id in its own session only', async () => {
      const { store } = await fresh(backend);
      const [a, b] = await store.appendEvents('alice', 's1', [user('one'), assistant('two')]);
      await store.appendEvents('alice', 's2', [user('other')]);
      expect(await store.getEvent('alice', 's1', b!.eventId)).toEqual(b);
      expect(await store.getEvent('alice', 's2', a!.eventId)).toBeUndefined();
      expect(await store.getEvent('bob', 's1', a!.eventId)).toBeUndefined();
      // Same position, other suffix: not this event.
      const forged = a!.eventId.slice(0, -1) + (a!.eventId.endsWith('0') ? '1' : '0');
      expect(await store.getEvent('alice', 's1', forged)).toBeUndefined();
      // A well-formed id this store never issued.
      expect(await store.getEvent('alice', 's1', '0000001752235548000#97f30a6b')).toBeUndefined();
    });

    it('an empty append writes nothing and creates no session', async () => {
      const { store } = await fresh(backend);
      expect(await store.appendEvents('alice', 's', [])).toEqual([]);
      expect(await store.listSessions('alice')).toEqual([]);
    });
  });

  describe('order', () => {
    it('equal timestamps keep append order, in one call and across calls', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('m0'), assistant('m1'), user('m2')]);
      for (let i = 3; i < 60; i++) await store.appendEvents('alice', 's', [i % 2 ? assistant(`m${i}`) : user(`m${i}`)]);
      const expected = Array.from({ length: 60 }, (_, i) => `m${i}`);
      const { events } = await store.listEvents('alice', 's');
      expect(labels(events)).toEqual(expected);
      expect(new Set(events.map((e) => e.eventTimestamp))).toEqual(new Set([new Date(T0).toISOString()]));
      expect(events.map((e) => e.sequence)).toEqual(expected.map((_, i) => i + 1));
      const newest = await store.listEvents('alice', 's', { chronological: false });
      expect(labels(newest.events)).toEqual([...expected].reverse());
    });

    it('a clock that goes back never puts an appended event before earlier ones', async () => {
      const { store, clock } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('first')]);
      clock.advance(-60_000);
      const [second] = await store.appendEvents('alice', 's', [assistant('second')]);
      expect(second?.eventTimestamp).toBe(new Date(T0).toISOString());
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['first', 'second']);
    });

    it('explicit timestamps (ISO, Date, epoch ms) are kept to the millisecond and sorted by; ties keep append order', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('now')]);
      const stored = await store.appendEvents('alice', 's', [
        { ...user('iso'), eventTimestamp: '2026-01-15T09:00:00.123456Z' },
        { ...user('date'), eventTimestamp: new Date(T0 - 7_200_000) },
        { ...user('ms'), eventTimestamp: T0 - 3_600_000 + 0.9 },
        { ...user('tie'), eventTimestamp: '2026-01-15T11:00:00.123+02:00' },
      ]);
      expect(stored.map((e) => e.eventTimestamp)).toEqual([
        '2026-01-15T09:00:00.123Z',
        '2026-01-15T08:00:00.000Z',
        '2026-01-15T09:00:00.000Z',
        '2026-01-15T09:00:00.123Z',
      ]);
      expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['date', 'ms', 'iso', 'tie', 'now']);
      // An event appended without a timestamp still comes last.
      await store.appendEvents('alice', 's', [assistant('after')]);
      const all = (await store.listEvents('alice', 's')).events;
      expect(labels(all).at(-1)).toBe('after');
    });
  });
}
