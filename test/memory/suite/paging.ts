/** ListEvents paging: page sizes, both directions, tokens that resume after changes, bad tokens. */
import { describe, expect, it } from 'vitest';
import { ValidationError, type EventStore, type StoredEvent } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { labels, user } from '../events.js';
import { fresh } from './harness.js';

async function fill(store: EventStore, n: number, from = 0): Promise<void> {
  const batch = Array.from({ length: n }, (_, i) => user(`e${from + i}`));
  for (let i = 0; i < batch.length; i += 50) await store.appendEvents('alice', 's', batch.slice(i, i + 50));
}

async function readAll(store: EventStore, chronological: boolean, maxResults: number): Promise<{ events: StoredEvent[]; pages: number[] }> {
  const events: StoredEvent[] = [];
  const pages: number[] = [];
  let nextToken: string | undefined;
  do {
    const page = await store.listEvents('alice', 's', nextToken === undefined ? { chronological, maxResults } : { chronological, maxResults, nextToken });
    events.push(...page.events);
    pages.push(page.events.length);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return { events, pages };
}

const names = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `e${from + i}`);

function expectInvalid(err: unknown, field: string): void {
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).issues[0]?.path).toEqual([field]);
}

export function pagingSuite(backend: BackendUnderTest): void {
  describe('paging', () => {
    it('pages of 100 by default, the last without a nextToken, in both directions', async () => {
      const { store } = await fresh(backend);
      await fill(store, 250);
      const up = await readAll(store, true, 100);
      expect(up.pages).toEqual([100, 100, 50]);
      expect(labels(up.events)).toEqual(names(0, 250));
      const down = await readAll(store, false, 100);
      expect(down.pages).toEqual([100, 100, 50]);
      expect(labels(down.events)).toEqual(names(0, 250).reverse());
      const first = await store.listEvents('alice', 's');
      expect(first.events.length).toBe(100);
      expect(first.nextToken).toBeTypeOf('string');
    });

    it('a full last page has no nextToken; odd page sizes cover everything once', async () => {
      const { store } = await fresh(backend);
      await fill(store, 100);
      expect((await store.listEvents('alice', 's')).nextToken).toBeUndefined();
      expect((await readAll(store, true, 7)).pages).toEqual([...Array(14).fill(7), 2]);
      expect(labels((await readAll(store, false, 1)).events)).toEqual(names(0, 100).reverse());
      expect(await store.listEvents('alice', 'empty')).toEqual({ events: [] });
    });

    it('a token resumes after events are appended or deleted since it was issued', async () => {
      const { store } = await fresh(backend);
      await fill(store, 30);
      const page1 = await store.listEvents('alice', 's', { maxResults: 10 });
      const back1 = await store.listEvents('alice', 's', { maxResults: 10, chronological: false });
      // The event each token points at goes away, and more arrive.
      expect(labels(page1.events).at(-1)).toBe('e9');
      expect(labels(back1.events).at(-1)).toBe('e20');
      expect(await store.deleteEvent('alice', 's', page1.events[9]!.eventId)).toBe(true);
      expect(await store.deleteEvent('alice', 's', back1.events[9]!.eventId)).toBe(true);
      await fill(store, 5, 30);
      const rest = await store.listEvents('alice', 's', { maxResults: 100, nextToken: page1.nextToken! });
      expect(labels(rest.events)).toEqual([...names(10, 20), ...names(21, 35)]);
      const olderRest = await store.listEvents('alice', 's', { maxResults: 100, chronological: false, nextToken: back1.nextToken! });
      expect(labels(olderRest.events)).toEqual([...names(0, 9), ...names(10, 20)].reverse());
    });

    it('tokens are refused when malformed, from another session, or for the other direction', async () => {
      const { store } = await fresh(backend);
      await fill(store, 5);
      await store.appendEvents('alice', 'other', [user('x'), user('y')]);
      const { nextToken } = await store.listEvents('alice', 's', { maxResults: 2 });
      const other = await store.listEvents('alice', 'other', { maxResults: 1 });
      for (const [opts, session] of [
        [{ nextToken: 'not-a-token' }, 's'],
        [{ nextToken: '' }, 's'],
        [{ nextToken: Buffer.from('{"v":2}').toString('base64url') }, 's'],
        [{ nextToken: other.nextToken! }, 's'],
        [{ nextToken: nextToken!, chronological: false }, 's'],
        [{ nextToken: nextToken! }, 'other'],
      ] as const) {
        const err = await store.listEvents('alice', session, opts).catch((e: unknown) => e);
        expectInvalid(err, 'nextToken');
      }
    });

    it('maxResults outside 1-100 is refused as AgentCore refuses it', async () => {
      const { store } = await fresh(backend);
      for (const maxResults of [0, 101, 1.5, -1, Number.NaN]) {
        expectInvalid(await store.listEvents('alice', 's', { maxResults }).catch((e: unknown) => e), 'maxResults');
      }
      expect((await store.listEvents('alice', 's', { maxResults: 1 })).events).toEqual([]);
    });
  });
}
