/**
 * Where a response cell's time goes (not a timing of the aims): for each pair of the bench's
 * responses section, over that source body's floor (JSON.parse + JSON.stringify of it):
 * - `bound`: parsing the source plus writing the real output (bound.ts's figure);
 * - `min`: converting a minimal response (one short text, no call) of that source, without its
 *   parse: what every conversion of the pair pays whatever the body holds;
 * - `cell`: bound plus converting the bench's own body, without its parse (what the bench's cell
 *   measures, less the noise of interleaving).
 * So `cell - bound - min` is what the body's parts cost beyond the minimal conversion.
 *   npx tsx bench/convert/response-costs.ts
 * CPU time per call, the best of 5 slices of 150 ms, after every pair has run 4,000 times.
 */
import { convert } from '../../src/index.js';
import { PROVIDERS, responseBodies } from './bodies.js';
import { short } from './report.js';
import { boundRatio, cpu, sourceFloor } from './timing.js';

const MINIMAL = {
  id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
};

const bodies = responseBodies();
const text = (from: string): string => bodies.text.get(from) ?? '';
const minimalText = (from: string): string =>
  JSON.stringify(from === 'anthropic-messages' ? MINIMAL : convert(MINIMAL, { from: 'anthropic-messages', to: from, kind: 'response' }).value);
const run = (body: string, from: string, to: string): unknown => convert(JSON.parse(body), { from, to, kind: 'response' }).value;

for (let round = 0; round < 2; round++) for (const from of PROVIDERS) for (const to of PROVIDERS) for (let i = 0; i < 2000; i++) run(text(from), from, to);

const rows: Record<string, Record<string, string>> = {};
let fixedShare = 0;
for (const from of PROVIDERS) {
  const body = text(from);
  const small = minimalText(from);
  const source = sourceFloor(body);
  const { parse, floor } = source;
  const smallParse = cpu(() => JSON.parse(small));
  const row: Record<string, string> = { 'floor µs': floor.toFixed(2) };
  for (const to of PROVIDERS) {
    const out = run(body, from, to);
    const bound = boundRatio(source, out);
    const min = (cpu(() => run(small, from, to)) - smallParse) / floor;
    const conversion = (cpu(() => run(body, from, to)) - parse) / floor;
    fixedShare += min / conversion / (PROVIDERS.length * PROVIDERS.length);
    row[short(to)] = `${bound.toFixed(2)} + ${min.toFixed(2)} | ${(bound + conversion).toFixed(2)}`;
  }
  rows[short(from)] = row;
}
console.log('Responses: bound + min | cell, each over the source body\'s floor (see the header of this file)');
console.table(rows);
console.log(`mean share of a cell's conversion that a minimal response's conversion costs: ${(100 * fixedShare).toFixed(0)}%`);
