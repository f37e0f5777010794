/**
 * Output check for stream work (not a bench): every generated stream and every capture of the
 * stream bench, transcoded to every stream dialect; prints a hash of the target wire text and the
 * losses per pair, so two checkouts can be compared line by line.
 *   npx tsx bench/stream/golden.ts > /tmp/a.txt
 * EVENT_TEXT=0: encoders hand out plain events (no JSON text written along), which must give the same lines.
 */
import { createHash } from 'node:crypto';
import { formats } from '../../src/index.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { frameReader, frameWriter } from '../../src/stream/framing.js';
import { Transcoder } from '../../src/stream/transcode.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../../test/support/streams.js';
import { syntheticWire } from './synthetic.js';

// Made-up `created` times come from the clock: fixed, so two runs compare.
Date.now = () => 1_700_000_000_000;

const eventText = process.env['EVENT_TEXT'] !== '0';

const targets = formats().filter((f) => f.kinds.includes('stream')).map((f) => f.id as string);

function rawOf(dialect: string, events: WireEvent[]): Uint8Array | string {
  const chunks = events.map(frameWriter(getStreamCodec(dialect).framing));
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
}

function run(name: string, from: string, events: WireEvent[]): void {
  const raw = rawOf(from, events);
  for (const to of targets) {
    const h = createHash('sha256');
    const write = frameWriter(getStreamCodec(to).framing);
    let line: string;
    try {
      const r = frameReader(getStreamCodec(from).framing);
      const t = new Transcoder({ from, to, eventText });
      for (const e of [...r.push(raw), ...r.end()]) for (const w of t.push(e)) h.update(write(w));
      for (const w of t.end()) h.update(write(w));
      h.update(JSON.stringify(t.losses));
      line = h.digest('hex').slice(0, 16);
    } catch (err) {
      line = `throws ${String(err)}`;
    }
    console.log(`${name} ${from} -> ${to}: ${line}`);
  }
}

for (const from of targets) run('generated', from, syntheticWire(from));
for (const from of ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'] as StreamDialect[]) {
  for (const c of [...localStreamCaptures(from), ...sharedStreamCaptures(from)]) run(c.name, from, c.events);
}
