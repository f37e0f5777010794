/**
 * The validators this matrix brings (openai-chat, anthropic-messages, agent-input) accept real
 * bodies and refuse broken ones, so a "schema-valid" count means something. Runs without ../shared
 * (examples/ and test/fixtures only). The loader reports a validator that does not exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_FIXTURES, REPO_ROOT } from '../support/captures.js';
import { validateAgentInput } from '../support/validators/agent-input.js';
import { validateAnthropicMessagesBatch } from '../support/validators/anthropic-messages.js';
import { validateOpenaiChat } from '../support/validators/openai-chat.js';
import { loadValidator, validatorName } from './validators.js';

const example = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as Record<string, unknown>;

describe('openai-chat validator (OpenAPI, closed)', () => {
  it('accepts a minimal request and response, refuses unknown keys and wrong values', () => {
    const req = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };
    expect(validateOpenaiChat('request', req)).toEqual([]);
    expect(validateOpenaiChat('request', { ...req, 'x-interlingua': {} })).not.toEqual([]);
    expect(validateOpenaiChat('request', { ...req, messages: [{ role: 'robot', content: 'Hi' }] })).not.toEqual([]);
    expect(validateOpenaiChat('response', example('openai-chat-response.json'), { closed: false })).toEqual([]);
    expect(validateOpenaiChat('response', { ...example('openai-chat-response.json'), created: 'yesterday' }, { closed: false })).not.toEqual([]);
  });
});

describe('anthropic-messages validator (SDK types, one compiler program)', () => {
  it('accepts real bodies and points at what is wrong in broken ones, each in its own slot', () => {
    const req = example('anthropic-request.json');
    const res = example('anthropic-response.json');
    const results = validateAnthropicMessagesBatch([
      { kind: 'request', value: req },
      { kind: 'response', value: res },
      { kind: 'request', value: { ...req, messages: [{ role: 'robot', content: 'x' }] } },
      { kind: 'request', value: { ...req, temperature: 0.5 } },
      { kind: 'response', value: { ...res, content: [{ type: 'text' }] } },
      { kind: 'response', value: { ...res, stop_reason: 'done' } },
    ]);
    expect(results[0]).toEqual([]);
    expect(results[1]).toEqual([]);
    expect(results[2]?.join()).toContain('"robot"');
    // The SDK speaks API version 2026-10-21, which has no sampling parameters.
    expect(results[3]?.join()).toContain('temperature');
    expect(results[4]?.join()).toContain("Property 'text' is missing");
    expect(results[5]?.join()).toContain('"done"');
  });

  it('relaxes only what responses may leave out: nullable members and members older API versions lack', () => {
    const res = example('anthropic-response.json');
    const { container: _c, ...noContainer } = res;
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} };
    const [a, b, c] = validateAnthropicMessagesBatch([
      { kind: 'response', value: noContainer },
      { kind: 'response', value: { ...res, content: [toolUse] } },
      { kind: 'response', value: { ...res, id: undefined } },
    ]);
    expect(a).toEqual([]);
    expect(b).toEqual([]);
    expect(c?.join()).toContain('id');
  });
});

describe('agent-input validator (JSON Schema from the design and ml-commons)', () => {
  const vectors = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'agent-input/ml-commons-vectors.json'), 'utf8')) as { name: string; body: unknown; error?: unknown }[];

  it.each(vectors.map((v) => [v.name, v] as const))('agrees with the vector: %s', (_name, v) => {
    expect(validateAgentInput('request', v.body).length === 0).toBe(v.error === undefined);
  });

  it('refuses what our encoder must never write', () => {
    expect(validateAgentInput('request', { input: 'Hi', 'x-interlingua': { v: 1, fields: {} } })).not.toEqual([]);
    expect(validateAgentInput('request', { input: [{ role: 'user', content: [{ type: 'text', text: 'a', cache: 1 }] }] })).not.toEqual([]);
    expect(validateAgentInput('request', { input: [{ role: 'user', content: [{ type: 'text', text: 'a' }], toolCalls: [] }] })).not.toEqual([]);
    expect(validateAgentInput('request', { input: [{ role: 'assistant', toolCalls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }] }] })).toEqual([]);
  });
});

describe('validator loader', () => {
  it('names validators after the format and reports a missing one instead of failing', async () => {
    expect(validatorName('openai-responses')).toBe('validateOpenaiResponses');
    expect((await loadValidator('agent-input')).status).toBe('ok');
    const missing = await loadValidator('no-such-format');
    expect(missing).toMatchObject({ status: 'missing', reason: 'no test/support/validators/no-such-format.ts' });
  });
});
