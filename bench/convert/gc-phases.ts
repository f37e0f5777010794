/**
 * Where the garbage collector's pauses fall in a conversion (not a bench; docs/performance.md,
 * "Fourteenth session"). For each pair, two child processes: one runs the conversion alone
 * (JSON.parse, decode, encode, JSON.stringify of the output) and one the floor alone (JSON.parse,
 * JSON.stringify of the source), ITER times after a warm-up. Each GC pause is counted in the phase
 * during which it started (perf_hooks 'gc' entries), so the table shows how many scavenges an
 * iteration pays, where, and what they cost, next to the time of each phase.
 *   PAIRS=openai-chat:anthropic-messages,openai-responses:gemini MSGS=2000 IMAGES=small ITER=60 \
 *     npx tsx bench/convert/gc-phases.ts
 * CHILD_FLAGS (e.g. `--max-semi-space-size=64`, what `interlingua serve` runs with) go to both children.
 * Survived and promoted bytes per scavenge: run a child with `node --trace-gc-nvp` (see the docs).
 */
import { fileURLToPath } from 'node:url';
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { decode, encode } from '../../src/index.js';
import { runTsChild } from '../child.js';
import { requestBodies } from './bodies.js';
import type { Images } from './generate.js';

const PHASES = ['parse', 'decode', 'encode', 'stringify'] as const;
type Phase = (typeof PHASES)[number];
type Mode = 'conversion' | 'floor';

interface ChildResult {
  msPerIter: Record<Phase, number>;
  /** Per phase: scavenges per iteration and their mean pause (ms). */
  scavenges: Record<Phase, [perIter: number, meanMs: number]>;
  majorsPerIter: number;
  gcMsPerIter: number;
}

const size = Number(process.env['MSGS'] ?? 2000);
const images = (process.env['IMAGES'] ?? 'small') as Images;
const iterations = Number(process.env['ITER'] ?? 60);
const childFlags = (process.env['CHILD_FLAGS'] ?? '').split(' ').filter(Boolean);

async function child(mode: Mode, pair: string): Promise<ChildResult> {
  const [from = '', to = ''] = pair.split(':');
  const text = requestBodies(size, images, [from]).text.get(from);
  if (text === undefined) throw new Error(`no ${from} body`);
  const pauses: [start: number, ms: number, kind: number][] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.duration, (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0]);
  }).observe({ entryTypes: ['gc'] });
  // [start, after parse, after decode, after encode, after stringify] of each iteration.
  const marks: number[][] = [];
  const once = (): void => {
    const t0 = performance.now();
    const body: unknown = JSON.parse(text);
    const t1 = performance.now();
    if (mode === 'floor') {
      JSON.stringify(body);
      marks.push([t0, t1, t1, t1, performance.now()]);
      return;
    }
    const canonical = decode(body, { from }).value;
    const t2 = performance.now();
    const out = encode(canonical, { to }).value;
    const t3 = performance.now();
    JSON.stringify(out);
    marks.push([t0, t1, t2, t3, performance.now()]);
  };
  for (let i = 0; i < 30; i++) once();
  marks.length = 0;
  pauses.length = 0;
  for (let i = 0; i < iterations; i++) once();
  // 'gc' entries reach the observer asynchronously: let them in before reading.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const msPerIter = { parse: 0, decode: 0, encode: 0, stringify: 0 };
  const scav = { parse: [0, 0], decode: [0, 0], encode: [0, 0], stringify: [0, 0] } as Record<Phase, [number, number]>;
  for (const m of marks) PHASES.forEach((p, k) => (msPerIter[p] += ((m[k + 1] as number) - (m[k] as number)) / iterations));
  let majors = 0;
  let gcMs = 0;
  const first = marks[0]?.[0] ?? 0;
  const last = marks.at(-1)?.[4] ?? 0;
  for (const [start, ms, kind] of pauses) {
    if (start < first || start >= last) continue;
    gcMs += ms;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
    if (kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
    const m = marks.find((x) => start >= (x[0] as number) && start < (x[4] as number));
    const k = m === undefined ? -1 : m.findIndex((t, i) => i > 0 && start < t) - 1;
    const phase = PHASES[k];
    if (phase === undefined) continue;
    scav[phase][0]++;
    scav[phase][1] += ms;
  }
  const scavenges = {} as ChildResult['scavenges'];
  for (const p of PHASES) scavenges[p] = [scav[p][0] / iterations, scav[p][0] === 0 ? 0 : scav[p][1] / scav[p][0]];
  return { msPerIter, scavenges, majorsPerIter: majors / iterations, gcMsPerIter: gcMs / iterations };
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await child(process.argv[3] as Mode, process.argv[4] as string)));
} else {
  const pairs = (process.env['PAIRS'] ?? 'openai-chat:anthropic-messages,openai-responses:gemini').split(',');
  const rows: Record<string, string>[] = [];
  for (const pair of pairs) {
    for (const mode of ['floor', 'conversion'] as const) {
      const r = runTsChild<ChildResult>(fileURLToPath(import.meta.url), ['--child', mode, pair], childFlags, 600_000);
      const row: Record<string, string> = { pair, mode, 'ms/iter': PHASES.reduce((s, p) => s + r.msPerIter[p], 0).toFixed(1) };
      for (const p of PHASES) {
        const [n, ms] = r.scavenges[p];
        row[p] = `${r.msPerIter[p].toFixed(1)} ms` + (n > 0 ? `, ${n.toFixed(2)} x ${ms.toFixed(1)} ms` : '');
      }
      row['majors/iter'] = r.majorsPerIter.toFixed(2);
      row['GC ms/iter'] = r.gcMsPerIter.toFixed(1);
      rows.push(row);
    }
  }
  console.log(`GC pauses by phase, ${size} msgs ${images} images, ${iterations} iterations after 30${childFlags.length > 0 ? `, node ${childFlags.join(' ')}` : ''} (each cell: phase time, then scavenges per iteration x mean pause)`);
  console.table(rows);
}
