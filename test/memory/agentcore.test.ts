/**
 * agentcore:// against the conformance suite, through the real @aws-sdk/client-bedrock-agentcore
 * client talking to the local AgentCore Memory endpoint (test/support/agentcore-endpoint.ts), which
 * shares the test's clock; again with a service that lists in no order (the docs promise none);
 * then what is particular to AgentCore: what goes on the wire, how much is read, other tools'
 * events in the same memory, the memory's own expiry, and a session moved sqlite: -> agentcore:// -> out.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { openMemory, type Memory, type NewEvent, type StoredEvent } from '../../src/memory/index.js';
import { appendMessages, recallMessages } from '../../src/memory/messages.js';
import type { Message } from '../../src/model/message.js';
import type { Endpoint } from '../support/agentcore-endpoint.js';
import { agentcoreStorage, wireEvents, writeForeign } from './agentcore-storage.js';
import { conformance } from './conformance.js';
import { assistant, camunda, conv, labels, turnLabels, user } from './events.js';
import { eventsSuite } from './suite/events.js';
import { DAY, T0, clock } from './suite/harness.js';
import { pagingSuite } from './suite/paging.js';
import { turnsSuite } from './suite/turns.js';

conformance({ name: 'agentcore://', storage: () => agentcoreStorage() });

describe('agentcore:// when the service lists in no order: it reads the whole session and sorts', () => {
  const unordered = { name: 'agentcore:// unordered', storage: () => agentcoreStorage({ unordered: true }) };
  eventsSuite(unordered);
  pagingSuite(unordered);
  turnsSuite(unordered);
});

/** A store on a fresh endpoint with a settable clock; both closed when the test ends. */
async function fixture(options: { expiryDays?: number; serviceExpiryDays?: number } = {}): Promise<{ endpoint: Endpoint; store: Memory; clock: ReturnType<typeof clock> }> {
  const storage = await agentcoreStorage(options.serviceExpiryDays === undefined ? {} : { expiryDays: options.serviceExpiryDays });
  const c = clock();
  const store = (await storage.open(options.expiryDays === undefined ? { now: c.now } : { now: c.now, expiryDays: options.expiryDays })) as Memory;
  onTestFinished(async () => {
    await store.close();
    await storage.dispose();
  });
  return { endpoint: storage.endpoint, store, clock: c };
}

describe('agentcore:// on the wire', () => {
  it('stamps each event with its sequence and expiry; blobs go as text and come back exactly as appended', async () => {
    const { endpoint, store } = await fixture();
    const metaText = '{"blobType":"camunda.messageMetadata","version":1,"metadata":{},"properties":{"role":"USER"}}';
    const event: NewEvent = {
      payload: [
        { conversational: { role: 'USER', content: { text: 'role first, as the agentcore-memory format writes it' } } } as never,
        conv('USER', 'content first'),
        { blob: metaText },
        { blob: { zeta: [1, 'two', null], alpha: { nested: true } } },
        { blob: 42 },
        { blob: 'plain text' },
      ],
      metadata: { seq: { stringValue: '0' } },
    };
    const [stored] = await store.appendEvents('alice', 's', [event]);
    const [wire] = await wireEvents(endpoint, 'alice', 's');
    // What the service holds: every blob a string (JSON text for what was not one), our stamp beside the caller's metadata.
    expect(wire?.payload?.map((p) => p.blob)).toEqual([undefined, undefined, metaText, '{"zeta":[1,"two",null],"alpha":{"nested":true}}', '42', 'plain text']);
    expect(wire?.metadata).toEqual({ seq: { stringValue: '0' }, interlingua: { stringValue: `seq=1 expires=${new Date(T0 + 7 * DAY).toISOString()} json=18 roleFirst=1` } });
    // What the store gives back: the payload byte for byte (key order too), the caller's metadata only.
    for (const e of [stored, (await store.listEvents('alice', 's')).events[0], await store.getEvent('alice', 's', stored!.eventId)]) {
      expect(JSON.stringify(e?.payload)).toBe(JSON.stringify(event.payload));
      expect(e?.metadata).toEqual({ seq: { stringValue: '0' } });
      expect(e?.sequence).toBe(1);
    }
  });

  it("keeps the metadata key 'interlingua' for itself and says so", async () => {
    const { store } = await fixture();
    const err = await store.appendEvents('alice', 's', [{ ...user('x'), metadata: { interlingua: { stringValue: 'mine' } } }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', issues: [{ path: ['events', 0, 'metadata', 'interlingua'] }] });
  });
});

describe('agentcore:// messages with as much metadata as AgentCore takes', () => {
  it('15 metadata entries: 14 go to the event beside the stamp, one to the metadata blob (reported), and all come back', async () => {
    const { store } = await fixture();
    expect(store.metadataEntries).toBe(14);
    const metadata = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${String(i).padStart(2, '0')}`, `v${i}`]));
    const message: Message = { role: 'user', parts: [{ type: 'text', text: 'hello' }], ext: { 'agentcore-memory': { metadata } } };
    const put = await appendMessages(store, 'alice', 'm2', [message], false);
    expect(Object.keys(put.events[0]?.metadata ?? {})).toHaveLength(14);
    expect(put.losses.map((l) => l.code)).toEqual(['metadata-in-blob']);
    const [back] = (await recallMessages(store, 'alice', 'm2')).messages;
    expect(back?.ext?.['agentcore-memory']).toMatchObject({ metadata });
  });
});

/** n user/assistant events one millisecond apart. */
async function conversation(store: Memory, clk: ReturnType<typeof clock>, n: number): Promise<void> {
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) => ({ ...((i + j) % 2 ? assistant(`e${i + j}`) : user(`e${i + j}`)), eventTimestamp: clk.now() + i + j }));
    await store.appendEvents('alice', 's', batch);
  }
}

async function callsOf(endpoint: Endpoint, op: string, work: () => Promise<unknown>): Promise<number> {
  const before = endpoint.calls(op);
  await work();
  return endpoint.calls(op) - before;
}

describe('agentcore:// reads only what it needs', () => {
  it('lastTurns reads one short page for a few turns of a long session', async () => {
    const { endpoint, store, clock: clk } = await fixture();
    await conversation(store, clk, 500);
    expect(await callsOf(endpoint, 'ListEvents', async () => expect(turnLabels(await store.lastTurns('alice', 's', 1))).toEqual([['e498', 'e499']]))).toBe(1);
    expect(await callsOf(endpoint, 'ListEvents', async () => expect((await store.lastTurns('alice', 's', 10)).length).toBe(10))).toBe(1);
    // 60 turns are 120 events: two full pages.
    expect(await callsOf(endpoint, 'ListEvents', async () => expect((await store.lastTurns('alice', 's', 60)).length).toBe(60))).toBe(2);
  });

  it('newest-first pages resume where they stopped; oldest-first pages walk down from the newest', async () => {
    const { endpoint, store, clock: clk } = await fixture();
    await conversation(store, clk, 500);
    const perPage: number[] = [];
    const seen: StoredEvent[] = [];
    let nextToken: string | undefined;
    do {
      perPage.push(
        await callsOf(endpoint, 'ListEvents', async () => {
          const page = await store.listEvents('alice', 's', { chronological: false, ...(nextToken ? { nextToken } : {}) });
          seen.push(...page.events);
          nextToken = page.nextToken;
        }),
      );
    } while (nextToken);
    expect(labels(seen)).toEqual(Array.from({ length: 500 }, (_, i) => `e${499 - i}`));
    // Each page reads its own service page and the next one (to see that no event of the same millisecond follows).
    expect(perPage).toEqual([2, 2, 2, 2, 1]);
    // Oldest first, the first page needs every service page: the service only walks newest first.
    expect(await callsOf(endpoint, 'ListEvents', () => store.listEvents('alice', 's', { maxResults: 10 }))).toBe(5);
  });

  it('exportSession reads the session in one newest-first pass and gives it oldest first', async () => {
    const { endpoint, store, clock: clk } = await fixture();
    await conversation(store, clk, 500);
    let exported: StoredEvent[] = [];
    expect(await callsOf(endpoint, 'ListEvents', async () => void (exported = (await store.exportSession('alice', 's')).events))).toBe(9);
    expect(labels(exported)).toEqual(Array.from({ length: 500 }, (_, i) => `e${i}`));
    expect(exported.map((e) => e.sequence)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  it('a page token whose service token the service no longer takes still gives the right page (read from the newest)', async () => {
    const { store, clock: clk } = await fixture();
    await conversation(store, clk, 250);
    const first = await store.listEvents('alice', 's', { chronological: false });
    const token = JSON.parse(Buffer.from(first.nextToken!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(typeof token['k']).toBe('string');
    const stale = Buffer.from(JSON.stringify({ ...token, k: 'no-longer-valid' })).toString('base64url');
    const second = await store.listEvents('alice', 's', { chronological: false, nextToken: stale });
    expect(labels(second.events)).toEqual(Array.from({ length: 100 }, (_, i) => `e${149 - i}`));
  });
});

describe('agentcore:// and other tools in the same memory', () => {
  it("reads events it did not write: sequence 0, in time order with its own, their blobs as the service gives them, never expired by it", async () => {
    const { endpoint, store, clock: clk } = await fixture();
    const camundaUser = camunda.user('Hello from Camunda');
    await writeForeign(endpoint, { actorId: 'alice', sessionId: 's', eventTimestamp: new Date(T0 - 2000), payload: camundaUser.payload as never, metadata: { seq: { stringValue: '0' } } });
    await writeForeign(endpoint, { actorId: 'alice', sessionId: 's', eventTimestamp: new Date(T0 - 1000), payload: [conv('ASSISTANT', 'Hi Camunda')] });
    await store.appendEvents('alice', 's', [user('ours'), assistant('ours too')]);
    const { events } = await store.listEvents('alice', 's');
    expect(labels(events)).toEqual(['Hello from Camunda', 'Hi Camunda', 'ours', 'ours too']);
    expect(events.map((e) => e.sequence)).toEqual([0, 0, 1, 2]);
    expect(events[0]?.payload).toEqual(camundaUser.payload);
    expect(events[0]?.metadata).toEqual({ seq: { stringValue: '0' } });
    const recalled = await store.recall({ actorId: 'alice', sessionId: 's', format: 'openai-chat' });
    const said = (m: unknown) => (m as { role: string; content: { text: string }[] }).content.map((c) => `${(m as { role: string }).role}: ${c.text}`);
    expect(recalled.messages.flatMap(said)).toEqual(['user: Hello from Camunda', 'assistant: Hi Camunda', 'user: ours', 'assistant: ours too']);
    // An object blob written without JSON text comes back as the service renders it.
    await writeForeign(endpoint, { actorId: 'alice', sessionId: 'other', eventTimestamp: new Date(T0), payload: [{ blob: { a: 1, b: [2, 'x'] } }] });
    expect((await store.listEvents('alice', 'other')).events[0]?.payload).toEqual([{ blob: '{a=1, b=[2, x]}' }]);
    clk.advance(30 * DAY);
    expect(labels((await store.listEvents('alice', 's')).events)).toEqual(['Hello from Camunda', 'Hi Camunda']);
  });
});

describe('agentcore:// expiry', () => {
  it("the memory's own eventExpiryDuration ends events sooner than a longer expiryDays", async () => {
    const { endpoint, store, clock: clk } = await fixture({ expiryDays: 30, serviceExpiryDays: 7 });
    await store.appendEvents('alice', 's', [user('u')]);
    clk.advance(7 * DAY);
    expect((await store.listEvents('alice', 's')).events).toEqual([]);
    expect(endpoint.held()).toBe(0);
  });
});

describe('a session moved from sqlite: to agentcore:// and back', () => {
  it('is identical apart from eventIds: payloads byte for byte, metadata, timestamps, sequences', async () => {
    const sqlite = await openMemory('sqlite::memory:');
    const { store } = await fixture();
    try {
      await sqlite.append({
        actorId: 'alice',
        sessionId: 'trip',
        format: 'openai-chat',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris and Rome?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }, { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 24C' },
          { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'Rain, 18C' }] },
          { role: 'assistant', content: 'Paris: sunny. Rome: rain.' },
        ],
      });
      await sqlite.append({
        actorId: 'alice',
        sessionId: 'trip',
        format: 'anthropic-messages',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'Check the forecast.', signature: 'c2lnbmF0dXJl+/=' }, { type: 'text', text: 'Cloudy in both.' }] },
        ],
      });
      // Two events of one millisecond, after the messages (an import numbers events in time order).
      const tie = new Date(Date.now() + 60_000).toISOString();
      await sqlite.appendEvents('alice', 'trip', [
        { payload: [conv('USER', 'hand-written'), { blob: { object: ['kept', 1, null] } }], metadata: { source: { stringValue: 'import test' } }, eventTimestamp: tie },
        { payload: [{ blob: 'text blob' }], eventTimestamp: tie },
      ]);
      const out = await sqlite.exportSession('alice', 'trip');
      expect(out.events.length).toBe(9);
      await store.importSession(out);
      const back = await store.exportSession('alice', 'trip');
      const withoutIds = (events: StoredEvent[]) => JSON.stringify(events.map(({ eventId: _, ...rest }) => rest));
      expect(withoutIds(back.events)).toBe(withoutIds(out.events));
      expect(back.events.map((e) => e.eventId)).not.toEqual(out.events.map((e) => e.eventId));
    } finally {
      await sqlite.close();
    }
  });
});
