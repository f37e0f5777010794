/**
 * What the ratio could be at best (not a bench): for each pair, JSON.parse of the source plus
 * JSON.stringify of the real conversion output, over the floor (parse plus stringify of the source);
 * i.e. the ratio of a converter that cost nothing, given how much the target writes. A cell whose
 * bound is over the aim cannot meet it however fast the conversion is (ADR 0010: `preserve`).
 *   KIND=request|response MSGS=20|200|2000 IMAGES=none|small PRESERVE=1 npx tsx bench/convert/bound.ts
 * CPU time per call, the best of 5 slices of 150 ms.
 */
import { convert } from '../../src/index.js';
import { PROVIDERS, requestBodies, responseBodies, SOURCES, TARGETS } from './bodies.js';
import type { Images } from './generate.js';
import { short } from './report.js';
import { boundRatio, sourceFloor } from './timing.js';

const kind = process.env['KIND'] === 'response' ? 'response' : 'request';
const size = Number(process.env['MSGS'] ?? 20);
const images = (process.env['IMAGES'] ?? 'none') as Images;
const preserve = process.env['PRESERVE'] === '1';
const sources = kind === 'response' ? [...PROVIDERS] : [...SOURCES];
const targets = kind === 'response' ? [...PROVIDERS] : [...TARGETS];
const bodies = kind === 'response' ? responseBodies(sources) : requestBodies(size, images, sources);

const rows: Record<string, Record<string, string>> = {};
let over = 0;
let cells = 0;
for (const from of sources) {
  const text = bodies.text.get(from);
  if (text === undefined) continue;
  const source = sourceFloor(text);
  const row: Record<string, string> = {};
  for (const to of targets) {
    if (preserve && to === from) continue;
    const out = convert(JSON.parse(text), { from, to, kind, preserve }).value;
    const bound = boundRatio(source, out);
    row[short(to)] = bound.toFixed(2);
    cells++;
    if (bound > 1.5) over++;
  }
  rows[short(from)] = row;
}
console.log(`Best possible ratio (parse source + write output, over the floor): ${kind}${kind === 'request' ? `, ${size} msgs ${images} images` : ''}${preserve ? ', preserve' : ''}`);
console.table(rows);
console.log(`cells whose bound is over 1.5x: ${over} of ${cells}`);
