/**
 * The any-to-any conversion matrix: every real body of every dialect (test/support/samples.ts),
 * converted to every other registered dialect that has the same kind. Per pair it measures
 * - converted: the conversion returned a body (it did not throw);
 * - schema-valid: that body (converted without `preserve`, the one meant for the provider)
 *   passes the target's validator (test/support/validators/<format>.ts) and the target's own
 *   decoder accepts it (which checks rules a schema cannot, such as tool calls and results pairing);
 * - preserve-exact: A -> B with `preserve`, serialised to JSON and read back, then B -> A gives a
 *   body deep-equal to A;
 * and counts the loss codes of the plain conversion. Nothing is skipped silently: bodies that are
 * invalid on purpose (error envelopes, requests the API refused, validation vectors) are counted
 * apart, and a body the source decoder rejects without being known-invalid is a failure.
 */
import { isDeepStrictEqual } from 'node:util';
import { convert, decode, formats } from '../../src/index.js';
import { FORMAT_IDS } from '../../src/model/format-id.js';
import { samples, SAMPLED_FORMATS, type Sample } from '../support/samples.js';
import { loadValidator, type BodyKind, type LoadedValidator } from './validators.js';

export const KINDS: readonly BodyKind[] = ['request', 'response'];

export type Stage = 'decode' | 'convert' | 'validate' | 'preserve';

export interface Failure {
  stage: Stage;
  sample: string;
  /** JSON length of the source body, to pick the smallest example. */
  size: number;
  detail: string;
}

export interface Cell {
  from: string;
  to: string;
  kind: BodyKind;
  bodies: number;
  converted: number;
  /** undefined when the target has no validator yet. */
  valid: number | undefined;
  preserveExact: number;
  failures: Failure[];
  lossCodes: Record<string, number>;
}

export interface Row {
  format: string;
  kind: BodyKind;
  registered: boolean;
  /** The codec supports this kind. */
  supported: boolean;
  /** Bodies found for the row (valid and invalid). */
  samples: number;
  /** Invalid on purpose, and rejected by the decoder as they should be. */
  invalidRejected: number;
  /** Invalid on purpose, yet accepted by the decoder (converted like the others). */
  invalidAccepted: string[];
  /** Bodies the decoder rejects that are not known to be invalid. */
  decodeFailures: Failure[];
  /** Bodies converted to the other dialects (all those the decoder accepts). */
  valid: Sample[];
}

export interface MatrixResult {
  /** Row / column order: the known dialects, then any other registered format. */
  formats: string[];
  registered: Set<string>;
  validators: Map<string, LoadedValidator>;
  rows: Row[];
  cells: Cell[];
}

const json = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const size = (v: unknown): number => JSON.stringify(v)?.length ?? 0;
const short = (v: unknown): string => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
};
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** The first place two JSON values differ, as `path: before -> after`. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return `${path || '(root)'}: length ${a.length} -> ${b.length}`;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return `${path || '(root)'}: ${short(a)} -> ${short(b)}`;
}

function kindsOf(format: string): Set<BodyKind> {
  const info = formats().find((f) => f.id === format);
  return new Set((info?.kinds ?? []).filter((k): k is BodyKind => k === 'request' || k === 'response'));
}

function buildRow(format: string, kind: BodyKind, registered: boolean): Row {
  const supported = registered && kindsOf(format).has(kind);
  const list = samples(format, kind);
  const row: Row = { format, kind, registered, supported, samples: list.length, invalidRejected: 0, invalidAccepted: [], decodeFailures: [], valid: [] };
  if (!supported) return row;
  for (const s of list) {
    let ok = true;
    let error = '';
    try {
      decode(s.body, { from: format, kind });
    } catch (e) {
      ok = false;
      error = message(e);
    }
    if (s.invalid !== undefined && !ok) row.invalidRejected++;
    else if (ok) {
      // Only a body the decoder rejects is set aside; one it accepts is converted like any other.
      if (s.invalid !== undefined) row.invalidAccepted.push(`${s.name} (${s.invalid})`);
      row.valid.push(s);
    }
    else row.decodeFailures.push({ stage: 'decode', sample: s.name, size: size(s.body), detail: error });
  }
  return row;
}

interface Pending {
  cell: Cell;
  sample: Sample;
  value: unknown;
  /** Why the target's own decoder refuses the output, if it does. */
  decodeError?: string;
}

/** Converts every valid body of `row` to `to`; validation is filled in later, in one batch per target. */
function buildCell(row: Row, to: string, pending: Pending[]): Cell {
  const { format: from, kind } = row;
  const cell: Cell = { from, to, kind, bodies: row.valid.length, converted: 0, valid: undefined, preserveExact: 0, failures: [], lossCodes: {} };
  for (const s of row.valid) {
    const fail = (stage: Stage, detail: string): void => {
      cell.failures.push({ stage, sample: s.name, size: size(s.body), detail });
    };
    try {
      const out = convert(s.body, { from, to, kind });
      cell.converted++;
      for (const l of out.losses) cell.lossCodes[l.code] = (cell.lossCodes[l.code] ?? 0) + 1;
      const value = json(out.value);
      const p: Pending = { cell, sample: s, value };
      try {
        decode(value, { from: to, kind });
      } catch (e) {
        p.decodeError = `${to}'s decoder rejects it: ${message(e)}`;
      }
      pending.push(p);
    } catch (e) {
      fail('convert', message(e));
    }
    try {
      const there = json(convert(s.body, { from, to, kind, preserve: true }).value);
      const back = json(convert(there, { from: to, to: from, kind }).value);
      const d = firstDifference(s.body, back);
      if (d === undefined) cell.preserveExact++;
      else fail('preserve', d);
    } catch (e) {
      fail('preserve', `threw: ${message(e)}`);
    }
  }
  return cell;
}

export async function runMatrix(): Promise<MatrixResult> {
  const registered = new Set<string>(formats().map((f) => f.id));
  const order = [...SAMPLED_FORMATS, ...FORMAT_IDS.filter((id) => registered.has(id) && !SAMPLED_FORMATS.includes(id))];
  const validators = new Map<string, LoadedValidator>();
  for (const f of order) validators.set(f, await loadValidator(f));
  const rows: Row[] = [];
  const cells: Cell[] = [];
  const pending: Pending[] = [];
  for (const kind of KINDS) {
    for (const from of order) {
      const row = buildRow(from, kind, registered.has(from));
      rows.push(row);
      if (!row.supported) continue;
      for (const to of order) {
        if (to === from || !registered.has(to) || !kindsOf(to).has(kind)) continue;
        cells.push(buildCell(row, to, pending));
      }
    }
  }
  // One validator call per target (the Anthropic oracle compiles all its bodies in one program).
  for (const to of order) {
    const v = validators.get(to);
    const mine = pending.filter((p) => p.cell.to === to);
    if (mine.length === 0) continue;
    const results = v?.status === 'ok' ? v.validate(mine.map((p) => ({ kind: p.cell.kind, value: p.value }))) : undefined;
    if (results) for (const c of cells) if (c.to === to) c.valid = 0;
    mine.forEach((p, i) => {
      const errors = [...(p.decodeError === undefined ? [] : [p.decodeError]), ...(results ? (results[i] ?? ['validator returned nothing']) : [])];
      if (errors.length > 0) p.cell.failures.push({ stage: 'validate', sample: p.sample.name, size: size(p.sample.body), detail: errors.slice(0, 3).join(' | ') });
      else if (results) p.cell.valid = (p.cell.valid ?? 0) + 1;
    });
  }
  return { formats: order, registered, validators, rows, cells };
}
