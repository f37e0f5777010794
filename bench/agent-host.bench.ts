/**
 * Agent host overhead (issue 12): POST /chat through the gateway in process (no socket), an agent
 * with the injected memory hooks, a mock upstream that answers at once, memory on the SQLite store
 * holding 1,000,000 events (memory-seed.ts; seeded once, reused). Measured, one call at a time
 * after a warm-up, p50 / p99 over BENCH_AGENT_SAMPLES calls (default 2000):
 * - `model call alone`: POST /v1/chat/completions with the body the agent sends (what any gateway
 *   client pays);
 * - `/chat`: the whole turn — ids, loader (stat of the agent file), session lock, memory read of the
 *   last 10 turns, the user message stored, the model call, the answer stored;
 * - the host's share: /chat minus the model call alone (p50 and p99 of each taken apart, so the
 *   difference is an estimate, not a per-call measure). The two are measured in turn, call by call.
 * The aim is p99 ≤ 3 ms added by the host.
 *
 *   npx tsx bench/agent-host.bench.ts        (also run by `npm run bench`)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createGateway } from '../src/gateway/app.js';
import { parseConfig } from '../src/gateway/config.js';
import { openMemory } from '../src/memory/index.js';
import { ensureSeeded, sqliteBenchStore, TOTAL_EVENTS } from './memory-seed.js';

const SAMPLES = Number(process.env['BENCH_AGENT_SAMPLES'] ?? 2000);
const WARMUP = Math.min(300, Math.ceil(SAMPLES / 5));
const MODEL = 'bench-model';
const ACTOR = 'bench-host';
const SESSION = `agent-host-${process.pid}`;

/** An upstream that answers at once with a fixed completion (OpenAI Chat, as the agent speaks it). */
const answer = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Paris is the largest city in France.' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
});
const upstream = async (): Promise<Response> => new Response(answer, { headers: { 'content-type': 'application/json' } });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/**
 * Both calls measured in turn (model call, /chat, model call, ...), so load from elsewhere on the
 * machine falls on both alike.
 */
async function measurePair(calls: { name: string; call: () => Promise<Response> }[]): Promise<{ name: string; p50: number; p99: number }[]> {
  for (let i = 0; i < WARMUP; i++) for (const c of calls) await (await c.call()).text();
  const ms = calls.map(() => [] as number[]);
  for (let i = 0; i < SAMPLES; i++) {
    for (const [k, c] of calls.entries()) {
      const t0 = process.hrtime.bigint();
      const res = await c.call();
      await res.text();
      ms[k]!.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (res.status !== 200) throw new Error(`${c.name}: status ${res.status}`);
    }
  }
  return calls.map((c, k) => {
    const sorted = ms[k]!.sort((a, b) => a - b);
    return { name: c.name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  });
}

const store = sqliteBenchStore();
await ensureSeeded(store, console.log);

const source = mkdtempSync(join(tmpdir(), 'il-bench-agents-'));
mkdirSync(join(source, 'bench'));
writeFileSync(
  join(source, 'bench', 'agent.mjs'),
  `export async function invoke(payload, context, { hooks, state }) {
  const agent = context.createAgent({ systemPrompt: 'You are a helpful assistant.', hooks, state });
  return { output: (await agent.invoke(payload.prompt)).text };
}\n`,
);

const config = parseConfig({
  upstreams: { mock: { format: 'mock' } },
  routes: [{ model: MODEL, upstream: 'mock' }],
  log_level: 'silent',
  agents: { source, recheck_ms: Number(process.env['BENCH_AGENT_RECHECK_MS'] ?? 0), memory: { store: process.env['BENCH_AGENT_STORE'] ?? store.url, turns: 10, expiry_days: 365 }, model: MODEL },
});
const gateway = createGateway(config, { logger: pino({ level: 'silent' }), mockUpstream: () => upstream });
await gateway.ready();

const post = (path: string, body: string) => gateway.fetch(new Request(`http://bench.local${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
const prompt = 'What is the largest city in France?';
const chatBody = JSON.stringify({ agent_id: 'bench', user_id: ACTOR, session_id: SESSION, prompt });

try {
  // The model call the agent makes once the session holds 10 turns: system prompt with them, the question.
  const history = Array.from({ length: 10 }, () => `user: ${prompt}\nassistant: Paris is the largest city in France.`).join('\n');
  const modelBody = JSON.stringify({ model: MODEL, messages: [{ role: 'system', content: `You are a helpful assistant.\n\nRecent conversation:\n${history}` }, { role: 'user', content: prompt }] });
  const [model, chat] = (await measurePair([
    { name: 'model call alone (POST /v1/chat/completions)', call: () => post('/v1/chat/completions', modelBody) },
    { name: '/chat (agent with memory hooks)', call: () => post('/chat', chatBody) },
  ])) as [{ name: string; p50: number; p99: number }, { name: string; p50: number; p99: number }];
  const rows = [model, chat].map((r) => ({ measure: r.name, 'p50 ms': Number(r.p50.toFixed(3)), 'p99 ms': Number(r.p99.toFixed(3)) }));
  rows.push({ measure: 'added by the host (/chat minus model call)', 'p50 ms': Number((chat.p50 - model.p50).toFixed(3)), 'p99 ms': Number((chat.p99 - model.p99).toFixed(3)) });
  console.log(`\nAgent host: /chat in process, SQLite store with ${TOTAL_EVENTS.toLocaleString('en')} events, ${SAMPLES} calls each (aim: host p99 ≤ 3 ms)`);
  console.table(rows);
} finally {
  await gateway.close();
  const mem = await openMemory(store.url, { expiryDays: 365 });
  await mem.deleteSession(ACTOR, SESSION);
  await mem.close();
}
