/**
 * Gateway overhead (issue 11). A local mock upstream answering at once (src/gateway/mock-upstream.ts
 * over HTTP), the interlingua gateway in front of it, and Portkey's open-source gateway
 * (@portkey-ai/gateway) in front of the same mock — each its own process, all on 127.0.0.1.
 * autocannon drives an OpenAI Chat client's request at concurrency 1 and 64, plain and streaming:
 *
 *   direct chat         the mock's /v1/chat/completions            (baseline of the same-dialect route)
 *   direct anthropic    the mock's /v1/messages, with the body the gateway sends it (baseline of the cross route)
 *   interlingua same    gateway, openai-chat client -> openai-chat upstream
 *   interlingua cross   gateway, openai-chat client -> anthropic-messages upstream
 *   portkey cross       Portkey, openai-chat client -> anthropic upstream (x-portkey-provider + custom host)
 *
 * Printed: p50/p99 of the whole response, what the gateway adds over its baseline, requests per
 * second; then each stream's first body byte (sequential requests) against the upstream's own;
 * then the aims. Bounded: BENCH_GW_SECONDS per row (default 3), BENCH_GW_WARMUP (1).
 *
 *   npx tsx bench/gateway.bench.ts        (also run by `npm run bench`)
 */
import { cpus, loadavg } from 'node:os';
import { convert } from '../src/index.js';
import { firstByte, load, percentile, type LoadResult, type Target } from './gateway/load.js';
import { startInterlingua, startMock, startPortkey, type Started } from './gateway/servers.js';

const SECONDS = Number(process.env['BENCH_GW_SECONDS'] ?? 3);
const WARMUP = Number(process.env['BENCH_GW_WARMUP'] ?? 1);
const FIRST_BYTES = Number(process.env['BENCH_GW_FIRST_BYTES'] ?? 300);

const PROMPT = 'Say hello to the benchmark in a few words.';
const chatBody = (model: string, stream: boolean): Record<string, unknown> => ({
  model,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: PROMPT },
  ],
  max_tokens: 64,
  ...(stream ? { stream: true } : {}),
});
const JSON_HEADERS = { 'content-type': 'application/json', authorization: 'Bearer bench' };

type Name = 'direct chat' | 'direct anthropic' | 'interlingua same' | 'interlingua cross' | 'portkey cross';
const BASELINE: Record<Name, Name> = {
  'direct chat': 'direct chat',
  'direct anthropic': 'direct anthropic',
  'interlingua same': 'direct chat',
  'interlingua cross': 'direct anthropic',
  'portkey cross': 'direct anthropic',
};

function targets(mock: string, gateway: string | undefined, portkey: string, stream: boolean): Map<Name, Target> {
  const anthropicBody = convert(chatBody('claude-3-5-haiku-latest', stream), { from: 'openai-chat', to: 'anthropic-messages' }).value;
  const out = new Map<Name, Target>([
    ['direct chat', { url: `${mock}/v1/chat/completions`, headers: JSON_HEADERS, body: JSON.stringify(chatBody('gpt-4o-mini', stream)) }],
    ['direct anthropic', { url: `${mock}/v1/messages`, headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(anthropicBody) }],
  ]);
  if (gateway !== undefined) {
    out.set('interlingua same', { url: `${gateway}/v1/chat/completions`, headers: JSON_HEADERS, body: JSON.stringify(chatBody('gpt-4o-mini', stream)) });
    out.set('interlingua cross', { url: `${gateway}/v1/chat/completions`, headers: JSON_HEADERS, body: JSON.stringify(chatBody('claude-3-5-haiku-latest', stream)) });
  }
  out.set('portkey cross', {
    url: `${portkey}/v1/chat/completions`,
    headers: { ...JSON_HEADERS, 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': `${mock}/v1` },
    body: JSON.stringify(chatBody('claude-3-5-haiku-latest', stream)),
  });
  return out;
}

/** One request through each target must come back 200 with the echoed prompt before it is timed. */
async function check(name: string, t: Target): Promise<void> {
  const res = await fetch(t.url, { method: 'POST', headers: t.headers, body: t.body });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('benchmark')) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
}

async function startGatewayOrExplain(mock: string): Promise<Started | undefined> {
  try {
    return await startInterlingua({
      upstreams: {
        openai: { format: 'openai-chat', url: `${mock}/v1`, apiKey: 'bench' },
        claude: { format: 'anthropic-messages', url: mock, apiKey: 'bench' },
      },
      routes: [
        { model: 'claude-*', upstream: 'claude' },
        { model: '*', upstream: 'openai' },
      ],
      log_level: 'error',
    });
  } catch (err) {
    console.log(`interlingua gateway not measured: ${(err as Error).message}`);
    return undefined;
  }
}

const ms = (x: number): number | string => (Number.isFinite(x) ? Number(x.toFixed(3)) : '-');
const servers: Started[] = [];
const loadStart = loadavg()[0] ?? 0;
try {
  const mock = await startMock();
  servers.push(mock);
  const gateway = await startGatewayOrExplain(mock.url);
  if (gateway) servers.push(gateway);
  const portkey = await startPortkey();
  servers.push(portkey);

  const rows: Record<string, string | number>[] = [];
  const results = new Map<string, LoadResult>();
  const firstRows: Record<string, string | number>[] = [];
  const firsts = new Map<Name, number[]>();
  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'plain';
    const ts = targets(mock.url, gateway?.url, portkey.url, stream);
    for (const [name, t] of ts) {
      await check(name, t);
      await load(t, 64, WARMUP);
    }
    for (const connections of [1, 64]) {
      for (const [name, t] of ts) {
        const r = await load(t, connections, SECONDS);
        results.set(`${name}|${mode}|${connections}`, r);
        const base = results.get(`${BASELINE[name]}|${mode}|${connections}`);
        const own = BASELINE[name] === name;
        rows.push({
          route: name,
          mode,
          conc: connections,
          'p50 ms': ms(r.p50),
          'p99 ms': ms(r.p99),
          'added p50 ms': own || !base ? '-' : ms(r.p50 - base.p50),
          'added p99 ms': own || !base ? '-' : ms(r.p99 - base.p99),
          'req/s': Math.round(r.rps),
          failures: r.failures,
        });
      }
    }
    if (stream) {
      for (const [name, t] of ts) firsts.set(name, await firstByte(t, FIRST_BYTES));
      for (const [name, times] of firsts) {
        const base = firsts.get(BASELINE[name]) ?? [];
        const own = BASELINE[name] === name;
        firstRows.push({
          route: name,
          'first byte p50 ms': ms(percentile(times, 50)),
          'first byte p99 ms': ms(percentile(times, 99)),
          'added p50 ms': own ? '-' : ms(percentile(times, 50) - percentile(base, 50)),
          'added p99 ms': own ? '-' : ms(percentile(times, 99) - percentile(base, 99)),
        });
      }
    }
  }

  const load1 = loadavg()[0] ?? 0;
  console.log(`\nGateway overhead, node ${process.version}, ${cpus().length} CPUs (mock, gateway and load generator share them); ${SECONDS} s per row after ${WARMUP} s warm-up`);
  console.log(`Load average at start ${loadStart.toFixed(1)}, at end ${load1.toFixed(1)}${Math.max(loadStart, load1) > cpus().length ? ' — the machine was busy with other work: sub-millisecond figures are not trustworthy in this run' : ''}`);
  console.log('Whole-response latency (autocannon, every response timed) and throughput; "added" is over the route\'s direct baseline');
  console.table(rows);
  console.log(`Streams: first body byte, ${FIRST_BYTES} sequential requests each; "added" is over the upstream's own first byte`);
  console.table(firstRows);

  const get = (key: string): LoadResult | undefined => results.get(key);
  const aims: Record<string, string>[] = [];
  for (const mode of ['plain', 'stream']) {
    for (const route of ['interlingua same', 'interlingua cross'] as const) {
      const r = get(`${route}|${mode}|1`);
      const b = get(`${BASELINE[route]}|${mode}|1`);
      if (r && b) aims.push({ aim: `added p99 <= 1 ms at concurrency 1 (${route}, ${mode})`, measured: `${ms(r.p99 - b.p99)} ms`, met: r.p99 - b.p99 <= 1 ? 'yes' : 'no' });
    }
    const ours = get(`interlingua cross|${mode}|64`);
    const theirs = get(`portkey cross|${mode}|64`);
    if (ours && theirs) aims.push({ aim: `req/s at concurrency 64 >= 3x Portkey's (cross, ${mode})`, measured: `${(ours.rps / theirs.rps).toFixed(2)}x`, met: ours.rps >= 3 * theirs.rps ? 'yes' : 'no' });
  }
  for (const route of ['interlingua same', 'interlingua cross'] as const) {
    const times = firsts.get(route);
    const base = firsts.get(BASELINE[route]);
    if (times && base) {
      const added = percentile(times, 50) - percentile(base, 50);
      aims.push({ aim: `stream first byte <= 1 ms after the upstream's (${route}, p50)`, measured: `${ms(added)} ms`, met: added <= 1 ? 'yes' : 'no' });
    }
  }
  console.log('Aims of issue 11');
  console.table(aims);
} finally {
  for (const s of servers) s.stop();
}
