/**
 * Agent input across formats, with `preserve`: every agent input vector -> B -> back is exact, and
 * every local Anthropic / OpenAI Chat request capture -> agent input -> back is exact, for
 * B in {anthropic-messages, openai-chat}. (The matrix, test/matrix, runs every other pair.)
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { samples } from '../../cross/corpus.js';
import { vectors } from './helpers.js';

const PROVIDERS = ['anthropic-messages', 'openai-chat'] as const;
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const valid = vectors.filter((v) => v.error === undefined);

describe.each(PROVIDERS)('agent-input <-> %s with preserve', (other) => {
  it.each(valid.map((v) => [v.name, v.body] as const))('agent-input -> %s -> back: %s', (_name, body) => {
    const there = convert(body, { from: 'agent-input', to: other, preserve: true });
    for (const loss of there.losses) expect(loss.action).not.toBe('dropped');
    expect(convert(json(there.value), { from: other, to: 'agent-input' }).value).toEqual(body);
  });

  const captures = samples(other, 'request');
  it('has captures to convert', () => {
    expect(captures.length).toBeGreaterThan(0);
  });
  it.each(captures.map((s) => [s.name, s.body] as const))('%s -> agent-input -> back', (_name, body) => {
    const there = convert(body, { from: other, to: 'agent-input', preserve: true });
    for (const loss of there.losses) expect(loss.action).not.toBe('dropped');
    expect(convert(json(there.value), { from: 'agent-input', to: other }).value).toEqual(body);
  });
});

describe('agent-input -> providers without preserve', () => {
  it('gives each provider the conversation, reporting what it lacks (Anthropic: model, max_tokens)', () => {
    const body = { input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }, { role: 'critic', content: [{ type: 'text', text: 'Shorter.' }] }] };
    const { value, losses } = convert(body, { from: 'agent-input', to: 'anthropic-messages' });
    // The other role becomes a user turn (Anthropic combines consecutive user turns itself).
    expect(value).toEqual({
      model: '',
      max_tokens: 4096,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'user', content: [{ type: 'text', text: 'Shorter.' }] },
      ],
    });
    expect(losses.map((l) => [l.code, l.path])).toEqual(
      expect.arrayContaining([
        ['missing-model', ['model']],
        ['default-max-tokens', ['maxTokens']],
        ['unsupported-field', ['messages', 1, 'role']],
      ]),
    );
  });
});
