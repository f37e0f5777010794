/**
 * Tool results in AgentCore events (docs/agentcore-memory-events.md, "Tool results"):
 * - a result without a name of its own (Anthropic, Bedrock, Chat) is written with its call's
 *   name, as Camunda's `camunda.toolCallResults` envelope has it, and reads back without it;
 * - older events: a lone TOOL text after unanswered tool calls is their result (reported).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventToMessages, eventsToMessages, messageToEvent, toolCallNames } from '../../../src/formats/agentcore-memory/index.js';
import { convert, decode, encode } from '../../../src/formats/convert.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { callsEvent, expectPairedEverywhere, expectValid, loadChatValidators, type Bodies, resultEntries, toolText, userText, wirePairs } from './tool-pairing-support.js';

const anthropicBody = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: { city: 'Rome' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '14:00' },
      ],
    },
    { role: 'assistant', content: 'Sunny in Paris; 14:00 in Rome.' },
  ],
};

const chatBody = {
  model: 'gpt-test',
  messages: [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ],
};

const bedrockBody = {
  messages: [
    { role: 'user', content: [{ text: 'Weather?' }] },
    { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu_1', name: 'get_weather', input: { city: 'Paris' } } }] },
    { role: 'user', content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: 'sunny' }] } }] },
  ],
  toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] },
};

const codes = (losses: readonly Loss[]): string[] => losses.map((l) => l.code);
const results = (messages: readonly Message[]): unknown[] => messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-result'));

beforeAll(loadChatValidators, 300_000);
/** The converted bodies of the tests below, validated by the last one. */
const bodies: Bodies = {};

describe('result names in camunda.toolCallResults', () => {
  it.each([
    ['anthropic-messages', anthropicBody, [['toolu_1', 'get_weather'], ['toolu_2', 'get_time']]],
    ['openai-chat', chatBody, [['call_1', 'get_weather']]],
    ['bedrock-converse', bedrockBody, [['tu_1', 'get_weather']]],
  ] as const)('%s results carry the name of the call they answer', (from, body, expected) => {
    const { value } = convert<{ events: unknown[] }>(body, { from, to: 'agentcore-memory' });
    expect(resultEntries(value.events).map((e) => [e['id'], e['name']])).toEqual(expected);
  });

  it('the name is the entry last key, and reading the conversation takes it off again: the same canonical messages', () => {
    const req = decode(anthropicBody, { from: 'anthropic-messages' }).value as Request;
    const { value } = encode(req, { to: 'agentcore-memory' });
    const events = (JSON.parse(JSON.stringify(value)) as { events: unknown[] }).events;
    for (const entry of resultEntries(events)) expect(Object.keys(entry).at(-1)).toBe('name');
    const back = decode({ events }, { from: 'agentcore-memory' });
    expect(back.losses).toEqual([]);
    expect(results((back.value as Request).messages)).toEqual(results(req.messages));
    expect(results(req.messages)).toMatchObject([{ callId: 'toolu_1' }, { callId: 'toolu_2' }]);
    expect(results(req.messages).map((r) => (r as { name?: string }).name)).toEqual([undefined, undefined]);
  });

  it('through AgentCore and back, each dialect gets its own body, and Bedrock reports no result name', () => {
    for (const [from, body] of [['anthropic-messages', anthropicBody], ['openai-chat', chatBody], ['bedrock-converse', bedrockBody]] as const) {
      const events = convert(body, { from, to: 'agentcore-memory' }).value;
      const back = convert(events, { from: 'agentcore-memory', to: from });
      expect(codes(back.losses)).not.toContain('tool-result-name');
      const direct = convert(body, { from, to: from }).value;
      expect(wirePairs(from, back.value)).toEqual(wirePairs(from, direct));
      expect(wirePairs(from, back.value).results.length).toBeGreaterThan(0);
    }
  });

  it('a result with a name of its own (Gemini) keeps it, written where Camunda writes it', () => {
    const gemini = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }] },
      ],
    };
    const req = decode(gemini, { from: 'gemini' }).value as Request;
    const events = (JSON.parse(JSON.stringify(encode(req, { to: 'agentcore-memory' }).value)) as { events: unknown[] }).events;
    const [entry] = resultEntries(events);
    expect(Object.keys(entry ?? {}).indexOf('name')).toBe(1);
    expect(results((decode({ events }, { from: 'agentcore-memory' }).value as Request).messages)).toEqual(results(req.messages));
    expect(results(req.messages)).toMatchObject([{ name: 'get_weather' }]);
  });

  it("Camunda's own layout (name right after id) keeps the name, as do a last-key name of another call and one no call accounts for", () => {
    const calls = callsEvent([{ id: 'c1', name: 'search' }]);
    const results = (entry: object): object => ({ payload: [{ blob: JSON.stringify({ blobType: 'camunda.toolCallResults', version: 1, results: [entry] }) }] });
    const nameOf = (events: unknown[]): unknown => {
      const messages = eventsToMessages(events);
      const part = messages.at(-1)?.parts[0];
      return part?.type === 'tool-result' ? part.name : 'no result';
    };
    expect(nameOf([calls, results({ id: 'c1', name: 'search', content: [{ type: 'text', text: 'x' }] })])).toBe('search');
    expect(nameOf([calls, results({ id: 'c1', content: [{ type: 'text', text: 'x' }], name: 'search' })])).toBeUndefined();
    expect(nameOf([calls, results({ id: 'c1', content: [{ type: 'text', text: 'x' }], name: 'fetch' })])).toBe('fetch');
    expect(nameOf([results({ id: 'c1', content: [{ type: 'text', text: 'x' }], name: 'search' })])).toBe('search');
    // Each of them written back exactly as it came.
    for (const entry of [{ id: 'c1', name: 'search', content: [] }, { id: 'c1', content: [], name: 'search' }, { id: 'c1', content: [], name: 'fetch' }]) {
      const body = { events: [calls, results(entry)] };
      expect(convert(body, { from: 'agentcore-memory', to: 'agentcore-memory' }).value).toEqual(body);
    }
  });

  it('messageToEvent names a result from toolNames (the calls before it), and not without them', () => {
    const history = (decode(chatBody, { from: 'openai-chat' }).value as Request).messages;
    const result = history[2] as Message;
    const named = messageToEvent(result, { toolNames: toolCallNames(history.slice(0, 2)) });
    expect(resultEntries([named.event])[0]).toMatchObject({ id: 'call_1', name: 'get_weather' });
    expect(named.losses).toEqual([]);
    expect(resultEntries([messageToEvent(result).event])[0]?.['name']).toBeUndefined();
    // One event read alone keeps the name; read with its call, the name comes off.
    expect(eventToMessages(named.event)[0]?.parts[0]).toMatchObject({ callId: 'call_1', name: 'get_weather' });
    const both = [messageToEvent(history[1] as Message).event, named.event];
    expect(results(eventsToMessages(both))).toEqual(results(history));
    expect(results(history)).toEqual([{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'sunny' }], stringContent: true }]);
  });

  it('under preserve a named-after-its-call result needs no stash', () => {
    const req = decode(anthropicBody, { from: 'anthropic-messages' }).value as Request;
    const body = JSON.stringify(encode(req, { to: 'agentcore-memory', preserve: true }).value);
    expect(body).not.toContain('interlingua.stash');
  });
});

describe('older events: a lone TOOL text answers the unanswered calls before it', () => {
  const weather = { id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } };

  it.each([true, false])('one call (bare array blob: %s): the text is its result, reported approximated', (bare) => {
    const events = [userText('Weather?'), callsEvent([weather], { bare, text: 'Let me check.' }), toolText('sunny'), { payload: [{ conversational: { role: 'ASSISTANT', content: { text: 'It is sunny.' } } }] }];
    const { value, losses } = decode({ events }, { from: 'agentcore-memory' });
    const result = (value as Request).messages[2]?.parts[0];
    expect(result).toMatchObject({ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'sunny' }] });
    expect(losses).toEqual([expect.objectContaining({ code: 'older-tool-result', path: ['events', 2], action: 'approximated' })]);
    expectPairedEverywhere(events, [weather], bodies);
  });

  it('several calls, one TOOL event each in a row: paired in order', () => {
    const calls = [weather, { id: 'c2', name: 'get_time' }, { id: 'c3', name: 'get_news' }];
    const events = [userText('Everything?'), callsEvent(calls), toolText('sunny'), toolText('14:00'), toolText('nothing new')];
    const { value, losses } = decode({ events }, { from: 'agentcore-memory' });
    const results = (value as Request).messages.slice(2).map((m) => m.parts[0]);
    expect(results).toMatchObject([{ callId: 'c1', content: [{ text: 'sunny' }] }, { callId: 'c2', content: [{ text: '14:00' }] }, { callId: 'c3', content: [{ text: 'nothing new' }] }]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['older-tool-result', ['events', 2]], ['older-tool-result', ['events', 3]], ['older-tool-result', ['events', 4]]]);
    expectPairedEverywhere(events, calls, bodies);
  });

  it('several TOOL texts in one event split one per call too', () => {
    const calls = [weather, { id: 'c2', name: 'get_time' }];
    const events = [userText('Both?'), callsEvent(calls, { bare: true }), toolText('sunny', '14:00')];
    const messages = (decode({ events }, { from: 'agentcore-memory' }).value as Request).messages;
    expect(messages[2]?.parts).toMatchObject([{ callId: 'c1' }, { callId: 'c2' }]);
    expectPairedEverywhere(events, calls, bodies);
  });

  it('texts that do not split one per call: the first call gets the text, and a loss says the rest stay unanswered', () => {
    const calls = [weather, { id: 'c2', name: 'get_time' }, { id: 'c3', name: 'get_news' }];
    const events = [userText('Everything?'), callsEvent(calls), toolText('sunny, 14:00, nothing new')];
    const { value, losses } = decode({ events }, { from: 'agentcore-memory' });
    expect((value as Request).messages[2]?.parts[0]).toMatchObject({ callId: 'c1' });
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['older-tool-result', ['events', 2], 'approximated'], ['older-tool-result', ['events', 1], 'approximated']]);
    expect(losses[1]?.message).toContain('2 call(s) stay unanswered');
    // Into Chat: the first call with its result; the others are left out, reported there.
    const chat = convert({ events }, { from: 'agentcore-memory', to: 'openai-chat' });
    expect(codes(chat.losses).filter((c) => c === 'unanswered-tool-call')).toHaveLength(2);
    expect(codes(chat.losses)).not.toContain('orphan-tool-result');
  });

  it('calls answered by a results blob take no lone text; a text after a user message answers nothing', () => {
    const answered = [userText('a'), callsEvent([weather]), { payload: [{ blob: JSON.stringify({ blobType: 'camunda.toolCallResults', version: 1, results: [{ id: 'c1', name: 'get_weather', content: [{ type: 'text', text: 'sunny' }] }] }) }] }, toolText('extra')];
    const late = [userText('a'), callsEvent([weather]), userText('b'), toolText('sunny')];
    for (const events of [answered, late]) {
      const { value, losses } = decode({ events }, { from: 'agentcore-memory' });
      expect((value as Request).messages.at(-1)?.parts[0]).toMatchObject({ callId: '' });
      expect(codes(losses)).not.toContain('older-tool-result');
    }
  });

  it('the older events are written back as they came (lone TOOL texts, bare array blob)', () => {
    const events = [userText('Weather?'), callsEvent([weather, { id: 'c2', name: 'get_time' }], { bare: true }), toolText('sunny'), toolText('14:00')];
    expect(convert({ events }, { from: 'agentcore-memory', to: 'agentcore-memory' }).value).toEqual({ events });
    const req = decode({ events }, { from: 'agentcore-memory' }).value as Request;
    const preserved = JSON.stringify(encode(req, { to: 'agentcore-memory', preserve: true }).value);
    expect(preserved).not.toContain('interlingua.stash');
  });

  it('a result given another call id since it was read is a result like any other', () => {
    const events = [userText('Weather?'), callsEvent([weather]), toolText('sunny')];
    const req = decode({ events }, { from: 'agentcore-memory' }).value as Request;
    const [result] = (req.messages[2] as Message).parts;
    const moved: Request = { messages: [...req.messages.slice(0, 2), { role: 'tool', parts: [{ ...(result as Message['parts'][number] & { type: 'tool-result' }), callId: 'other' }] }] };
    const out = encode(moved, { to: 'agentcore-memory' }).value as { events: unknown[] };
    expect(resultEntries(out.events)).toMatchObject([{ id: 'other' }]);
  });

  it('one event of the older kind read alone pairs within it', () => {
    const event = { payload: [{ conversational: { role: 'ASSISTANT', content: { text: 'Checking.' } } }, { blob: JSON.stringify([weather]) }, { conversational: { role: 'TOOL', content: { text: 'sunny' } } }] };
    const losses: Loss[] = [];
    const messages = eventToMessages(event, { losses });
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(messages[1]?.parts[0]).toMatchObject({ callId: 'c1' });
    expect(codes(losses)).toEqual(['older-tool-result']);
  });
});

describe('schemas', () => {
  it('every body the older events converted to above passes its dialect validator (the matrix tests)', async () => {
    expect(Object.keys(bodies).sort()).toEqual(['anthropic-messages', 'bedrock-converse', 'gemini', 'openai-chat', 'openai-responses']);
    await expectValid(bodies);
  }, 300_000);
});
