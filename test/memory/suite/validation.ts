/**
 * Identifiers and events are checked as AgentCore checks them (reference §1.1, §1.2, §1.5), the
 * same on every backend: a ValidationError whose issue names the field, and nothing written.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError, type EventStore } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { conv, user } from '../events.js';
import { fresh } from './harness.js';

const GOOD_ACTORS = ['a', 'A9', 'user-1_x/y', 'tenant:7/user_1', 'a:b:c', '9', 'x'.repeat(255), 'a/', 'a-'];
const BAD_ACTORS = ['', ' a', 'a b', '-a', '_a', '/a', ':a', 'a:', 'a::b', 'a.b', 'x'.repeat(256), 'é', 'a\n'];
const GOOD_SESSIONS = ['s', 'S-1_2', 'alice_agent_default', '0', 'x'.repeat(100), 'a-'];
const BAD_SESSIONS = ['', '-s', '_s', 's/1', 's:1', 's.1', 's 1', 'x'.repeat(101)];
const BAD_EVENT_IDS = ['', '123', '#abc', '123#', '123#xyz', 'abc#123', '12 3#ab', '0000001752235548000#97f30a6g'];

async function refused(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
}

/** Every operation that takes (actorId, sessionId), called with these. */
const ops = (store: EventStore, actorId: string, sessionId: string): Promise<unknown>[] => [
  store.appendEvents(actorId, sessionId, [user('x')]),
  store.listEvents(actorId, sessionId),
  store.lastTurns(actorId, sessionId),
  store.getEvent(actorId, sessionId, '0000001752235548000#97f30a6b'),
  store.deleteEvent(actorId, sessionId, '0000001752235548000#97f30a6b'),
  store.deleteSession(actorId, sessionId),
];

export function validationSuite(backend: BackendUnderTest): void {
  describe('identifiers', () => {
    it('accepts every identifier AgentCore accepts', async () => {
      const { store } = await fresh(backend);
      for (const a of GOOD_ACTORS) await store.appendEvents(a, 's', [user(a.slice(0, 10))]);
      for (const s of GOOD_SESSIONS) await store.appendEvents('alice', s, [user(s.slice(0, 10))]);
      expect((await store.listActors()).length).toBe(GOOD_ACTORS.length + 1); // and alice
      expect((await store.listSessions('alice')).length).toBe(GOOD_SESSIONS.length);
    });

    it('refuses bad actorIds, sessionIds and eventIds in every operation, naming the field, writing nothing', async () => {
      const { store, storage } = await fresh(backend);
      for (const a of BAD_ACTORS) {
        for (const p of ops(store, a, 's')) expect((await refused(p)).issues[0]?.path).toEqual(['actorId']);
        expect((await refused(store.listSessions(a))).issues[0]?.path).toEqual(['actorId']);
      }
      for (const s of BAD_SESSIONS) {
        for (const p of ops(store, 'alice', s)) expect((await refused(p)).issues[0]?.path).toEqual(['sessionId']);
      }
      for (const id of BAD_EVENT_IDS) {
        expect((await refused(store.getEvent('alice', 's', id))).issues[0]?.path).toEqual(['eventId']);
        expect((await refused(store.deleteEvent('alice', 's', id))).issues[0]?.path).toEqual(['eventId']);
      }
      const nonString = await refused(store.listEvents(42 as unknown as string, 's'));
      expect(nonString.issues[0]).toMatchObject({ code: 'invalid_identifier', path: ['actorId'] });
      const long = await refused(store.appendEvents('x'.repeat(256), 's', []));
      expect(long.message).toBe('Invalid input: actorId: must be at most 255 characters long (got 256)');
      expect(await storage.stored()).toBe(0);
      expect(await store.listActors()).toEqual([]);
    });
  });

  describe('events', () => {
    const cases: [string, unknown, (string | number)[]][] = [
      ['101 payloads', { payload: Array.from({ length: 101 }, () => conv('USER', 'x')) }, ['events', 0, 'payload']],
      ['empty text', { payload: [conv('USER', '')] }, ['events', 0, 'payload', 0, 'conversational', 'content', 'text']],
      ['100,001 characters', { payload: [conv('USER', 'x'.repeat(100_001))] }, ['events', 0, 'payload', 0, 'conversational', 'content', 'text']],
      ['a lowercase role', { payload: [{ conversational: { content: { text: 'x' }, role: 'user' } }] }, ['events', 0, 'payload', 0, 'conversational', 'role']],
      ['both kinds in one item', { payload: [{ ...conv('USER', 'x'), blob: 'y' }] }, ['events', 0, 'payload', 0]],
      ['an empty item', { payload: [{}] }, ['events', 0, 'payload', 0]],
      ['an extra content field', { payload: [{ conversational: { content: { text: 'x', type: 'text' }, role: 'USER' } }] }, ['events', 0, 'payload', 0, 'conversational', 'content', 'type']],
      ['no payload', { metadata: {} }, ['events', 0, 'payload']],
      ['a field the store assigns', { ...user('x'), eventId: '1#a' }, ['events', 0, 'eventId']],
      ['16 metadata entries', { ...user('x'), metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, { stringValue: 'v' }])) }, ['events', 0, 'metadata']],
      ['JSON in a metadata value', { ...user('x'), metadata: { k: { stringValue: '{"a":1}' } } }, ['events', 0, 'metadata', 'k', 'stringValue']],
      ['a 257-character metadata value', { ...user('x'), metadata: { k: { stringValue: 'v'.repeat(257) } } }, ['events', 0, 'metadata', 'k', 'stringValue']],
      ['a bare metadata string', { ...user('x'), metadata: { k: 'v' } }, ['events', 0, 'metadata', 'k']],
      ['a metadata key with a comma', { ...user('x'), metadata: { 'a,b': { stringValue: 'v' } } }, ['events', 0, 'metadata', 'a,b']],
      ['an undefined blob field', { payload: [{ blob: { a: undefined } }] }, ['events', 0, 'payload', 0, 'blob', 'a']],
      ['NaN in a blob', { payload: [{ blob: [1, Number.NaN] }] }, ['events', 0, 'payload', 0, 'blob', 1]],
      ['a Date in a blob', { payload: [{ blob: { at: new Date(0) } }] }, ['events', 0, 'payload', 0, 'blob', 'at']],
      ['a timestamp without a zone', { ...user('x'), eventTimestamp: '2026-01-15T10:00:00' }, ['events', 0, 'eventTimestamp']],
      ['a timestamp before 1970', { ...user('x'), eventTimestamp: -1 }, ['events', 0, 'eventTimestamp']],
    ];

    for (const [name, event, path] of cases) {
      it(`refuses ${name} at ${path.join('.')}`, async () => {
        const { store, storage } = await fresh(backend);
        const err = await refused(store.appendEvents('alice', 's', [event as never]));
        expect(err.issues[0]?.path).toEqual(path);
        expect(await storage.stored()).toBe(0);
      });
    }

    it('refuses a blob that refers to itself', async () => {
      const { store } = await fresh(backend);
      const blob: Record<string, unknown> = {};
      blob['self'] = blob;
      const err = await refused(store.appendEvents('alice', 's', [{ payload: [{ blob: blob as never }] }]));
      expect(err.issues[0]?.path).toEqual(['events', 0, 'payload', 0, 'blob', 'self']);
    });

    it('accepts the limits themselves: 100 payloads, 100,000 characters, 15 metadata entries of 128/256 characters', async () => {
      const { store, storage } = await fresh(backend);
      // A backend that keeps metadata entries for itself leaves that many fewer, and says so for one more.
      const entries = 15 - (storage.reservedMetadataEntries ?? 0);
      const metadataOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${i}`.padEnd(128, 'k'), { stringValue: 'v'.repeat(256) }]));
      const big = { payload: [conv('USER', '🙂'.repeat(100_000)), ...Array.from({ length: 99 }, () => conv('ASSISTANT', 'x'))], metadata: metadataOf(entries) };
      const [stored] = await store.appendEvents('alice', 's', [big]);
      const back = await store.getEvent('alice', 's', stored!.eventId);
      expect(back?.payload).toEqual(big.payload);
      expect(back?.metadata).toEqual(big.metadata);
      if (entries < 15) {
        const err = await refused(store.appendEvents('alice', 's', [{ ...big, metadata: metadataOf(entries + 1) }]));
        expect(err.issues[0]?.path).toEqual(['events', 0, 'metadata']);
      }
    });

    it('one bad event refuses the whole batch', async () => {
      const { store, storage } = await fresh(backend);
      const err = await refused(store.appendEvents('alice', 's', [user('fine'), user('fine too'), { payload: [conv('USER', '')] }]));
      expect(err.issues[0]?.path.slice(0, 2)).toEqual(['events', 2]);
      expect(await storage.stored()).toBe(0);
      expect(await store.listSessions('alice')).toEqual([]);
    });
  });
}
