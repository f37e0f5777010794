/**
 * The bench's large memory stores: 1,000,000 events (10,000 sessions of 100 events, 10 sessions
 * per actor) in a SQLite file under os.tmpdir() and in the PostgreSQL schema `interlingua_bench`
 * of database `test`. Seeding takes a while, so a store that is already complete is reused between
 * runs; one that is not (an interrupted seed, another layout) is wiped and seeded again.
 * Seeding writes straight through the backend (no per-call checks), a session's 100 events per
 * call, which is how the rows get there fastest without writing them any other way than the
 * store does. Each session is 25 turns of a real tool-using exchange (examples/openai-chat-request.json
 * and an answer): user question, assistant tool call, tool result, assistant answer.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openMemory, type PayloadItem } from '../src/memory/index.js';
import type { Backend } from '../src/memory/backend.js';
import { openPostgresBackend } from '../src/memory/backends/postgres.js';
import { openSqliteBackend } from '../src/memory/backends/sqlite.js';
import { prepareEvents, type PreparedEvent } from '../src/memory/event-shape.js';
import { DAY_MS } from '../src/memory/store.js';

export const LAYOUT = { actors: 1_000, sessionsPerActor: 10, eventsPerSession: 100 } as const;
export const TOTAL_EVENTS = LAYOUT.actors * LAYOUT.sessionsPerActor * LAYOUT.eventsPerSession;

export const actorId = (a: number): string => `bench-actor-${String(a).padStart(4, '0')}`;
export const sessionId = (s: number): string => `session-${String(s).padStart(2, '0')}`;

export interface BenchStore {
  name: 'sqlite' | 'postgres';
  /** The URL openMemory takes (no password: trust auth on 127.0.0.1). */
  url: string;
  /** Where it lives, for the printout. */
  where: string;
  /** Events the store's table holds, counted directly. */
  count(): Promise<number>;
  /** Removes it entirely. */
  wipe(): Promise<void>;
  /** The backend to seed through. */
  backend(): Promise<Backend>;
}

export function sqliteBenchStore(): BenchStore {
  const dir = join(tmpdir(), 'interlingua-bench');
  const file = join(dir, 'memory-1m.db');
  return {
    name: 'sqlite',
    url: `sqlite:${file}`,
    where: file,
    count: async () => {
      if (!existsSync(file)) return 0;
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
      } catch {
        return 0;
      } finally {
        db.close();
      }
    },
    wipe: async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    },
    backend: async () => {
      mkdirSync(dir, { recursive: true });
      return openSqliteBackend(file);
    },
  };
}

export function postgresBenchStore(base = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'): BenchStore {
  const schema = 'interlingua_bench';
  const sql = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      return (await c.query<T>(text)).rows;
    } finally {
      await c.end();
    }
  };
  return {
    name: 'postgres',
    url: `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`,
    where: `schema ${schema} of ${new URL(base).pathname.slice(1)} on ${new URL(base).host}`,
    count: async () => {
      const exists = await sql(`SELECT 1 FROM information_schema.tables WHERE table_schema = '${schema}' AND table_name = 'events'`);
      if (exists.length === 0) return 0;
      return Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".events`))[0]?.n ?? 0);
    },
    wipe: async () => void (await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
    backend: () => openPostgresBackend(base, { schema, maxConnections: 4 }),
  };
}

/** The real exchange of examples/openai-chat-request.json and an answer, in OpenAI Chat form. */
export function exchange(): unknown[] {
  const body = JSON.parse(readFileSync(new URL('../examples/openai-chat-request.json', import.meta.url), 'utf8')) as { messages: unknown[] };
  return [...body.messages, { role: 'assistant', content: 'The largest city in Mexico is Mexico City.' }];
}

/** The exchange's four events' payloads, as the store writes them (through append). */
async function turnPayloads(): Promise<PayloadItem[][]> {
  const mem = await openMemory('memory:');
  try {
    const { events } = await mem.append({ actorId: 'a', sessionId: 's', messages: exchange(), format: 'openai-chat' });
    return events.map((e) => e.payload);
  } finally {
    await mem.close();
  }
}

/** One session's events, prepared once: 25 turns, a second apart, from `start`. */
async function sessionEvents(start: number): Promise<PreparedEvent[]> {
  const turn = await turnPayloads();
  const events = [];
  for (let i = 0; i < LAYOUT.eventsPerSession; i++) events.push({ payload: turn[i % turn.length] as PayloadItem[], eventTimestamp: start + i * 1000 });
  return prepareEvents(events);
}

/** True when the store holds exactly the layout's number of events and its last session is whole. */
async function complete(store: BenchStore): Promise<boolean> {
  if ((await store.count()) !== TOTAL_EVENTS) return false;
  const mem = await openMemory(store.url, { expiryDays: 365 });
  try {
    const page = await mem.listEvents(actorId(LAYOUT.actors - 1), sessionId(LAYOUT.sessionsPerActor - 1), { maxResults: 1, chronological: false });
    return page.events[0]?.sequence === LAYOUT.eventsPerSession;
  } finally {
    await mem.close();
  }
}

/** Seeds the store unless it is already complete; says which it did. */
export async function ensureSeeded(store: BenchStore, log: (line: string) => void): Promise<void> {
  if (await complete(store)) {
    log(`${store.name}: reusing the seeded store (${TOTAL_EVENTS.toLocaleString('en')} events) at ${store.where}`);
    return;
  }
  log(`${store.name}: seeding ${TOTAL_EVENTS.toLocaleString('en')} events at ${store.where} (once; later runs reuse it) ...`);
  await store.wipe();
  const backend = await store.backend();
  const t0 = performance.now();
  const now = Date.now();
  // A year of life (AgentCore's maximum), so the seeded store outlives many bench runs.
  const expiresAt = now + 365 * DAY_MS;
  const events = await sessionEvents(now - 30 * DAY_MS);
  try {
    const jobs: (() => Promise<unknown>)[] = [];
    for (let a = 0; a < LAYOUT.actors; a++) {
      for (let s = 0; s < LAYOUT.sessionsPerActor; s++) jobs.push(async () => backend.append(actorId(a), sessionId(s), events, now, expiresAt));
    }
    // A few appends in flight for PostgreSQL's pool; SQLite's are synchronous anyway.
    const lanes = store.name === 'postgres' ? 4 : 1;
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < jobs.length) await (jobs[next++] as () => Promise<unknown>)();
      }),
    );
  } finally {
    await backend.close();
  }
  log(`${store.name}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (!(await complete(store))) throw new Error(`${store.name}: the seeded store does not hold the layout`);
}
