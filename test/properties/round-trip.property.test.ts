/**
 * Property tests over generated valid bodies (test/support/arbitraries/):
 * (a) A -> canonical -> A is exact, for requests and responses of both dialects;
 * (b) A -> B with preserve -> A is exact;
 * (d) A -> B without preserve decodes again as B, and for OpenAI Chat targets is valid against
 *     the closed OpenAPI schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/index.js';
import { anthropicRequest, anthropicResponse } from '../support/arbitraries/anthropic.js';
import { openaiRequest, openaiResponse } from '../support/arbitraries/openai-chat.js';
import { check, openAiValidators } from '../support/openapi.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 150);
const params = { numRuns: RUNS };

type Dialect = 'anthropic-messages' | 'openai-chat';
type Kind = 'request' | 'response';

const CASES: { dialect: Dialect; other: Dialect; kind: Kind; arb: () => fc.Arbitrary<Record<string, unknown>> }[] = [
  { dialect: 'anthropic-messages', other: 'openai-chat', kind: 'request', arb: anthropicRequest },
  { dialect: 'anthropic-messages', other: 'openai-chat', kind: 'response', arb: anthropicResponse },
  { dialect: 'openai-chat', other: 'anthropic-messages', kind: 'request', arb: openaiRequest },
  { dialect: 'openai-chat', other: 'anthropic-messages', kind: 'response', arb: openaiResponse },
];

const v = openAiValidators();

describe.each(CASES)('$dialect $kind', ({ dialect, other, kind, arb }) => {
  it('(a) A -> canonical -> A is exact and lossless', () => {
    fc.assert(
      fc.property(arb(), (body) => {
        const out = convert(body, { from: dialect, to: dialect, kind });
        expect(out.value).toEqual(body);
        expect(out.losses).toEqual([]);
      }),
      params,
    );
  });

  it(`(b) A -> ${other} with preserve -> A is exact`, () => {
    fc.assert(
      fc.property(arb(), (body) => {
        const there = convert(body, { from: dialect, to: other, kind, preserve: true });
        const back = convert(there.value, { from: other, to: dialect, kind });
        expect(back.value).toEqual(body);
      }),
      params,
    );
  });

  it(`(d) A -> ${other} without preserve is a valid ${other} body`, () => {
    fc.assert(
      fc.property(arb(), (body) => {
        const there = convert(body, { from: dialect, to: other, kind });
        expect(() => convert(there.value, { from: other, to: other, kind })).not.toThrow();
        expect(JSON.stringify(there.value)).not.toContain('x-interlingua');
        if (other === 'openai-chat') {
          expect(check(kind === 'request' ? v.closedRequest : v.closedResponse, there.value)).toBe('');
        }
      }),
      params,
    );
  });
});

describe('the arbitraries produce what they claim', () => {
  it('generated OpenAI Chat bodies are valid per the closed OpenAPI schema', () => {
    fc.assert(
      fc.property(openaiRequest(), (body) => {
        expect(check(v.closedRequest, body)).toBe('');
      }),
      params,
    );
    fc.assert(
      fc.property(openaiResponse(), (body) => {
        expect(check(v.closedResponse, body)).toBe('');
      }),
      params,
    );
  });

  it('generated Anthropic requests alternate roles, start with user and answer every tool_use next turn', () => {
    fc.assert(
      fc.property(anthropicRequest(), (body) => {
        const messages = body['messages'] as { role: string; content: unknown }[];
        expect(messages[0]?.role).toBe('user');
        messages.forEach((m, i) => {
          if (i > 0) expect(m.role).not.toBe(messages[i - 1]?.role);
          if (m.role !== 'assistant' || !Array.isArray(m.content)) return;
          const ids = (m.content as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => b.id);
          const next = messages[i + 1]?.content;
          const answered = Array.isArray(next) ? (next as { type: string; tool_use_id?: string }[]).slice(0, ids.length).map((b) => b.tool_use_id) : [];
          if (ids.length > 0) expect(answered).toEqual(ids);
        });
      }),
      params,
    );
  });
});
