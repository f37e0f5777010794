import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, formats, InterlinguaError, LossError, UsageError, ValidationError } from '../../src/index.js';
import { REPO_ROOT } from '../support/captures.js';

const example = (name: string): unknown => JSON.parse(readFileSync(join(REPO_ROOT, 'examples', name), 'utf8'));

describe('formats()', () => {
  it('lists each implemented format with the kinds it supports (convert: request/response; streams: transcode)', () => {
    const kinds = Object.fromEntries(formats().map((f) => [f.id, f.kinds]));
    expect(kinds).toEqual({
      'anthropic-messages': ['request', 'response', 'stream'],
      'openai-chat': ['request', 'response', 'stream'],
      'openai-responses': ['request', 'response', 'stream'],
      'bedrock-converse': ['request', 'response', 'stream'],
      gemini: ['request', 'response', 'stream'],
      'agent-input': ['request'],
      'ag-ui': ['request', 'stream'],
      a2a: ['request', 'stream'],
      'agentcore-memory': ['request'],
    });
  });
});

describe('convert()', () => {
  it('returns value and losses synchronously', () => {
    const result = convert(example('anthropic-request.json'), { from: 'anthropic-messages', to: 'openai-chat', kind: 'request' });
    expect(result).not.toBeInstanceOf(Promise);
    expect(Array.isArray(result.losses)).toBe(true);
    expect(result.losses.some((l) => l.code === 'foreign-reasoning' && l.action === 'dropped')).toBe(true);
  });

  it('defaults to the request kind and converts responses when asked', () => {
    const res = convert<{ choices: { message: { content: string } }[] }>(example('anthropic-response.json'), {
      from: 'anthropic-messages',
      to: 'openai-chat',
      kind: 'response',
    });
    expect(res.value.choices[0]?.message.content).toMatch(/^Based on the information/);
  });

  it('throws a ValidationError listing every issue with its path', () => {
    const body = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text' }, { type: 'nope' }] }] };
    let caught: unknown;
    try {
      convert(body, { from: 'anthropic-messages', to: 'openai-chat' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const issues = (caught as ValidationError).issues;
    expect(issues.length).toBeGreaterThanOrEqual(2);
    for (const issue of issues) expect(issue).toMatchObject({ path: expect.any(Array), message: expect.any(String), code: expect.any(String) });
    expect(issues.map((i) => i.path.slice(0, 4))).toEqual(
      expect.arrayContaining([
        ['messages', 0, 'content', 0],
        ['messages', 0, 'content', 1],
      ]),
    );
  });

  it('never lets bad input through as anything but an InterlinguaError', () => {
    for (const body of [null, 42, 'text', [], {}, { messages: 'x' }, { messages: [{}] }]) {
      for (const [from, to] of [['anthropic-messages', 'openai-chat'], ['openai-chat', 'anthropic-messages']] as const) {
        expect(() => convert(body, { from, to })).toThrow(InterlinguaError);
      }
    }
  });

  it('throws a LossError under strict, carrying the losses', () => {
    expect(() => convert(example('anthropic-request.json'), { from: 'anthropic-messages', to: 'openai-chat', strict: true })).toThrow(LossError);
    const same = convert(example('openai-chat-request.json'), { from: 'openai-chat', to: 'openai-chat', strict: true });
    expect(same.value).toEqual(example('openai-chat-request.json'));
  });

  it('rejects unknown formats and unsupported kinds as usage errors', () => {
    expect(() => convert({}, { from: 'klingon', to: 'openai-chat' })).toThrow(UsageError);
    expect(() => convert({}, { from: 'openai-chat', to: 'openai-chat', kind: 'stream' as 'request' })).toThrow(UsageError);
  });
});
