/**
 * Profiling driver (not a bench): transcodes the bench's generated stream (or a capture) for
 * `node --cpu-prof`, the same work as one cell of bench/stream.bench.ts.
 *   PAIR=ag-ui:openai-responses PROFILE_MS=5000 node --cpu-prof --cpu-prof-dir=/tmp/x --import tsx bench/profile-stream.ts
 * CAPTURE=1 uses the source's largest capture instead. FLOOR=1 also runs the floor (framing read
 * + writing each event back) in `floorRun`, alternating, so its share is in the same profile.
 */
import type { WireEvent } from '../src/model/stream-event.js';
import { getStreamCodec } from '../src/formats/registry.js';
import { frameReader, frameWriter } from '../src/stream/framing.js';
import { Transcoder } from '../src/stream/transcode.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../test/support/streams.js';
import { syntheticWire } from './stream/synthetic.js';

const [from = 'ag-ui', to = 'openai-responses'] = (process.env['PAIR'] ?? '').split(':').filter(Boolean);
const ms = Number(process.env['PROFILE_MS'] ?? 5000);

function sourceEvents(): WireEvent[] {
  if (process.env['CAPTURE'] !== '1') return syntheticWire(from);
  const all = [...localStreamCaptures(from as StreamDialect), ...sharedStreamCaptures(from as StreamDialect)];
  const capture = all.sort((a, b) => b.events.length - a.events.length)[0];
  if (capture === undefined) throw new Error(`no capture of ${from}`);
  return capture.events;
}

function rawOf(events: WireEvent[]): Uint8Array | string {
  const chunks = events.map(frameWriter(getStreamCodec(from).framing));
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
}

const raw = rawOf(sourceEvents());
const framing = getStreamCodec(from).framing;
const write = frameWriter(framing);
const toWrite = frameWriter(getStreamCodec(to).framing);
let sink = 0;

function floorRun(): void {
  const r = frameReader(framing);
  for (const e of [...r.push(raw), ...r.end()]) sink += write(e).length;
}

function transcodeRun(): void {
  const r = frameReader(framing);
  const t = new Transcoder({ from, to, eventText: true });
  for (const e of [...r.push(raw), ...r.end()]) for (const w of t.push(e)) sink += toWrite(w).length;
  for (const w of t.end()) sink += toWrite(w).length;
}

const withFloor = process.env['FLOOR'] === '1';
const t0 = Date.now();
let n = 0;
let floorMs = 0;
while (Date.now() - t0 < ms) {
  if (withFloor) {
    const f0 = performance.now();
    floorRun();
    floorMs += performance.now() - f0;
  }
  transcodeRun();
  n++;
}
const opMs = Date.now() - t0 - floorMs;
console.log(`${from} -> ${to}: ${n} transcodes, ${(opMs / n).toFixed(3)} ms each${withFloor ? `; floor ${(floorMs / n).toFixed(3)} ms, ratio ${(opMs / floorMs).toFixed(2)}` : ''}`, sink > 0 ? '' : sink);
