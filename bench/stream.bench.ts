/**
 * Stream transcoding cost (DESIGN.md "Performance", issues 4 and 13: aim >= 1 / 1.5 of the
 * floor's events per second, i.e. a time ratio <= 1.5). A source stream as raw wire text/bytes is
 * transcoded event by event into the target's wire text; the floor is reading and writing the same
 * events: framing parse + serializing each event back in the source framing. Interleaved batches
 * (bench/convert/timing.ts); the ratio is transcode time over floor time for the same input.
 *
 * Sections, each a matrix (rows: from, columns: to) and a summary line:
 * - generated: the same stream (bench/stream/synthetic.ts: reasoning with signature, ~200 text
 *   deltas, 3 tool calls) written in each of the 7 stream dialects, ag-ui and a2a included, to
 *   every stream dialect (the diagonal is the same-dialect pass through the canonical stream);
 * - captures: the largest real capture of each provider dialect (test/fixtures/streams, and
 *   ../shared when present) to every stream dialect.
 * The last line: `worst: <pair> <setting> <ratio>x; pairs over 1.5x: N of M`.
 *
 *   npx tsx bench/stream.bench.ts       (in `npm run bench`; BENCH_QUICK=1 in `npm run bench:quick`)
 *   BENCH_STREAM_SECTIONS=generated,captures  BENCH_BATCHES  BENCH_MIN_MS  BENCH_WARMUP_MS
 */
import { formats } from '../src/index.js';
import type { WireEvent } from '../src/model/stream-event.js';
import { getStreamCodec } from '../src/formats/registry.js';
import { frameReader, frameWriter } from '../src/stream/framing.js';
import { Transcoder } from '../src/stream/transcode.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../test/support/streams.js';
import { errorText, printMatrix, summary, type Row } from './convert/report.js';
import { compare, sink, timingFromEnv, warmUp } from './convert/timing.js';
import { syntheticWire } from './stream/synthetic.js';

const AIM = 1.5;
const timing = timingFromEnv();
const SECTIONS = new Set((process.env['BENCH_STREAM_SECTIONS'] || 'generated,captures').split(','));

/** The events as the raw wire text/bytes their dialect's framing reads. */
function rawOf(dialect: string, events: WireEvent[]): Uint8Array | string {
  const write = frameWriter(getStreamCodec(dialect).framing);
  const chunks = events.map(write);
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
}

const size = (x: string | Uint8Array): number => x.length;

/** Reading the source stream (raw) and writing each event in the target's wire form; returns the event count. */
function transcodeOp(from: string, to: string, raw: Uint8Array | string): () => number {
  const framing = getStreamCodec(from).framing;
  const toWrite = frameWriter(getStreamCodec(to).framing);
  return () => {
    const r = frameReader(framing);
    // As the gateway and `interlingua stream` run it: each event written as it comes.
    const t = new Transcoder({ from, to, eventText: true });
    let events = 0;
    for (const e of [...r.push(raw), ...r.end()]) {
      events++;
      for (const w of t.push(e)) sink.n += size(toWrite(w));
    }
    for (const w of t.end()) sink.n += size(toWrite(w));
    return events;
  };
}

/** One source stream (raw) to one target: the row, with events/s of both. */
function streamRow(setting: string, from: string, to: string, raw: Uint8Array | string): Row & { events?: number } {
  const framing = getStreamCodec(from).framing;
  const write = frameWriter(framing);
  const op = transcodeOp(from, to, raw);
  let events = 0;
  const floor = (): void => {
    const r = frameReader(framing);
    for (const e of [...r.push(raw), ...r.end()]) sink.n += size(write(e));
  };
  const transcode = (): void => {
    events = op();
  };
  try {
    transcode();
  } catch (err) {
    return { setting, from, to, error: errorText(err) };
  }
  const c = compare(floor, transcode, timing);
  return { setting, from, to, ratio: c.ratio, floorMs: c.floorMs, opMs: c.opMs, events };
}

function rate(rows: (Row & { events?: number })[]): void {
  // Events per second of the floor and of each transcode, per source.
  const bySource = new Map<string, { events: number; floor: number; worst: number; best: number }>();
  for (const r of rows) {
    if (r.opMs === undefined || r.floorMs === undefined || r.events === undefined) continue;
    const eps = r.events / (r.opMs / 1000);
    const s = bySource.get(r.from) ?? { events: r.events, floor: r.events / (r.floorMs / 1000), worst: Infinity, best: 0 };
    s.worst = Math.min(s.worst, eps);
    s.best = Math.max(s.best, eps);
    bySource.set(r.from, s);
  }
  console.table(
    Object.fromEntries(
      [...bySource].map(([from, s]) => [from, { events: s.events, 'floor events/s': Math.round(s.floor), 'slowest target events/s': Math.round(s.worst), 'fastest target events/s': Math.round(s.best) }]),
    ),
  );
}

const targets = formats()
  .filter((f) => f.kinds.includes('stream'))
  .map((f) => f.id as string);
const PROVIDERS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];
const all: Row[] = [];
console.log(`Stream transcoding, node ${process.version}; every pair warmed first, then ${timing.batches} interleaved batches of >= ${timing.minMs} ms and >= ${timing.minCalls} calls; ratio = transcode time / floor time (events/s floor / transcode)`);

// Every pair on the generated stream first: cells measure the steady state (see warmUp).
const warmOps: (() => void)[] = [];
for (const from of targets) {
  const raw = rawOf(from, syntheticWire(from));
  for (const to of targets) {
    const op = transcodeOp(from, to, raw);
    try {
      op();
      warmOps.push(op);
    } catch {
      // its row reports the error
    }
  }
}
warmUp(warmOps, timing);

if (SECTIONS.has('generated')) {
  const rows: (Row & { events?: number })[] = [];
  for (const from of targets) {
    const raw = rawOf(from, syntheticWire(from));
    for (const to of targets) rows.push(streamRow('generated', from, to, raw));
  }
  printMatrix('Generated stream (reasoning + signature, ~200 text deltas, 3 tool calls), every stream dialect to every other; diagonal: same dialect through the canonical stream', rows);
  rate(rows);
  console.log(summary(rows, AIM));
  all.push(...rows);
}

if (SECTIONS.has('captures')) {
  const rows: (Row & { events?: number })[] = [];
  const names: string[] = [];
  for (const from of PROVIDERS) {
    const capture = [...localStreamCaptures(from), ...sharedStreamCaptures(from)].sort((a, b) => b.events.length - a.events.length)[0];
    if (capture === undefined) continue;
    names.push(`${from}: ${capture.name} (${capture.events.length} events)`);
    const raw = rawOf(from, capture.events);
    for (const to of targets) rows.push(streamRow('capture', from, to, raw));
  }
  printMatrix('Captures: the largest capture of each provider dialect, to every stream dialect', rows);
  for (const n of names) console.log(`  ${n}`);
  rate(rows);
  console.log(summary(rows, AIM));
  all.push(...rows);
}

console.log('\nAll stream rows:');
console.log(summary(all, AIM));
if (sink.n < 0) console.log(sink.n);
