/**
 * Canonical request -> agent input: the form chosen, what each part becomes, every field agent
 * input cannot hold reported as a loss, and `preserve` stashing it so decoding gives it back.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { codes, decodeReq, decodeWithLosses, encodeReq } from './helpers.js';

const user = (t: string, stringContent = false): Message => ({ role: 'user', parts: [{ type: 'text', text: t }], ...(stringContent ? { stringContent: true as const } : {}) });
const back = (req: Request): Request => decodeReq(JSON.parse(JSON.stringify(encodeReq(req, true).value)));

describe('form', () => {
  it('writes a lone string user message as a string, a lone user message with parts as blocks', () => {
    expect(encodeReq({ messages: [user('Hi', true)] }).value).toEqual({ input: 'Hi' });
    expect(encodeReq({ messages: [user('Hi')] }).value).toEqual({ input: [{ type: 'text', text: 'Hi' }] });
  });

  it('writes anything else as messages, tool results as tool messages, tool calls on the assistant', () => {
    const req: Request = {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        user('Weather?'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        { role: 'user', parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'Sunny' }] }, { type: 'text', text: 'Thanks' }] },
      ],
    };
    const { value, losses } = encodeReq(req);
    expect(value).toEqual({
      input: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [], toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', content: [{ type: 'text', text: 'Sunny' }], toolCallId: 'c1' },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    });
    expect(losses).toEqual([]);
  });

  it('writes a tool result with no content as a placeholder text, saying so', () => {
    const req: Request = { messages: [{ role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [] }] }] };
    const { value, losses } = encodeReq(req);
    expect(value).toEqual({ input: [{ role: 'tool', content: [{ type: 'text', text: '(no content)' }], toolCallId: 'c' }] });
    expect(codes(losses)).toEqual(['empty-tool-result']);
  });

  it('writes a role of no canonical meaning back as it came', () => {
    const body = { input: [{ role: 'critic', content: [{ type: 'text', text: 'Too long.' }] }] };
    expect(encodeReq(decodeReq(body)).value).toEqual(body);
  });
});

describe('media', () => {
  it('maps media types to format names, writing the media object under the block type name', () => {
    const req: Request = {
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'document', source: { kind: 'url', url: 's3://b/d.pdf', mediaType: 'application/pdf' } },
            { type: 'video', source: { kind: 's3', uri: 's3://b/v.mov', mediaType: 'video/quicktime' } },
          ],
        },
      ],
    };
    expect(encodeReq(req)).toEqual({
      value: {
        input: [
          { type: 'image', image: { type: 'base64', format: 'png', data: 'iVBORw0KGgo=' } },
          { type: 'document', document: { type: 'url', format: 'pdf', data: 's3://b/d.pdf' } },
          { type: 'video', video: { type: 'url', format: 'mov', data: 's3://b/v.mov' } },
        ],
      },
      losses: [],
    });
  });

  it('reports what it cannot write: a source with no media type, an unknown type, a file id, other spellings', () => {
    const req: Request = {
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { kind: 'url', url: 'https://x.test/a' } },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/bmp', data: 'Qk0=' } },
            { type: 'document', source: { kind: 'file-id', fileId: 'file-1' } },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpg', data: '/9j/' } },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
          ],
        },
      ],
    };
    const { value, losses } = encodeReq(req);
    expect(value).toEqual({ input: [{ type: 'text', text: 'Look' }, { type: 'image', image: { type: 'base64', format: 'jpeg', data: '/9j/' } }] });
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([
      ['unknown-media-type', ['messages', 0, 'parts', 1, 'source'], 'dropped'],
      ['unsupported-media-type', ['messages', 0, 'parts', 2, 'source', 'mediaType'], 'dropped'],
      ['unsupported-source', ['messages', 0, 'parts', 3, 'source'], 'dropped'],
      ['media-type', ['messages', 0, 'parts', 4, 'source', 'mediaType'], 'approximated'],
      ['unsupported-part', ['messages', 0, 'parts', 5], 'dropped'],
    ]);
  });

  it('keeps the spellings of its own source (upper case, source key, jpg) on the way back', () => {
    const body = { input: [{ type: 'IMAGE', source: { type: 'URL', format: 'jpg', data: 'https://x.test/a.jpg', detail: 'x' } }, { type: 'Text', text: 'Hi', lang: 'en' }] };
    const { value, losses } = decodeWithLosses(body);
    expect(losses).toEqual([]);
    expect(encodeReq(value)).toEqual({ value: body, losses: [] });
  });
});

describe('fields agent input cannot hold', () => {
  const rich: Request = {
    model: 'claude-sonnet-4-5',
    messages: [user('Hi', true)],
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
    toolChoice: { type: 'auto' },
    maxTokens: 100,
    temperature: 0.2,
    reasoning: { effort: 'high' },
    ext: { 'openai-chat': { logit_bias: { '1': 2 } } },
  };

  it('reports each as a loss at its path, dropped without preserve', () => {
    const { value, losses } = encodeReq(rich);
    expect(value).toEqual({ input: 'Hi' });
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([
      ['unsupported-field', ['model'], 'dropped'],
      ['unsupported-field', ['tools'], 'dropped'],
      ['unsupported-field', ['toolChoice'], 'dropped'],
      ['unsupported-field', ['maxTokens'], 'dropped'],
      ['unsupported-field', ['temperature'], 'dropped'],
      ['unsupported-field', ['reasoning'], 'dropped'],
      ['unsupported-field', ['logit_bias'], 'dropped'],
    ]);
  });

  it('stashes them under preserve, and decoding brings them back', () => {
    const { value, losses } = encodeReq(rich, true);
    expect(losses.every((l) => l.action === 'stashed')).toBe(true);
    expect(value['input']).toBe('Hi');
    expect(value['x-interlingua']).toBeDefined();
    expect(back(rich)).toEqual(rich);
  });

  it('drops reasoning and provider blocks from messages, stashing the message under preserve', () => {
    const req: Request = {
      messages: [
        user('Q'),
        { role: 'assistant', parts: [{ type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig' }, { type: 'text', text: 'A' }] },
        user('Q2'),
      ],
    };
    const plain = encodeReq(req);
    expect(plain.value['input']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'A' }] },
      { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
    ]);
    expect(plain.losses.map((l) => [l.code, l.path])).toEqual([['foreign-reasoning', ['messages', 1, 'parts', 0]]]);
    expect(back(req)).toEqual(req);
  });

  it('drops empty text and empty messages, and preserve still brings them back', () => {
    const req: Request = { messages: [{ role: 'system', parts: [{ type: 'text', text: ' ' }] }, user('Q'), { role: 'assistant', parts: [{ type: 'text', text: '' }] }] };
    const plain = encodeReq(req);
    expect(plain.value).toEqual({ input: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }] });
    expect(codes(plain.losses)).toEqual(['empty-text', 'empty-message', 'empty-text', 'empty-message']);
    expect(back(req)).toEqual(req);
  });

  it('stashes under preserve what is no loss but would not read back the same (string content, split tool results)', () => {
    const req: Request = {
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Q' }], stringContent: true },
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'a', name: 'f', arguments: {} }, { type: 'tool-call', id: 'b', name: 'f', arguments: {} }] },
        { role: 'user', parts: [{ type: 'tool-result', callId: 'a', content: [{ type: 'text', text: '1' }] }, { type: 'tool-result', callId: 'b', content: [{ type: 'text', text: '2' }] }] },
      ],
    };
    expect(encodeReq(req).losses).toEqual([]);
    expect(back(req)).toEqual(req);
  });
});

describe('what agent input cannot be empty of', () => {
  it('a conversation with nothing agent input can hold becomes one placeholder user message, reported (and stashed under preserve)', () => {
    const req: Request = { messages: [{ role: 'user', parts: [] }] };
    const out = encodeReq(req);
    expect(out.value).toEqual({ input: [{ role: 'user', content: [{ type: 'text', text: '[empty conversation]' }] }] });
    expect(codes(out.losses)).toContain('empty-message');
    expect(decodeReq(encodeReq(req, true).value)).toEqual(req);
  });

  it('a tool result with no call id (ml-commons refuses a blank toolCallId) is sent as text naming its tool', () => {
    const req: Request = { messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }] }, { role: 'tool', parts: [{ type: 'tool-result', callId: '', name: 'lookup', content: [{ type: 'text', text: '42' }] }] }] };
    const out = encodeReq(req);
    expect((out.value as { input: unknown[] }).input[1]).toEqual({ role: 'user', content: [{ type: 'text', text: '[result of tool lookup]' }, { type: 'text', text: '42' }] });
    expect(codes(out.losses)).toContain('orphan-tool-result');
  });
});
