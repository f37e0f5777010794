/**
 * Where a request cell's time goes, by phase (not a timing of the aims): for each source dialect,
 * over that source body's floor (JSON.parse + JSON.stringify of it), what parsing the body,
 * decoding it (validation included) and encoding the canonical request into each target cost, and
 * what writing that target's output costs. A cell of the bench is about parse + decode + encode +
 * write, plus what the garbage collector and the process's state add to it there.
 *   npx tsx bench/convert/phases.ts        MSGS=20|200|2000  IMAGES=none|small
 * CPU time per call: each phase of a source is timed in 3 rounds taken in turns (the floor's too),
 * each the best of 4 slices of 40 ms, and the best of its rounds is kept, so that a phase and its
 * floor are read at the same time (a process's speed drifts by tens of percent over a minute).
 */
import { decode, encode } from '../../src/index.js';
import type { Images } from './generate.js';
import { PROVIDERS, requestBodies } from './bodies.js';
import { short } from './report.js';
import { cpu } from './timing.js';

const SOURCES = [...PROVIDERS, 'agent-input'];
const TARGETS = SOURCES;
const messages = Number(process.env['MSGS'] ?? 20);
const images = (process.env['IMAGES'] ?? 'none') as Images;
const bodies = requestBodies(messages, images, SOURCES);
const text = (from: string): string => bodies.text.get(from) ?? '';

for (let round = 0; round < 2; round++) {
  for (const from of SOURCES) {
    for (let i = 0; i < Math.max(20, 6000 / messages); i++) {
      const canonical = decode(JSON.parse(text(from)), { from }).value;
      for (const to of TARGETS) encode(canonical, { to });
    }
  }
}

const rows: Record<string, Record<string, string>> = {};
for (const from of SOURCES) {
  const body = text(from);
  const parsed: unknown = JSON.parse(body);
  // Decoded from parsed copies in turn (a decoder only reads its input), so that decode is timed alone.
  const copies = Array.from({ length: messages > 200 ? 4 : 16 }, () => JSON.parse(body) as unknown);
  let next = 0;
  const canonical = decode(JSON.parse(body), { from }).value;
  const outs = TARGETS.map((to) => encode(canonical, { to }).value);
  // Phase name -> the calls it times; every phase gets the best of its rounds.
  const phases = new Map<string, () => unknown>([
    ['parse', () => JSON.parse(body)],
    ['write source', () => JSON.stringify(parsed)],
    ['decode', () => decode(copies[next++ % copies.length], { from })],
    ...TARGETS.map((to): [string, () => unknown] => [`encode ${to}`, () => encode(canonical, { to })]),
    ...TARGETS.map((to, k): [string, () => unknown] => [`write ${to}`, () => JSON.stringify(outs[k])]),
  ]);
  const best = new Map<string, number>();
  for (let round = 0; round < 3; round++) for (const [name, f] of phases) best.set(name, Math.min(best.get(name) ?? Infinity, cpu(f, 4, 40, 0)));
  const at = (name: string): number => best.get(name) as number;
  const floor = at('parse') + at('write source');
  const row: Record<string, string> = { 'floor µs': floor.toFixed(1), parse: (at('parse') / floor).toFixed(2), decode: (at('decode') / floor).toFixed(2) };
  for (const to of TARGETS) row[short(to)] = `${(at(`encode ${to}`) / floor).toFixed(2)} + ${(at(`write ${to}`) / floor).toFixed(2)}`;
  rows[short(from)] = row;
}
console.log(`Requests, ${messages} msgs, ${images === 'none' ? 'no images' : 'small images'}: each phase over the source body's floor; targets as encode + writing the output`);
console.table(rows);
