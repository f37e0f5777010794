/**
 * Canonical -> Bedrock request: Bedrock's target rules, each reported as a loss, the body accepted
 * by the Smithy oracle, and under `preserve` the exact way back.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { validateBedrockConverse } from '../../support/validators/bedrock-converse.js';
import { codes, decodeReq, encodeReq } from './helpers.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text }] });

/** Encodes, checks the body against the Smithy model, and checks that `preserve` brings `req` back. */
function encodeChecked(req: Request): ReturnType<typeof encodeReq> {
  const out = encodeReq(req);
  expect(validateBedrockConverse('request', out.value)).toEqual([]);
  const kept = encodeReq(req, true);
  expect(codes(kept.losses)).toEqual(codes(out.losses));
  for (const l of kept.losses) expect(l.action).toBe('stashed');
  expect(decodeReq(kept.value)).toEqual(req);
  return out;
}

describe('conversation rules', () => {
  it('puts a user turn first when the conversation starts with the assistant', () => {
    const { value, losses } = encodeChecked({ messages: [assistant('Hi, how can I help?'), user('Weather?')] });
    expect(value['messages']).toEqual([
      { role: 'user', content: [{ text: '.' }] },
      { role: 'assistant', content: [{ text: 'Hi, how can I help?' }] },
      { role: 'user', content: [{ text: 'Weather?' }] },
    ]);
    expect(losses).toEqual([expect.objectContaining({ code: 'leading-user-turn', path: ['messages'], action: 'approximated' })]);
  });

  it('merges same-role turns (reported); tool messages join the user turn (Bedrock\'s place for them)', () => {
    const req: Request = {
      messages: [
        user('a'),
        user('b'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: {} }, { type: 'tool-call', id: 'c2', name: 'f', arguments: {} }] },
        { role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'one' }] }] },
        { role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', content: [{ type: 'text', text: 'two' }] }] },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
    };
    const { value, losses } = encodeChecked(req);
    const messages = value['messages'] as { role: string; content: unknown[] }[];
    expect(messages.map((m) => [m.role, m.content.length])).toEqual([['user', 2], ['assistant', 2], ['user', 2]]);
    expect(messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 'c1', content: [{ text: 'one' }] } },
      { toolResult: { toolUseId: 'c2', content: [{ text: 'two' }] } },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['merged-turns', ['messages', 1]]]);
  });

  it('never sends empty text; a message left empty is dropped and its neighbours merged', () => {
    const req: Request = { messages: [user('first'), { role: 'assistant', parts: [{ type: 'text', text: '' }] }, user('second'), { role: 'assistant', parts: [{ type: 'text', text: '  \n' }] }] };
    const { value, losses } = encodeChecked(req);
    // Whitespace-only text is not blank to Bedrock (a recorded request with "\n" was accepted).
    expect(value['messages']).toEqual([
      { role: 'user', content: [{ text: 'first' }, { text: 'second' }] },
      { role: 'assistant', content: [{ text: '  \n' }] },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['empty-text', ['messages', 1, 'parts', 0]],
      ['empty-message', ['messages', 1]],
      ['merged-turns', ['messages', 2]],
    ]);
  });

  it('moves later system messages to the top-level system, developer as system', () => {
    const req: Request = { messages: [{ role: 'developer', parts: [{ type: 'text', text: 'be brief' }] }, user('q'), { role: 'system', parts: [{ type: 'text', text: 'late rule' }] }, assistant('a')] };
    const { value, losses } = encodeChecked(req);
    expect(value['system']).toEqual([{ text: 'be brief' }, { text: 'late rule' }]);
    expect(value['messages']).toEqual([
      { role: 'user', content: [{ text: 'q' }] },
      { role: 'assistant', content: [{ text: 'a' }] },
    ]);
    expect(codes(losses)).toEqual(['developer-role', 'system-moved']);
  });
});

describe('tool pairing and bytes', () => {
  const call = (id: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text: 'checking' }, { type: 'tool-call', id, name: 'f', arguments: { q: 1 } }] });
  const tools: Request['tools'] = [{ type: 'function', name: 'f', parameters: { type: 'object' } }];

  it('leaves out a tool call the next turn does not answer (Bedrock refuses it), reported as dropped', () => {
    // Gemini history may hold a functionCall the user never answered.
    const { value, losses } = encodeChecked({ messages: [user('q'), call('c1'), user('never mind')], tools });
    expect(value['messages']).toEqual([
      { role: 'user', content: [{ text: 'q' }] },
      { role: 'assistant', content: [{ text: 'checking' }] },
      { role: 'user', content: [{ text: 'never mind' }] },
    ]);
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['unanswered-tool-call', ['messages', 1, 'parts', 1], 'dropped']]);
  });

  it('keeps a call in the last message: its result has not arrived yet', () => {
    const { value, losses } = encodeChecked({ messages: [user('q'), call('c1')], tools });
    expect((value['messages'] as { content: unknown[] }[])[1]?.content).toHaveLength(2);
    expect(losses).toEqual([]);
  });

  it("a result's name that its call gives is not lost (the model recovers it from the call); another name is reported", () => {
    const result = (name: string): Message => ({ role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', name, content: [{ type: 'text', text: '42' }] }] });
    // Gemini names every functionResponse: the name of its call.
    const same = encodeChecked({ messages: [user('q'), call('c1'), result('f')], tools });
    expect((same.value['messages'] as { content: unknown[] }[])[2]?.content).toEqual([{ toolResult: { toolUseId: 'c1', content: [{ text: '42' }] } }]);
    expect(same.losses).toEqual([]);
    const other = encodeChecked({ messages: [user('q'), call('c1'), result('g')], tools });
    expect(other.losses.map((l) => [l.code, l.path, l.action])).toEqual([['tool-result-name', ['messages', 2, 'parts', 0, 'name'], 'dropped']]);
  });

  it('sends a tool result that answers no call as user text naming the tool', () => {
    const req: Request = {
      messages: [user('q'), assistant('a'), { role: 'tool', parts: [{ type: 'tool-result', callId: 'x9', name: 'f', content: [{ type: 'text', text: '42' }] }] }],
      tools,
    };
    const { value, losses } = encodeChecked(req);
    expect((value['messages'] as unknown[])[2]).toEqual({ role: 'user', content: [{ text: '[result of tool f]' }, { text: '42' }] });
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['orphan-tool-result', ['messages', 2, 'parts', 0], 'approximated']]);
  });

  it('rewrites URL-safe or unpadded base64 to the standard padded form a Smithy blob takes (same bytes)', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01, 0x02]);
    const urlSafe = bytes.toString('base64url'); // '-__-AQI', unpadded
    const req: Request = { messages: [{ role: 'user', parts: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: urlSafe } }] }] };
    const { value, losses } = encodeChecked(req);
    const source = ((value['messages'] as { content: { image: { source: { bytes: string } } }[] }[])[0]?.content[0]?.image.source) as { bytes: string };
    expect(source.bytes).toBe(bytes.toString('base64'));
    expect(Buffer.from(source.bytes, 'base64')).toEqual(bytes);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['base64-normalized', ['messages', 0, 'parts', 0, 'source']]]);
  });

  it('drops data that is not base64 at all, reported, rather than send a body Bedrock refuses', () => {
    const req: Request = { messages: [user('look'), { role: 'user', parts: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'not base64!' } }] }] };
    const { losses } = encodeReq(req);
    expect(losses.map((l) => [l.code, l.action])).toContainEqual(['invalid-base64', 'dropped']);
  });
});

describe('names Bedrock constrains are rewritten reversibly', () => {
  const req: Request = {
    messages: [
      user('weather?'),
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'call id/1', name: 'weather.get', arguments: { city: 'Paris' } }] },
      {
        role: 'user',
        parts: [
          { type: 'tool-result', callId: 'call id/1', content: [{ type: 'text', text: 'rain' }] },
          { type: 'document', name: 'Q3 report (final).pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
          { type: 'document', title: 'Notes: v2', source: { kind: 'text', text: 'hello', mediaType: 'text/plain' } },
          { type: 'document', source: { kind: 'base64', mediaType: 'text/csv', data: 'YSxi' } },
          { type: 'document', name: 'Document 1', source: { kind: 'base64', mediaType: 'text/csv', data: 'YSxi' } },
        ],
      },
    ],
    tools: [{ type: 'function', name: 'weather.get', parameters: { type: 'object' } }],
    toolChoice: { type: 'tool', name: 'weather.get' },
  };

  it('writes valid, consistent names and reports each', () => {
    const { value, losses } = encodeChecked(req);
    const messages = value['messages'] as { content: Record<string, Record<string, unknown>>[] }[];
    const call = messages[1]?.content[0]?.['toolUse'];
    const toolName = call?.['name'] as string;
    expect(toolName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(toolName.startsWith('weather_get_')).toBe(true);
    expect(call?.['toolUseId']).toMatch(/^call_id_1_[0-9a-f]{8}$/);
    const tc = value['toolConfig'] as { tools: { toolSpec: { name: string } }[]; toolChoice: unknown };
    expect(tc.tools[0]?.toolSpec.name).toBe(toolName);
    expect(tc.toolChoice).toEqual({ tool: { name: toolName } });
    expect(messages[2]?.content[0]?.['toolResult']?.['toolUseId']).toBe(call?.['toolUseId']);
    const names = messages[2]?.content.slice(1).map((b) => b['document']?.['name']);
    // Valid names stay; a title becomes the name; a missing name is made up, never a duplicate.
    expect(names).toEqual(['Q3 report (final)-pdf', 'Notes- v2', 'Document 2', 'Document 1']);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['tool-id', 'messages.1.parts.0.id'],
      ['tool-name', 'messages.1.parts.0.name'],
      ['tool-id', 'messages.2.parts.0.callId'],
      ['document-name', 'messages.2.parts.1.name'],
      ['document-name', 'messages.2.parts.2.title'],
      ['document-name', 'messages.2.parts.3.name'],
      ['tool-name', 'tools.0.name'],
      ['tool-name', 'toolChoice.name'],
    ]);
  });

  it('cuts an over-long document name to 200 characters, kept distinct by a hash', () => {
    const long = 'x'.repeat(300);
    const { value } = encodeChecked({ messages: [{ role: 'user', parts: [{ type: 'document', name: long, source: { kind: 'text', text: 't' } }] }] });
    const name = ((value['messages'] as { content: { document: { name: string } }[] }[])[0]?.content[0]?.document.name) ?? '';
    expect(name.length).toBe(200);
    expect(name).toMatch(/^x+-[0-9a-f]{8}$/);
  });
});

describe('cache breakpoints become cachePoint blocks', () => {
  it('after the part, the system text and the tool that carried them', () => {
    const req: Request = {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'long rules', cache: { type: 'ephemeral' } }] },
        { role: 'user', parts: [{ type: 'text', text: 'ctx', cache: { type: 'ephemeral', ttl: '1h' } }, { type: 'text', text: 'q' }] },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, cache: { type: 'ephemeral' } }],
    };
    const { value, losses } = encodeChecked(req);
    expect(value['system']).toEqual([{ text: 'long rules' }, { cachePoint: { type: 'default' } }]);
    expect(value['messages']).toEqual([{ role: 'user', content: [{ text: 'ctx' }, { cachePoint: { type: 'default', ttl: '1h' } }, { text: 'q' }] }]);
    expect((value['toolConfig'] as { tools: unknown[] }).tools[1]).toEqual({ cachePoint: { type: 'default' } });
    expect(losses).toEqual([]);
    // And back: the canonical hints come back on the same parts, with no stash needed.
    expect(decodeReq(value)).toEqual(req);
  });

  it('reports a breakpoint Bedrock cannot place or a ttl it does not know', () => {
    const req: Request = {
      messages: [
        user('q'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'f', arguments: {} }] },
        { role: 'user', parts: [{ type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'r', cache: { type: 'ephemeral' } }] }, { type: 'text', text: 'x', cache: { type: 'ephemeral', ttl: '10m' } }] },
      ],
      tools: [{ type: 'function', name: 'f' }],
    };
    const { losses } = encodeChecked(req);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['cache-point', 'messages.2.parts.0.content.0.cache'],
      ['cache-ttl', 'messages.2.parts.1.cache.ttl'],
    ]);
  });
});

describe('reasoning', () => {
  const signed = { type: 'reasoning', origin: 'bedrock-converse', text: 'Let me think.\n', signature: 'EvYBCkgICxAB+/=' } as const;
  it('replays Bedrock reasoning byte-exact, signed or redacted', () => {
    const req: Request = { messages: [user('q'), { role: 'assistant', parts: [signed, { type: 'reasoning', origin: 'bedrock-converse', redactedData: 'RXU4RUNr' }, { type: 'text', text: 'a' }] }, user('more')] };
    const { value, losses } = encodeChecked(req);
    expect((value['messages'] as { content: unknown[] }[])[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'Let me think.\n', signature: 'EvYBCkgICxAB+/=' } } },
      { reasoningContent: { redactedContent: 'RXU4RUNr' } },
      { text: 'a' },
    ]);
    expect(losses).toEqual([]);
  });

  it('does not replay Anthropic-API thinking to Bedrock, nor anyone else\'s reasoning', () => {
    const req: Request = {
      messages: [
        user('q'),
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', origin: 'anthropic-messages', text: 't', signature: 'sig' },
            { type: 'reasoning', origin: 'openai-chat', text: 'plain' },
            { type: 'text', text: 'a' },
          ],
        },
        user('more'),
      ],
    };
    const { value, losses } = encodeChecked(req);
    expect((value['messages'] as { content: unknown[] }[])[1]?.content).toEqual([{ text: 'a' }]);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['foreign-reasoning', 'dropped'],
      ['foreign-reasoning', 'dropped'],
    ]);
  });
});

describe('request fields', () => {
  it('maps inference settings, structured output and tool choice', () => {
    const req: Request = {
      model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      messages: [user('q')],
      maxTokens: 256,
      temperature: 0.2,
      topP: 0.9,
      stop: ['END'],
      responseFormat: { type: 'json-schema', schema: { type: 'object', properties: { a: { type: 'number' } } }, name: 'answer' },
      tools: [{ type: 'function', name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'required' },
    };
    const { value, losses } = encodeChecked(req);
    expect(value).toEqual({
      modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      messages: [{ role: 'user', content: [{ text: 'q' }] }],
      inferenceConfig: { maxTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      toolConfig: { tools: [{ toolSpec: { name: 'f', description: 'does f', inputSchema: { json: { type: 'object' } }, strict: true } }], toolChoice: { any: {} } },
      outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object","properties":{"a":{"type":"number"}}}', name: 'answer' } } } },
    });
    expect(losses).toEqual([]);
  });

  it('an empty stop list comes back as an empty list (valid: the Smithy list has no minimum)', () => {
    const body = { messages: [{ role: 'user', content: [{ text: 'q' }] }], inferenceConfig: { maxTokens: 5, stopSequences: [] } };
    const req = decodeReq(body);
    expect(req.stop).toEqual([]);
    const { value, losses } = encodeChecked(req);
    expect(value).toEqual(body);
    expect(losses).toEqual([]);
  });

  it('reports what has no Bedrock slot, and approximates what it can', () => {
    const req: Request = {
      messages: [user('q')],
      temperature: 1.7,
      stop: ['', 'X'],
      seed: 3,
      user: 'u-1',
      reasoning: { enabled: true, budgetTokens: 2048 },
      toolChoice: { type: 'none' },
      tools: [{ type: 'function', name: 'f', description: '' }, { type: 'provider', origin: 'anthropic-messages', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search' } }],
      stream: true,
      responseFormat: { type: 'json' },
    };
    const { value, losses } = encodeChecked(req);
    expect(value['inferenceConfig']).toEqual({ temperature: 1, stopSequences: ['X'] });
    expect((value['toolConfig'] as Record<string, unknown>)['toolChoice']).toBeUndefined();
    expect(losses.map((l) => [l.code, l.path.join('.'), l.action])).toEqual([
      ['temperature-range', 'temperature', 'approximated'],
      ['empty-stop-sequence', 'stop', 'approximated'],
      ['empty-description', 'tools.0.description', 'approximated'],
      ['provider-tool', 'tools.1', 'dropped'],
      ['tool-choice-none', 'toolChoice', 'approximated'],
      ['json-object-format', 'responseFormat', 'dropped'],
      ['unsupported-field', 'seed', 'dropped'],
      ['unsupported-field', 'user', 'dropped'],
      ['unsupported-field', 'reasoning', 'dropped'],
      ['stream', 'stream', 'approximated'],
    ]);
  });

  it('adds a tool spec for tools the history called when the request defines none', () => {
    const req: Request = {
      messages: [
        user('q'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'lookup', arguments: { q: 1 } }] },
        { role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [{ type: 'data', data: { hits: 2 } }], isError: false }] },
      ],
    };
    const { value, losses } = encodeChecked(req);
    expect(value['toolConfig']).toEqual({ tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] });
    expect((value['messages'] as { content: unknown[] }[])[2]?.content).toEqual([{ toolResult: { toolUseId: 'c', content: [{ json: { hits: 2 } }], status: 'success' } }]);
    expect(codes(losses)).toEqual(['tool-config-added']);
  });

  it('writes media as base64 bytes with the format named by the media type', () => {
    const req: Request = {
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4A==' } },
            { type: 'video', source: { kind: 's3', uri: 's3://bucket/clip.mp4', mediaType: 'video/mp4', bucketOwner: '123456789012' } },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/x-unknown', data: 'AAAA' } },
            { type: 'text', text: 'describe' },
          ],
        },
      ],
    };
    const { value, losses } = encodeChecked(req);
    expect((value['messages'] as { content: unknown[] }[])[0]?.content).toEqual([
      { image: { format: 'jpeg', source: { bytes: '/9j/4A==' } } },
      { video: { format: 'mp4', source: { s3Location: { uri: 's3://bucket/clip.mp4', bucketOwner: '123456789012' } } } },
      { text: 'describe' },
    ]);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['unsupported-source', 'messages.0.parts.2.source'],
      ['unsupported-media-type', 'messages.0.parts.3.source'],
    ]);
  });
});
