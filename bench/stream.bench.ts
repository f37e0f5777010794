/**
 * Stream transcoding cost (DESIGN.md "Performance", issue 4): for every pair of dialects with a
 * stream codec, the largest stream capture of the source dialect (test/fixtures/streams, and
 * ../shared when present) is transcoded event by event into the target's wire text. The floor
 * is reading and writing the same events: framing parse + serializing each event back in the
 * source framing. Printed: events, floor and transcode time per event, events per second, ratio.
 *
 *   npx tsx bench/stream.bench.ts        (also run by `npm run bench`)
 */
import { formats } from '../src/index.js';
import type { WireEvent } from '../src/model/stream-event.js';
import { getStreamCodec } from '../src/formats/registry.js';
import { frameReader, frameWriter } from '../src/stream/framing.js';
import { Transcoder } from '../src/stream/transcode.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../test/support/streams.js';

const BATCHES = Number(process.env['BENCH_BATCHES'] ?? 7);
const MIN_BATCH_MS = Number(process.env['BENCH_MIN_MS'] ?? 150);

let sink = 0;

function time(fn: () => void, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / n;
}

function calibrate(fn: () => void): number {
  let n = 1;
  for (;;) {
    const ms = time(fn, n) * n;
    if (ms >= MIN_BATCH_MS / 4) return Math.max(1, Math.ceil((n * MIN_BATCH_MS) / ms));
    n *= 2;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The source capture as the raw wire text/bytes its framing reads. */
function rawOf(dialect: string, events: WireEvent[]): Uint8Array | string {
  const write = frameWriter(getStreamCodec(dialect).framing);
  const chunks = events.map(write);
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  const total = chunks.reduce((n, c) => n + (c as Uint8Array).length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c as Uint8Array, at);
    at += (c as Uint8Array).length;
  }
  return out;
}

const dialects = formats()
  .filter((f) => f.kinds.includes('stream'))
  .map((f) => f.id);
const PROVIDERS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];
const rows: Record<string, string | number>[] = [];
// Sources: the provider dialects (their captures); targets: every dialect with a stream codec.
for (const from of PROVIDERS) {
  const captures = [...localStreamCaptures(from), ...sharedStreamCaptures(from)];
  const capture = captures.sort((a, b) => b.events.length - a.events.length)[0];
  if (capture === undefined) continue;
  const raw = rawOf(from, capture.events);
  const framing = getStreamCodec(from).framing;
  const write = frameWriter(framing);
  const floor = (): void => {
    const r = frameReader(framing);
    for (const e of [...r.push(raw), ...r.end()]) sink += (write(e) as { length: number }).length;
  };
  for (const to of dialects) {
    const toWrite = frameWriter(getStreamCodec(to).framing);
    const transcode = (): void => {
      const r = frameReader(framing);
      const t = new Transcoder({ from, to });
      for (const e of [...r.push(raw), ...r.end()]) for (const w of t.push(e)) sink += (toWrite(w) as { length: number }).length;
      for (const w of t.end()) sink += (toWrite(w) as { length: number }).length;
    };
    try {
      transcode();
    } catch (err) {
      rows.push({ pair: `${from} -> ${to}`, capture: capture.name, error: (err as Error).message.slice(0, 60) });
      continue;
    }
    const nf = calibrate(floor);
    const nt = calibrate(transcode);
    const floors: number[] = [];
    const convs: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      floors.push(time(floor, nf));
      convs.push(time(transcode, nt));
    }
    const f = median(floors);
    const c = median(convs);
    const n = capture.events.length;
    rows.push({
      pair: `${from} -> ${to}`,
      events: n,
      'floor µs/event': Number(((f * 1000) / n).toFixed(2)),
      'transcode µs/event': Number(((c * 1000) / n).toFixed(2)),
      'events/s': Math.round(n / (c / 1000)),
      ratio: Number((c / f).toFixed(2)),
    });
  }
}
console.log(`\nStream transcoding, node ${process.version}, ${BATCHES} batches of >= ${MIN_BATCH_MS} ms, median; the largest capture of each source dialect`);
console.table(rows);
if (sink < 0) console.log(sink);
