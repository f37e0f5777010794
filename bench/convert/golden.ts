/**
 * Output check for conversion work (not a bench): the bench's generated conversations (1, 20 and
 * 200 messages, with no and with small images) in every source dialect, converted to every request
 * dialect with and without `preserve`; prints a hash of the output and the losses per case, so two
 * checkouts can be compared line by line. Responses are left out: they carry made-up ids.
 *   npx tsx bench/convert/golden.ts > /tmp/a.txt
 */
import { createHash } from 'node:crypto';
import { convert, formats } from '../../src/index.js';
import { requestBodies, SOURCES } from './bodies.js';
import type { Images } from './generate.js';

const targets = formats().filter((f) => f.kinds.includes('request')).map((f) => f.id as string);

for (const size of [1, 20, 200]) {
  for (const images of ['none', 'small'] as Images[]) {
    const bodies = requestBodies(size, images, SOURCES);
    for (const [from, text] of bodies.text) {
      for (const to of targets) {
        for (const preserve of [false, true]) {
          let line: string;
          try {
            const r = convert(JSON.parse(text), { from, to, preserve });
            line = createHash('sha256').update(JSON.stringify(r.value)).update(JSON.stringify(r.losses)).digest('hex').slice(0, 16);
          } catch (err) {
            line = `throws ${String(err).slice(0, 120)}`;
          }
          console.log(`${size} ${images} ${from} -> ${to}${preserve ? ' preserve' : ''}: ${line}`);
        }
      }
    }
  }
}
