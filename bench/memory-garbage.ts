/**
 * Not a timing of the aims: what one message-level memory call leaves for the garbage collector,
 * on the memory bench's seeded SQLite store (memory-seed.ts). The aim's p99 (1 ms) is set by the
 * calls that hold a young-generation collection: ~16 MB of garbage between collections, so a call
 * that allocates B bytes holds one in about 2,000 x B / 16 MB of 2,000 calls, and p99 is the 20th
 * slowest. Prints, per call (MEMORY_GARBAGE_OP: `read` = the last 10 turns as OpenAI Chat
 * messages, `append` = one Chat message):
 * - bytes allocated (V8's sampling heap profiler, objects already collected included) and the
 *   functions that allocate most (inlined functions count in their caller);
 * - of 2,000 calls, how many a collection fell in, the p50 / p99 of those calls and of the others.
 *
 *   npx tsx bench/memory-garbage.ts
 */
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { openMemory } from '../src/memory/index.js';
import { actorId, ensureSeeded, exchange, LAYOUT, sessionId, sqliteBenchStore } from './memory-seed.js';

const OP = process.env['MEMORY_GARBAGE_OP'] ?? 'read';
const CALLS = 2000;
const PROFILED = 500;
const READ = { actorId: actorId(LAYOUT.actors / 2), sessionId: sessionId(LAYOUT.sessionsPerActor / 2) };
const WRITER = { actorId: 'bench-writer', sessionId: 'garbage' };

const store = sqliteBenchStore();
await ensureSeeded(store, console.log);
const mem = await openMemory(store.url, { expiryDays: 365 });
const question = exchange()[0];
const call =
  OP === 'append'
    ? () => mem.append({ ...WRITER, messages: [question], format: 'openai-chat' })
    : () => mem.lastTurns({ ...READ, k: 10, format: 'openai-chat' });
if (OP !== 'read' && OP !== 'append') throw new Error(`MEMORY_GARBAGE_OP: 'read' or 'append' (got '${OP}')`);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

async function allocation(): Promise<{ perCall: number; top: [string, number][] }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
  for (let i = 0; i < PROFILED; i++) await call();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
  session.disconnect();
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (n: Node): void => {
    const f = n.callFrame;
    // By function and file: under tsx the profiler sees no source lines.
    const site = `${f.functionName || '(anonymous)'} ${f.url === '' ? '(builtin)' : f.url.split('/').slice(-2).join('/')}`;
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  return { perCall: total / PROFILED, top: [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 12) };
}

async function collections(): Promise<{ withGc: number[]; without: number[] }> {
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) starts.push(e.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  const spans: [number, number][] = [];
  for (let i = 0; i < CALLS; i++) {
    const s = performance.now();
    await call();
    spans.push([s, performance.now()]);
  }
  // The observer reports after the event loop turns.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const withGc: number[] = [];
  const without: number[] = [];
  for (const [s, e] of spans) (starts.some((t) => t >= s && t < e) ? withGc : without).push(e - s);
  return { withGc, without };
}

const pct = (list: number[], p: number): string => {
  const sorted = [...list].sort((a, b) => a - b);
  const v = sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return v === undefined ? '-' : v.toFixed(3);
};

try {
  await mem.deleteSession(WRITER.actorId, WRITER.sessionId);
  for (let i = 0; i < 300; i++) await call();
  const { perCall, top } = await allocation();
  const { withGc, without } = await collections();
  console.log(`${OP === 'read' ? 'last 10 turns as openai-chat messages' : 'append 1 openai-chat message'}: ${(perCall / 1024).toFixed(1)} KB allocated a call (${PROFILED} calls sampled)`);
  for (const [site, bytes] of top) console.log(`${(bytes / PROFILED / 1024).toFixed(2).padStart(8)} KB  ${site}`);
  console.log(`${CALLS} calls: ${withGc.length} held a collection (p50 ${pct(withGc, 0.5)} ms); the other ${without.length}: p50 ${pct(without, 0.5)} ms, p99 ${pct(without, 0.99)} ms; all: p99 ${pct([...withGc, ...without], 0.99)} ms`);
} finally {
  await mem.deleteSession(WRITER.actorId, WRITER.sessionId).catch(() => 0);
  await mem.close();
}
