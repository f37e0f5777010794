/**
 * Responses `response` objects: status and incomplete_details as stop reasons, usage accounting,
 * and what a canonical response of another origin becomes (output items, the echo fields the spec
 * requires, losses), checked against the closed OpenAPI schema.
 */
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../src/model/response.js';
import type { StopReason } from '../../../src/model/stop-reason.js';
import { validateOpenaiResponsesClosed } from '../../support/validators/openai-responses.js';
import { decodeResponse, encodeResponse, fixture, withoutOwn } from './helpers.js';

const base = fixture('responses/agentgateway/basic.json');

/** Encodes, validates against the closed schema, checks the preserve round trip (up to generated ids). */
function encodeChecked(res: Response): ReturnType<typeof encodeResponse> {
  const out = encodeResponse(res);
  expect(validateOpenaiResponsesClosed('response', out.value)).toEqual([]);
  const kept = encodeResponse(res, true);
  expect(withoutOwn(decodeResponse(kept.value))).toEqual(res);
  return out;
}

describe('status and incomplete_details -> stop reason', () => {
  const withStatus = (status: string, incomplete: unknown, output: unknown[] = base['output'] as unknown[]): StopReason | undefined =>
    decodeResponse({ ...base, status, incomplete_details: incomplete, output }).choices[0]?.stopReason;

  it('maps every status the spec lists', () => {
    expect(withStatus('completed', null)).toEqual({ unified: 'stop', raw: 'completed' });
    expect(withStatus('incomplete', { reason: 'max_output_tokens' })).toEqual({ unified: 'length', raw: 'incomplete' });
    expect(withStatus('incomplete', { reason: 'content_filter' })).toEqual({ unified: 'content-filter', raw: 'incomplete' });
    expect(withStatus('failed', null)).toEqual({ unified: 'error', raw: 'failed' });
    for (const s of ['in_progress', 'queued', 'cancelled']) expect(withStatus(s, null)).toEqual({ unified: 'other', raw: s });
  });

  it('a completed response that ends in a call the client runs stopped for tool calls', () => {
    const call = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
    expect(withStatus('completed', null, [call])?.unified).toBe('tool-calls');
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } };
    expect(withStatus('completed', null, [search])?.unified).toBe('stop');
  });

  it('another format’s reason: raw written only when it is a status meaning the same', () => {
    const res = (stopReason: StopReason): Record<string, unknown> =>
      encodeResponse({ id: 'r', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }] }, stopReason }] }).value;
    expect(res({ unified: 'length', raw: 'max_tokens' })).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(res({ unified: 'content-filter', raw: 'content_filter' })).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    expect(res({ unified: 'stop', raw: 'end_turn' })).toMatchObject({ status: 'completed', incomplete_details: null });
    expect(res({ unified: 'error' })).toMatchObject({ status: 'failed' });
    expect(res({ unified: 'other', raw: 'queued' })).toMatchObject({ status: 'queued' });
  });

  it('reasons with no status of their own are approximated and reported', () => {
    const out = encodeResponse({ id: 'r', choices: [{ index: 0, message: { role: 'assistant', parts: [] }, stopReason: { unified: 'pause', raw: 'pause_turn' } }] });
    expect(out.value['status']).toBe('completed');
    expect(out.losses).toMatchObject([{ code: 'stop-reason', path: ['choices', 0, 'stopReason'], action: 'approximated' }]);
    const seq = encodeResponse({ id: 'r', choices: [{ index: 0, message: { role: 'assistant', parts: [] }, stopReason: { unified: 'stop-sequence', sequence: 'END' } }] });
    expect(seq.losses).toMatchObject([{ code: 'stop-sequence', path: ['choices', 0, 'stopReason', 'sequence'] }]);
  });
});

describe('usage', () => {
  it('cached and reasoning tokens come from the details; input already includes cached tokens', () => {
    const r = decodeResponse({ ...base, usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 30 }, total_tokens: 150 } });
    expect(r.usage).toMatchObject({ inputTokens: 100, cacheReadTokens: 60, cacheWriteTokens: 10, outputTokens: 50, reasoningTokens: 30, totalTokens: 150 });
  });

  it('another origin’s usage gets every count the spec requires, 0 when unknown', () => {
    const { value } = encodeChecked({ id: 'r', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }] }, stopReason: { unified: 'stop' } }], usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 2 } });
    expect(value['usage']).toEqual({ input_tokens: 12, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 });
  });

  it('details a provider left out stay left out on the way back', () => {
    const body = { ...base, usage: { input_tokens: 1, output_tokens: 2 } };
    expect(encodeResponse(decodeResponse(body)).value).toEqual(body);
  });
});

describe('refusals', () => {
  it('a refusal content part decodes to a refusal part, and another origin’s refusal goes back as one', () => {
    const body = { ...base, output: [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: 'I can’t help with that.' }] }] };
    expect(withoutOwn(decodeResponse(body).choices[0]?.message.parts)).toEqual([{ type: 'refusal', text: 'I can’t help with that.' }]);
    const { value } = encodeChecked({ id: 'r', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'refusal', text: 'No.' }] }, stopReason: { unified: 'stop' } }] });
    expect((value['output'] as Record<string, unknown>[])[0]?.['content']).toEqual([{ type: 'refusal', refusal: 'No.' }]);
  });
});

describe('a response of another origin', () => {
  const anthropic: Response = {
    id: 'msg_01',
    model: 'claude-sonnet-4-5',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          parts: [
            { type: 'reasoning', origin: 'anthropic-messages', text: 'think', signature: 'sig' },
            { type: 'text', text: 'The answer', citations: [{ type: 'url', url: 'https://a.example', title: 'A', citedText: 'quote' }] },
            { type: 'text', text: ' is 42.' },
            { type: 'tool-call', id: 'toolu_1', name: 'record', arguments: { n: 42 } },
          ],
        },
        stopReason: { unified: 'tool-calls', raw: 'tool_use' },
      },
    ],
    usage: { inputTokens: 30, outputTokens: 20, cacheWriteTokens: 5 },
  };

  it('becomes output items with the fields the spec requires', () => {
    const { value, losses } = encodeChecked(anthropic);
    expect(value).toMatchObject({
      id: 'msg_01',
      object: 'response',
      model: 'claude-sonnet-4-5',
      status: 'completed',
      incomplete_details: null,
      error: null,
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      metadata: null,
      temperature: null,
      top_p: null,
    });
    expect(typeof value['created_at']).toBe('number');
    const output = value['output'] as Record<string, unknown>[];
    expect(output.map((o) => o['type'])).toEqual(['message', 'function_call']);
    expect(output[0]).toMatchObject({ id: expect.stringMatching(/^msg_[0-9a-f]{32}$/), status: 'completed', role: 'assistant' });
    expect(output[0]?.['content']).toEqual([
      { type: 'output_text', text: 'The answer', annotations: [{ type: 'url_citation', url: 'https://a.example', title: 'A', start_index: 0, end_index: 10 }], logprobs: [] },
      { type: 'output_text', text: ' is 42.', annotations: [], logprobs: [] },
    ]);
    expect(output[1]).toEqual({ type: 'function_call', call_id: 'toolu_1', name: 'record', arguments: '{"n":42}', id: expect.stringMatching(/^fc_[0-9a-f]{32}$/), status: 'completed' });
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['foreign-reasoning', 'choices.0.message.parts.0'],
      ['citations', 'choices.0.message.parts.1.citations.0'],
      ['citations', 'choices.0.message.parts.1.citations.0'],
    ]);
  });

  it('output cut short: only the last item made up here is incomplete; made-up ids are fresh', () => {
    const choice = anthropic.choices[0];
    if (choice === undefined) throw new Error('fixture has a choice');
    const cut: Response = { ...anthropic, choices: [{ ...choice, stopReason: { unified: 'length', raw: 'max_tokens' } }] };
    const output = encodeChecked(cut).value['output'] as Record<string, unknown>[];
    expect(output.map((o) => [o['type'], o['status']])).toEqual([
      ['message', 'completed'],
      ['function_call', 'incomplete'],
    ]);
    const again = encodeChecked(cut).value['output'] as Record<string, unknown>[];
    expect(new Set([...output, ...again].map((o) => o['id'])).size).toBe(4);
    // A last item of this format's own keeps the status it came with.
    const own: Response = {
      ...cut,
      choices: [{ ...choice, stopReason: { unified: 'length', raw: 'max_tokens' }, message: { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_1', name: 'record', arguments: {}, ext: { 'openai-responses': { id: 'fc_own', status: 'completed' } } }] } }],
    };
    expect((encodeResponse(own).value['output'] as Record<string, unknown>[])[0]).toMatchObject({ id: 'fc_own', status: 'completed' });
  });

  it('each body gets lists of its own: changing one changes no later body', () => {
    const first = encodeChecked(anthropic).value;
    (first['tools'] as unknown[]).push({ type: 'function', name: 'x' });
    expect(encodeChecked(anthropic).value['tools']).toEqual([]);
  });

  it('more than one choice: the first is kept, the rest reported', () => {
    const two: Response = { id: 'r', created: 1, model: 'm', choices: [0, 1].map((index) => ({ index, message: { role: 'assistant', parts: [{ type: 'text', text: `c${index}` }] }, stopReason: { unified: 'stop' } })) };
    const { value, losses } = encodeChecked(two);
    expect((value['output'] as unknown[]).length).toBe(1);
    expect(losses).toMatchObject([{ code: 'extra-choices', path: ['choices'] }]);
  });

  it('an output made only of what cannot be sent is empty, and the message comes back under preserve', () => {
    const thinking: Response = { id: 'r', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'reasoning', origin: 'gemini', text: 't' }] }, stopReason: { unified: 'stop', raw: 'STOP' } }] };
    const { value, losses } = encodeChecked(thinking);
    expect(value['output']).toEqual([]);
    expect(losses.map((l) => l.code)).toEqual(['foreign-reasoning', 'empty-message']);
  });
});
