/**
 * Validation of agent input bodies: which form `input` takes, the exact messages the source
 * design names, every issue with its JSON path in one error, and the ValidationException body.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { toAgentInputErrorBody } from '../../../src/index.js';
import { decodeReq, errorOf, issuesOf } from './helpers.js';

const FORM = 'expected string, array of content blocks, or array of messages';
const text = (t: string) => ({ type: 'text', text: t });
const first = (body: unknown) => {
  const [issue] = issuesOf(body);
  return { path: issue?.path, message: issue?.message };
};

describe('input forms', () => {
  it('reads a string as text, an array starting with a role as messages, other arrays as content blocks', () => {
    expect(decodeReq({ input: 'Hi' }).messages).toEqual([{ role: 'user', parts: [text('Hi')], stringContent: true }]);
    expect(decodeReq({ input: [text('a'), text('b')] }).messages).toEqual([{ role: 'user', parts: [text('a'), text('b')] }]);
    const msgs = decodeReq({ input: [{ role: 'user', content: [text('a')] }, { role: 'assistant', content: [text('b')] }] }).messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('reads the legacy parameters.question form, keeping the other parameters', () => {
    const req = decodeReq({ parameters: { question: 'Why?', top_k: 3 } });
    expect(req.messages).toEqual([{ role: 'user', parts: [text('Why?')], stringContent: true }]);
    expect(req.ext?.['agent-input']?.['parameters']).toEqual({ top_k: 3 });
  });

  it.each([
    ['a number', 123, 'number'],
    ['an object', { role: 'user' }, 'object'],
    ['an empty array', [], 'empty array'],
    ['an array of strings', ['a'], 'array of string'],
    ['an array of arrays', [[text('a')]], 'array of array of object'],
    ['a boolean', true, 'boolean'],
  ])('rejects %s: "%s"', (_what, input, received) => {
    const issues = issuesOf({ input });
    expect(issues).toEqual([{ code: 'invalid_type', path: ['input'], message: FORM, expected: 'string, array of content blocks, or array of messages', received }]);
  });
});

describe('the messages the source design names', () => {
  it('Input cannot be null: null body, null input, missing input', () => {
    expect(first(null)).toEqual({ path: [], message: 'Input cannot be null' });
    expect(first({ input: null })).toEqual({ path: ['input'], message: 'Input cannot be null' });
    expect(first({})).toEqual({ path: ['input'], message: 'Input cannot be null' });
    expect(first({ parameters: { other: 1 } })).toEqual({ path: ['input'], message: 'Input cannot be null' });
  });

  it('Content block must have a type: missing, blank, not a string, or not an object', () => {
    expect(first({ input: [{ text: 'a' }] })).toEqual({ path: ['input', 0, 'type'], message: 'Content block must have a type' });
    expect(first({ input: [text('a'), { type: ' ' }] })).toEqual({ path: ['input', 1, 'type'], message: 'Content block must have a type' });
    expect(first({ input: [text('a'), { type: 3 }] })).toEqual({ path: ['input', 1, 'type'], message: 'Content block must have a type' });
    expect(first({ input: [text('a'), 'b'] })).toEqual({ path: ['input', 1], message: 'Content block must have a type' });
  });

  it('Text content block must have text field', () => {
    expect(first({ input: [{ type: 'text' }] })).toEqual({ path: ['input', 0, 'text'], message: 'Text content block must have text field' });
    expect(first({ input: [{ type: 'text', text: null }] })).toEqual({ path: ['input', 0, 'text'], message: 'Text content block must have text field' });
    expect(first({ input: [{ role: 'user', content: [{ type: 'TEXT', text: 7 }] }] })).toEqual({
      path: ['input', 0, 'content', 0, 'text'],
      message: 'Text content block must have text field',
    });
  });

  it('Unsupported content block type: <t>, in blocks and in messages', () => {
    expect(first({ input: [{ type: 'audio', audio: {} }] })).toEqual({ path: ['input', 0, 'type'], message: 'Unsupported content block type: audio' });
    expect(first({ input: [{ role: 'user', content: [{ type: 'tool_result' }] }] })).toEqual({
      path: ['input', 0, 'content', 0, 'type'],
      message: 'Unsupported content block type: tool_result',
    });
  });

  it('Message must have role and content', () => {
    const m = 'Message must have role and content';
    expect(first({ input: [{ role: 'user' }] })).toEqual({ path: ['input', 0, 'content'], message: m });
    expect(first({ input: [{ role: 'user', content: 'hi' }] })).toEqual({ path: ['input', 0, 'content'], message: m });
    expect(first({ input: [{ role: 'user', content: [] }] })).toEqual({ path: ['input', 0, 'content'], message: m });
    expect(first({ input: [{ role: '', content: [text('a')] }] })).toEqual({ path: ['input', 0, 'role'], message: m });
    expect(first({ input: [{ role: 'user', content: [text('a')] }, { content: [text('b')] }] })).toEqual({ path: ['input', 1, 'role'], message: m });
    expect(first({ input: [{ role: 'user', content: [text('a')] }, 7] })).toEqual({ path: ['input', 1], message: m });
  });

  it('lets an assistant message that only calls tools leave content out', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } };
    const req = decodeReq({ input: [{ role: 'user', content: [text('go')] }, { role: 'assistant', toolCalls: [call] }, { role: 'tool', toolCallId: 'c1', content: [text('ok')] }] });
    expect(req.messages[1]?.parts).toEqual([{ type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 }, argumentsJson: '{"a":1}' }]);
    expect(first({ input: [{ role: 'assistant', toolCalls: [] }] })).toEqual({ path: ['input', 0, 'content'], message: 'Message must have role and content' });
  });
});

describe('roles', () => {
  it('accepts any role; the five canonical ones in any case', () => {
    const req = decodeReq({
      input: [
        { role: 'SYSTEM', content: [text('be brief')] },
        { role: 'critic', content: [text('too long')] },
        { role: 'User', content: [text('again')] },
      ],
    });
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    // A role with no canonical meaning is kept as meaning (reported elsewhere), a case variant as a spelling hint.
    expect(req.messages[1]?.ext).toEqual({ 'agent-input': { role: 'critic' } });
    expect(req.messages[2]?.ext).toEqual({ 'agent-input': { $role: 'User' } });
  });

  it('needs toolCallId on tool messages and a well-formed tool call', () => {
    expect(first({ input: [{ role: 'tool', content: [text('r')] }] })).toEqual({ path: ['input', 0, 'toolCallId'], message: 'Tool message must have toolCallId' });
    const bad = { role: 'assistant', content: [text('a')], toolCalls: [{ id: 'c', function: { name: 'f', arguments: '{' } }] };
    expect(first({ input: [bad] })).toEqual({ path: ['input', 0, 'toolCalls', 0, 'function', 'arguments'], message: 'tool call arguments are not valid JSON' });
  });
});

describe('media blocks', () => {
  const image = (src: unknown, key = 'image') => ({ input: [{ type: 'image', [key]: src }] });

  it('reads the media object under the block type name or under source (ml-commons)', () => {
    const a = decodeReq(image({ type: 'base64', format: 'png', data: 'iVBORw0KGgo=' }));
    const b = decodeReq(image({ type: 'BASE64', format: 'png', data: 'iVBORw0KGgo=' }, 'source'));
    expect(a.messages[0]?.parts[0]).toEqual({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(b.messages[0]?.parts[0]).toMatchObject({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } });
  });

  it('reads url data as a URL, s3:// data as an S3 location, jpg as image/jpeg', () => {
    const url = decodeReq(image({ type: 'url', format: 'jpg', data: 'https://x.test/a.jpg' })).messages[0]?.parts[0];
    const s3 = decodeReq({ input: [{ type: 'video', video: { type: 'url', format: 'mp4', data: 's3://b/v.mp4' } }] }).messages[0]?.parts[0];
    expect(url).toMatchObject({ source: { kind: 'url', url: 'https://x.test/a.jpg', mediaType: 'image/jpeg' } });
    expect(s3).toMatchObject({ type: 'video', source: { kind: 's3', uri: 's3://b/v.mp4', mediaType: 'video/mp4' } });
  });

  it('names each missing or wrong field of the media object', () => {
    expect(issuesOf(image({ type: 'ftp', format: 'bmp' })).map((i) => [i.path, i.message])).toEqual([
      [['input', 0, 'image', 'type'], 'Invalid source type. Supported types: BASE64, URL'],
      [['input', 0, 'image', 'format'], 'Unsupported image format: bmp. Supported formats: gif, jpeg, jpg, png, webp'],
      [['input', 0, 'image', 'data'], 'Image data is required'],
    ]);
    expect(first({ input: [{ type: 'document' }] })).toEqual({ path: ['input', 0, 'document'], message: 'Document content block must have document data' });
  });

  it('refuses base64 data outside the base64 alphabet (providers would refuse the bytes); URL data is not checked', () => {
    expect(first(image({ type: 'base64', format: 'png', data: 'iVBOR...' }))).toEqual({ path: ['input', 0, 'image', 'data'], message: 'Image data is not valid base64' });
    expect(first(image({ type: 'base64', format: 'png', data: 'abcde' }))).toEqual({ path: ['input', 0, 'image', 'data'], message: 'Image data is not valid base64' });
    // Unpadded and URL-safe base64 decode too (Gemini sends the URL-safe alphabet).
    for (const data of ['iVBORw0KGgo', 'iVBORw0KGgo=', 'ab-_cd==']) expect(() => decodeReq(image({ type: 'base64', format: 'png', data }))).not.toThrow();
    expect(() => decodeReq(image({ type: 'url', format: 'png', data: 'https://x.test/a b.png' }))).not.toThrow();
  });
});

describe('all issues in one error', () => {
  it('collects every problem with its path, and the error body names them all', () => {
    const body = { input: [{ type: 'text' }, { type: 'audio' }, { type: 'text', text: '  ' }] };
    const err = errorOf(() => decodeReq(body));
    expect(err.issues.map((i) => i.path)).toEqual([
      ['input', 0, 'text'],
      ['input', 1, 'type'],
      ['input', 2, 'text'],
    ]);
    const rendered = toAgentInputErrorBody(err);
    expect(rendered).toEqual({
      error: {
        type: 'ValidationException',
        message:
          'Text content block must have text field (and 2 more: input[1].type: Unsupported content block type: audio; input[2].text: Text content block cannot have null or empty text)',
        details: { field: 'input[0].text', expected: 'string', received: 'missing' },
      },
    });
  });

  it('renders a single issue as the bare message with field, expected and received', () => {
    expect(toAgentInputErrorBody(errorOf(() => decodeReq({ input: 42 })))).toEqual({
      error: {
        type: 'ValidationException',
        message: FORM,
        details: { field: 'input', expected: 'string, array of content blocks, or array of messages', received: 'number' },
      },
    });
  });

  it('checks text against the size limit', () => {
    const limits = { ...DEFAULT_LIMITS, maxTextBytes: 10 };
    expect(errorOf(() => decodeReq({ input: 'x'.repeat(11) }, limits)).issues[0]).toMatchObject({ code: 'too_large', path: ['input'] });
    expect(() => decodeReq({ input: 'x'.repeat(10) }, limits)).not.toThrow();
  });
});
