/**
 * The local copies of real Bedrock captures (test/fixtures/bedrock-converse): every request and
 * response decodes without loss and encodes back deep-equal; the Smithy schema oracle accepts the
 * recorded traffic and names what is wrong in the hand-made vectors.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type KindCodec } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { validateBedrockConverse } from '../../support/validators/bedrock-converse.js';
import { codec, issuesOf, local } from './helpers.js';

const INVALID = 'requests/messages-tool_history_without_tools.bedrock.snap';

/**
 * What the Smithy oracle finds in the hand-made files (no recorded traffic is among them): vercel's
 * edited responses drop `metrics` and add a `type` key beside a block's member; agentgateway's
 * vectors drop usage / metrics, and one writes `tool_choice` (snake case) into toolConfig.
 */
const ORACLE_FINDINGS: Record<string, string[]> = {
  'requests/completions-full.bedrock.snap': ['toolConfig.tool_choice: not a member of the model'],
  'responses/agentgateway-max_tokens.json': ['metrics: required member is missing'],
  'responses/agentgateway-tool.json': ['usage: required member is missing', 'metrics: required member is missing'],
  'responses/amazon-bedrock-json-other-tool.1.json': ['metrics: required member is missing'],
  'responses/amazon-bedrock-json-tool.1.json': ['metrics: required member is missing'],
  'responses/amazon-bedrock-tool-call.1.json': ['metrics: required member is missing'],
  'responses/amazon-bedrock-tool-no-args.json': ['metrics: required member is missing'],
};
const TYPE_BESIDE_TEXT = /^output\.message\.content\[\d+\](\.type: not a member of the union|: a union sets exactly one member; found type, text)/;
const EDITED_WITH_TYPE = ['amazon-bedrock-json-tool-with-answer.1', 'amazon-bedrock-json-tool.2', 'amazon-bedrock-json-tool.3', 'amazon-bedrock-json-with-tool.1', 'amazon-bedrock-json-with-tools.1'];

function roundTrip(kind: 'request' | 'response', body: unknown): void {
  const kc = (kind === 'request' ? codec.request! : codec.response!) as KindCodec<unknown>;
  const losses = new LossList();
  const canonical = kc.decode(body, { limits: DEFAULT_LIMITS, losses });
  expect(losses.items).toEqual([]);
  const encodeLosses = new LossList();
  expect(kc.encode(canonical, { preserve: false, losses: encodeLosses })).toEqual(body);
  expect(encodeLosses.items).toEqual([]);
}

const short = (name: string): string => name.replace(/^bedrock-converse\//, '');

describe('local Bedrock captures round-trip exactly', () => {
  it('has the copies', () => {
    expect(local.requests.length).toBeGreaterThanOrEqual(29);
    expect(local.responses.length).toBeGreaterThanOrEqual(39);
  });
  for (const s of local.requests) {
    if (s.name.endsWith(INVALID)) {
      it(`rejects the assistant-first vector: ${short(s.name)}`, () => {
        expect(issuesOf(() => codec.request!.decode(s.body, { limits: DEFAULT_LIMITS, losses: new LossList() })).map((i) => [i.code, i.path])).toEqual([
          ['first_message_not_user', ['messages', 0, 'role']],
        ]);
      });
    } else it(`request: ${short(s.name)}`, () => roundTrip('request', s.body));
  }
  for (const s of local.responses) it(`response: ${short(s.name)}`, () => roundTrip('response', s.body));
});

describe('Smithy schema oracle on the local captures', () => {
  for (const [kind, list] of [['request', local.requests], ['response', local.responses]] as const) {
    for (const s of list) {
      const name = short(s.name);
      it(`${kind}: ${name}`, () => {
        const errors = validateBedrockConverse(kind, s.body);
        if (EDITED_WITH_TYPE.some((n) => name.includes(n))) {
          expect(errors.length).toBeGreaterThan(0);
          for (const e of errors) expect(e === 'metrics: required member is missing' || TYPE_BESIDE_TEXT.test(e), e).toBe(true);
        } else expect(errors).toEqual(ORACLE_FINDINGS[name] ?? []);
      });
    }
  }
  it('finds errors with their paths in a broken body', () => {
    const errors = validateBedrockConverse('request', {
      messages: [{ role: 'robot', content: [{ text: 'a', image: { format: 'png', source: { bytes: '%%' } } }, { toolUse: { toolUseId: 'x y', name: 'n', input: {} } }] }],
      inferenceConfig: { maxTokens: 0, temperature: 1.5 },
      toolConfig: { tools: [] },
    });
    expect(errors).toEqual([
      "messages[0].role: 'robot' is not one of user, assistant, system",
      'messages[0].content[0]: a union sets exactly one member; found text, image',
      'messages[0].content[0].image.source.bytes: expected base64 text (a blob)',
      'messages[0].content[1].toolUse.toolUseId: does not match the pattern ^[a-zA-Z0-9_.:-]+$',
      'inferenceConfig.maxTokens: 0 is below the minimum 1',
      'inferenceConfig.temperature: 1.5 is above the maximum 1',
      'toolConfig.tools: length 0 is below the minimum 1',
    ]);
  });
});
