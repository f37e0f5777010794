/**
 * Concurrency: 50 parallel /chat calls on distinct sessions and 10 on one session lose no message,
 * and the one-session calls run one turn at a time (each sees every turn before it). Two host
 * processes sharing a PostgreSQL store, then a Redis store, serialize one session through the
 * store's lock. Also: continuity across a restart on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openMemory, type StoredEvent } from '../../src/memory/index.js';
import { recallUpstream } from './scripted-model.js';
import { startHost, tempDb } from './host-helpers.js';

const PG_URL = process.env['MEMORY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env['MEMORY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379/0';
const HOST_PROCESS = fileURLToPath(new URL('./host-process.ts', import.meta.url));

const roles = (events: StoredEvent[]) => events.map((e) => e.payload.flatMap((p) => ('conversational' in p ? [p.conversational.role] : ['?']))[0]);

/** Every turn complete and none interleaved: user, assistant, user, assistant ... */
function expectSerialTurns(events: StoredEvent[], turns: number): void {
  expect(events).toHaveLength(turns * 2);
  expect(roles(events)).toEqual(Array.from({ length: turns * 2 }, (_, i) => (i % 2 === 0 ? 'USER' : 'ASSISTANT')));
  // Each answer follows its own question.
  for (let i = 0; i < events.length; i += 2) {
    const q = JSON.stringify(events[i]?.payload[0]).match(/message \d+|[a-z]+ message \d+/)?.[0];
    expect(JSON.stringify(events[i + 1]?.payload[0])).toContain(q);
  }
}

async function allEvents(url: string, actor: string, session: string): Promise<StoredEvent[]> {
  const mem = await openMemory(url);
  try {
    const out: StoredEvent[] = [];
    let nextToken: string | undefined;
    do {
      const page = await mem.listEvents(actor, session, nextToken === undefined ? {} : { nextToken });
      out.push(...page.events);
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
    return out;
  } finally {
    await mem.close();
  }
}

function hostProcess(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', HOST_PROCESS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('concurrency in one host', () => {
  it('50 parallel sessions and 10 calls on one session lose no message; one session runs one turn at a time', async () => {
    const db = tempDb();
    const recall = recallUpstream();
    const slow = { ...recall, handler: async (req: Request) => { await new Promise((r) => setTimeout(r, 2)); return recall.handler(req); } };
    const h = await startHost({ store: `sqlite:${db}`, upstream: slow, agents: { memory: { turns: 20 } } });
    try {
      const distinct = Array.from({ length: 50 }, (_, i) => h.chat({ agent_id: 'assistant', user_id: `u${i}`, prompt: `message ${i}` }));
      const shared = Array.from({ length: 10 }, (_, i) => h.chat({ agent_id: 'assistant', user_id: 'shared', session_id: 'one', prompt: `shared message ${i}` }));
      const all = await Promise.all([...distinct, ...shared]);
      expect(all.every((r) => r.status === 200)).toBe(true);
      for (let i = 0; i < 50; i++) {
        const events = await allEvents(`sqlite:${db}`, `u${i}`, `u${i}_assistant_default`);
        expectSerialTurns(events, 1);
      }
      expectSerialTurns(await allEvents(`sqlite:${db}`, 'shared', 'one'), 10);
      // The shared session's model calls saw 0, 1, ... 9 earlier turns: each ran after the one before.
      const seen = h.bodies.filter((b) => JSON.stringify(b.messages.at(-1)).includes('shared message')).map((b) => (String(b.messages[0]?.content).match(/^user: /gm) ?? []).length);
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await h.close();
    }
  });
});

describe('shared stores', () => {
  it('continues after a restart on PostgreSQL', async () => {
    const user = `pg-${randomBytes(4).toString('hex')}`;
    const h1 = await startHost({ store: PG_URL });
    await h1.chat({ agent_id: 'assistant', user_id: user, prompt: 'My name is Hana and I love ramen' });
    await h1.close();
    const h2 = await startHost({ store: PG_URL });
    try {
      expect((await h2.chat({ agent_id: 'assistant', user_id: user, prompt: "What's my name?" })).json['output']).toBe('Your name is Hana.');
      expect((await h2.chat({ agent_id: 'assistant', user_id: user, prompt: 'What food do I like?' })).json['output']).toBe('You like ramen.');
    } finally {
      await h2.close();
    }
  });

  for (const [name, url] of [
    ['PostgreSQL (advisory lock)', PG_URL],
    ['Redis (lock with expiry)', `${REDIS_URL}?prefix=il-agent-test-${randomBytes(4).toString('hex')}:`],
  ] as const) {
    it(`two host processes on ${name} serialize one session`, async () => {
      const session = `lock-${randomBytes(4).toString('hex')}`;
      const [a, b] = await Promise.all([hostProcess([url, session, '5', 'first']), hostProcess([url, session, '5', 'second'])]);
      expect(a, a.err).toMatchObject({ code: 0 });
      expect(b, b.err).toMatchObject({ code: 0 });
      expect(JSON.parse(a.out)).toEqual([200, 200, 200, 200, 200]);
      expectSerialTurns(await allEvents(url, 'lock-user', session), 10);
    });
  }
});
