/**
 * Memory latency (issue 5, "CLI and bench"): SQLite and PostgreSQL stores holding 1,000,000 events
 * (memory-seed.ts: seeded once, reused by later runs), and the time of one call as an agent makes it:
 * - append one message event, into a session of its own that is removed before and after:
 *   `appendEvents` (event level) and `append({ messages: [m], format: 'openai-chat' })` (message level);
 * - the last 10 turns of a seeded session (100 events, 25 turns of 4): `lastTurns(actor, session, 10)`
 *   (events) and `lastTurns({ actorId, sessionId, k: 10, format: 'openai-chat' })` (messages).
 * One call at a time. Each operation is timed twice, BENCH_MEMORY_SAMPLES calls (default 2000) each:
 * - `p99 ms, first 2,000`: right after a warm-up of 200 calls, as this bench measured until the
 *   twenty-second session. That window still holds the process's own warm-up: on SQLite the
 *   message-level append had 13-35 calls over 1 ms in its first 2,000 and 2-12 in each later 2,000
 *   of a 20,000-call run; on PostgreSQL a process's first 2,000 appends had 32-53 calls over 1.5 ms,
 *   the next 2,000 12-19, later ones 2-10 (docs/performance.md, "Twenty-second session");
 * - `p50 ms` and `p99 ms`: once the operation has run for BENCH_MEMORY_WARMUP_MS (default 3000),
 *   what a long-running process (a gateway, an agent host) sees.
 * The reference is AgentCore Memory's own calls, reported at 100-300 ms each (over the network).
 *
 *   npx tsx bench/memory.bench.ts                  (also run last by `npm run bench`)
 *   BENCH_MEMORY_BACKENDS=sqlite npx tsx bench/memory.bench.ts
 */
import { openMemory, type Memory, type NewEvent } from '../src/memory/index.js';
import { actorId, ensureSeeded, exchange, LAYOUT, postgresBenchStore, sessionId, sqliteBenchStore, TOTAL_EVENTS, type BenchStore } from './memory-seed.js';

const SAMPLES = Number(process.env['BENCH_MEMORY_SAMPLES'] ?? 2000);
const WARMUP = Math.min(200, Math.ceil(SAMPLES / 10));
const WARMUP_MS = Number(process.env['BENCH_MEMORY_WARMUP_MS'] ?? 3000);
const BACKENDS = (process.env['BENCH_MEMORY_BACKENDS'] ?? 'sqlite,postgres').split(',');
/** AgentCore's reported per-call latency, low end: the factor column divides it by our p50. */
const AGENTCORE_MS = 100;
const FACTOR = `times faster than ${AGENTCORE_MS} ms (p50)`;

const WRITER = { actorId: 'bench-writer', sessionId: 'append-latency' };
/** A seeded session in the middle of the store. */
const READ = { actorId: actorId(LAYOUT.actors / 2), sessionId: sessionId(LAYOUT.sessionsPerActor / 2) };
const question = exchange()[0];
const questionEvent: NewEvent = { payload: [{ conversational: { role: 'USER', content: { text: 'What is the largest city in the user country?' } } }] };

interface Op {
  operation: string;
  /** One call; returns how many events or messages it wrote or read (checked, and printed). */
  call(mem: Memory): Promise<number>;
  expect: number;
}

const OPS: Op[] = [
  { operation: 'append 1 event (appendEvents)', expect: 1, call: async (mem) => (await mem.appendEvents(WRITER.actorId, WRITER.sessionId, [questionEvent])).length },
  { operation: 'append 1 message (append, openai-chat)', expect: 1, call: async (mem) => (await mem.append({ ...WRITER, messages: [question], format: 'openai-chat' })).events.length },
  { operation: 'last 10 turns, events (lastTurns)', expect: 10, call: async (mem) => (await mem.lastTurns(READ.actorId, READ.sessionId, 10)).length },
  { operation: 'last 10 turns, messages (openai-chat)', expect: 40, call: async (mem) => (await mem.lastTurns({ ...READ, k: 10, format: 'openai-chat' })).length },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

async function measure(mem: Memory, op: Op): Promise<{ p50: number; p99: number; p99First: number }> {
  const started = performance.now();
  for (let i = 0; i < WARMUP; i++) await op.call(mem);
  const first = await window(mem, op);
  while (performance.now() - started < WARMUP_MS) await op.call(mem);
  const steady = await window(mem, op);
  return { p50: percentile(steady, 0.5), p99: percentile(steady, 0.99), p99First: percentile(first, 0.99) };
}

/** SAMPLES calls, timed one by one; their times in ms, sorted. */
async function window(mem: Memory, op: Op): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = process.hrtime.bigint();
    const n = await op.call(mem);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (n !== op.expect) throw new Error(`${op.operation}: got ${n}, expected ${op.expect}`);
  }
  return ms.sort((a, b) => a - b);
}

async function bench(store: BenchStore): Promise<Record<string, string | number>[]> {
  await ensureSeeded(store, console.log);
  const mem = await openMemory(store.url, { expiryDays: 365 });
  const rows: Record<string, string | number>[] = [];
  try {
    await mem.deleteSession(WRITER.actorId, WRITER.sessionId);
    for (const op of OPS) {
      const { p50, p99, p99First } = await measure(mem, op);
      rows.push({
        store: store.name,
        operation: op.operation,
        'p50 ms': Number(p50.toFixed(3)),
        'p99 ms': Number(p99.toFixed(3)),
        'p99 ms, first 2,000': Number(p99First.toFixed(3)),
        [FACTOR]: Math.round(AGENTCORE_MS / p50),
      });
    }
  } finally {
    await mem.deleteSession(WRITER.actorId, WRITER.sessionId).catch(() => 0);
    await mem.close();
  }
  const held = await store.count();
  if (held !== TOTAL_EVENTS) throw new Error(`${store.name}: the store holds ${held} events after the run, not ${TOTAL_EVENTS}`);
  return rows;
}

const stores: Record<string, () => BenchStore> = { sqlite: sqliteBenchStore, postgres: postgresBenchStore };
const rows: Record<string, string | number>[] = [];
for (const name of BACKENDS) {
  const make = stores[name];
  if (!make) throw new Error(`BENCH_MEMORY_BACKENDS: unknown store '${name}' (sqlite, postgres)`);
  try {
    rows.push(...(await bench(make())));
  } catch (err) {
    // A machine without the PostgreSQL server still gets the SQLite figures, and is told why not the rest.
    if (name === 'postgres' && /ECONNREFUSED|cannot use/.test((err as Error).message)) console.log(`postgres: skipped: ${(err as Error).message}`);
    else throw err;
  }
}
rows.push({ store: 'AgentCore Memory', operation: 'any call (reported)', 'p50 ms': '100-300', 'p99 ms': '', 'p99 ms, first 2,000': '', [FACTOR]: 1 });
console.log(
  `\nnode ${process.version}; ${TOTAL_EVENTS.toLocaleString('en')} events per store (${(LAYOUT.actors * LAYOUT.sessionsPerActor).toLocaleString('en')} sessions of ${LAYOUT.eventsPerSession}); ` +
    `${SAMPLES} calls per row, one at a time, once the operation has run for ${WARMUP_MS} ms ('p99 ms, first 2,000': the ${SAMPLES} calls after the first ${WARMUP}); reads from a seeded session of 25 turns`,
);
console.table(rows);
