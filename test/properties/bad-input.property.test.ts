/**
 * (c) Bad input never crashes: mutated valid bodies (a field deleted, a value of the wrong type,
 * an unknown block type, a random JSON subtree, tool-call arguments that are not JSON) and random
 * JSON values either convert or throw a ValidationError — never any other exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert, InterlinguaError, ValidationError } from '../../src/index.js';
import { anthropicRequest, anthropicResponse } from '../support/arbitraries/anthropic.js';
import { jsonValue } from '../support/arbitraries/common.js';
import { applyMutation, mutation } from '../support/arbitraries/mutate.js';
import { openaiRequest, openaiResponse } from '../support/arbitraries/openai-chat.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 150);

type Dialect = 'anthropic-messages' | 'openai-chat';
type Kind = 'request' | 'response';

const CASES: { from: Dialect; kind: Kind; arb: () => fc.Arbitrary<Record<string, unknown>> }[] = [
  { from: 'anthropic-messages', kind: 'request', arb: anthropicRequest },
  { from: 'anthropic-messages', kind: 'response', arb: anthropicResponse },
  { from: 'openai-chat', kind: 'request', arb: openaiRequest },
  { from: 'openai-chat', kind: 'response', arb: openaiResponse },
];
const TARGETS: Dialect[] = ['anthropic-messages', 'openai-chat'];

/** Converts and reports 'ok', 'invalid' (a ValidationError with issues) or rethrows anything else. */
function outcome(body: unknown, from: Dialect, to: Dialect, kind: Kind): 'ok' | 'invalid' {
  try {
    convert(body, { from, to, kind });
    return 'ok';
  } catch (err) {
    if (err instanceof ValidationError) {
      expect(err.issues.length).toBeGreaterThan(0);
      for (const issue of err.issues) expect(Array.isArray(issue.path)).toBe(true);
      return 'invalid';
    }
    throw err;
  }
}

describe.each(CASES)('$from $kind with bad input', ({ from, kind, arb }) => {
  it('mutated bodies convert or throw a ValidationError', () => {
    const seen = { ok: 0, invalid: 0 };
    fc.assert(
      fc.property(arb(), mutation(), fc.constantFrom(...TARGETS), (body, m, to) => {
        seen[outcome(applyMutation(body, m), from, to, kind)]++;
      }),
      { numRuns: RUNS },
    );
    // The mutations must actually produce invalid bodies, or this property proves nothing.
    expect(seen.invalid).toBeGreaterThan(RUNS / 10);
  });

  // A response's arguments are what the model wrote, valid JSON or not (OpenAI); a request's are the caller's.
  const argumentsAreInput = !(from === 'openai-chat' && kind === 'response');

  it.runIf(argumentsAreInput)('broken tool-call arguments are a ValidationError pointing at them', () => {
    fc.assert(
      fc.property(
        // A key, not a value that happens to read "arguments" (a generated user id may).
        arb().filter((b) => JSON.stringify(b).includes(from === 'openai-chat' ? '"arguments":' : '"input":')),
        fc.constantFrom('{', '{"a":', 'not json', '[1,'),
        (body, junk) => {
          const bad = applyMutation(body, { kind: 'break-arguments', at: 0, junk });
          let caught: unknown;
          try {
            convert(bad, { from, to: 'openai-chat', kind });
          } catch (err) {
            caught = err;
          }
          expect(caught).toBeInstanceOf(ValidationError);
          const paths = (caught as ValidationError).issues.map((i) => i.path.join('.'));
          expect(paths.some((p) => p.endsWith(from === 'openai-chat' ? 'arguments' : 'input'))).toBe(true);
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it.runIf(!argumentsAreInput)('broken tool-call arguments of a response convert: kept verbatim, reported where they cannot go', () => {
    fc.assert(
      fc.property(
        // The first choice has calls, so the broken arguments are in the one Anthropic keeps.
        arb().filter((b) => JSON.stringify((b['choices'] as unknown[])[0]).includes('"arguments":')),
        fc.constantFrom('{', '{"a":', 'not json', '[1,'),
        (body, junk) => {
          const bad = applyMutation(body, { kind: 'break-arguments', at: 0, junk });
          expect(convert(bad, { from, to: from, kind }).value).toEqual(bad);
          const losses = convert(bad, { from, to: 'anthropic-messages', kind }).losses;
          expect(losses.map((l) => l.code)).toContain('invalid-arguments');
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('random JSON values convert or throw an InterlinguaError', () => {
    fc.assert(
      fc.property(jsonValue(), fc.constantFrom(...TARGETS), (body, to) => {
        try {
          convert(body, { from, to, kind });
        } catch (err) {
          expect(err).toBeInstanceOf(InterlinguaError);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
