/** Every validation rule, with the exact path of its issue; garbage is always a ValidationError. */
import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, issuesOf } from './helpers.js';

const call = (id: string, args = '{}') => ({ id, type: 'function', function: { name: 'f', arguments: args } });

describe('request validation', () => {
  it('rejects an empty messages list', () => {
    expect(issuesOf(() => decodeRequest({ model: 'm', messages: [] }))).toEqual([expect.objectContaining({ path: ['messages'] })]);
  });

  it('rejects unknown roles and content part types, and missing required fields', () => {
    const issues = issuesOf(() =>
      decodeRequest({
        messages: [
          { role: 'robot', content: 'x' },
          { role: 'user', content: [{ type: 'video_url', url: 'x' }] },
          { role: 'tool', content: 'x' },
          { role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
        ],
      }),
    );
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([['model'], ['messages', 0, 'role'], ['messages', 1, 'content'], ['messages', 2, 'tool_call_id'], ['messages', 3, 'content']]),
    );
  });

  it('rejects a tool message that answers no call of the preceding assistant message', () => {
    const issues = issuesOf(() =>
      decodeRequest({
        model: 'm',
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', tool_calls: [call('a'), call('b')] },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'tool', tool_call_id: 'b', content: '2' },
          { role: 'tool', tool_call_id: 'zzz', content: '3' },
          { role: 'user', content: 'more' },
          { role: 'tool', tool_call_id: 'a', content: 'late' },
        ],
      }),
    );
    expect(issues).toEqual([
      expect.objectContaining({ code: 'unknown_tool_call', path: ['messages', 4, 'tool_call_id'] }),
      expect.objectContaining({ code: 'unknown_tool_call', path: ['messages', 6, 'tool_call_id'] }),
    ]);
  });

  it('rejects a tool call with no tool message after it, but allows a trailing assistant with calls', () => {
    const issues = issuesOf(() =>
      decodeRequest({
        model: 'm',
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', tool_calls: [call('a'), call('b')] },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'user', content: 'next' },
        ],
      }),
    );
    expect(issues).toEqual([expect.objectContaining({ code: 'missing_tool_result', path: ['messages', 1, 'tool_calls', 1, 'id'] })]);
    expect(() => decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [call('a')] }] })).not.toThrow();
  });

  it('rejects arguments that are not JSON, at their exact path', () => {
    const issues = issuesOf(() =>
      decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [call('a', '{"x":')] }] }),
    );
    expect(issues).toEqual([expect.objectContaining({ code: 'invalid_json', path: ['messages', 1, 'tool_calls', 0, 'function', 'arguments'] })]);
  });

  it('rejects text over the size limit, in string and array content', () => {
    const big = 'x'.repeat(50);
    const issues = issuesOf(() =>
      decodeRequest({ model: 'm', messages: [{ role: 'user', content: big }, { role: 'user', content: [{ type: 'text', text: 'ok' }, { type: 'text', text: big }] }] }, { maxTextBytes: 40 }),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['too_large', ['messages', 0, 'content']],
      ['too_large', ['messages', 1, 'content', 1, 'text']],
    ]);
  });

  it('collects schema and semantic issues into one error', () => {
    const issues = issuesOf(() =>
      decodeRequest({ model: 3, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [call('a', 'nope')] }] }),
    );
    expect(issues.map((i) => i.path[0])).toEqual(['model', 'messages']);
  });

  it('turns any garbage into a ValidationError, never a crash', () => {
    const garbage: unknown[] = [null, 1, 'x', [], {}, { messages: 'x' }, { model: 'm', messages: [null] }, { model: 'm', messages: [{ role: 'assistant', tool_calls: [null] }] }];
    for (const g of garbage) expect(issuesOf(() => decodeRequest(g)).length).toBeGreaterThan(0);
  });

  it('accepts the x-interlingua key on bodies and messages', () => {
    expect(() => decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'q', 'x-interlingua': { v: 1 } }], 'x-interlingua': { v: 1, fields: {} } })).not.toThrow();
  });
});

describe('response validation', () => {
  it('needs choices', () => {
    expect(issuesOf(() => decodeResponse({ id: 'x' })).map((i) => i.path)).toEqual([['choices']]);
  });

  it('accepts arguments that are not JSON (the model wrote them, e.g. cut off): {} with the text kept verbatim', () => {
    const body = { choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: null, tool_calls: [call('a', '{"location": "Par')] } }] };
    const r = decodeResponse(body);
    expect(r.choices[0]?.message.parts[0]).toMatchObject({ type: 'tool-call', arguments: {}, argumentsJson: '{"location": "Par' });
  });

  it('rejects response text over the size limit at its path', () => {
    const big = 'x'.repeat(100 * 1024 + 1);
    const issues = issuesOf(() =>
      decodeResponse({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: big, refusal: big, reasoning_content: 'ok' } }] }),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['too_large', ['choices', 0, 'message', 'content']],
      ['too_large', ['choices', 0, 'message', 'refusal']],
    ]);
  });
});
