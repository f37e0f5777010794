/**
 * How much a process's garbage-collector history costs a small conversion (docs/performance.md,
 * "GC state"). V8 pretenures an allocation site whose objects survive young-generation collections;
 * a large conversion (here 2,000 messages, several MB) makes every per-message site look long-lived,
 * and afterwards each small conversion allocates those objects straight into the old generation,
 * where they keep the young objects they point at alive through every scavenge. The same 20-message
 * conversions are timed in a fresh child process and in one that has first converted large bodies,
 * with Node's default young generation and with `interlingua serve`'s (`--max-semi-space-size=64`).
 *
 *   npx tsx bench/gc-state.bench.ts            (BENCH_GC_PAIRS=from:to,... to choose pairs)
 */
import { fileURLToPath } from 'node:url';
import { HEAP_FLAG } from '../src/cli/serve-command.js';
import { runTsChild } from './child.js';

const CHILD = fileURLToPath(new URL('./gc-state/child.ts', import.meta.url));
const PAIRS = (process.env['BENCH_GC_PAIRS'] ?? 'anthropic-messages:bedrock-converse,openai-chat:anthropic-messages,a2a:openai-chat,gemini:openai-responses').split(',');

interface Result {
  us: number;
  majorGcs: number;
  scavengeMs: number;
}

function run(pair: string, history: 'fresh' | 'after-large', flags: string[]): Result {
  return runTsChild<Result>(CHILD, [pair, history], flags);
}

const rows: Record<string, string>[] = [];
for (const pair of PAIRS) {
  for (const [label, flags] of [['default', []], ['serve (' + HEAP_FLAG + ')', [HEAP_FLAG]]] as const) {
    const fresh = run(pair, 'fresh', [...flags]);
    const after = run(pair, 'after-large', [...flags]);
    rows.push({
      pair,
      'young generation': label,
      'fresh us': fresh.us.toFixed(0),
      'after large us': after.us.toFixed(0),
      slowdown: (after.us / fresh.us).toFixed(2),
      'scavenge ms (fresh / after)': `${fresh.scavengeMs.toFixed(0)} / ${after.scavengeMs.toFixed(0)}`,
      'major GCs (fresh / after)': `${fresh.majorGcs} / ${after.majorGcs}`,
    });
  }
}
console.log('20-message conversion, CPU time per JSON.parse + convert + JSON.stringify (median of 5 batches of 400), in a fresh process and after converting 2,000-message bodies');
console.table(rows);
const worst = rows.filter((r) => r['young generation'] === 'default').sort((a, b) => Number(b['slowdown']) - Number(a['slowdown']))[0];
if (worst) console.log(`worst: ${worst['pair']} ${worst['slowdown']}x slower after a large conversion (default young generation)`);
