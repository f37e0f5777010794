/**
 * Minimal bodies for the cross-format bugs found on real captures and by the property tests
 * (B1-B5 and the cases found while fixing them). Each checks that A -> B with `preserve` -> A is
 * exact, and what B gets and reports without `preserve`.
 */
import { describe, expect, it } from 'vitest';
import { convert, type Loss } from '../../src/index.js';

type Dialect = 'anthropic-messages' | 'openai-chat';
type Kind = 'request' | 'response';

function roundTrip(body: unknown, from: Dialect, to: Dialect, kind: Kind = 'request'): { there: unknown; losses: Loss[] } {
  const there = convert(body, { from, to, kind, preserve: true });
  const back = convert(JSON.parse(JSON.stringify(there.value)), { from: to, to: from, kind });
  expect(back.value).toEqual(body);
  for (const l of there.losses) expect(l.action).toBe('stashed');
  return { there: there.value, losses: there.losses };
}

const call = (id: string) => ({ id, type: 'function', function: { name: 'get', arguments: '{}' } });
const fromOpenAi = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'gpt-x', messages, ...extra });
const fromAnthropic = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'claude-x', max_tokens: 100, messages, ...extra });

describe('B1: Anthropic tool type "custom"', () => {
  const body = fromAnthropic([{ role: 'user', content: 'hi' }], { tools: [{ type: 'custom', name: 'get', input_schema: { type: 'object' } }] });

  it('comes back under preserve', () => {
    roundTrip(body, 'anthropic-messages', 'openai-chat');
  });

  it('is the default tool type, so without preserve nothing is reported for it', () => {
    const out = convert(body, { from: 'anthropic-messages', to: 'openai-chat' });
    expect((out.value as { tools: unknown }).tools).toEqual([{ type: 'function', function: { name: 'get', parameters: { type: 'object' } } }]);
    expect(out.losses.filter((l) => l.path[0] === 'tools')).toEqual([]);
  });
});

describe('B2: OpenAI assistant content null beside tool calls', () => {
  it('comes back under preserve', () => {
    const body = fromOpenAi([
      { role: 'user', content: '!' },
      { role: 'assistant', content: null, tool_calls: [call('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: '!' },
    ]);
    const { there } = roundTrip(body, 'openai-chat', 'anthropic-messages');
    expect(JSON.stringify(there)).toContain('x-interlingua');
  });

  it('without preserve, Anthropic gets the tool_use only and nothing is reported', () => {
    const body = fromOpenAi([{ role: 'user', content: '!' }, { role: 'assistant', content: null, tool_calls: [call('call_1')] }]);
    const out = convert(body, { from: 'openai-chat', to: 'anthropic-messages' });
    expect((out.value as { messages: unknown[] }).messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get', input: {} }] });
    expect(out.losses.map((l) => l.code)).toEqual(['default-max-tokens']);
  });
});

describe('B3: a top-level field the target has no slot for', () => {
  const body = fromOpenAi([{ role: 'user', content: 'hi' }], { logit_bias: { '50256': -100 }, max_completion_tokens: 10 });

  it('is reported stashed under preserve, and comes back', () => {
    const { losses } = roundTrip(body, 'openai-chat', 'anthropic-messages');
    expect(losses).toEqual([{ code: 'unsupported-field', path: ['logit_bias'], message: expect.any(String), action: 'stashed' }]);
  });

  it('is reported dropped without preserve', () => {
    const out = convert(body, { from: 'openai-chat', to: 'anthropic-messages' });
    expect(out.losses).toEqual([{ code: 'unsupported-field', path: ['logit_bias'], message: expect.any(String), action: 'dropped' }]);
    expect(out.value).not.toHaveProperty('logit_bias');
  });
});

describe('B4: an OpenAI total_tokens that is not prompt + completion', () => {
  // `created` has no Anthropic slot and is reported too; only usage matters here.
  const usageLosses = (losses: Loss[]): Loss[] => losses.filter((l) => l.path[0] === 'usage');
  const response = (usage: Record<string, number>) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gemini-x',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
    usage,
  });

  it('is reported when the target has no total (Anthropic) and comes back under preserve', () => {
    const body = response({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 40 });
    const out = convert(body, { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' });
    expect(usageLosses(out.losses)).toEqual([{ code: 'usage-total', path: ['usage', 'totalTokens'], message: expect.any(String), action: 'dropped' }]);
    roundTrip(body, 'openai-chat', 'anthropic-messages', 'response');
  });

  it('a total that adds up, or none at all, is no loss', () => {
    expect(usageLosses(convert(response({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }), { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' }).losses)).toEqual([]);
    const none = response({ prompt_tokens: 10, completion_tokens: 5 });
    expect(usageLosses(convert(none, { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' }).losses)).toEqual([]);
    roundTrip(none, 'openai-chat', 'anthropic-messages', 'response');
  });
});

describe('B5: the form of content (string or parts, how many parts) comes back under preserve', () => {
  it('a string beside tool calls (Anthropic needs blocks there)', () => {
    const body = fromOpenAi([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: '!', tool_calls: [call('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      { role: 'user', content: 'Go on.' },
    ]);
    roundTrip(body, 'openai-chat', 'anthropic-messages');
    // Without preserve this is no loss: the text is all there, only as a block.
    expect(convert(body, { from: 'openai-chat', to: 'anthropic-messages' }).losses.map((l) => l.code)).toEqual(['default-max-tokens']);
  });

  it('several text parts of a user, assistant or system message', () => {
    const parts = [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'Sit.' }];
    roundTrip(fromOpenAi([{ role: 'system', content: parts }, { role: 'user', content: parts }, { role: 'assistant', content: parts }, { role: 'user', content: 'x' }]), 'openai-chat', 'anthropic-messages');
  });

  it('a string user turn that follows tool results', () => {
    const body = fromOpenAi([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', tool_calls: [call('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: 'Go on.' },
    ]);
    roundTrip(body, 'openai-chat', 'anthropic-messages');
  });

  it('two system messages, which Anthropic holds as one system', () => {
    roundTrip(fromOpenAi([{ role: 'system', content: 'A' }, { role: 'system', content: 'B' }, { role: 'user', content: 'hi' }]), 'openai-chat', 'anthropic-messages');
  });

  it('Anthropic tool results and text in two consecutive user turns (OpenAI has tool messages then a user message)', () => {
    const body = fromAnthropic([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
    ]);
    roundTrip(body, 'anthropic-messages', 'openai-chat');
  });

  it('an Anthropic tool result with no content', () => {
    const body = fromAnthropic([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
    ]);
    roundTrip(body, 'anthropic-messages', 'openai-chat');
  });
});

describe('raw stop reasons that map to a shared unified reason', () => {
  it('Anthropic model_context_window_exceeded comes back through OpenAI length', () => {
    const body = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'model_context_window_exceeded',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const { there } = roundTrip(body, 'anthropic-messages', 'openai-chat', 'response');
    expect((there as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason).toBe('length');
  });

  it('OpenAI function_call comes back through Anthropic tool_use', () => {
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-x',
      choices: [{ index: 0, message: { role: 'assistant', content: null, function_call: { name: 'get', arguments: '{}' } }, finish_reason: 'function_call' }],
    };
    roundTrip(body, 'openai-chat', 'anthropic-messages', 'response');
  });
});
