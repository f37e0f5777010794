/**
 * 32 writers at once, to one session and to 32 sessions: nothing lost, no sequence given twice,
 * each writer's events in its own order. Where the backend has connections, the writers share
 * several (4) of them, so appends really meet in the storage, not only in one store object; a
 * backend that allows one writer per session (oneWriterPerSession) gets one store for the shared session.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EventStore, StoredEvent } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { assistant, user } from '../events.js';

const WRITERS = 32;
const EACH = 20;

async function stores(backend: BackendUnderTest, oneSession: boolean): Promise<EventStore[]> {
  const storage = await backend.storage();
  const shared = storage.connections && !(oneSession && storage.oneWriterPerSession);
  const open = await Promise.all(Array.from({ length: shared ? 4 : 1 }, () => storage.open()));
  onTestFinished(async () => {
    for (const s of open) await s.close();
    await storage.dispose();
  });
  return open;
}

/** Writer w appends EACH events one by one (some in pairs), tagging each with writer and index. */
async function writer(store: EventStore, w: number, sessionId: string): Promise<void> {
  const tag = (i: number) => ({ metadata: { writer: { stringValue: String(w) }, i: { stringValue: String(i) } } });
  for (let i = 0; i < EACH; ) {
    if (i % 5 === 3 && i + 1 < EACH) {
      await store.appendEvents('alice', sessionId, [{ ...user(`w${w}-${i}`), ...tag(i) }, { ...assistant(`w${w}-${i + 1}`), ...tag(i + 1) }]);
      i += 2;
    } else {
      await store.appendEvents('alice', sessionId, [{ ...user(`w${w}-${i}`), ...tag(i) }]);
      i += 1;
    }
    // Let the other writers in between appends.
    await new Promise((r) => setImmediate(r));
  }
}

async function everything(store: EventStore, sessionId: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await store.listEvents('alice', sessionId, nextToken === undefined ? {} : { nextToken });
    out.push(...page.events);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return out;
}

function perWriter(events: StoredEvent[]): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const e of events) {
    const w = e.metadata?.['writer']?.stringValue ?? '?';
    by.set(w, [...(by.get(w) ?? []), Number(e.metadata?.['i']?.stringValue)]);
  }
  return by;
}

export function concurrencySuite(backend: BackendUnderTest): void {
  describe('concurrent writers', () => {
    it(`${WRITERS} writers to one session: all ${WRITERS * EACH} events, sequences 1..n, each writer in order`, async () => {
      const open = await stores(backend, true);
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(open[w % open.length]!, w, 'busy')));
      const events = await everything(open[0]!, 'busy');
      expect(events.length).toBe(WRITERS * EACH);
      expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: WRITERS * EACH }, (_, i) => i + 1));
      const by = perWriter(events);
      expect(by.size).toBe(WRITERS);
      for (const order of by.values()) expect(order).toEqual(Array.from({ length: EACH }, (_, i) => i));
      // Writers really interleaved: the session is not one writer after another.
      const runs = events.filter((e, i) => i > 0 && e.metadata?.['writer']?.stringValue !== events[i - 1]?.metadata?.['writer']?.stringValue).length;
      expect(runs).toBeGreaterThan(WRITERS);
    });

    it(`${WRITERS} writers to ${WRITERS} sessions: each session whole and in order`, async () => {
      const open = await stores(backend, false);
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(open[w % open.length]!, w, `session-${w}`)));
      for (let w = 0; w < WRITERS; w++) {
        const events = await everything(open[(w + 1) % open.length]!, `session-${w}`);
        expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: EACH }, (_, i) => i + 1));
        expect([...perWriter(events)]).toEqual([[String(w), Array.from({ length: EACH }, (_, i) => i)]]);
      }
      expect((await open[0]!.listSessions('alice')).length).toBe(WRITERS);
    });
  });
}
