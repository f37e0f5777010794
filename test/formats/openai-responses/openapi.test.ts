/**
 * The OpenAPI oracle (test/support/validators/openai-responses.ts) and what it says about bodies:
 * it accepts what the spec allows and names the path of what it does not; every body our encoder
 * writes from another origin is valid against the closed schema; a round trip never makes a
 * capture less valid than it was (real clients send assistant history the spec does not describe,
 * e.g. output_text without logprobs, and the API takes it: those are counted, not fixed).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { validateOpenaiResponses, validateOpenaiResponsesClosed } from '../../support/validators/openai-responses.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, fixture, localBodies } from './helpers.js';

const tally = { 'capture valid (open)': 0, 'capture outside the spec': 0, 'round trip valid (open)': 0 };

describe('the oracle itself', () => {
  const ok = { model: 'gpt-5', input: [{ role: 'user', content: 'Hi' }] };

  it('accepts a minimal request, string or item input, and rejects what the spec forbids, by path', () => {
    expect(validateOpenaiResponsesClosed('request', ok)).toEqual([]);
    expect(validateOpenaiResponsesClosed('request', { model: 'gpt-5', input: 'Hi' })).toEqual([]);
    expect(validateOpenaiResponses('request', { ...ok, temperature: 3 })).toEqual(['temperature: must be <= 2']);
    expect(validateOpenaiResponses('request', { ...ok, max_output_tokens: 8 })).toEqual(['max_output_tokens: must be >= 16']);
    expect(validateOpenaiResponses('request', { ...ok, input: [{ type: 'teleport' }] })).toEqual([expect.stringMatching(/^input\[0\]\.type: must be one of the types allowed here/)]);
    expect(validateOpenaiResponses('request', { ...ok, input: [{ type: 'function_call', call_id: 'c', name: 'f' }] })).toContain("input[0]: must have required property 'arguments'");
    expect(validateOpenaiResponses('request', { ...ok, tools: [{ type: 'function', name: 'f' }] })).toEqual(
      expect.arrayContaining(["tools[0]: must have required property 'strict'", "tools[0]: must have required property 'parameters'"]),
    );
  });

  it('assistant content lists need an output message (id, status) and output_text needs logprobs', () => {
    const item = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a', annotations: [], logprobs: [] }] };
    expect(validateOpenaiResponses('request', { ...ok, input: [item] })).not.toEqual([]);
    expect(validateOpenaiResponses('request', { ...ok, input: [{ ...item, id: 'msg_1', status: 'completed' }] })).toEqual([]);
    expect(validateOpenaiResponses('request', { ...ok, input: [{ role: 'assistant', content: 'a' }] })).toEqual([]);
  });

  it('closed flavour refuses keys the spec does not define, open flavour does not', () => {
    const extra = { ...ok, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }] };
    expect(validateOpenaiResponses('request', extra)).toEqual([]);
    expect(validateOpenaiResponsesClosed('request', extra)).toEqual(["input[0].content[0]: must NOT have unevaluated properties 'cache_control'"]);
  });

  it('checks responses: required echo fields, status values, usage details', () => {
    // The real API answers with two things the spec does not allow: `user: null` (the spec says
    // string) and no cache_write_tokens (the spec requires it).
    const real = fixture('responses/agentgateway/basic.json');
    expect(validateOpenaiResponses('response', real)).toEqual(["usage.input_tokens_details: must have required property 'cache_write_tokens'", 'user: must be string']);
    const { user: _u, ...rest } = real;
    const usage = rest['usage'] as Record<string, unknown>;
    const res: Record<string, unknown> = { ...rest, usage: { ...usage, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } } };
    expect(validateOpenaiResponses('response', res)).toEqual([]);
    expect(validateOpenaiResponses('response', { ...res, status: 'done' })).toEqual([expect.stringMatching(/^status: must be equal to one of the allowed values/)]);
    const { tools: _t, ...noTools } = res;
    expect(validateOpenaiResponses('response', noTools)).toEqual(["(root): must have required property 'tools'"]);
  });
});

describe('round trips never make a capture less valid', () => {
  it.each(localBodies().map((b) => [b.name, b] as const))('%s', (_name, b) => {
    const before = validateOpenaiResponses(b.kind, b.body);
    const out = b.kind === 'request' ? encodeRequest(decodeRequest(b.body)).value : encodeResponse(decodeResponse(b.body)).value;
    const after = validateOpenaiResponses(b.kind, out);
    if (before.length > 0) {
      tally['capture outside the spec']++;
      expect(after).toEqual(before);
      return;
    }
    tally['capture valid (open)']++;
    expect(after).toEqual([]);
    tally['round trip valid (open)']++;
  });
});

afterAll(() => {
  console.log('OpenAPI oracle over local Responses captures');
  console.table(tally);
});
