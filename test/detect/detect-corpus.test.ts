/**
 * Detection over every labeled capture (test/fixtures always; ../shared/fixtures when present):
 * the confusion table is measured and printed, and every capture its own codec accepts must be
 * detected as its dialect and kind — as the best match, or, where the body genuinely fits two
 * (listed below), among the candidates. Captures their own codec refuses cannot be named; for them
 * detection must name no dialect or another that accepts them, and the closest must be theirs.
 */
import { describe, expect, it } from 'vitest';
import { detect, issuesAs, type Detection } from '../../src/detect/index.js';
import { hasSharedFixtures } from '../support/captures.js';
import { labeledCaptures, type Labeled } from './corpus.js';

/**
 * Inputs that fit two readings by the codecs themselves, and why; the right one must be a candidate.
 * - one streamGenerateContent chunk pasted alone is a GenerateContentResponse body as well;
 */
const TWO_READINGS: { name: RegExp; why: string }[] = [{ name: /gemini.*(js-genai|partial-args-one-part)/, why: 'a one-chunk Gemini stream is also a Gemini response body' }];

const label = (c: { format: string; kind: string }): string => `${c.format} ${c.kind}`;
const captures = labeledCaptures();

interface Outcome {
  capture: Labeled;
  detection: Detection;
  ownAccepts: boolean;
}

function outcome(c: Labeled): Outcome {
  const detection = detect(c.input);
  const ownAccepts = issuesAs(c.format, c.kind, c.input).length === 0;
  return { capture: c, detection, ownAccepts };
}

const outcomes = captures.map(outcome);

describe(`detect() on ${captures.length} labeled captures${hasSharedFixtures() ? '' : ' (../shared/fixtures absent: test/fixtures only)'}`, () => {
  it('prints the confusion table (rows: labeled; columns: detected best)', () => {
    const table = new Map<string, Map<string, number>>();
    for (const o of outcomes) {
      const row = label(o.capture);
      const col = o.detection.best ? label(o.detection.best) : 'none';
      const r = table.get(row) ?? new Map<string, number>();
      r.set(col, (r.get(col) ?? 0) + 1);
      table.set(row, r);
    }
    const lines = [...table.entries()].sort().map(([row, cols]) => `${row.padEnd(30)} ${[...cols.entries()].map(([c, n]) => `${c}: ${n}`).join(', ')}`);
    console.log(`detection confusion table (${outcomes.length} captures)\n${lines.join('\n')}`);
    expect(table.size).toBeGreaterThan(10);
  });

  it('names the right dialect and kind of every capture its own codec accepts', () => {
    const wrong: string[] = [];
    const two: string[] = [];
    for (const o of outcomes.filter((x) => x.ownAccepts)) {
      const want = label(o.capture);
      const best = o.detection.best ? label(o.detection.best) : 'none';
      if (best === want) continue;
      const isCandidate = o.detection.candidates.some((x) => label(x) === want);
      if (isCandidate && TWO_READINGS.some((t) => t.name.test(o.capture.name))) {
        two.push(o.capture.name);
        continue;
      }
      wrong.push(`${o.capture.name}: want ${want}, got ${o.detection.candidates.map((x) => `${label(x)} ${x.confidence}`).join(' | ') || 'none'}`);
    }
    console.log(`two readings (the right one among the candidates): ${two.length}`);
    expect(wrong).toEqual([]);
  });

  it('for captures their own codec refuses, names no dialect falsely as theirs and points at theirs as closest', () => {
    const refused = outcomes.filter((o) => !o.ownAccepts);
    console.log(`refused by their own codec: ${refused.length}\n${refused.map((o) => `  ${o.capture.name}: ${o.detection.best ? `accepted as ${label(o.detection.best)}` : `closest ${label(o.detection.closest!)}: ${o.detection.closest?.issues[0]?.message}`}`).join('\n')}`);
    for (const o of refused) {
      expect(o.detection.candidates.map(label)).not.toContain(label(o.capture));
      if (o.detection.best === undefined) expect(label(o.detection.closest!)).toBe(label(o.capture));
    }
    // Another dialect's codec accepting a refused body is rare and named here, so a new one is seen.
    expect(refused.filter((o) => o.detection.best !== undefined).map((o) => o.capture.name)).toEqual(['local:anthropic-messages/requests/reasoning.json']);
  });
});
