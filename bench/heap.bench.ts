/**
 * Peak heap converting a ~50 MB request of many images (issue 13: the peak above the parsed input
 * below 3x the request's size).
 *
 * How the peak is measured. Conversion is synchronous, so sampling `heapUsed` from the same
 * process cannot see inside it, and GC traces only show heap sizes at collections. Instead the
 * peak is found by bisection on the heap limit: a child process (bench/heap/child.ts) holds the
 * parsed input (read line by line from a Buffer, which is outside the V8 heap, so no whole-body
 * text inflates it) and runs one step under `--max-old-space-size=L` with `--max-semi-space-size=1`
 * (a young generation of a few MB, so nearly everything lives where the limit counts). V8 collects
 * fully before it gives up, so the step completes if and only if its live heap at every moment fits
 * in L (to within fragmentation and the small young generation). The smallest L that completes is
 * found for the step and for doing nothing (`noop`: the parsed input alone); their difference is
 * the peak above the parsed input, to within the bisection step (BENCH_HEAP_STEP_MB, default 2 MB).
 * Also printed: `retained`, heapUsed after a full GC with the result kept, minus the input alone.
 * Steps: `convert` (the converted value, kept) and `convert + stringify` (its JSON text, kept: what
 * a server writes).
 *
 *   npx tsx bench/heap.bench.ts     (in `npm run bench`)
 *   BENCH_HEAP_MB=50  BENCH_HEAP_PAIRS=anthropic-messages:openai-chat,openai-chat:anthropic-messages
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from '../src/index.js';
import { anthropicRequest } from './convert/generate.js';
import { short } from './convert/report.js';

const AIM = 3;
const MB = 1024 * 1024;
const TARGET_MB = Number(process.env['BENCH_HEAP_MB'] ?? 50);
const STEP = Number(process.env['BENCH_HEAP_STEP_MB'] ?? 2);
const PAIRS = (process.env['BENCH_HEAP_PAIRS'] || 'anthropic-messages:openai-chat,openai-chat:anthropic-messages,anthropic-messages:gemini')
  .split(',')
  .map((p) => p.split(':') as [string, string]);
const CHILD = fileURLToPath(new URL('./heap/child.ts', import.meta.url));
const MESSAGES = 200;

/** Bytes per image so that the Anthropic body is about TARGET_MB (the images' count does not depend on their size). */
function imageBytesFor(mb: number): number {
  const probe = anthropicRequest({ messages: MESSAGES, images: 'large', imageBytes: 3 });
  const count = JSON.stringify(probe).split('"type":"image"').length - 1;
  const rest = JSON.stringify(anthropicRequest({ messages: MESSAGES })).length;
  return Math.floor((((mb * MB - rest) / count) * 3) / 4);
}

/** The body as the child reads it: `{ key, skeleton }`, then one line per element of the longest array. */
function linesOf(body: Record<string, unknown>): string {
  const key = Object.keys(body).reduce((k, x) => (Array.isArray(body[x]) && (body[x] as unknown[]).length > ((body[k] as unknown[] | undefined)?.length ?? -1) ? x : k), '');
  const skeleton = { ...body };
  delete skeleton[key];
  return [JSON.stringify({ key, skeleton }), ...(body[key] as unknown[]).map((m) => JSON.stringify(m))].join('\n');
}

interface Run {
  ok: boolean;
  base?: number;
  after?: number;
}

function run(limitMb: number, file: string, from: string, to: string, mode: string): Run {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${limitMb}`, '--max-semi-space-size=1', '--expose-gc', '--import', 'tsx', CHILD, file, from, to, mode], {
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) return { ok: false };
  return { ok: true, ...(JSON.parse(r.stdout) as { base: number; after: number }) };
}

/** The smallest limit (MB, to within STEP) in [lo, ...) that completes, starting the search at `guess`. */
function smallestLimit(lo: number, guess: number, file: string, from: string, to: string, mode: string): { limit: number; run: Run } {
  let hi = Math.max(guess, lo + STEP);
  let best = run(hi, file, from, to, mode);
  while (!best.ok) {
    lo = hi;
    hi *= 2;
    if (hi > 16_384) throw new Error(`${mode} ${from} -> ${to} does not complete in 16 GB`);
    best = run(hi, file, from, to, mode);
  }
  while (hi - lo > STEP) {
    const mid = Math.round((lo + hi) / 2);
    const r = run(mid, file, from, to, mode);
    if (r.ok) {
      hi = mid;
      best = r;
    } else lo = mid;
  }
  return { limit: hi, run: best };
}

const dir = mkdtempSync(join(tmpdir(), 'il-heap-'));
try {
  const imageBytes = imageBytesFor(TARGET_MB);
  const anthropic = anthropicRequest({ messages: MESSAGES, images: 'large', imageBytes });
  const sources = new Map<string, { file: string; mb: number }>();
  const table: Record<string, Record<string, number | string>> = {};
  let worst = { name: 'none', ratio: 0 };
  let over = 0;
  let total = 0;
  console.log(`Peak heap above the parsed input, ${MESSAGES} messages with ~${Math.round(imageBytes / 1024)} KB images; node ${process.version}; bisection step ${STEP} MB`);
  for (const [from, to] of PAIRS) {
    let src = sources.get(from);
    if (src === undefined) {
      const body = (from === 'anthropic-messages' ? anthropic : convert(anthropic, { from: 'anthropic-messages', to: from }).value) as Record<string, unknown>;
      const file = join(dir, `${from}.jsonl`);
      writeFileSync(file, linesOf(body));
      src = { file, mb: JSON.stringify(body).length / MB };
      sources.set(from, src);
    }
    const noop = smallestLimit(8, Math.ceil(src.mb * 2), src.file, from, to, 'noop');
    const line: Record<string, number | string> = { 'request MB': Number(src.mb.toFixed(1)), 'input alone: limit MB': noop.limit };
    for (const mode of ['convert', 'stringify']) {
      const step = smallestLimit(noop.limit, Math.ceil(noop.limit + src.mb * AIM), src.file, from, to, mode);
      const peak = step.limit - noop.limit;
      const ratio = peak / src.mb;
      const label = mode === 'convert' ? 'convert' : 'convert + stringify';
      line[`${label}: peak MB`] = peak;
      line[`${label}: x size`] = Number(ratio.toFixed(2));
      line[`${label}: retained MB`] = Math.round(((step.run.after ?? 0) - (noop.run.base ?? 0)) / MB);
      total++;
      if (ratio >= AIM) over++;
      if (ratio > worst.ratio) worst = { name: `${short(from)} -> ${short(to)} ${label}`, ratio };
    }
    table[`${short(from)} -> ${short(to)}`] = line;
  }
  console.table(table);
  console.log(`worst: ${worst.name} ${TARGET_MB} MB ${worst.ratio.toFixed(2)}x its size; pairs at or over ${AIM}x: ${over} of ${total}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
