/**
 * Output check for response conversion work (not a bench): the bench's response body in each
 * provider dialect plus every JSON file under test/fixtures (and ../shared/fixtures when present)
 * read as a response of each provider dialect, converted to every provider dialect with and
 * without `preserve`; prints a hash of the output and the losses per case (or the error), so two
 * checkouts can be compared line by line. Made-up ids and `created` times are pinned by stubbing
 * the random and clock sources here, in this script only.
 *   [SHARED_FIXTURES=/work/shared/fixtures] npx tsx bench/convert/golden-responses.ts > /tmp/a.txt
 */
import * as crypto from 'node:crypto';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

// Pinned before the library loads: every minted id and timestamp is then the same in every run.
const cjs = crypto as unknown as { randomFillSync: (b: Uint8Array) => Uint8Array; randomUUID: () => string };
const realCrypto = await import('node:crypto').then((m) => m.default as unknown as typeof cjs);
realCrypto.randomFillSync = (b: Uint8Array) => b.fill(7);
realCrypto.randomUUID = () => '00000000-0000-4000-8000-000000000000';
syncBuiltinESMExports();
// OpenAI Chat mints its `chatcmpl-` id with the global Web Crypto.
globalThis.crypto.randomUUID = () => '00000000-0000-4000-8000-000000000000';
Date.now = () => 1_700_000_000_000;
void cjs;

const { convert } = await import('../../src/index.js');
const { PROVIDERS, responseBodies } = await import('./bodies.js');

/** A made-up Chat id in randomUUID's form, however it was made (the stub's or the pool's). */
const UUID_ID = /chatcmpl-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const hash = (s: string): string => crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);

function files(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

const cases: [string, string, string][] = [];
for (const [from, text] of responseBodies().text) cases.push([`bench`, from, text]);
const root = new URL('../..', import.meta.url).pathname;
// SHARED_FIXTURES names the shared captures for a checkout that is not beside them.
const shared = process.env['SHARED_FIXTURES'] ?? join(root, '../shared/fixtures');
for (const [dir, name] of [[join(root, 'test/fixtures'), 'test/fixtures'], [shared, 'shared/fixtures']] as const) {
  for (const f of files(dir, [])) {
    const text = readFileSync(f, 'utf8');
    for (const from of PROVIDERS) cases.push([name + f.slice(dir.length), from, text]);
  }
}

for (const [name, from, text] of cases) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    continue;
  }
  for (const to of PROVIDERS) {
    for (const preserve of [false, true]) {
      let line: string;
      try {
        const r = convert(structuredClone(body), { from, to, kind: 'response', preserve });
        line = hash(JSON.stringify(r.value).replace(UUID_ID, 'chatcmpl-<uuid>') + '\n' + JSON.stringify(r.losses));
      } catch (err) {
        line = `throws ${hash(String(err))} ${String(err).slice(0, 80).replace(/\s+/g, ' ')}`;
        if (to !== PROVIDERS[0] || preserve) continue; // a decode error is the same for every target
      }
      console.log(`${name} ${from} -> ${to}${preserve ? ' preserve' : ''}: ${line}`);
    }
  }
}
