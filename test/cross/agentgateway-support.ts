/**
 * What the agentgateway vector suites share (test/fixtures/conversion/agentgateway, Apache-2.0):
 * reading an input and its insta snapshot, the verdict vocabulary of docs/decisions/0002, and the
 * comparison that lists every remaining difference by path, so each suite can say which ones it
 * expects and why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Loss } from '../../src/index.js';
import { LOCAL_FIXTURES } from '../support/captures.js';
import { diff } from './diff.js';

export type Json = Record<string, unknown>;
export type Kind = 'request' | 'response';

/** Who the docs side with: us, agentgateway, neither, either (both valid), or it depends on the model. */
export type Verdict = 'ours' | 'theirs' | 'neither' | 'either' | 'model';

export interface Known {
  verdict: Verdict;
  reason: string;
  /** The loss code we report for it (checked), when the difference is something we drop or approximate. */
  loss?: string;
}

export interface Vector {
  /** Paths (dot-joined) that differ after normalising, each with its verdict. */
  known?: Record<string, Known>;
  /** A structural difference applied to one side before comparing (checked to change something). */
  reshape?: Known & { side: 'ours' | 'theirs'; apply: (body: Json) => Json };
  /** We reject the input: the issue path, and why. */
  rejects?: Known & { path: string };
}

export const ROOT = join(LOCAL_FIXTURES, 'conversion/agentgateway');

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const readJson = (file: string): Json => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json;

/** The body an insta snapshot expects: after the `---` YAML header, `{request|response, parsed}`. */
export function expected(file: string): Json {
  const snap = JSON.parse(readFileSync(join(ROOT, file), 'utf8').split(/^---$/m).slice(2).join('---')) as Json;
  return (snap['request'] ?? snap['response'] ?? snap) as Json;
}

export const codes = (losses: Loss[]): string[] => losses.map((l) => l.code);

/** The paths (dot-joined, sorted) where the two bodies differ, after the vector's reshape if any. */
export function compare(ours: Json, theirs: Json, v: Vector): string[] {
  if (v.reshape) {
    const before = v.reshape.side === 'ours' ? ours : theirs;
    const after = v.reshape.apply(before);
    expect(after, `reshape '${v.reshape.reason}' changes nothing`).not.toEqual(before);
    if (v.reshape.side === 'ours') ours = after;
    else theirs = after;
  }
  return diff(ours, theirs)
    .map((d) => d.path.join('.'))
    .sort();
}

/** Every listed difference was found, no other, and each one we say we report is reported. */
export function expectListed(found: string[], v: Vector, losses: Loss[]): void {
  expect(found).toEqual(Object.keys(v.known ?? {}).sort());
  for (const k of Object.values(v.known ?? {})) if (k.loss) expect(codes(losses)).toContain(k.loss);
  if (v.reshape?.loss) expect(codes(losses)).toContain(v.reshape.loss);
}

/**
 * Verdicts of the listed differences, for the ADR's counts. A difference is one reason in one
 * vector: the paths one `Known` covers there (all the echo fields of a response ...) count once.
 */
export function verdicts(vectors: Record<string, Vector>): Record<Verdict, number> {
  const out: Record<Verdict, number> = { ours: 0, theirs: 0, neither: 0, either: 0, model: 0 };
  for (const v of Object.values(vectors)) {
    const reasons = new Set<Known>(Object.values(v.known ?? {}));
    if (v.reshape) reasons.add(v.reshape);
    if (v.rejects) reasons.add(v.rejects);
    for (const k of reasons) out[k.verdict]++;
  }
  return out;
}
