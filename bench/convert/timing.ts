/**
 * Timing against a floor on a shared, noisy machine: the floor and the operation run in batches
 * interleaved one after the other (the order swapped every batch, so a drift in the machine's speed
 * weighs on both alike), each batch at least `minMs` long, after a warm-up. The ratio is the median
 * of the per-batch ratios (each batch's operation time over the floor batch next to it); the
 * times are the medians of the batches' per-call times.
 *
 * Knobs (environment): BENCH_BATCHES (default 5), BENCH_MIN_MS (60), BENCH_WARMUP_MS (100);
 * BENCH_QUICK=1 lowers them to 3 / 25 / 30. BENCH_MIN_CALLS (3): a batch makes at least this many
 * calls, however long one takes. A batch of one call of a 2,000-message body (40-90 ms, most of it
 * garbage collection) holds a major GC or not by chance, and the median of such batches leaves the
 * collections out more often than in, flattering the side that allocates more (the conversion).
 */

export interface Timing {
  batches: number;
  minMs: number;
  warmupMs: number;
  minCalls: number;
}

const QUICK = process.env['BENCH_QUICK'] === '1';

export function timingFromEnv(defaults: Partial<Timing> = {}): Timing {
  const num = (name: string, quick: number, normal: number): number => {
    const v = process.env[name];
    return v !== undefined && v !== '' ? Number(v) : QUICK ? quick : normal;
  };
  return {
    batches: num('BENCH_BATCHES', 3, defaults.batches ?? 5),
    minMs: num('BENCH_MIN_MS', 25, defaults.minMs ?? 60),
    warmupMs: num('BENCH_WARMUP_MS', 30, defaults.warmupMs ?? 100),
    minCalls: num('BENCH_MIN_CALLS', defaults.minCalls ?? 3, defaults.minCalls ?? 3),
  };
}

export const isQuick = (): boolean => QUICK;

export interface Comparison {
  /** Median ms per call of the floor and of the operation. */
  floorMs: number;
  opMs: number;
  /** Median of the per-batch ratios op / floor. */
  ratio: number;
}

/** Mean ms per call over `n` calls. */
export function time(fn: () => void, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / n;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Runs fn repeatedly for about `ms` (at least `min` calls); returns the mean ms per call. */
function runFor(fn: () => void, ms: number, min: number): number {
  let calls = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (calls < min || elapsed < ms) {
    fn();
    calls++;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  return elapsed / calls;
}

/**
 * Runs the ops round after round (each for half of `timing.warmupMs` a round) before any is timed,
 * at least twice round the list and for at least 100 x `warmupMs` in all (3 s quick, 10 s full):
 * a cell then measures the steady state a long-running process converts in (every codec's code
 * optimized, the shared code having seen every dialect), not the JIT compiling whatever code path
 * it is the first to run. Without it the first cell of each source dialect read up to 3-6x its
 * warm ratio in quick runs (docs/performance.md, "Fourth session"); a run of a few pairs needs the
 * total time as much as the whole matrix does.
 */
export function warmUp(ops: readonly (() => void)[], timing: Timing): void {
  if (ops.length === 0) return;
  const t0 = process.hrtime.bigint();
  const total = timing.warmupMs * 100;
  for (let round = 0; round < 2 || Number(process.hrtime.bigint() - t0) / 1e6 < total; round++) {
    for (const op of ops) runFor(op, timing.warmupMs / 2, 2);
  }
}

export function compare(floor: () => void, op: () => void, timing: Timing): Comparison {
  // Warm-up, both alike; its per-call estimate sizes the batches.
  let f = runFor(floor, timing.warmupMs / 2, 2);
  let o = runFor(op, timing.warmupMs / 2, 2);
  f = Math.min(f, time(floor, 1));
  o = Math.min(o, time(op, 1));
  const nf = Math.max(timing.minCalls, 1, Math.ceil(timing.minMs / Math.max(f, 1e-6)));
  const no = Math.max(timing.minCalls, 1, Math.ceil(timing.minMs / Math.max(o, 1e-6)));
  const floors: number[] = [];
  const ops: number[] = [];
  const ratios: number[] = [];
  for (let b = 0; b < timing.batches; b++) {
    let tf: number;
    let to: number;
    if (b % 2 === 0) {
      tf = time(floor, nf);
      to = time(op, no);
    } else {
      to = time(op, no);
      tf = time(floor, nf);
    }
    floors.push(tf);
    ops.push(to);
    ratios.push(to / tf);
  }
  return { floorMs: median(floors), opMs: median(ops), ratio: median(ratios) };
}

/** Keeps results alive so the work is not optimised away. */
export const sink = { n: 0 };

/** CPU µs per call of `f`: the best of `slices` slices of `sliceMs`, after `warmCalls` calls. */
export function cpu(f: () => void, slices = 5, sliceMs = 150, warmCalls = 20): number {
  for (let i = 0; i < warmCalls; i++) f();
  let best = Infinity;
  for (let slice = 0; slice < slices; slice++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < sliceMs) {
      f();
      n++;
    }
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / n);
  }
  return best;
}

/** A source body's floor in CPU µs (JSON.parse + JSON.stringify of it), with the parse's share. */
export interface SourceFloor {
  parse: number;
  floor: number;
}

export function sourceFloor(text: string): SourceFloor {
  const parse = cpu(() => JSON.parse(text));
  const parsed: unknown = JSON.parse(text);
  return { parse, floor: parse + cpu(() => JSON.stringify(parsed)) };
}

/**
 * What a converter that cost nothing would score: parsing the source and writing `out` (the real
 * conversion output), over the floor (bound.ts, response-costs.ts).
 */
export function boundRatio(source: SourceFloor, out: unknown): number {
  return (source.parse + cpu(() => JSON.stringify(out))) / source.floor;
}
