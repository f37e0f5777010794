/**
 * Conversion cost against the floor of reading and writing the same body (DESIGN.md
 * "Performance", issue 13: aim <= 1.5x). Every ratio is `JSON.parse` + `convert` +
 * `JSON.stringify` over `JSON.parse` + `JSON.stringify` of the same source text, timed in one
 * run, interleaved batch by batch (bench/convert/timing.ts).
 *
 * Sections (each prints compact matrices, rows: from, columns: to, and its summary line):
 * - the original 200-message conversation with 20-60 KB screenshots (bench/conversation.ts);
 * - requests: the generated conversation (bench/convert/generate.ts) of 20, 200 and 2,000
 *   messages, without images and with small ones, written in each of 8 source dialects and
 *   converted to each target (the diagonal is the same-dialect round trip);
 * - `preserve: true` (200 messages, small images);
 * - responses: one assistant message with reasoning, text and 3 tool calls, provider to provider.
 * The last line is the summary over all rows: `worst: <pair> <setting> <ratio>x; pairs over 1.5x: N of M`.
 *
 *   npx tsx bench/convert.bench.ts                (in `npm run bench`)
 *   BENCH_QUICK=1 npx tsx bench/convert.bench.ts  (in `npm run bench:quick`)
 * Knobs: BENCH_SIZES=20,200,2000  BENCH_IMAGES=none,small  BENCH_SOURCES=a,b  BENCH_TARGETS=a,b
 *   BENCH_SECTIONS=legacy,requests,preserve,responses  BENCH_BATCHES  BENCH_MIN_MS  BENCH_WARMUP_MS
 */
import { anthropicConversation, openaiConversation } from './conversation.js';
import { PROVIDERS, requestBodies, responseBodies, sourcesFromEnv, targetsFromEnv } from './convert/bodies.js';
import type { Images } from './convert/generate.js';
import { convertOp, convertRow, type ConvertCase } from './convert/measure.js';
import { printMatrix, summary, type Row } from './convert/report.js';
import { sink, timingFromEnv, warmUp } from './convert/timing.js';

const AIM = 1.5;
const timing = timingFromEnv();
const list = (name: string, fallback: string): string[] => (process.env[name] || fallback).split(',').map((s) => s.trim());
const SIZES = list('BENCH_SIZES', '20,200,2000').map(Number);
const IMAGES = list('BENCH_IMAGES', 'none,small') as Images[];
const SECTIONS = new Set(list('BENCH_SECTIONS', 'legacy,requests,preserve,responses'));
const sources = sourcesFromEnv();
const targets = targetsFromEnv();
const all: Row[] = [];
const started = Date.now();

console.log(`node ${process.version}; every pair warmed first, then ${timing.batches} interleaved batches of >= ${timing.minMs} ms and >= ${timing.minCalls} calls after ${timing.warmupMs} ms of warm-up; ratio = median of per-batch ratios`);

/** Every pair the sections time, on the smallest bodies (same code paths, little time). */
function warmCases(): ConvertCase[] {
  const cases: ConvertCase[] = [];
  const smallest = Math.min(...SIZES);
  for (const images of IMAGES) {
    const bodies = requestBodies(smallest, images, sources);
    for (const [from, text] of bodies.text) {
      for (const to of targets) {
        if (SECTIONS.has('requests')) cases.push({ setting: 'warm-up', from, to, text });
        if (SECTIONS.has('preserve') && images === 'small' && to !== from) cases.push({ setting: 'warm-up', from, to, text, preserve: true });
      }
    }
  }
  if (SECTIONS.has('responses')) {
    const bodies = responseBodies();
    for (const [from, text] of bodies.text) for (const to of PROVIDERS) cases.push({ setting: 'warm-up', from, to, text, kind: 'response' });
  }
  return cases;
}

const runnable = (op: () => void): boolean => {
  try {
    op();
    return true;
  } catch {
    return false; // its row reports the error
  }
};
warmUp(warmCases().map(convertOp).filter(runnable), timing);

function section(title: string, rows: Row[]): void {
  printMatrix(title, rows);
  console.log(summary(rows, AIM));
  all.push(...rows);
}

if (SECTIONS.has('legacy')) {
  const legacy: [string, string, string, unknown][] = [
    ['images', 'anthropic-messages', 'openai-chat', anthropicConversation()],
    ['images', 'openai-chat', 'anthropic-messages', openaiConversation()],
    ['no images', 'anthropic-messages', 'openai-chat', anthropicConversation({ images: false })],
    ['no images', 'openai-chat', 'anthropic-messages', openaiConversation({ images: false })],
  ];
  const rows = legacy.map(([what, from, to, body]) => convertRow({ setting: `original conversation (${what})`, from, to, text: JSON.stringify(body) }, timing));
  console.log('\nThe original conversation (bench/conversation.ts, 200 messages, 20-60 KB screenshots or none)');
  console.table(rows.map((r) => ({ pair: `${r.from} -> ${r.to}`, setting: r.setting, 'floor ms': r.floorMs?.toFixed(3), 'conversion ms': r.opMs?.toFixed(3), ratio: r.ratio?.toFixed(2) ?? r.error })));
  console.log(summary(rows, AIM));
  all.push(...rows);
}

if (SECTIONS.has('requests')) {
  for (const size of SIZES) {
    for (const images of IMAGES) {
      const setting = `${size} msgs ${images === 'none' ? 'no images' : `${images} images`}`;
      const bodies = requestBodies(size, images, sources);
      const rows: Row[] = [];
      for (const from of sources) {
        const text = bodies.text.get(from);
        for (const to of targets) {
          if (text === undefined) rows.push({ setting, from, to, error: `source not written: ${bodies.failed.get(from) ?? '?'}` });
          else rows.push(convertRow({ setting, from, to, text }, timing));
        }
      }
      const kb = Math.round((bodies.text.get('anthropic-messages')?.length ?? 0) / 1024);
      section(`Requests, ${setting} (Anthropic body ${kb} KB); diagonal: same-dialect round trip`, rows);
    }
  }
}

if (SECTIONS.has('preserve')) {
  const size = Number(process.env['BENCH_PRESERVE_SIZE'] ?? 200);
  const setting = `${size} msgs small images, preserve`;
  const bodies = requestBodies(size, 'small', sources);
  const rows: Row[] = [];
  for (const from of sources) {
    const text = bodies.text.get(from);
    if (text === undefined) continue;
    for (const to of targets) if (to !== from) rows.push(convertRow({ setting, from, to, text, preserve: true }, timing));
  }
  section(`Requests with preserve: true, ${setting}`, rows);
}

if (SECTIONS.has('responses')) {
  const setting = 'response';
  const bodies = responseBodies();
  const rows: Row[] = [];
  for (const from of PROVIDERS) {
    const text = bodies.text.get(from);
    for (const to of PROVIDERS) {
      if (text === undefined) rows.push({ setting, from, to, error: `source not written: ${bodies.failed.get(from) ?? '?'}` });
      else rows.push(convertRow({ setting, from, to, text, kind: 'response' }, timing));
    }
  }
  const kb = ((bodies.text.get('anthropic-messages')?.length ?? 0) / 1024).toFixed(1);
  section(`Responses (one assistant message: reasoning, text, 3 tool calls; Anthropic body ${kb} KB); diagonal: round trip`, rows);
}

console.log(`\n${Math.round((Date.now() - started) / 1000)} s. All conversion rows:`);
console.log(summary(all, AIM));
if (sink.n < 0) console.log(sink.n);
