/**
 * No step quadratic in the number of messages (issue 13): the time per message converting the
 * generated conversation (bench/convert/generate.ts, no images) of 20,000 messages against the
 * time per message of the 200-message one; aim: flat within 1.5x. Timed interleaved: one batch is
 * 100 conversions of the 200-message body (20,000 messages) against one of the 20,000-message body,
 * so the ratio is directly per message. The JSON floor's own ratio is printed beside it (a larger
 * heap costs JSON too: a conversion flat within that is not the converter's doing).
 * Each source dialect to one target (Anthropic, or OpenAI Chat from Anthropic).
 *
 *   npx tsx bench/scaling.bench.ts    (in `npm run bench`)
 *   BENCH_QUICK=1 (anthropic and openai-chat only, in `npm run bench:quick`)
 *   BENCH_SCALING_SOURCES=anthropic-messages,openai-chat  BENCH_SCALING_LARGE=20000  BENCH_BATCHES
 */
import { convert } from '../src/index.js';
import { requestBodies, SOURCES } from './convert/bodies.js';
import { errorText, short, type Row } from './convert/report.js';
import { compare, isQuick, sink, timingFromEnv } from './convert/timing.js';

const AIM = 1.5;
const timing = timingFromEnv({ batches: 3, minMs: 0, warmupMs: 0, minCalls: 1 });
const SMALL = 200;
const LARGE = Number(process.env['BENCH_SCALING_LARGE'] ?? 20_000);
const REPEAT = LARGE / SMALL;
// BENCH_QUICK=1: two sources only.
const sources = (process.env['BENCH_SCALING_SOURCES'] || (isQuick() ? 'anthropic-messages,openai-chat' : SOURCES.join(','))).split(',');

const rows: Row[] = [];
const table: Record<string, Record<string, string | number>> = {};
console.log(`Time per message, ${LARGE} messages over ${SMALL}; node ${process.version}; ${timing.batches} interleaved batches (${REPEAT} x ${SMALL} messages against 1 x ${LARGE})`);
for (const from of sources) {
  const to = from === 'anthropic-messages' ? 'openai-chat' : 'anthropic-messages';
  const setting = `${LARGE} vs ${SMALL} msgs`;
  const small = requestBodies(SMALL, 'none', [from]).text.get(from);
  const large = requestBodies(LARGE, 'none', [from]).text.get(from);
  if (small === undefined || large === undefined) {
    rows.push({ setting, from, to, error: 'source not written' });
    continue;
  }
  const conv = (text: string) => (): void => {
    sink.n += JSON.stringify(convert(JSON.parse(text), { from, to }).value).length;
  };
  const json = (text: string) => (): void => {
    sink.n += JSON.stringify(JSON.parse(text)).length;
  };
  const times = (fn: () => void) => (): void => {
    for (let i = 0; i < REPEAT; i++) fn();
  };
  try {
    conv(large)();
  } catch (err) {
    rows.push({ setting, from, to, error: errorText(err) });
    table[`${short(from)} -> ${short(to)}`] = { error: errorText(err) };
    continue;
  }
  const c = compare(times(conv(small)), conv(large), timing);
  const f = compare(times(json(small)), json(large), timing);
  rows.push({ setting, from, to, ratio: c.ratio });
  table[`${short(from)} -> ${short(to)}`] = {
    'MB': Number((large.length / 1048576).toFixed(1)),
    [`µs/msg ${SMALL}`]: Number(((c.floorMs * 1000) / LARGE).toFixed(2)),
    [`µs/msg ${LARGE}`]: Number(((c.opMs * 1000) / LARGE).toFixed(2)),
    'conversion ratio': Number(c.ratio.toFixed(2)),
    'JSON floor ratio': Number(f.ratio.toFixed(2)),
  };
}
console.table(table);
const worst = rows.filter((r) => r.ratio !== undefined).sort((a, b) => (b.ratio as number) - (a.ratio as number))[0];
const over = rows.filter((r) => r.error !== undefined || (r.ratio as number) > AIM).length;
console.log(`worst: ${worst ? `${short(worst.from)} -> ${short(worst.to)} ${worst.setting} ${(worst.ratio as number).toFixed(2)}x` : 'none'}; pairs over ${AIM}x: ${over} of ${rows.length}`);
if (sink.n < 0) console.log(sink.n);
