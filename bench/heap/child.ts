/**
 * One run of the heap bench (bench/heap.bench.ts starts it under a heap limit): reads the source
 * body from a file of JSON lines (line 1: `{ key, skeleton }`, then one line per element of
 * `skeleton[key]`) held in a Buffer, which lives outside the V8 heap, parsing one line at a time,
 * so no whole-body text ever sits in the heap: the heap holds the parsed input and nothing of its
 * reading. Then, by `mode`: `noop` (nothing), `convert` (the converted value, kept) or `stringify`
 * (the converted value's JSON text, kept). Prints `{ base, after }`: heapUsed after a full GC
 * before and after the step. Exit code 0 means the step fit in the heap limit.
 *
 *   node --expose-gc --max-old-space-size=<MB> --import tsx bench/heap/child.ts <file> <from> <to> <mode>
 */
import { readFileSync } from 'node:fs';
import { convert } from '../../src/index.js';

const [file, from, to, mode] = process.argv.slice(2) as [string, string, string, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const buf = readFileSync(file);
let at = 0;
const line = (): string | undefined => {
  if (at >= buf.length) return undefined;
  let end = buf.indexOf(10, at);
  if (end < 0) end = buf.length;
  const s = buf.toString('utf8', at, end);
  at = end + 1;
  return s;
};
const head = JSON.parse(line() as string) as { key: string; skeleton: Record<string, unknown> };
const items: unknown[] = [];
for (let l = line(); l !== undefined; l = line()) if (l !== '') items.push(JSON.parse(l));
const body: Record<string, unknown> = { ...head.skeleton, [head.key]: items };

gc();
gc();
const base = process.memoryUsage().heapUsed;
let out: unknown;
if (mode === 'convert') out = convert(body, { from, to }).value;
else if (mode === 'stringify') out = JSON.stringify(convert(body, { from, to }).value);
gc();
const after = process.memoryUsage().heapUsed;
// Both stay reachable until here.
process.stdout.write(JSON.stringify({ base, after, items: (body[head.key] as unknown[]).length, out: out === undefined ? 0 : 1 }));
