/** Request and response validation: every issue with its exact path, never a crash. */
import { describe, expect, it } from 'vitest';
import { STASH_KEY } from '../../../src/formats/shared/stash.js';
import { decodeReq, decodeRes, issuesOf } from './helpers.js';

const base = { model: 'claude-sonnet-4-5', max_tokens: 100 };
const req = (messages: unknown, extra: Record<string, unknown> = {}): unknown => ({ ...base, messages, ...extra });
const pathsOf = (body: unknown): unknown[] => issuesOf(() => decodeReq(body)).map((i) => [i.code, i.path]);

const call = (id: string) => ({ type: 'tool_use', id, name: 'get', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('request validation', () => {
  it.each([null, 42, 'text', [], true])('rejects a non-object body (%j) with one root issue', (body) => {
    expect(pathsOf(body)).toEqual([['invalid_type', []]]);
  });

  it('rejects an empty messages list', () => {
    expect(pathsOf(req([]))).toEqual([['too_small', ['messages']]]);
  });

  it('names missing required fields', () => {
    const issues = issuesOf(() => decodeReq({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(issues.map((i) => i.path)).toEqual([['model'], ['max_tokens']]);
  });

  it('names an unknown block type at its type field', () => {
    const issues = issuesOf(() => decodeReq(req([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'hologram', data: 1 }] }])));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'unknown_block_type', path: ['messages', 0, 'content', 1, 'type'], received: 'hologram' });
  });

  it('points inside a string-or-blocks union at the real problem', () => {
    expect(pathsOf(req([{ role: 'user', content: [{ type: 'text', text: 5 }] }]))).toEqual([['invalid_type', ['messages', 0, 'content', 0, 'text']]]);
    expect(pathsOf(req([{ role: 'user', content: 7 }]))).toEqual([['invalid_union', ['messages', 0, 'content']]]);
  });

  it('rejects wrong field types at their paths, all in one error', () => {
    const issues = issuesOf(() => decodeReq(req([{ role: 'robot', content: 'x' }], { temperature: 'hot', tools: [{ name: 1 }], max_tokens: 1.5 })));
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([['max_tokens'], ['messages', 0, 'role'], ['temperature'], ['tools', 0, 'name'], ['tools', 0, 'input_schema']]),
    );
  });

  it('needs an input_schema on custom tools but not on server tools', () => {
    expect(pathsOf(req([{ role: 'user', content: 'x' }], { tools: [{ name: 'f' }] }))).toEqual([['invalid_type', ['tools', 0, 'input_schema']]]);
    expect(() => decodeReq(req([{ role: 'user', content: 'x' }], { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }))).not.toThrow();
  });

  it('needs budget_tokens when thinking is enabled', () => {
    expect(pathsOf(req([{ role: 'user', content: 'x' }], { thinking: { type: 'enabled' } }))).toEqual([['invalid_type', ['thinking', 'budget_tokens']]]);
  });

  it('flags a tool_use with no tool_result in the next message', () => {
    const body = req([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'text', text: 'calling' }, call('a'), call('b')] },
      { role: 'user', content: [result('a')] },
    ]);
    expect(pathsOf(body)).toEqual([['tool_use_without_result', ['messages', 1, 'content', 2, 'id']]]);
  });

  it('allows a tool_use in the last message (no next message yet)', () => {
    expect(() => decodeReq(req([{ role: 'user', content: 'go' }, { role: 'assistant', content: [call('a')] }]))).not.toThrow();
  });

  it('flags a tool_result that answers no tool_use of the previous assistant message', () => {
    const body = req([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: [result('a'), result('zzz')] },
    ]);
    expect(pathsOf(body)).toEqual([['tool_result_without_use', ['messages', 2, 'content', 1, 'tool_use_id']]]);
    expect(pathsOf(req([{ role: 'user', content: [result('x')] }]))).toEqual([['tool_result_without_use', ['messages', 0, 'content', 0, 'tool_use_id']]]);
  });

  it('checks text size against ctx.limits.maxTextBytes everywhere text lives', () => {
    const limits = { maxTextBytes: 10 };
    const long = 'x'.repeat(11);
    const body = req(
      [
        { role: 'user', content: long },
        { role: 'assistant', content: [call('a')] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: long }, { type: 'text', text: long }] },
      ],
      { system: [{ type: 'text', text: long }] },
    );
    const issues = issuesOf(() => decodeReq(body, limits));
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['too_large', ['system', 0, 'text']],
      ['too_large', ['messages', 0, 'content']],
      ['too_large', ['messages', 2, 'content', 0, 'content']],
      ['too_large', ['messages', 2, 'content', 1, 'text']],
    ]);
    expect(() => decodeReq(body, { maxTextBytes: 11 })).not.toThrow();
  });

  it('collects issues of different kinds into one ValidationError', () => {
    const body = req([{ role: 'user', content: [{ type: 'nope' }, result('q')] }], { top_k: 'many' });
    const issues = issuesOf(() => decodeReq(body));
    expect(issues.map((i) => i.code).sort()).toEqual(['invalid_type', 'tool_result_without_use', 'unknown_block_type']);
  });

  it('accepts the x-interlingua key on the body and on messages', () => {
    const body = { ...base, [STASH_KEY]: { v: 1, fields: {} }, messages: [{ role: 'user', content: 'hi', [STASH_KEY]: { v: 1, span: 1, hash: 'x', messages: [] } }] };
    expect(() => decodeReq(body)).not.toThrow();
  });

  it('never crashes on deeply wrong shapes', () => {
    const junk: unknown[] = [
      { ...base, messages: [null] },
      { ...base, messages: [{ role: 'user', content: [null, 1, 'x', []] }] },
      { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_use' }] }, 5] },
      { ...base, messages: 'hello', system: 4, tools: 'x', tool_choice: { type: 'sometimes' } },
      { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'ftp' } }] }] },
    ];
    for (const body of junk) expect(issuesOf(() => decodeReq(body)).length).toBeGreaterThan(0);
  });
});

describe('response validation', () => {
  const ok = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };

  it('accepts a minimal response', () => expect(() => decodeRes(ok)).not.toThrow());

  it('names missing fields and unknown blocks', () => {
    const issues = issuesOf(() => decodeRes({ ...ok, usage: undefined, content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }));
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['unknown_block_type', ['content', 0, 'type']],
      ['invalid_type', ['usage']],
    ]);
  });

  it.each([undefined, 'x', [ok]])('rejects a non-object body (%j)', (body) => {
    expect(issuesOf(() => decodeRes(body))[0]?.path).toEqual([]);
  });
});
