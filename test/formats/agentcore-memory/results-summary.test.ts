/**
 * Reading a results blob asks whether the TOOL text before it is the summary the encoder would
 * write (content.ts): isResultsSummary and hasResultsSummary answer that without joining the
 * pieces, and must answer exactly as comparing with resultsSummary does, the limit's cut included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part, ToolResultPart } from '../../../src/model/part.js';
import { hasResultsSummary, isResultsSummary, resultsSummary } from '../../../src/formats/agentcore-memory/content.js';
import { LIMITS } from '../../../src/formats/agentcore-memory/agentcore-memory-api.js';

const piece = fc.oneof(fc.constantFrom('', ' ', '\n', 'ok', 'a\nb', '😀', '\ud83d'), fc.string({ maxLength: 12 }));
const part: fc.Arbitrary<Part> = fc.oneof(
  piece.map((text) => ({ type: 'text', text }) as Part),
  fc.jsonValue({ maxDepth: 2 }).map((data) => ({ type: 'data', data }) as Part),
  fc.constant({ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } } as Part),
);
const result: fc.Arbitrary<ToolResultPart> = fc.array(part, { maxLength: 4 }).map((content) => ({ type: 'tool-result', callId: 'c', content }));
const results = fc.array(result, { maxLength: 3 });

/** The summary and texts near it: cut short, one character off, one more. */
function candidates(rs: ToolResultPart[], other: string): string[] {
  const s = resultsSummary(rs);
  const out = [s, other, `${s}x`, `${s}\n`, s.slice(0, -1), s.slice(1)];
  if (s.length > 0) out.push(`${s.slice(0, s.length >> 1)}#${s.slice((s.length >> 1) + 1)}`);
  return out;
}

describe('results summary, compared without the join', () => {
  it('isResultsSummary(rs, t) is resultsSummary(rs) === t; hasResultsSummary(rs) is resultsSummary(rs) !== ""', () => {
    fc.assert(
      fc.property(results, fc.string({ maxLength: 20 }), (rs, other) => {
        expect(hasResultsSummary(rs)).toBe(resultsSummary(rs) !== '');
        for (const t of candidates(rs, other)) expect(isResultsSummary(rs, t)).toBe(resultsSummary(rs) === t);
      }),
      { numRuns: 2000 },
    );
  });

  it('at the conversational limit: pieces that reach it, and a cut beside a surrogate pair', () => {
    const max = LIMITS.conversationalText;
    const text = (t: string): ToolResultPart => ({ type: 'tool-result', callId: 'c', content: [{ type: 'text', text: t }] });
    const long = 'x'.repeat(max - 3);
    const cases: ToolResultPart[][] = [
      [text('y'.repeat(max))],
      [text('y'.repeat(max - 1))],
      [text('y'.repeat(max + 5))],
      [text(long), text('ab')],
      [text(long), text('abc')],
      [text(long), text('a😀b')],
      [text(long + 'a'), text('😀')],
      [text('z'.repeat(max - 2)), text('😀😀')],
      // A piece that ends exactly at the limit on a high surrogate, more after it: the cut keeps one less.
      [text(`${'w'.repeat(max - 1)}\ud83d`), text('more')],
    ];
    for (const rs of cases) {
      for (const t of candidates(rs, 'other')) expect(isResultsSummary(rs, t)).toBe(resultsSummary(rs) === t);
    }
  });
});
