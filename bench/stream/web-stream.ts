/**
 * What `transcode()` costs as the web TransformStream a server pipes a body through (not a bench
 * of the aims, which time the transcoder itself: bench/stream.bench.ts). The generated stream
 * (synthetic.ts) as raw bytes, enqueued into a ReadableStream one event per chunk or in chunks of
 * CHUNK bytes, piped through `transcode()` and read to the end; beside it the same work without
 * web streams (frame reader, Transcoder, frame writer on the whole body). Microseconds per stream,
 * the best of 5 rounds of MS milliseconds each, after one round to warm up.
 *   PAIRS=openai-chat:anthropic-messages,ag-ui:bedrock-converse CHUNK=4096 npx tsx bench/stream/web-stream.ts
 */
import { getStreamCodec } from '../../src/formats/registry.js';
import { frameReader, frameWriter } from '../../src/stream/framing.js';
import { transcode, Transcoder } from '../../src/stream/transcode.js';
import { syntheticWire } from './synthetic.js';

const PAIRS = (process.env['PAIRS'] ?? 'openai-chat:anthropic-messages,anthropic-messages:openai-responses,ag-ui:bedrock-converse').split(',');
const CHUNK = Number(process.env['CHUNK'] ?? 4096);
const MS = Number(process.env['MS'] ?? 400);
const utf8 = new TextEncoder();

function rawChunks(from: string, chunkBytes: number): Uint8Array[] {
  const perEvent = syntheticWire(from).map(frameWriter(getStreamCodec(from).framing)).map((f) => (typeof f === 'string' ? utf8.encode(f) : f));
  if (chunkBytes === 0) return perEvent;
  const all = Buffer.concat(perEvent);
  return Array.from({ length: Math.ceil(all.length / chunkBytes) }, (_, i) => all.subarray(i * chunkBytes, (i + 1) * chunkBytes));
}

/** Bytes out and chunks out of one stream through `transcode()`. */
async function throughWebStream(from: string, to: string, chunks: readonly Uint8Array[]): Promise<[number, number]> {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });
  const reader = source.pipeThrough(transcode({ from, to })).getReader();
  let bytes = 0;
  let out = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    bytes += r.value.length;
    out++;
  }
  return [bytes, out];
}

function direct(from: string, to: string, chunks: readonly Uint8Array[]): number {
  const reader = frameReader(getStreamCodec(from).framing);
  const t = new Transcoder({ from, to, eventText: true });
  const write = frameWriter(getStreamCodec(to).framing);
  let bytes = 0;
  for (const c of chunks) for (const e of reader.push(c)) for (const w of t.push(e)) bytes += write(w).length;
  for (const e of reader.end()) for (const w of t.push(e)) bytes += write(w).length;
  for (const w of t.end()) bytes += write(w).length;
  return bytes;
}

/** Best per-call microseconds over 5 rounds, after one round to warm up. */
async function best(op: () => unknown): Promise<number> {
  let min = Infinity;
  for (let round = 0; round < 6; round++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < MS) {
      await op();
      n++;
    }
    if (round > 0) min = Math.min(min, ((performance.now() - t0) * 1000) / n);
  }
  return min;
}

const rows: Record<string, Record<string, string | number>> = {};
for (const pair of PAIRS) {
  const [from = '', to = ''] = pair.split(':');
  const row: Record<string, string | number> = {};
  for (const size of [0, CHUNK]) {
    const chunks = rawChunks(from, size);
    const [, out] = await throughWebStream(from, to, chunks);
    const label = size === 0 ? 'one event a chunk' : `${size} B chunks`;
    row[`${label}: in / out chunks`] = `${chunks.length} / ${out}`;
    row[`${label}: transcode() µs`] = Math.round(await best(() => throughWebStream(from, to, chunks)));
  }
  const whole = rawChunks(from, 0);
  row['no web stream µs'] = Math.round(await best(() => direct(from, to, whole)));
  rows[`${from} -> ${to}`] = row;
}
console.log(`transcode() through web streams, node ${process.version}; the generated stream (bench/stream/synthetic.ts)`);
console.table(rows);
