/**
 * agentcore-memory decode and encode against the JSON floor (issue 13: aim <= 2x). The body is
 * the generated conversation (bench/convert/generate.ts) as AgentCore Memory events
 * (`{ "events": [...] }`, the Anthropic body converted to agentcore-memory), 20 / 200 / 2,000
 * messages, with no images and with small ones. The floor is always `JSON.parse` +
 * `JSON.stringify` of that events text.
 * - decode (events -> messages): `JSON.parse(events)` + `decode(from agentcore-memory)` +
 *   `JSON.stringify(canonical)`; and events -> OpenAI Chat / Anthropic messages with `convert`
 *   (what memory's message-level reads do);
 * - encode (messages -> events): `JSON.parse(canonical)` + `encode(to agentcore-memory)` +
 *   `JSON.stringify(events)`, without and with `preserve` (memory's `append` default); and OpenAI
 *   Chat -> events with `convert` (what message-level `append` does).
 * Interleaved batches (bench/convert/timing.ts). The last line: `worst: ...; pairs over 2x: N of M`.
 *
 *   npx tsx bench/agentcore.bench.ts   (in `npm run bench` and, with BENCH_QUICK=1, `npm run bench:quick`)
 *   BENCH_SIZES=20,200,2000  BENCH_IMAGES=none,small  BENCH_BATCHES  BENCH_MIN_MS
 */
import { convert, decode, encode } from '../src/index.js';
import type { Images } from './convert/generate.js';
import { anthropicRequest } from './convert/generate.js';
import { errorText, summary, type Row } from './convert/report.js';
import { compare, sink, timingFromEnv, warmUp } from './convert/timing.js';

const AIM = 2;
const timing = timingFromEnv();
const list = (name: string, fallback: string): string[] => (process.env[name] || fallback).split(',').map((s) => s.trim());
const SIZES = list('BENCH_SIZES', '20,200,2000').map(Number);
const IMAGES = list('BENCH_IMAGES', 'none,small') as Images[];

const MEM = 'agentcore-memory';

function row(setting: string, from: string, to: string, floorText: string, op: () => unknown): Row {
  try {
    op();
  } catch (err) {
    return { setting, from, to, error: errorText(err) };
  }
  const floor = (): void => {
    sink.n += JSON.stringify(JSON.parse(floorText)).length;
  };
  const c = compare(floor, () => void (sink.n += JSON.stringify(op()).length), timing);
  return { setting, from, to, ratio: c.ratio, floorMs: c.floorMs, opMs: c.opMs };
}

const all: Row[] = [];
const table: Record<string, Record<string, number | string>> = {};
console.log(`agentcore-memory, node ${process.version}; every cell warmed first, then ${timing.batches} interleaved batches of >= ${timing.minMs} ms and >= ${timing.minCalls} calls; floor: JSON.parse + JSON.stringify of the events text`);
type Cell = [name: string, setting: string, from: string, to: string, floorText: string, op: () => unknown];

/** The six cells of one size and image setting, each with the events text its floor reads. */
function cells(size: number, images: Images): Cell[] {
  const setting = `${size} msgs ${images === 'none' ? 'no images' : 'small images'}`;
  const anthropic = anthropicRequest({ messages: size, images });
  const eventsBody = convert(anthropic, { from: 'anthropic-messages', to: MEM }).value;
  const eventsText = JSON.stringify(eventsBody);
  const canonicalText = JSON.stringify(decode(eventsBody, { from: MEM }).value);
  const chatText = JSON.stringify(convert(anthropic, { from: 'anthropic-messages', to: 'openai-chat' }).value);
  return [
    ['decode -> canonical', setting, MEM, 'canonical', eventsText, () => decode(JSON.parse(eventsText), { from: MEM }).value],
    ['decode -> openai-chat', setting, MEM, 'openai-chat', eventsText, () => convert(JSON.parse(eventsText), { from: MEM, to: 'openai-chat' }).value],
    ['decode -> anthropic', setting, MEM, 'anthropic-messages', eventsText, () => convert(JSON.parse(eventsText), { from: MEM, to: 'anthropic-messages' }).value],
    ['encode canonical ->', setting, 'canonical', MEM, eventsText, () => encode(JSON.parse(canonicalText), { to: MEM }).value],
    ['encode canonical -> (preserve)', `${setting} preserve`, 'canonical', MEM, eventsText, () => encode(JSON.parse(canonicalText), { to: MEM, preserve: true }).value],
    ['encode openai-chat ->', setting, 'openai-chat', MEM, eventsText, () => convert(JSON.parse(chatText), { from: 'openai-chat', to: MEM }).value],
  ];
}

// Every cell on the smallest bodies first: cells measure the steady state (see warmUp).
const warmOps: (() => void)[] = [];
for (const images of IMAGES) {
  for (const [, , , , , op] of cells(Math.min(...SIZES), images)) {
    try {
      op();
      warmOps.push(() => void (sink.n += JSON.stringify(op()).length));
    } catch {
      // its row reports the error
    }
  }
}
warmUp(warmOps, timing);

for (const size of SIZES) {
  for (const images of IMAGES) {
    const group = cells(size, images);
    const line: Record<string, number | string> = { 'events KB': Math.round((group[0]?.[4].length ?? 0) / 1024) };
    for (const [name, setting, from, to, floorText, op] of group) {
      const r = row(setting, from, to, floorText, op);
      line[name] = r.error !== undefined ? `ERR ${r.error}` : Number((r.ratio as number).toFixed(2));
      all.push(r);
    }
    table[`${size} msgs ${images === 'none' ? 'no images' : 'small images'}`] = line;
  }
}
console.table(table);
console.log(summary(all, AIM));
if (sink.n < 0) console.log(sink.n);
