/**
 * What `preserve` costs over the same conversion without it, and why its groups are stashed (not a
 * bench of the aims). Each is timed as convert.bench.ts times a cell, by its own convertRow
 * (every op warmed first, then interleaved batches against the floor, median of the per-batch
 * ratios; BENCH_BATCHES, BENCH_MIN_MS), plain and preserve each against the floor. Per pair of the bench's `preserve`
 * section (200 messages, small images):
 * - `plain` and `preserve`: parse + convert + write the output, over the floor (parse + write the source);
 * - `stash work`: their difference over the floor, what the stashes and read-back checks cost;
 * - `stashed`: message stashes written;
 * - `form only`: of those, the ones whose patch only restores the canonical *form* the target's
 *   decode gives differently, nothing the target lost: a tool call's `argumentsJson` added or
 *   dropped (the bench's argument texts are all `JSON.stringify` output), tool results regrouped
 *   under another role, `stringContent`, a codec's `$` flags, anything the decode adds. "Behaviour
 *   identical" (issue 13) keeps those stashes: `preserve` promises the same canonical request
 *   back, not only the same wire (ADR 0014).
 *   MSGS=200 IMAGES=small BENCH_SOURCES=… BENCH_TARGETS=… npx tsx bench/convert/preserve-budget.ts
 */
import { convert } from '../../src/index.js';
import { requestBodies, sourcesFromEnv, targetsFromEnv } from './bodies.js';
import type { Images } from './generate.js';
import { convertOp, convertRow, type ConvertCase } from './measure.js';
import { short } from './report.js';
import { timingFromEnv, warmUp } from './timing.js';

const size = Number(process.env['MSGS'] ?? 200);
const images = (process.env['IMAGES'] ?? 'small') as Images;
const sources = sourcesFromEnv();
const targets = targetsFromEnv();
const bodies = requestBodies(size, images, sources);
const timing = timingFromEnv();

type Op = [path: (string | number)[], value?: unknown, insert?: 1];

/** Whether an ext op only sets a codec's form flags (`$item: true` ...); a hint holding a value (`$id: 'msg-2'`, AG-UI's message id) is content. */
function flagsOnly(op: Op): boolean {
  const ext = op[1];
  if (ext === null || typeof ext !== 'object') return false;
  for (const own of Object.values(ext as Record<string, unknown>)) {
    if (own === null || typeof own !== 'object') return false;
    for (const [k, v] of Object.entries(own)) if (!k.startsWith('$') || typeof v !== 'boolean') return false;
  }
  return true;
}

/**
 * Whether a patch op restores only a form (see the header); `path[0]` is the message index. A
 * delete takes out what the target's decode added (a minted id, the name Gemini gives a result).
 */
function formOnly(op: Op): boolean {
  if (op.length === 1) return true;
  if (op.length === 3) return false; // an inserted part: something the target did not write
  const rest = op[0].slice(1).filter((p) => typeof p === 'string');
  const last = rest[rest.length - 1];
  if (last === 'argumentsJson' || last === 'stringContent' || last === 'role') return true;
  if (last === 'ext') return flagsOnly(op);
  return false;
}

/** Message stashes in a written body: [all, form only]. */
function stashes(body: unknown): [number, number] {
  let all = 0;
  let form = 0;
  JSON.stringify(body, (key, v: unknown) => {
    if (key === 'x-interlingua' && v !== null && typeof v === 'object' && 'span' in v) {
      all++;
      const patch = (v as { patch?: unknown }).patch;
      if (Array.isArray(patch) && (patch as Op[]).every(formOnly)) form++;
    }
    return v;
  });
  return [all, form];
}

const pairs: [from: string, to: string, text: string][] = [];
for (const from of sources) {
  const text = bodies.text.get(from);
  if (text !== undefined) for (const to of targets) if (to !== from) pairs.push([from, to, text]);
}
// The bench's own cell (measure.ts), with and without preserve.
const cell = (from: string, to: string, text: string, preserve: boolean): ConvertCase => ({ setting: 'preserve-budget', from, to, text, preserve });
warmUp(pairs.flatMap(([from, to, text]) => [convertOp(cell(from, to, text, false)), convertOp(cell(from, to, text, true))]), timing);

const rows: Record<string, Record<string, string>> = {};
const sum = { plain: 0, kept: 0, all: 0, form: 0 };
for (const [from, to, text] of pairs) {
  const plain = convertRow(cell(from, to, text, false), timing).ratio ?? Number.NaN;
  const kept = convertRow(cell(from, to, text, true), timing).ratio ?? Number.NaN;
  const [all, form] = stashes(convert(JSON.parse(text), { from, to, preserve: true }).value);
  rows[`${short(from)} -> ${short(to)}`] = { plain: plain.toFixed(2), preserve: kept.toFixed(2), 'stash work': (kept - plain).toFixed(2), stashed: String(all), 'form only': String(form) };
  sum.plain += plain;
  sum.kept += kept;
  sum.all += all;
  sum.form += form;
}
const n = pairs.length;
console.log(`preserve over plain conversion, ${size} msgs ${images} images; ratios over the JSON floor (${timing.batches} interleaved batches each)`);
console.table(rows);
console.log(`mean over ${n} cells: plain ${(sum.plain / n).toFixed(2)}x, preserve ${(sum.kept / n).toFixed(2)}x (stash work +${((sum.kept - sum.plain) / n).toFixed(2)}x); stashes ${sum.all}, form only ${sum.form}`);
