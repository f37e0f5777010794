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

/**
 * KNOWN CODEC BUGS, reported to the lead with minimal inputs and not fixed yet. Each is limited to
 * the captures (and, for the loss check, the canonical paths) where it shows, so everything else
 * stays checked; the preserve cases run as `it.fails`, so a fix makes them fail until removed here.
 */
const KNOWN_ISSUES: { kind: BodyKind; name: RegExp; path?: RegExp; preserve: boolean; why: string }[] = [
  { kind: 'request', name: /ToolRunner\.nock\.json#[0-59]$/, preserve: true, why: 'B1: Anthropic tool type "custom" lost under preserve' },
  { kind: 'request', name: /test_run_stream_sync_streams_real_model\.yaml#1$/, preserve: true, why: 'B2: OpenAI assistant content: null lost under preserve' },
  {
    kind: 'request',
    name: /test_openai_web_search_tool\.yaml#0$|test_run_stream_sync_streams_real_model\.yaml#0$/,
    preserve: true,
    why: 'B3: top-level unsupported field reported "dropped" though the preserve stash restores it',
  },
  {
    kind: 'response',
    name: /test_compatible_api_with_tool_calls_without_id/,
    path: /^usage\.(totalTokens|raw\.total_tokens)$/,
    preserve: true,
    why: 'B4: total_tokens != prompt + completion (Gemini compat) recomputed on the way back, no loss, not stashed',
  },
];
const knownIssue = (kind: BodyKind, name: string, path: (string | number)[]): boolean =>
  KNOWN_ISSUES.some((k) => k.kind === kind && k.path !== undefined && k.name.test(name) && k.path.test(path.join('.')));
const knownPreserve = (kind: BodyKind, name: string): string | undefined =>
  KNOWN_ISSUES.find((k) => k.kind === kind && k.preserve && k.name.test(name))?.why;

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
      const healthy = list.filter((s) => knownPreserve(kind, s.name) === undefined);
      const known = list.filter((s) => knownPreserve(kind, s.name) !== undefined);
      it.each(healthy.map((s) => [s.name, s.body] as const))('preserve round trip is exact: %s', (_name, body) => {
        preserveExact(body);
        count.preserveExact++;
      });
      if (known.length > 0) {
        it.fails.each(known.map((s) => [`${knownPreserve(kind, s.name) ?? ''} — ${s.name}`, s.body] as const))(
          'KNOWN CODEC BUG, preserve round trip not exact: %s',
          (_name, body) => preserveExact(body),
        );
      }

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
        const missed = uncovered(before, after, there.losses).filter((d) => !knownIssue(kind, _name, d.path));
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
