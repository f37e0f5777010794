/**
 * Cross-format round trips on every real Anthropic Messages and OpenAI Chat capture:
 * - with `preserve`, A -> B -> A gives back exactly A (both directions, requests and responses);
 * - without it, A -> B -> A differs from A only where the A -> B losses said something was lost
 *   (compared as canonical values, at the granularity of a top-level field or a message).
 * Loss-code counts per pair are printed as a table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convert, decode } from '../../src/index.js';
import { countCodes, samples, type BodyKind, type Dialect } from './corpus.js';
import { mergeTurns, show, uncovered, withoutHints } from './diff.js';

const PAIRS: [Dialect, Dialect][] = [
  ['anthropic-messages', 'openai-chat'],
  ['openai-chat', 'anthropic-messages'],
];
const KINDS: BodyKind[] = ['request', 'response'];

const codes = new Map<string, string[]>();
const counts = new Map<string, { bodies: number; preserveExact: number; lossless: number }>();

for (const [from, to] of PAIRS) {
  for (const kind of KINDS) {
    const pair = `${from} -> ${to} (${kind})`;
    const list = samples(from, kind);
    const codeList: string[] = [];
    const count = { bodies: list.length, preserveExact: 0, lossless: 0 };
    codes.set(pair, codeList);
    counts.set(pair, count);

    describe(pair, () => {
      it('has real bodies to convert', () => {
        expect(list.length).toBeGreaterThan(0);
      });

      const preserveExact = (body: unknown): void => {
        const there = convert(body, { from, to, kind, preserve: true });
        const back = convert(there.value, { from: to, to: from, kind });
        expect(back.value).toEqual(body);
        for (const loss of there.losses) expect(loss.action).not.toBe('dropped');
      };
      it.each(list.map((s) => [s.name, s.body] as const))('preserve round trip is exact: %s', (_name, body) => {
        preserveExact(body);
        count.preserveExact++;
      });

      it.each(list.map((s) => [s.name, s.body] as const))('without preserve, only reported losses differ: %s', (_name, body) => {
        const there = convert(body, { from, to, kind });
        codeList.push(...there.losses.map((l) => l.code));
        const back = convert(there.value, { from: to, to: from, kind });
        // Loss paths are canonical-model paths, so the comparison is on the canonical values.
        const canonical = (b: unknown): unknown => {
          const c = withoutHints(decode(b, { from, kind }).value) as Record<string, unknown>;
          // OpenAI documents n = 1 as the default: dropping it loses nothing.
          if (c['candidateCount'] === 1) delete c['candidateCount'];
          return from === 'anthropic-messages' ? mergeTurns(c) : c;
        };
        const before = canonical(body);
        const after = canonical(back.value);
        const missed = uncovered(before, after, there.losses);
        expect(missed, show(missed)).toEqual([]);
        if (there.losses.length === 0) count.lossless++;
      });
    });
  }
}

afterAll(() => {
  console.log('Cross-format round trips over real captures');
  console.table(Object.fromEntries(counts));
  const table: Record<string, Record<string, number>> = {};
  for (const [pair, list] of codes) table[pair] = countCodes(list);
  console.log('Loss codes per pair (A -> B, no preserve)');
  console.table(table);
});
