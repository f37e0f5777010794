/** Encoding canonical requests of any origin (e.g. what the OpenAI Chat decoder gives) to Anthropic. */
import { describe, expect, it } from 'vitest';
import { STASH_KEY } from '../../../src/formats/shared/stash.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { toAnthropicId, toAnthropicName } from '../../../src/formats/anthropic-messages/tool-names.js';
import { codes, decodeReq, encodeReq } from './helpers.js';

const text = (t: string) => ({ type: 'text' as const, text: t });
const u = (t: string): Message => ({ role: 'user', parts: [text(t)], stringContent: true });
const r = (messages: Message[], extra: Partial<Request> = {}): Request => ({ model: 'claude-x', maxTokens: 100, messages, ...extra });

/** Encodes with preserve, decodes back: the canonical value must come back exactly. */
function viaPreserve(req: Request): void {
  const { value } = encodeReq(req, true);
  const back = decodeReq(JSON.parse(JSON.stringify(value)));
  expect(back).toEqual(req);
}

describe('system and developer messages', () => {
  it('one leading string system message becomes a system string', () => {
    const { value, losses } = encodeReq(r([{ role: 'system', parts: [text('S')], stringContent: true }, u('hi')]));
    expect(value['system']).toBe('S');
    expect(value['messages']).toEqual([{ role: 'user', content: 'hi' }]);
    expect(losses).toEqual([]);
  });

  it('several leading system/developer messages become blocks; developer is reported', () => {
    const req = r([{ role: 'system', parts: [text('A')], stringContent: true }, { role: 'developer', parts: [text('B')], stringContent: true }, u('hi')]);
    const { value, losses } = encodeReq(req);
    expect(value['system']).toEqual([text('A'), text('B')]);
    expect(losses).toEqual([{ code: 'developer-role', path: ['messages', 1, 'role'], message: expect.any(String), action: 'approximated' }]);
    viaPreserve(req);
  });

  it('a system message mid-list is moved to the top-level system and reported', () => {
    const req = r([u('hi'), { role: 'assistant', parts: [text('yo')] }, { role: 'system', parts: [text('be nice')], stringContent: true }, u('again')]);
    const { value, losses } = encodeReq(req);
    expect(value['system']).toEqual([text('be nice')]);
    expect(value['messages']).toEqual([{ role: 'user', content: 'hi' }, { role: 'assistant', content: [text('yo')] }, { role: 'user', content: 'again' }]);
    expect(losses).toEqual([{ code: 'system-moved', path: ['messages', 2], message: expect.any(String), action: 'approximated' }]);
    viaPreserve(req);
  });

  it('reports a message name and a non-text system part', () => {
    const { losses } = encodeReq(r([{ role: 'system', name: 'boss', parts: [text('x'), { type: 'image', source: { kind: 'url', url: 'https://i' } }] }, { ...u('hi'), name: 'ann' }]));
    expect(codes(losses)).toEqual(['message-name', 'system-non-text', 'message-name']);
  });
});

describe('tool results and calls', () => {
  const call = (id: string, args: unknown = { q: id }) => ({ type: 'tool-call' as const, id, name: 'look', arguments: args as never });
  const result = (id: string, t: string) => ({ type: 'tool-result' as const, callId: id, content: [text(t)], stringContent: true as const });

  it('merges a run of tool messages and the next user message into one user turn, results first', () => {
    const req = r([
      u('go'),
      { role: 'assistant', parts: [call('call_1'), call('call_2')] },
      { role: 'tool', parts: [result('call_1', 'one')] },
      { role: 'tool', parts: [result('call_2', 'two')] },
      u('thanks'),
    ]);
    const { value, losses } = encodeReq(req);
    expect(value['messages']).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'look', input: { q: 'call_1' } }, { type: 'tool_use', id: 'call_2', name: 'look', input: { q: 'call_2' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'one' }, { type: 'tool_result', tool_use_id: 'call_2', content: 'two' }, text('thanks')] },
    ]);
    expect(losses).toEqual([]);
    expect(() => decodeReq(value)).not.toThrow(); // the pairing rules hold
  });

  it('moves tool results before other content of a user turn, with a loss', () => {
    const { value, losses } = encodeReq(r([{ role: 'assistant', parts: [call('c')] }, { role: 'user', parts: [text('see:'), result('c', 'r')] }]));
    expect((value['messages'] as { content: { type: string }[] }[])[1]!.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(codes(losses)).toEqual(['tool-result-order']);
  });

  it('wraps non-object arguments and reports it', () => {
    const { value, losses } = encodeReq(r([u('x'), { role: 'assistant', parts: [call('c', [1, 2])] }]));
    expect((value['messages'] as { content: unknown[] }[])[1]!.content[0]).toMatchObject({ input: { value: [1, 2] } });
    expect(losses[0]).toMatchObject({ code: 'tool-arguments-not-object', path: ['messages', 1, 'parts', 0, 'arguments'], action: 'approximated' });
  });

  it('reports argument text that re-serializing would change, not text that it keeps', () => {
    const spaced = { ...call('c', { a: 1 }), argumentsJson: '{"a": 1}' };
    const tight = { ...call('c', { a: 1 }), argumentsJson: '{"a":1}' };
    expect(codes(encodeReq(r([u('x'), { role: 'assistant', parts: [spaced] }])).losses)).toEqual(['arguments-text']);
    expect(encodeReq(r([u('x'), { role: 'assistant', parts: [tight] }])).losses).toEqual([]);
    viaPreserve(r([u('x'), { role: 'assistant', parts: [spaced] }]));
  });

  it('rewrites tool names and ids Anthropic rejects, consistently, and reports them', () => {
    const name = 'ns.search:v2';
    const id = 'call|7';
    const req = r(
      [u('x'), { role: 'assistant', parts: [{ type: 'tool-call', id, name, arguments: {} }] }, { role: 'tool', parts: [{ type: 'tool-result', callId: id, content: [text('ok')], stringContent: true }] }],
      { tools: [{ type: 'function', name, parameters: { type: 'object' } }], toolChoice: { type: 'tool', name } },
    );
    const { value, losses } = encodeReq(req);
    const safeName = toAnthropicName(name);
    const safeId = toAnthropicId(id);
    expect(safeName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(safeId).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(value['tools']).toEqual([{ name: safeName, input_schema: { type: 'object' } }]);
    expect(value['tool_choice']).toEqual({ type: 'tool', name: safeName });
    const msgs = value['messages'] as { content: Record<string, unknown>[] }[];
    expect(msgs[1]!.content[0]).toMatchObject({ id: safeId, name: safeName });
    expect(msgs[2]!.content[0]).toMatchObject({ tool_use_id: safeId });
    expect(codes(losses).sort()).toEqual(['tool-id', 'tool-id', 'tool-name', 'tool-name', 'tool-name']);
    expect(toAnthropicName('x'.repeat(80))).toHaveLength(64);
    viaPreserve(req);
  });

  it('drops a tool call another provider ran, and a misplaced client tool result', () => {
    const { losses } = encodeReq(r([u('x'), { role: 'assistant', parts: [{ ...call('ws_1'), providerExecuted: true }, result('c', 'r')] }]));
    expect(codes(losses)).toEqual(['provider-tool-call', 'misplaced-tool-result', 'empty-message']);
  });
});

describe('parts Anthropic cannot hold as they are', () => {
  it('drops empty and whitespace text', () => {
    const { value, losses } = encodeReq(r([{ role: 'user', parts: [text(''), text('  \n'), text('real')] }]));
    expect(value['messages']).toEqual([{ role: 'user', content: [text('real')] }]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['empty-text', ['messages', 0, 'parts', 0]],
      ['empty-text', ['messages', 0, 'parts', 1]],
    ]);
  });

  it('drops a message left empty, keeping it for preserve', () => {
    const req = r([u('a'), { role: 'assistant', parts: [text(' ')] }, u('b')]);
    const { value, losses } = encodeReq(req);
    expect(value['messages']).toEqual([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]);
    expect(codes(losses)).toEqual(['empty-text', 'empty-message']);
    viaPreserve(req);
  });

  it('keeps a turn whose content cannot be sent as a placeholder naming it, so the body stays valid', () => {
    const audio: Message = { role: 'user', parts: [{ type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'AAAA' } }] };
    const req = r([audio]);
    const { value, losses } = encodeReq(req);
    expect(value['messages']).toEqual([{ role: 'user', content: [text('[omitted: audio]')] }]);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['unsupported-part', 'dropped'],
      ['empty-message', 'approximated'],
    ]);
    viaPreserve(req);
  });

  it('writes a placeholder user message when no message is left at all', () => {
    const req = r([{ role: 'system', parts: [text('S')], stringContent: true }, { role: 'user', parts: [text(' ')] }]);
    const { value, losses } = encodeReq(req);
    expect(value['messages']).toEqual([{ role: 'user', content: [text('[empty message]')] }]);
    expect(codes(losses)).toEqual(['empty-text', 'empty-message', 'empty-message']);
    viaPreserve(req);
  });

  it('drops reasoning of another origin and unsigned reasoning; keeps its own byte-exact', () => {
    const parts = [
      { type: 'reasoning' as const, origin: 'openai-chat' as const, text: 'other' },
      { type: 'reasoning' as const, origin: 'anthropic-messages' as const, text: 'no signature' },
      { type: 'reasoning' as const, origin: 'anthropic-messages' as const, text: 't', signature: 'S+/=' },
      { type: 'reasoning' as const, origin: 'anthropic-messages' as const, redactedData: 'R==' },
      text('answer'),
    ];
    const req = r([u('q'), { role: 'assistant', parts }]);
    const { value, losses } = encodeReq(req);
    expect((value['messages'] as { content: unknown }[])[1]!.content).toEqual([{ type: 'thinking', thinking: 't', signature: 'S+/=' }, { type: 'redacted_thinking', data: 'R==' }, text('answer')]);
    expect(codes(losses)).toEqual(['foreign-reasoning', 'unsigned-reasoning']);
    viaPreserve(req);
  });

  it('maps image sources, drops detail, parses data URLs, rejects S3', () => {
    const { value, losses } = encodeReq(
      r([
        {
          role: 'user',
          parts: [
            { type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBO' }, detail: 'high' },
            { type: 'image', source: { kind: 'url', url: 'https://x/i.jpg' } },
            { type: 'image', source: { kind: 'file-id', fileId: 'file_9' } },
            { type: 'image', source: { kind: 's3', uri: 's3://b/k' } },
          ],
        },
      ]),
    );
    expect((value['messages'] as { content: unknown }[])[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
      { type: 'image', source: { type: 'url', url: 'https://x/i.jpg' } },
      { type: 'image', source: { type: 'file', file_id: 'file_9' } },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['image-detail', ['messages', 0, 'parts', 0, 'detail']],
      ['unsupported-source', ['messages', 0, 'parts', 3, 'source']],
    ]);
  });

  it('turns refusal and data into text, drops audio and other providers\' blocks', () => {
    const { value, losses } = encodeReq(
      r([
        u('q'),
        {
          role: 'assistant',
          parts: [
            { type: 'refusal', text: 'I cannot' },
            { type: 'data', data: { k: 1 } },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
            { type: 'provider-block', origin: 'openai-responses', block: { type: 'x' } },
          ],
        },
      ]),
    );
    expect((value['messages'] as { content: unknown }[])[1]!.content).toEqual([text('I cannot'), text('{"k":1}')]);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['refusal-as-text', 'approximated'],
      ['data-as-text', 'approximated'],
      ['unsupported-part', 'dropped'],
      ['foreign-provider-block', 'dropped'],
    ]);
  });

  it('gives a document file name as title when it has none', () => {
    const { value, losses } = encodeReq(r([{ role: 'user', parts: [{ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, name: 'a.pdf' }] }]));
    expect((value['messages'] as { content: unknown[] }[])[0]!.content[0]).toMatchObject({ title: 'a.pdf' });
    expect(codes(losses)).toEqual(['document-name']);
  });

  it('reports citations it has no location for', () => {
    const { losses } = encodeReq(r([u('q'), { role: 'assistant', parts: [{ type: 'text', text: 'a', citations: [{ type: 'url', url: 'https://u', startIndex: 0, endIndex: 1 }] }] }]));
    expect(losses.map((l) => [l.code, l.path])).toEqual([['unsupported-citation', ['messages', 1, 'parts', 0, 'citations', 0]]]);
  });

  it('reports another origin\'s ext on a part', () => {
    const { losses } = encodeReq(r([{ role: 'user', parts: [{ ...text('x'), ext: { 'openai-chat': { foo: 1, $hint: true } } }] }]));
    expect(losses.map((l) => [l.code, l.path])).toEqual([['unsupported-field', ['messages', 0, 'parts', 0, 'foo']]]);
  });
});

describe('top-level fields', () => {
  it('defaults max_tokens to 4096 and reports it; preserve brings absence back', () => {
    const req: Request = { model: 'm', messages: [u('x')] };
    const { value, losses } = encodeReq(req);
    expect(value['max_tokens']).toBe(4096);
    expect(losses).toEqual([{ code: 'default-max-tokens', path: ['maxTokens'], message: expect.any(String), action: 'approximated' }]);
    viaPreserve(req);
  });

  it('reports fields Anthropic has no slot for and stashes them under preserve', () => {
    const req = r([u('x')], { seed: 7, presencePenalty: 0.5, frequencyPenalty: 0.1, metadata: { a: 'b' }, candidateCount: 2 });
    const { value, losses } = encodeReq(req);
    expect(codes(losses)).toEqual(['unsupported-field', 'unsupported-field', 'unsupported-field', 'unsupported-field', 'candidate-count']);
    expect(value).not.toHaveProperty(STASH_KEY);
    const kept = encodeReq(req, true);
    expect(kept.losses.every((l) => l.action === 'stashed')).toBe(true);
    viaPreserve(req);
  });

  it('writes an empty model when there is none, reports it, and brings the absence back under preserve', () => {
    const req: Request = { maxTokens: 10, messages: [u('x')] };
    const { value, losses } = encodeReq(req);
    expect(value['model']).toBe('');
    expect(losses).toEqual([{ code: 'missing-model', path: ['model'], message: expect.any(String), action: 'approximated' }]);
    viaPreserve(req);
  });

  it('drops sampling parameters of another origin (the current API version refuses them) and reports them', () => {
    const req = r([u('x')], { temperature: 0.7, topP: 0.9, topK: 40 });
    const { value, losses } = encodeReq(req);
    expect(value).not.toHaveProperty('temperature');
    expect(value).not.toHaveProperty('top_p');
    expect(value).not.toHaveProperty('top_k');
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([
      ['unsupported-field', ['temperature'], 'dropped'],
      ['unsupported-field', ['topP'], 'dropped'],
      ['unsupported-field', ['topK'], 'dropped'],
    ]);
    viaPreserve(req);
    // An Anthropic body of an older API version that had them gets them back.
    const own = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], temperature: 0.2, top_k: 5 };
    expect(encodeReq(decodeReq(own))).toEqual({ value: own, losses: [] });
  });

  it('writes image and document bytes in the media types Anthropic takes, and reports the rest', () => {
    const img = (mediaType: string) => ({ type: 'image' as const, source: { kind: 'base64' as const, mediaType, data: 'AAAA' } });
    const doc = (mediaType: string, data: string) => ({ type: 'document' as const, source: { kind: 'base64' as const, mediaType, data } });
    const csv = Buffer.from('a,b\n1,2\n').toString('base64');
    const req = r([{ role: 'user', parts: [img('image/jpg'), img('image/bmp'), doc('text/csv', csv), doc('application/octet-stream', 'AAAA'), text('see')] }]);
    const { value, losses } = encodeReq(req);
    expect((value['messages'] as { content: unknown }[])[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a,b\n1,2\n' } },
      text('see'),
    ]);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['media-type', 'approximated'],
      ['unsupported-media-type', 'dropped'],
      ['document-source', 'approximated'],
      ['unsupported-media-type', 'dropped'],
    ]);
    viaPreserve(req);
  });

  it('leaves out a tool call the next turn does not answer (Anthropic refuses it), but not one in the last message', () => {
    const call = { type: 'tool-call' as const, id: 'c1', name: 'f', arguments: {} };
    const req = r([u('a'), { role: 'assistant', parts: [text('calling'), call] }, u('b')]);
    const { value, losses } = encodeReq(req);
    expect((value['messages'] as unknown[])[1]).toEqual({ role: 'assistant', content: [text('calling')] });
    expect(losses.map((l) => [l.code, l.path])).toEqual([['unanswered-tool-call', ['messages', 1, 'parts', 1]]]);
    viaPreserve(req);
    expect(encodeReq(r([u('a'), { role: 'assistant', parts: [call] }])).losses).toEqual([]);
  });

  it('sends a tool result that answers no call of the turn before as text, with what it said', () => {
    const orphan = { type: 'tool-result' as const, callId: 'x9', name: 'divide', content: [text('51')] };
    const req = r([u('a'), { role: 'assistant', parts: [text('ok')] }, { role: 'tool', parts: [orphan] }, u('b')]);
    const { value, losses } = encodeReq(req);
    expect((value['messages'] as unknown[])[2]).toEqual({ role: 'user', content: [text('[result of tool divide]'), text('51'), text('b')] });
    expect(losses.map((l) => [l.code, l.path])).toEqual([['orphan-tool-result', ['messages', 2, 'parts', 0]]]);
    viaPreserve(req);
  });

  it('writes user as metadata.user_id', () => {
    expect(encodeReq(r([u('x')], { user: 'u-9' })).value['metadata']).toEqual({ user_id: 'u-9' });
  });

  it('sends no output format for json-object output (structured outputs have no "any object" schema) and reports it', () => {
    const req = r([u('x')], { responseFormat: { type: 'json' } });
    const { value, losses } = encodeReq(req);
    expect(value).not.toHaveProperty('output_config');
    expect(losses).toEqual([{ code: 'json-object-format', path: ['responseFormat'], message: expect.any(String), action: 'dropped' }]);
    viaPreserve(req);
  });

  it('writes an effort with adaptive thinking, unless the effort came from Anthropic without thinking', () => {
    const req = r([u('x')], { reasoning: { effort: 'high' } });
    const { value, losses } = encodeReq(req);
    expect(value['thinking']).toEqual({ type: 'adaptive' });
    expect(value['output_config']).toEqual({ effort: 'high' });
    expect(losses).toEqual([]);
    viaPreserve(req);
    const own = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], output_config: { effort: 'low' } };
    expect(encodeReq(decodeReq(own)).value).toEqual(own);
  });

  it('writes a json schema format; name and strict have no slot', () => {
    const req = r([u('x')], { responseFormat: { type: 'json-schema', schema: { type: 'object' }, name: 'out', strict: true } });
    const { value, losses } = encodeReq(req);
    expect(value['output_config']).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(codes(losses)).toEqual(['response-format', 'response-format']);
    viaPreserve(req);
  });

  it('says "no parallel calls" through tool_choice, even with no tool choice given', () => {
    const req = r([u('x')], { parallelToolCalls: false, tools: [{ type: 'function', name: 'f' }] });
    const { value, losses } = encodeReq(req);
    expect(value['tool_choice']).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(value['tools']).toEqual([{ name: 'f', input_schema: { type: 'object', properties: {} } }]);
    expect(losses).toEqual([]);
    viaPreserve(req);
  });

  it('drops other providers\' built-in tools with a loss', () => {
    const req = r([u('x')], { tools: [{ type: 'provider', origin: 'openai-responses', name: 'web_search', config: { type: 'web_search' } }] });
    const { value, losses } = encodeReq(req);
    expect(value['tools']).toEqual([]);
    expect(codes(losses)).toEqual(['provider-tool']);
    viaPreserve(req);
  });

  it.each([
    [{ effort: 'medium' as const }, { output_config: { effort: 'medium' } }, []],
    [{ effort: 'minimal' as const }, { output_config: { effort: 'low' } }, ['reasoning-effort']],
    [{ effort: 'none' as const }, { thinking: { type: 'disabled' } }, ['reasoning-effort']],
    [{ enabled: true }, { thinking: { type: 'enabled', budget_tokens: 1024 } }, ['default-thinking-budget']],
    [{ enabled: true, budgetTokens: 3000 }, { thinking: { type: 'enabled', budget_tokens: 3000 } }, []],
  ])('reasoning %j -> %j', (reasoning, fields, lossCodes) => {
    const req = r([u('x')], { reasoning });
    const { value, losses } = encodeReq(req);
    expect(value).toMatchObject(fields);
    expect(codes(losses)).toEqual(lossCodes);
    viaPreserve(req);
  });

  it('reports another origin\'s top-level ext and brings it back under preserve', () => {
    const req = r([u('x')], { ext: { 'openai-chat': { logit_bias: { '1': 2 }, $maxTokens: true } } });
    expect(codes(encodeReq(req).losses)).toEqual(['unsupported-field']);
    viaPreserve(req);
  });
});
