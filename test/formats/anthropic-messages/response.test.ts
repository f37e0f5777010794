/** Responses: stop reasons, usage accounting, one message, and encoding responses of other origins. */
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../src/model/response.js';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';
import { codes, decodeRes, encodeRes } from './helpers.js';

const wire = (over: Record<string, unknown> = {}) => ({
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
  ...over,
});

function both(body: Record<string, unknown>): Response {
  const res = decodeRes(body);
  const { value, losses } = encodeRes(res);
  expect(value).toEqual(body);
  expect(losses).toEqual([]);
  return res;
}

describe('stop reasons', () => {
  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool-calls'],
    ['pause_turn', 'pause'],
    ['refusal', 'refusal'],
    ['model_context_window_exceeded', 'length'],
  ])('%s -> %s, raw kept, and back', (raw, unified) => {
    expect(both(wire({ stop_reason: raw })).choices[0]?.stopReason).toEqual({ unified, raw });
  });

  it('carries the matched stop sequence', () => {
    expect(both(wire({ stop_reason: 'stop_sequence', stop_sequence: 'END' })).choices[0]?.stopReason).toEqual({ unified: 'stop-sequence', raw: 'stop_sequence', sequence: 'END' });
  });

  it('maps an unknown future stop reason to other, keeping raw', () => {
    expect(both(wire({ stop_reason: 'brand_new' })).choices[0]?.stopReason).toEqual({ unified: 'other', raw: 'brand_new' });
  });

  it.each([
    [{ unified: 'stop', raw: 'stop' }, 'end_turn', []],
    [{ unified: 'length', raw: 'length' }, 'max_tokens', []],
    [{ unified: 'tool-calls', raw: 'tool_calls' }, 'tool_use', []],
    [{ unified: 'stop-sequence', sequence: 'X' }, 'stop_sequence', []],
    [{ unified: 'content-filter', raw: 'content_filter' }, 'refusal', ['stop-reason']],
    [{ unified: 'error' }, 'end_turn', ['stop-reason']],
  ] as const)('encodes a foreign %j as %s', (stopReason, expected, lossCodes) => {
    const { value, losses } = encodeRes({ id: 'x', model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, stopReason }], usage: { inputTokens: 1, outputTokens: 1 } });
    expect(value['stop_reason']).toBe(expected);
    expect(value['stop_sequence']).toBe(expected === 'stop_sequence' ? 'X' : null);
    expect(codes(losses)).toEqual(lossCodes);
  });
});

describe('usage', () => {
  it('adds cache reads and writes into inputTokens and subtracts them back', () => {
    const usage = { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5, service_tier: 'standard', cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 }, server_tool_use: { web_search_requests: 1 } };
    const res = both(wire({ usage }));
    expect(res.usage).toEqual({
      inputTokens: 1110,
      outputTokens: 5,
      totalTokens: 1115,
      cacheReadTokens: 1000,
      cacheWriteTokens: 100,
      raw: usage,
      ext: { 'anthropic-messages': { service_tier: 'standard', cache_creation: usage.cache_creation, server_tool_use: usage.server_tool_use } },
    });
  });

  it('keeps explicit null cache counts', () => {
    both(wire({ usage: { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: null, cache_read_input_tokens: null } }));
  });

  it('encodes OpenAI-style usage (input includes cached) into Anthropic accounting', () => {
    const { value, losses } = encodeRes({ id: 'x', model: 'm', choices: [], usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 40, reasoningTokens: 8 } });
    expect(value['usage']).toEqual({ input_tokens: 60, cache_read_input_tokens: 40, output_tokens: 20 });
    expect(codes(losses)).toEqual(['reasoning-tokens']);
  });
});

describe('response shape', () => {
  it('decodes to one choice with the assistant message, residue kept', () => {
    const res = both(wire({ container: { id: 'c', expires_at: 't' }, stop_details: null }));
    expect(res).toMatchObject({ id: 'msg_01', model: 'claude-sonnet-4-5', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] } }] });
    expect(res.ext).toEqual({ 'anthropic-messages': { container: { id: 'c', expires_at: 't' }, stop_details: null } });
  });

  it('keeps whitespace-only text blocks a response really holds', () => {
    both(wire({ content: [{ type: 'text', text: '\n\n' }, { type: 'text', text: 'x' }] }));
  });

  it('keeps a response without stop_sequence without one', () => {
    const body = wire();
    delete (body as Record<string, unknown>)['stop_sequence'];
    both(body);
  });

  it('reports extra choices and created, and preserve brings them back', () => {
    const res: Response = {
      id: 'chatcmpl-1',
      model: 'gpt',
      created: 1700000000,
      choices: [
        { index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, stopReason: { unified: 'stop', raw: 'stop' } },
        { index: 1, message: { role: 'assistant', parts: [{ type: 'text', text: 'b' }] }, stopReason: { unified: 'stop', raw: 'stop' } },
      ],
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    };
    const { value, losses } = encodeRes(res);
    expect(value['id']).toBe('chatcmpl-1');
    expect(value['content']).toEqual([{ type: 'text', text: 'a' }]);
    expect(codes(losses)).toEqual(['extra-choices', 'unsupported-field']);
    const kept = encodeRes(res, true);
    const back = decodeRes(JSON.parse(JSON.stringify(kept.value)));
    expect(back).toMatchObject({ id: 'chatcmpl-1', created: 1700000000, choices: res.choices });
  });

  it('applies a stash written by an earlier version (its $hash a stableHash of the content)', () => {
    const res: Response = { id: 'r', model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'refusal', text: 'no' }] } }], usage: { inputTokens: 1, outputTokens: 1 } };
    const { value } = encodeRes(res, true);
    const fields = (value['x-interlingua'] as { fields: Record<string, unknown> }).fields;
    fields['$hash'] = stableHash(value['content']);
    expect(decodeRes(JSON.parse(JSON.stringify(value))).choices).toEqual(res.choices);
  });

  it('ignores a stash whose content was edited since', () => {
    const res: Response = { id: 'r', model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'refusal', text: 'no' }] } }], usage: { inputTokens: 1, outputTokens: 1 } };
    const { value } = encodeRes(res, true);
    (value['content'] as { text: string }[])[0]!.text = 'edited';
    const back = decodeRes(value);
    expect(back.choices[0]?.message.parts).toEqual([{ type: 'text', text: 'edited' }]);
  });

  it('makes up a stable id when there is none, and writes zero usage with a loss', () => {
    const res: Response = { choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] } }] };
    const one = encodeRes(res);
    expect(one.value['id']).toMatch(/^msg_[0-9a-f]{8}$/);
    expect(encodeRes(res).value['id']).toBe(one.value['id']);
    expect(one.value['usage']).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(one.value['model']).toBe('unknown');
    expect(codes(one.losses)).toEqual(['missing-model', 'missing-usage']);
    expect(decodeRes(JSON.parse(JSON.stringify(encodeRes(res, true).value)))).toEqual(res);
  });
});
