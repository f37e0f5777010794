/**
 * The loops that stand in for Bedrock's tool name and tool use id patterns (names.ts) answer as the
 * regexes do, on any text (ASCII, the pattern's own characters, other Unicode, any length).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToolName, isToolUseId, TOOL_NAME, TOOL_USE_ID } from '../../../src/formats/bedrock-converse/names.js';

const near = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.string({ unit: fc.constantFrom(...'aZ09_-.:/ é\n'.split('')), maxLength: 70 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', 'a'.repeat(64), 'a'.repeat(65), 'x\n', 'tooluse_1:2.3'),
);

describe('Bedrock name patterns', () => {
  it('isToolUseId and isToolName answer as TOOL_USE_ID and TOOL_NAME', () => {
    fc.assert(
      fc.property(near, (s) => {
        expect(isToolUseId(s)).toBe(TOOL_USE_ID.test(s));
        expect(isToolName(s)).toBe(TOOL_NAME.test(s));
      }),
      { numRuns: 2000 },
    );
  });
});
