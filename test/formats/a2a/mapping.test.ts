/**
 * The source design's mapping table and examples (docs/a2a-mapping.md), one rule at a time:
 * user text -> TextMessageContentEvent, the agent's final text -> TextMessageEndEvent, tool calls
 * -> ToolCallStartEvent with the arguments object, tool results -> ToolCallResultEvent named after
 * their call; an empty text beside tool calls is no text; no two messages of one output share an
 * id, and the ids of one canonical message's A2A messages read back as that message.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { decodeA2aRequest, encodeA2aRequest, schemaErrors } from './helpers.js';

/** The design's three examples as one OpenAI Chat conversation, and an answer after the result. */
const CHAT = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: "What's the weather?" },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Oakland"}' } }] },
    { role: 'tool', tool_call_id: 'call_abc123', content: 'Sunny, 72°F' },
    { role: 'assistant', content: 'It is sunny in Oakland.' },
  ],
};

/** The A2A messages the design's examples show (v0.3, `kind`-tagged), with the ids the encoder gives. */
const DESIGN = [
  { kind: 'message', messageId: 'msg-1', role: 'user', parts: [{ kind: 'text', text: "What's the weather?" }], metadata: { canonical_type: 'TextMessageContentEvent' } },
  {
    kind: 'message',
    messageId: 'msg-2',
    role: 'agent',
    parts: [{ kind: 'data', data: { tool_calls: [{ call_id: 'call_abc123', name: 'get_weather', arguments: { location: 'Oakland' } }] } }],
    metadata: { canonical_type: 'ToolCallStartEvent' },
  },
  {
    kind: 'message',
    messageId: 'msg-3',
    role: 'user',
    parts: [{ kind: 'data', data: { tool_results: [{ call_id: 'call_abc123', name: 'get_weather', output: 'Sunny, 72°F' }] } }],
    metadata: { canonical_type: 'ToolCallResultEvent' },
  },
  { kind: 'message', messageId: 'msg-4', role: 'agent', parts: [{ kind: 'text', text: 'It is sunny in Oakland.' }], metadata: { canonical_type: 'TextMessageEndEvent' } },
];

function fromChat(body: unknown): Request {
  const req = openaiChat.request?.decode(body, { limits: DEFAULT_LIMITS, losses: [] as never });
  if (req === undefined) throw new Error('no chat codec');
  return req;
}

const ids = (list: unknown): unknown[] => (list as JsonObject[]).map((m) => m['messageId']);
const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });

describe("the design's table and examples", () => {
  it('an OpenAI Chat conversation becomes the messages of the design examples', () => {
    const { value, losses } = encodeA2aRequest(fromChat(CHAT), '0.3');
    expect(value).toEqual(DESIGN);
    for (const m of value as JsonObject[]) expect(schemaErrors('Message', m)).toEqual([]);
    // The Chat text of the arguments had a space the object does not keep: said, not silent.
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([
      ['unsupported-field', ['model'], 'dropped'],
      ['arguments-text', ['messages', 1, 'parts', 1, 'argumentsJson'], 'approximated'],
    ]);
  });

  it('the design messages read back as the conversation: the same calls, arguments and results, on to Chat', () => {
    const { req, losses } = decodeA2aRequest(DESIGN);
    expect(losses).toEqual([]);
    expect(req.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool-call']],
      ['tool', ['tool-result']],
      ['assistant', ['text']],
    ]);
    expect(req.messages[1]?.parts[0]).toEqual({ type: 'tool-call', id: 'call_abc123', name: 'get_weather', arguments: { location: 'Oakland' } });
    const chat = openaiChat.request?.encode({ ...req, model: 'gpt-4o' }, { preserve: false, losses: [] as never }) as JsonObject;
    expect((chat['messages'] as JsonObject[])[1]).toEqual({ role: 'assistant', tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oakland"}' } }] });
    expect((chat['messages'] as JsonObject[])[2]).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: 'Sunny, 72°F' });
    // And written again, the same messages.
    expect(encodeA2aRequest(req, '0.3').value).toEqual(DESIGN);
  });

  it('system text is a user TextMessageContentEvent naming its role; agent text of any kind is TextMessageEndEvent', () => {
    const req: Request = {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        user('Show me'),
        { role: 'assistant', parts: [{ type: 'text', text: 'Here:' }, { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png', mediaType: 'image/png' } }] },
      ],
    };
    const list = encodeA2aRequest(req).value as JsonObject[];
    expect(list.map((m) => [m['role'], m['metadata']])).toEqual([
      ['ROLE_USER', { canonical_type: 'TextMessageContentEvent', canonical_role: 'system' }],
      ['ROLE_USER', { canonical_type: 'TextMessageContentEvent' }],
      ['ROLE_AGENT', { canonical_type: 'TextMessageEndEvent' }],
    ]);
  });
});

describe('tool call arguments', () => {
  const call = (args: Partial<{ arguments: unknown; argumentsJson: string }>): Request => ({
    messages: [user('go'), { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: {}, ...args } as Message['parts'][number]] }],
  });
  const written = (req: Request): unknown => (((encodeA2aRequest(req).value as JsonObject[])[1]?.['parts'] as JsonObject[])[0]?.['data'] as JsonObject)['tool_calls'];

  it('an object is written as the object, with no loss when its text is the compact JSON', () => {
    const req = call({ arguments: { a: [1, 2] }, argumentsJson: '{"a":[1,2]}' });
    expect(written(req)).toEqual([{ call_id: 'c1', name: 'f', arguments: { a: [1, 2] } }]);
    expect(encodeA2aRequest(req).losses).toEqual([]);
  });

  it('text that is not JSON stays text and is reported; decoding it reports it again and keeps it', () => {
    const req = call({ arguments: {}, argumentsJson: '{"a":' });
    const { value, losses } = encodeA2aRequest(req);
    expect(written(req)).toEqual([{ call_id: 'c1', name: 'f', arguments: '{"a":' }]);
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['invalid-arguments', ['messages', 1, 'parts', 0, 'argumentsJson'], 'approximated']]);
    const back = decodeA2aRequest(value);
    expect(back.losses.map((l) => l.code)).toEqual(['invalid-arguments']);
    expect(back.req.messages[1]?.parts[0]).toMatchObject({ arguments: {}, argumentsJson: '{"a":' });
  });

  it('arguments that are JSON but no object (an array) go as their JSON text', () => {
    expect(written(call({ arguments: [1, 2] }))).toEqual([{ call_id: 'c1', name: 'f', arguments: '[1,2]' }]);
  });

  it('an A2A history that wrote arguments as text gets text back (its exact bytes)', () => {
    const body = [
      { messageId: 'u', role: 'ROLE_USER', parts: [{ text: 'go' }], metadata: { canonical_type: 'TextMessageContentEvent' } },
      { messageId: 'a', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'c1', name: 'f', arguments: '{ "a" : 1 }' }] } }], metadata: { canonical_type: 'ToolCallStartEvent' } },
    ];
    const { req } = decodeA2aRequest(body);
    expect(encodeA2aRequest(req)).toEqual({ value: body, losses: [] });
  });
});

describe('an empty text beside tool calls, and message ids', () => {
  it('Chat `content: ""` with tool calls is one ToolCallStartEvent message, no empty text part', () => {
    const list = encodeA2aRequest(fromChat(CHAT)).value as JsonObject[];
    expect(list[1]?.['parts']).toEqual([{ data: { tool_calls: [{ call_id: 'call_abc123', name: 'get_weather', arguments: { location: 'Oakland' } }] } }]);
    expect(list).toHaveLength(4);
  });

  it('an empty text with no tool calls is kept (the turn was said, with nothing in it)', () => {
    const list = encodeA2aRequest({ messages: [user('hi'), { role: 'assistant', parts: [{ type: 'text', text: '' }] }] }).value as JsonObject[];
    expect(list[1]).toEqual({ messageId: 'msg-2', role: 'ROLE_AGENT', parts: [{ text: '' }], metadata: { canonical_type: 'TextMessageEndEvent' } });
    expect(decodeA2aRequest(list).req.messages[1]?.parts).toEqual([{ type: 'text', text: '' }]);
  });

  it('text and calls of one message: two messages, the second with a continuation id, read back as one message', () => {
    const req: Request = { messages: [user('go'), { role: 'assistant', parts: [{ type: 'text', text: 'Checking.' }, { type: 'tool-call', id: 'c1', name: 'f', arguments: { q: 1 } }] }] };
    const list = encodeA2aRequest(req).value as JsonObject[];
    expect(list.map((m) => [m['messageId'], (m['metadata'] as JsonObject)['canonical_type']])).toEqual([
      ['msg-1', 'TextMessageContentEvent'],
      ['msg-2', 'TextMessageEndEvent'],
      ['msg-2#2', 'ToolCallStartEvent'],
    ]);
    const back = decodeA2aRequest(list).req;
    expect(back.messages.map((m) => m.parts.map((p) => p.type))).toEqual([['text'], ['text', 'tool-call']]);
    expect(encodeA2aRequest(back).value).toEqual(list);
  });

  it('an id an earlier message already has is written with a ~n suffix and reported', () => {
    const mine = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }], ext: { a2a: { messageId: 'same' } } });
    const { value, losses } = encodeA2aRequest({ messages: [mine('a'), mine('b'), { role: 'assistant', parts: [{ type: 'text', text: 'c' }] }] });
    expect(ids(value)).toEqual(['same', 'same~2', 'msg-3']);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['a2a-message-id', ['messages', 1, 'messageId']]]);
    expect(decodeA2aRequest(value).req.messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }], [{ type: 'text', text: 'c' }]]);
  });

  it("an own id that would read as the continuation of the message before ('a' then 'a#2') is written apart, reported", () => {
    const mine = (text: string, id: string): Message => ({ role: 'user', parts: [{ type: 'text', text }], ext: { a2a: { messageId: id } } });
    const { value, losses } = encodeA2aRequest({ messages: [mine('x', 'a'), mine('y', 'a#2')] });
    expect(ids(value)).toEqual(['a', 'a#2~2']);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['a2a-message-id', ['messages', 1, 'messageId']]]);
    expect(decodeA2aRequest(value).req.messages).toHaveLength(2);
    // Where the decoder would not join them (another role), the id is kept as it is.
    const apart = encodeA2aRequest({ messages: [mine('x', 'a'), { role: 'assistant', parts: [{ type: 'text', text: 'y' }], ext: { a2a: { messageId: 'a#2' } } }] });
    expect(ids(apart.value)).toEqual(['a', 'a#2']);
  });

  it('older histories that gave one id to every message of a turn read as before, and are written with distinct ids', () => {
    const body = [
      { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: 'Checking.' }], metadata: { canonical_type: 'TextMessageEndEvent' } },
      { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'c1', name: 'f', arguments: { q: 1 } }] } }], metadata: { canonical_type: 'ToolCallStartEvent' } },
    ];
    const { req, losses } = decodeA2aRequest(body);
    expect(losses).toEqual([]);
    expect(req.messages).toHaveLength(1);
    expect(ids(encodeA2aRequest(req).value)).toEqual(['a1', 'a1#2']);
  });

  it('a task: its history and status message never share an id', () => {
    const task = {
      id: 't1',
      status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'done' }] } },
      history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'go' }] }],
    };
    const { req } = decodeA2aRequest(task);
    const status = req.messages[1] as Message;
    // The status message given the id of a history message by hand: written apart all the same.
    const edited: Request = { ...req, messages: [req.messages[0] as Message, { ...status, ext: { a2a: { ...status.ext?.['a2a'], messageId: 'u1' } } }] };
    const out = encodeA2aRequest(edited).value as JsonObject;
    const statusId = ((out['status'] as JsonObject)['message'] as JsonObject)['messageId'];
    expect(ids(out['history'])).toEqual(['u1']);
    expect(statusId).toBe('u1~2');
  });
});

describe('tool results carry their call\'s name', () => {
  it('a result whose call is in the conversation is named after it (Chat results have no name)', () => {
    const list = encodeA2aRequest(fromChat(CHAT)).value as JsonObject[];
    expect((list[2]?.['parts'] as JsonObject[])[0]).toEqual({ data: { tool_results: [{ call_id: 'call_abc123', name: 'get_weather', output: 'Sunny, 72°F' }] } });
  });

  it('a result whose call is not in the conversation goes without a name', () => {
    const req: Request = { messages: [{ role: 'tool', parts: [{ type: 'tool-result', callId: 'gone', content: [{ type: 'text', text: 'x' }] }] }] };
    const list = encodeA2aRequest(req).value as JsonObject[];
    expect((list[0]?.['parts'] as JsonObject[])[0]).toEqual({ data: { tool_results: [{ call_id: 'gone', output: 'x' }] } });
  });

  it('an A2A result written without a name comes back without one', () => {
    const body = [
      { messageId: 'a', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'c1', name: 'f', arguments: {} }] } }], metadata: { canonical_type: 'ToolCallStartEvent' } },
      { messageId: 'r', role: 'ROLE_USER', parts: [{ data: { tool_results: [{ call_id: 'c1', output: 'ok' }] } }], metadata: { canonical_type: 'ToolCallResultEvent' } },
    ];
    expect(encodeA2aRequest(decodeA2aRequest(body).req)).toEqual({ value: body, losses: [] });
  });
});
