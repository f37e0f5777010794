/**
 * Property tests over generated valid Anthropic Messages and OpenAI Chat bodies
 * (test/support/arbitraries/): converted to Responses, the body is valid against the closed
 * OpenAPI schema and decodes again; with `preserve`, converting back gives the original exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { anthropicRequest, anthropicResponse } from '../../support/arbitraries/anthropic.js';
import { openaiRequest, openaiResponse } from '../../support/arbitraries/openai-chat.js';
import { validateOpenaiResponsesClosed } from '../../support/validators/openai-responses.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);

const CASES = [
  { from: 'anthropic-messages', kind: 'request', arb: anthropicRequest },
  { from: 'anthropic-messages', kind: 'response', arb: anthropicResponse },
  { from: 'openai-chat', kind: 'request', arb: openaiRequest },
  { from: 'openai-chat', kind: 'response', arb: openaiResponse },
] as const;

describe.each(CASES)('$from $kind -> openai-responses', ({ from, kind, arb }) => {
  it('is valid per the closed schema and decodes again', () => {
    fc.assert(
      fc.property(arb(), (body) => {
        const out = convert(body, { from, to: 'openai-responses', kind });
        expect(validateOpenaiResponsesClosed(kind, out.value)).toEqual([]);
        expect(() => convert(out.value, { from: 'openai-responses', to: 'openai-responses', kind })).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  });

  it('comes back exactly with preserve', () => {
    fc.assert(
      fc.property(arb(), (body) => {
        const there = convert(body, { from, to: 'openai-responses', kind, preserve: true });
        expect(there.losses.filter((l) => l.action === 'dropped')).toEqual([]);
        expect(convert(there.value, { from: 'openai-responses', to: from, kind }).value).toEqual(body);
      }),
      { numRuns: RUNS },
    );
  });
});
