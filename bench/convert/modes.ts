/**
 * Whether a pair's ratio depends on the process it is measured in (not a timing of the aims): one
 * 200-message request pair measured as the bench measures it (warm-up of every pair of the given
 * sources and targets, then interleaved batches against the floor), in N fresh processes for each
 * set of V8 flags, in turns. Each process also counts the objects of a fresh conversion (the
 * canonical messages and the target's body) that V8 allocated straight into the old generation:
 * an allocation site that V8's pretenuring has marked "tenure" puts every later object of that
 * literal there, for the life of the process (docs/performance.md, "Seventeenth session").
 *
 *   npx tsx bench/convert/modes.ts
 *   MODES_PROCESSES=8 MODES_FROM=openai-chat MODES_TO=bedrock-converse npx tsx bench/convert/modes.ts
 * Flag sets: MODES_FLAGS, `;`-separated (default: none; --no-allocation-site-pretenuring;
 * --max-semi-space-size=64, which `interlingua serve` gives its gateway).
 */
import { fileURLToPath } from 'node:url';
import { decode, encode } from '../../src/index.js';
import { requestBodies } from './bodies.js';
import { runTsChild } from '../child.js';
import { convertOp, convertRow, type ConvertCase } from './measure.js';
import { median, timingFromEnv, warmUp } from './timing.js';

const FROM = process.env['MODES_FROM'] ?? 'openai-chat';
const TO = process.env['MODES_TO'] ?? 'bedrock-converse';
/** The other pairs warmed with it, as a bench run of these sources and targets warms them. */
const SOURCES = ['openai-chat', 'openai-responses'];
const TARGETS = ['bedrock-converse', 'anthropic-messages', 'openai-chat'];
const MESSAGES = 200;

interface ChildResult {
  ratios: number[];
  /** Objects of a fresh conversion allocated in the old generation, and all of them. */
  old: number;
  objects: number;
}

function child(): void {
  const inYoung = new Function('o', 'return %InYoungGeneration(o)') as (o: unknown) => boolean;
  const timing = timingFromEnv();
  const sources = SOURCES.includes(FROM) ? SOURCES : [...SOURCES, FROM];
  const bodies = requestBodies(MESSAGES, 'none', sources);
  const cases: ConvertCase[] = [];
  for (const [from, text] of bodies.text) for (const to of TARGETS.includes(TO) ? TARGETS : [...TARGETS, TO]) cases.push({ setting: 'modes', from, to, text });
  warmUp(cases.map(convertOp), timing);
  const text = bodies.text.get(FROM) as string;
  // The bench's own cell (measure.ts), three times in this process.
  const ratios = [0, 1, 2].map(() => convertRow({ setting: 'modes', from: FROM, to: TO, text }, timing).ratio ?? Number.NaN);
  let old = 0;
  let objects = 0;
  const count = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    objects++;
    if (!inYoung(v)) old++;
    for (const x of Array.isArray(v) ? v : Object.values(v)) count(x);
  };
  // Objects JSON.parse made are left out (no allocation site): the source body is not walked.
  const canonical = decode(JSON.parse(text), { from: FROM }).value;
  count(canonical);
  count(encode(canonical, { to: TO }).value);
  const result: ChildResult = { ratios, old, objects };
  console.log(JSON.stringify(result));
}

function parent(): void {
  const processes = Number(process.env['MODES_PROCESSES'] ?? 6);
  const flagSets = (process.env['MODES_FLAGS'] ?? ';--no-allocation-site-pretenuring;--max-semi-space-size=64').split(';').map((s) => s.trim().split(/\s+/).filter(Boolean));
  const script = fileURLToPath(import.meta.url);
  const rows = new Map<string, string[]>();
  for (let p = 0; p < processes; p++) {
    for (const flags of flagSets) {
      const r = runTsChild<ChildResult>(script, ['--child'], ['--allow-natives-syntax', ...flags]);
      const key = flags.length === 0 ? '(default flags)' : flags.join(' ');
      const list = rows.get(key) ?? [];
      list.push(`${median(r.ratios).toFixed(2)} (${r.old} of ${r.objects} old)`);
      rows.set(key, list);
    }
  }
  console.log(`${FROM} -> ${TO}, ${MESSAGES} msgs no images: each process's ratio (median of 3 measurements) and the objects of one fresh conversion allocated in the old generation`);
  for (const [key, list] of rows) console.log(`${key.padEnd(36)} ${list.join('  ')}`);
}

if (process.argv.includes('--child')) child();
else parent();
