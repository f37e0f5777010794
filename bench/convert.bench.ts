/**
 * Conversion cost against the floor of reading and writing the same body (DESIGN.md
 * "Performance"): per pair, `JSON.parse(text)` + `convert` + `JSON.stringify(value)` against
 * `JSON.parse(text)` + `JSON.stringify(parsed)`, measured in one run, interleaved batch by batch,
 * after a warm-up; the figure is the median of the batches' per-operation times.
 *
 *   npm run bench            (tsx bench/convert.bench.ts)
 *   BENCH_BATCHES=15 BENCH_MIN_MS=400 npm run bench
 *   BENCH_MATRIX=0 npm run bench   (only the Anthropic / OpenAI Chat rows)
 *
 * The matrix section converts the same conversation, first written in each dialect (by converting
 * the Anthropic body), to every other dialect: every pair's ratio to its own floor.
 */
import { convert } from '../src/index.js';
import { anthropicConversation, openaiConversation } from './conversation.js';

const BATCHES = Number(process.env['BENCH_BATCHES'] ?? 9);
const MIN_BATCH_MS = Number(process.env['BENCH_MIN_MS'] ?? 250);

interface Pair {
  name: string;
  from: string;
  to: string;
  body: unknown;
}

interface Timing {
  batches: number;
  minMs: number;
}

const PAIRS: Pair[] = [
  { name: 'anthropic -> openai-chat', from: 'anthropic-messages', to: 'openai-chat', body: anthropicConversation() },
  { name: 'openai-chat -> anthropic', from: 'openai-chat', to: 'anthropic-messages', body: openaiConversation() },
  { name: 'anthropic -> anthropic', from: 'anthropic-messages', to: 'anthropic-messages', body: anthropicConversation() },
  { name: 'openai-chat -> openai-chat', from: 'openai-chat', to: 'openai-chat', body: openaiConversation() },
  // Without screenshots: no large base64 strings to dilute the per-object cost.
  { name: 'anthropic -> openai-chat (no images)', from: 'anthropic-messages', to: 'openai-chat', body: anthropicConversation({ images: false }) },
  { name: 'openai-chat -> anthropic (no images)', from: 'openai-chat', to: 'anthropic-messages', body: openaiConversation({ images: false }) },
];

let sink = 0;

/** Runs `fn` `n` times and returns the mean ms per call. */
function time(fn: () => void, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / n;
}

/** How many calls make a batch of at least MIN_BATCH_MS. */
function calibrate(fn: () => void, minMs: number): number {
  let n = 1;
  for (;;) {
    const ms = time(fn, n) * n;
    if (ms >= minMs / 4) return Math.max(1, Math.ceil((n * minMs) / ms));
    n *= 2;
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

function measure(pair: Pair, timing: Timing = { batches: BATCHES, minMs: MIN_BATCH_MS }): Record<string, string | number> {
  const text = JSON.stringify(pair.body);
  const floor = (): void => {
    sink += JSON.stringify(JSON.parse(text)).length;
  };
  const conversion = (): void => {
    const { value } = convert(JSON.parse(text), { from: pair.from, to: pair.to, kind: 'request' });
    sink += JSON.stringify(value).length;
  };
  const probe = convert(JSON.parse(text), { from: pair.from, to: pair.to, kind: 'request' });
  for (let i = 0; i < 20; i++) {
    floor();
    conversion();
  }
  const nFloor = calibrate(floor, timing.minMs);
  const nConv = calibrate(conversion, timing.minMs);
  const floors: number[] = [];
  const convs: number[] = [];
  for (let b = 0; b < timing.batches; b++) {
    floors.push(time(floor, nFloor));
    convs.push(time(conversion, nConv));
  }
  const f = median(floors);
  const c = median(convs);
  const body = pair.body as { messages?: unknown[]; contents?: unknown[]; input?: unknown[] };
  const messages = (body.messages ?? body.contents ?? body.input ?? []).length;
  return {
    pair: pair.name,
    messages,
    'body KB': Math.round(text.length / 1024),
    'out KB': Math.round(JSON.stringify(probe.value).length / 1024),
    losses: probe.losses.length,
    'floor ms': Number(f.toFixed(3)),
    'conversion ms': Number(c.toFixed(3)),
    ratio: Number((c / f).toFixed(2)),
  };
}

const rows = PAIRS.map((p) => measure(p));
console.log(`node ${process.version}, ${BATCHES} batches of >= ${MIN_BATCH_MS} ms each, median per operation`);
console.table(rows);

if (process.env['BENCH_MATRIX'] !== '0') {
  const MATRIX: Timing = { batches: 5, minMs: 150 };
  const dialects = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini', 'agent-input'];
  const source = anthropicConversation();
  const bodies = new Map(dialects.map((d) => [d, d === 'anthropic-messages' ? source : convert(source, { from: 'anthropic-messages', to: d }).value]));
  const ratios: Record<string, Record<string, number | string>> = {};
  for (const from of dialects) {
    const row: Record<string, number | string> = {};
    for (const to of dialects) {
      row[to] = from === to ? '—' : (measure({ name: `${from} -> ${to}`, from, to, body: bodies.get(from) }, MATRIX)['ratio'] as number);
    }
    ratios[from] = row;
  }
  console.log(`\nEvery pair (rows: from, columns: to), ratio to the JSON floor of the source body; ${MATRIX.batches} batches of >= ${MATRIX.minMs} ms`);
  console.table(ratios);
}
if (sink < 0) console.log(sink);
