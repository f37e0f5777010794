/**
 * Properties of the Bedrock codec on generated input:
 * - any Anthropic / OpenAI body the generators make converts to a Bedrock body the Smithy model
 *   accepts, and with `preserve` converts back exactly;
 * - a mutated real Bedrock body either fails validation with a ValidationError, or is valid and
 *   then round-trips exactly: never a crash, never a silent change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import { ValidationError } from '../../../src/model/errors.js';
import { anthropicRequest, anthropicResponse } from '../../support/arbitraries/anthropic.js';
import { applyMutation, mutation } from '../../support/arbitraries/mutate.js';
import { openaiRequest, openaiResponse } from '../../support/arbitraries/openai-chat.js';
import { validateBedrockConverse } from '../../support/validators/bedrock-converse.js';
import { decodeReq, decodeRes, encodeReq, encodeRes, local } from './helpers.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
const SOURCES = [
  { from: 'anthropic-messages', kind: 'request', arb: anthropicRequest },
  { from: 'anthropic-messages', kind: 'response', arb: anthropicResponse },
  { from: 'openai-chat', kind: 'request', arb: openaiRequest },
  { from: 'openai-chat', kind: 'response', arb: openaiResponse },
] as const;

describe('generated bodies of other formats -> Bedrock', () => {
  for (const { from, kind, arb } of SOURCES) {
    it(`${from} ${kind}: a valid Bedrock body, and back exactly under preserve`, () => {
      fc.assert(
        fc.property(arb(), (body) => {
          const plain = convert(body, { from, to: 'bedrock-converse', kind });
          expect(validateBedrockConverse(kind, plain.value)).toEqual([]);
          const kept = convert(body, { from, to: 'bedrock-converse', kind, preserve: true });
          expect(convert(kept.value, { from: 'bedrock-converse', to: from, kind }).value).toEqual(body);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('mutated real Bedrock bodies', () => {
  const cases = [
    { kind: 'request' as const, bodies: local.requests.filter((s) => !s.name.includes('tool_history_without_tools')).map((s) => s.body) },
    { kind: 'response' as const, bodies: local.responses.map((s) => s.body) },
  ];
  for (const { kind, bodies } of cases) {
    it(`${kind}: a ValidationError, or an exact round trip`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...bodies), mutation(), (body, m) => {
          const mutated = applyMutation(body, m);
          let decoded;
          try {
            decoded = kind === 'request' ? decodeReq(mutated) : decodeRes(mutated);
          } catch (e) {
            expect(e).toBeInstanceOf(ValidationError);
            return;
          }
          const back = kind === 'request' ? encodeReq(decoded as never) : encodeRes(decoded as never);
          expect(back.value).toEqual(mutated);
          expect(back.losses).toEqual([]);
        }),
        { numRuns: RUNS * 3 },
      );
    });
  }
});
