/**
 * Oracle: every OpenAI Chat body our codec produces is valid against the official OpenAI OpenAPI
 * schema (the extracted subset in test/fixtures/schemas/). Two sources of bodies:
 * (a) OpenAI captures round-tripped (openai-chat -> openai-chat), checked against the schema as
 *     published, whenever the capture itself is valid (compatible providers sometimes are not);
 * (b) Anthropic captures converted to OpenAI Chat without preserve: every key is written by our
 *     encoder, so they are checked against the closed schema (no key the spec does not define).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/index.js';
import { samples } from '../cross/corpus.js';
import { check, openAiValidators } from '../support/openapi.js';

const v = openAiValidators();
const tally = { 'openai round trip (open)': 0, 'openai capture not spec-valid (skipped)': 0, 'anthropic -> openai (closed)': 0 };

describe('the OpenAPI oracle itself', () => {
  const ok = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };

  it('accepts a minimal request and rejects what the spec forbids', () => {
    expect(check(v.closedRequest, ok)).toBe('');
    expect(check(v.request, { model: 'gpt-4o' })).toMatch(/messages/);
    expect(check(v.request, { ...ok, messages: [{ role: 'robot', content: 'Hi' }] })).not.toBe('');
    expect(check(v.request, { ...ok, messages: [{ role: 'tool', content: 'x' }] })).not.toBe('');
    expect(check(v.request, { ...ok, messages: [{ role: 'user', content: [] }] })).not.toBe('');
    expect(check(v.request, { ...ok, temperature: 3 })).not.toBe('');
    expect(check(v.request, { ...ok, messages: [{ role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] })).not.toBe('');
  });

  it('translates nullable: null is accepted where the spec says nullable, refused elsewhere', () => {
    expect(check(v.request, { ...ok, max_completion_tokens: null, stop: null, temperature: null })).toBe('');
    expect(check(v.request, { ...ok, model: null })).not.toBe('');
  });

  it('closed flavour refuses unknown keys at every level, open flavour does not', () => {
    const extraTop = { ...ok, reasoning_content: 'x' };
    const extraPart = { ...ok, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }] };
    expect(check(v.request, extraTop)).toBe('');
    expect(check(v.closedRequest, extraTop)).toMatch(/reasoning_content/);
    expect(check(v.closedRequest, extraPart)).toMatch(/cache_control/);
  });

  it('checks responses: finish_reason, message.role and required fields', () => {
    const res = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'Hi', refusal: null } }],
    };
    expect(check(v.closedResponse, res)).toBe('');
    expect(check(v.response, { ...res, choices: [{ ...res.choices[0], finish_reason: 'end_turn' }] })).not.toBe('');
    expect(check(v.response, { ...res, created: '2024' })).not.toBe('');
    const { refusal: _r, ...noRefusal } = res.choices[0]?.message ?? {};
    expect(check(v.response, { ...res, choices: [{ ...res.choices[0], message: noRefusal }] })).toMatch(/refusal/);
  });
});

describe.each(['request', 'response'] as const)('OpenAI Chat %s bodies we produce are valid per the OpenAPI schema', (kind) => {
  const openValidator = kind === 'request' ? v.request : v.response;
  const closedValidator = kind === 'request' ? v.closedRequest : v.closedResponse;

  const openai = samples('openai-chat', kind);
  it.each(openai.map((s) => [s.name, s.body] as const))('openai-chat round trip: %s', (_name, body) => {
    const out = convert(body, { from: 'openai-chat', to: 'openai-chat', kind }).value;
    if (check(openValidator, body) !== '') {
      // A compatible provider's body outside the spec: the round trip must not make it worse
      // than the input, which the cross tests check as deep equality.
      tally['openai capture not spec-valid (skipped)']++;
      return;
    }
    expect(check(openValidator, out)).toBe('');
    tally['openai round trip (open)']++;
  });

  const anthropic = samples('anthropic-messages', kind);
  it.each(anthropic.map((s) => [s.name, s.body] as const))('anthropic -> openai-chat: %s', (_name, body) => {
    const out = convert(body, { from: 'anthropic-messages', to: 'openai-chat', kind }).value;
    expect(check(closedValidator, out)).toBe('');
    tally['anthropic -> openai (closed)']++;
  });

  it('has bodies to check', () => {
    expect(openai.length).toBeGreaterThan(0);
    expect(anthropic.length).toBeGreaterThan(0);
  });
});

afterAll(() => {
  console.log('OpenAPI oracle: bodies validated');
  console.table(tally);
});
