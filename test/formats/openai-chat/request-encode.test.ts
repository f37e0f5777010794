/** Encoding canonical requests of any origin (notably what the Anthropic decoder produces). */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { TOOL_MEDIA_NOTE } from '../../../src/formats/openai-chat/message-encode.js';
import { TOOL_ERROR_PREFIX } from '../../../src/formats/shared/tool-error-prefix.js';
import { codes, decodeRequest, encodeRequest } from './helpers.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }], stringContent: true });
const body = (messages: Message[], extra: Partial<Request> = {}): Request => ({ model: 'm', messages, ...extra });
const messagesOf = (r: Request, preserve = false) => encodeRequest(r, preserve).value['messages'] as Record<string, unknown>[];

describe('text', () => {
  it('joins several text parts of an all-text message with a blank line and reports text-joined', () => {
    const sys: Message = { role: 'system', parts: [{ type: 'text', text: 'Be brief.', cache: { type: 'ephemeral' } }, { type: 'text', text: 'Be kind.' }] };
    const { value, losses } = encodeRequest(body([sys, user('hi')]));
    expect((value['messages'] as unknown[])[0]).toEqual({ role: 'system', content: 'Be brief.\n\nBe kind.' });
    expect(losses).toContainEqual(expect.objectContaining({ code: 'text-joined', action: 'approximated', path: ['messages', 0, 'content'] }));
    expect(losses).toContainEqual(expect.objectContaining({ code: 'cache-control', path: ['messages', 0, 'content', 0] }));
  });

  it('keeps one text part as a string only when the source had a string', () => {
    expect(messagesOf(body([user('a')]))[0]).toEqual({ role: 'user', content: 'a' });
    expect(messagesOf(body([{ role: 'user', parts: [{ type: 'text', text: 'a' }] }]))[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'a' }] });
  });

  it('drops empty and whitespace-only text parts with empty-text', () => {
    const m: Message = { role: 'user', parts: [{ type: 'text', text: '  ' }, { type: 'text', text: 'x' }, { type: 'text', text: '' }] };
    const { value, losses } = encodeRequest(body([m]));
    expect((value['messages'] as unknown[])[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'x' }] });
    expect(codes(losses).filter((c) => c === 'empty-text')).toHaveLength(2);
  });

  it('uses the array form, parts in order, when a message has non-text parts', () => {
    const m: Message = {
      role: 'user',
      parts: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/webp', data: 'AAA' }, detail: 'high' },
        { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
        { type: 'text', text: 'and this' },
      ],
    };
    expect(messagesOf(body([m]))[0]?.['content']).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'data:image/webp;base64,AAA', detail: 'high' } },
      { type: 'image_url', image_url: { url: 'https://x/y.png' } },
      { type: 'text', text: 'and this' },
    ]);
  });

  it('joins cited segments of one answer without a separator', () => {
    const a: Message = {
      role: 'assistant',
      parts: [
        { type: 'text', text: 'It is ' },
        { type: 'text', text: 'sunny', citations: [{ type: 'url', url: 'https://w' }] },
        { type: 'text', text: ' today.' },
      ],
    };
    const { value, losses } = encodeRequest(body([user('q'), a]));
    expect((value['messages'] as Record<string, unknown>[])[1]?.['content']).toBe('It is sunny today.');
    expect(codes(losses)).toContain('citations');
  });
});

describe('tool calls and tool results', () => {
  const assistant: Message = {
    role: 'assistant',
    parts: [
      { type: 'reasoning', origin: 'anthropic-messages', text: 'think', signature: 'sig' },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool-call', id: 'toolu_1', name: 'weather', arguments: { city: 'Paris' } },
      { type: 'tool-call', id: 'toolu_2', name: 'weather', arguments: { city: 'Rome' }, argumentsJson: '{"city": "Rome"}' },
    ],
  };
  const results: Message = {
    role: 'user',
    parts: [
      { type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: '20C' }] },
      { type: 'tool-result', callId: 'toolu_2', content: [{ type: 'text', text: 'no data' }], isError: true, stringContent: true },
      { type: 'text', text: 'Summarise please.' },
    ],
  };

  it('writes calls as tool_calls beside the text, arguments verbatim or serialized', () => {
    const msgs = messagesOf(body([user('q'), assistant, results]));
    expect(msgs[1]).toEqual({
      role: 'assistant',
      // One text part that was not a string in its source stays an array: exact both ways.
      content: [{ type: 'text', text: 'Checking both.' }],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'weather', arguments: '{"city": "Rome"}' } },
      ],
    });
  });

  it('splits a user turn into tool messages right after the calls, then a user message', () => {
    const { value, losses } = encodeRequest(body([user('q'), assistant, results]));
    const msgs = value['messages'] as Record<string, unknown>[];
    expect(msgs.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: '20C' }] },
      { role: 'tool', tool_call_id: 'toolu_2', content: `${TOOL_ERROR_PREFIX}no data` },
      { role: 'user', content: [{ type: 'text', text: 'Summarise please.' }] },
    ]);
    expect(losses).toContainEqual(expect.objectContaining({ code: 'tool-error-flag', action: 'approximated', path: ['messages', 2, 'content', 1] }));
    expect(losses).toContainEqual(expect.objectContaining({ code: 'foreign-reasoning', action: 'dropped', path: ['messages', 1, 'content', 0] }));
    // The encoded body is itself a valid Chat Completions request.
    expect(() => decodeRequest(value)).not.toThrow();
  });

  it('reports content that came before a tool result, which moves after the tool message', () => {
    const u: Message = {
      role: 'user',
      parts: [
        { type: 'text', text: 'first' },
        { type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'r1' }], stringContent: true },
        { type: 'tool-result', callId: 'c2', content: [{ type: 'text', text: 'r2' }], stringContent: true },
      ],
    };
    const call = (id: string) => ({ type: 'tool-call' as const, id, name: 'f', arguments: {} });
    const req = body([user('q'), { role: 'assistant', parts: [call('c1'), call('c2')] }, u]);
    const { value, losses } = encodeRequest(req);
    expect((value['messages'] as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'r1' },
      { role: 'tool', tool_call_id: 'c2', content: 'r2' },
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['tool-result-order', ['messages', 2, 'content', 1]]]);
    const kept = encodeRequest(req, true);
    expect(decodeRequest(JSON.parse(JSON.stringify(kept.value))).messages[2]).toEqual(u);
  });

  it('leaves out a tool call no tool message answers right after (Chat Completions refuses it), but not one in the last message', () => {
    const call = { type: 'tool-call' as const, id: 'c1', name: 'f', arguments: {} };
    const req = body([user('a'), { role: 'assistant', parts: [call] }, user('b')]);
    const { value, losses } = encodeRequest(req);
    expect((value['messages'] as unknown[])[1]).toEqual({ role: 'assistant', content: '' });
    expect(losses.map((l) => [l.code, l.path])).toEqual([['unanswered-tool-call', ['messages', 1, 'content', 0]]]);
    const kept = encodeRequest(req, true);
    expect(decodeRequest(JSON.parse(JSON.stringify(kept.value))).messages[1]).toEqual(req.messages[1]);
    expect(encodeRequest(body([user('a'), { role: 'assistant', parts: [call] }])).losses).toEqual([]);
  });

  it('sends a tool result that answers no call of the assistant message before as user content', () => {
    const orphan = { type: 'tool-result' as const, callId: 'x9', name: 'divide', content: [{ type: 'text' as const, text: '51' }] };
    const req = body([user('a'), { role: 'assistant', parts: [{ type: 'text', text: 'ok' }], stringContent: true }, { role: 'user', parts: [orphan] }]);
    const { value, losses } = encodeRequest(req);
    expect((value['messages'] as unknown[])[2]).toEqual({ role: 'user', content: '[result of tool divide]\n\n51' });
    expect(codes(losses)).toEqual(['orphan-tool-result', 'text-joined']);
    const kept = encodeRequest(req, true);
    expect(decodeRequest(JSON.parse(JSON.stringify(kept.value))).messages[2]).toEqual(req.messages[2]);
  });

  it('moves images out of a tool result into a following user message', () => {
    const m: Message = {
      role: 'user',
      parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iV' } }] }],
    };
    const a: Message = { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: {} }] };
    const { value, losses } = encodeRequest(body([user('q'), a, m]));
    expect((value['messages'] as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: TOOL_MEDIA_NOTE },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iV' } }] },
    ]);
    expect(codes(losses)).toContain('tool-result-media');
  });

  it('keeps tool messages in a row together: the media of one result follows the whole run', () => {
    // As the Responses API, AG-UI and agent input write it: one tool message per result.
    const a: Message = {
      role: 'assistant',
      parts: [
        { type: 'tool-call', id: 'c1', name: 'shot', arguments: {}, argumentsJson: '{}' },
        { type: 'tool-call', id: 'c2', name: 'ls', arguments: {}, argumentsJson: '{}' },
      ],
    };
    const shot: Message = {
      role: 'tool',
      parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'page' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iV' } }] }],
    };
    const ls: Message = { role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', content: [{ type: 'text', text: 'a.ts' }], stringContent: true }] };
    const req = body([user('q'), a, shot, ls, user('next')]);
    const { value, losses } = encodeRequest(req);
    expect((value['messages'] as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'page' }] },
      { role: 'tool', tool_call_id: 'c2', content: 'a.ts' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iV' } }] },
      { role: 'user', content: 'next' },
    ]);
    expect(codes(losses)).toEqual(['tool-result-media', 'tool-result-order']);
    // Chat's own checks accept it (each call answered right after its turn), and preserve gives the messages back.
    expect(() => decodeRequest(value)).not.toThrow();
    const kept = encodeRequest(req, true);
    expect(decodeRequest(JSON.parse(JSON.stringify(kept.value))).messages).toEqual(req.messages);
  });

  it('reports provider-executed calls and results instead of sending them', () => {
    const a: Message = {
      role: 'assistant',
      parts: [
        { type: 'tool-call', id: 'srv_1', name: 'web_search', arguments: { query: 'x' }, providerExecuted: true },
        { type: 'tool-result', callId: 'srv_1', content: [], providerExecuted: true },
        { type: 'text', text: 'Found it.' },
      ],
    };
    const { value, losses } = encodeRequest(body([user('q'), a]));
    expect((value['messages'] as unknown[])[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] });
    expect(codes(losses)).toEqual(['provider-executed-tool', 'provider-executed-tool']);
  });

  it('keeps the search results of a provider-run search readable as assistant text', () => {
    const a: Message = {
      role: 'assistant',
      parts: [
        { type: 'tool-call', id: 'srv_1', name: 'web_search', arguments: { query: 'x' }, providerExecuted: true },
        {
          type: 'tool-result',
          callId: 'srv_1',
          providerExecuted: true,
          content: [
            { type: 'search-result', source: 'https://a.test', title: 'A', content: [], encryptedContent: 'e1' },
            { type: 'search-result', source: 'https://b.test', title: 'B', content: [], encryptedContent: 'e2' },
          ],
        },
        { type: 'text', text: 'Found it.' },
      ],
    };
    const { value, losses } = encodeRequest(body([user('q'), a]));
    expect((value['messages'] as unknown[])[1]).toEqual({ role: 'assistant', content: 'A (https://a.test)\nB (https://b.test)\n\nFound it.' });
    expect(codes(losses)).toEqual(['provider-executed-tool', 'search-result-as-text', 'text-joined']);
  });
});

describe('documents, audio, search results', () => {
  it('maps documents to file parts or text, and reports what cannot map', () => {
    const m: Message = {
      role: 'user',
      parts: [
        { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, title: 'Report' },
        { type: 'document', source: { kind: 'file-id', fileId: 'file-1' }, name: 'a.pdf' },
        { type: 'document', source: { kind: 'text', text: 'plain body', mediaType: 'text/plain' } },
        { type: 'document', source: { kind: 'url', url: 'https://x/doc.pdf' } },
      ],
    };
    const { value, losses } = encodeRequest(body([m]));
    expect((value['messages'] as Record<string, unknown>[])[0]?.['content']).toEqual([
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'Report' } },
      { type: 'file', file: { file_id: 'file-1', filename: 'a.pdf' } },
      { type: 'text', text: 'plain body' },
    ]);
    expect(codes(losses)).toEqual(['document-title', 'document-as-text', 'unsupported-source']);
  });

  it('maps audio media types to input_audio formats', () => {
    const m: Message = {
      role: 'user',
      parts: [
        { type: 'audio', source: { kind: 'base64', mediaType: 'audio/mpeg', data: 'A' } },
        { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'B' } },
      ],
    };
    expect(messagesOf(body([m]))[0]?.['content']).toEqual([
      { type: 'input_audio', input_audio: { data: 'A', format: 'mp3' } },
      { type: 'input_audio', input_audio: { data: 'B', format: 'wav' } },
    ]);
    const back = decodeRequest({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'A', format: 'mp3' } }] }] });
    expect(back.messages[0]?.parts[0]).toEqual({ type: 'audio', source: { kind: 'base64', mediaType: 'audio/mpeg', data: 'A' } });
  });

  it('renders a search result as readable text', () => {
    const m: Message = {
      role: 'user',
      parts: [{ type: 'search-result', source: 'https://kb/1', title: 'KB', content: [{ type: 'text', text: 'Fact one.' }, { type: 'text', text: 'Fact two.' }] }],
    };
    const { value, losses } = encodeRequest(body([m]));
    expect((value['messages'] as Record<string, unknown>[])[0]?.['content']).toEqual([{ type: 'text', text: 'KB (https://kb/1)\nFact one.\n\nFact two.' }]);
    expect(codes(losses)).toEqual(['search-result-as-text']);
  });
});

describe('top-level fields', () => {
  it('maps the sampling and output settings', () => {
    const { value, losses } = encodeRequest(
      body([user('q')], {
        maxTokens: 100,
        temperature: 0.2,
        topP: 0.9,
        stop: ['END'],
        toolChoice: { type: 'tool', name: 'f' },
        tools: [{ type: 'function', name: 'f', description: 'd', parameters: { type: 'object' }, strict: true }],
        parallelToolCalls: false,
        responseFormat: { type: 'json-schema', name: 'out', schema: { type: 'object' }, strict: true },
        user: 'u1',
        candidateCount: 2,
        seed: 7,
        metadata: { k: 'v' },
        stream: false,
      }),
    );
    expect(value).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      tool_choice: { type: 'function', function: { name: 'f' } },
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: true } }],
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
      user: 'u1',
      n: 2,
      seed: 7,
      metadata: { k: 'v' },
      stream: false,
    });
    expect(losses).toEqual([]);
  });

  it('keeps the string form of stop and the legacy max_tokens through a round trip', () => {
    const wire = { model: 'm', messages: [{ role: 'user', content: 'q' }], stop: 'END', max_tokens: 5 };
    const r = decodeRequest(wire);
    expect(r).toMatchObject({ stop: ['END'], maxTokens: 5 });
    expect(encodeRequest(r).value).toEqual(wire);
  });

  it('reports topK, provider tools and cache hints on tools', () => {
    const { value, losses } = encodeRequest(
      body([user('q')], {
        topK: 5,
        tools: [
          { type: 'function', name: 'f', cache: { type: 'ephemeral' } },
          { type: 'provider', origin: 'anthropic-messages', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search' } },
        ],
      }),
    );
    expect(value['tools']).toEqual([{ type: 'function', function: { name: 'f' } }]);
    expect(value).not.toHaveProperty('top_k');
    expect(codes(losses).sort()).toEqual(['cache-control', 'provider-tool', 'top-k']);
  });

  it('turns a thinking budget into the nearest effort and reports it', () => {
    const cases: [number, string][] = [[1024, 'low'], [8000, 'medium'], [32000, 'high']];
    for (const [budget, effort] of cases) {
      const { value, losses } = encodeRequest(body([user('q')], { reasoning: { enabled: true, budgetTokens: budget } }));
      expect(value['reasoning_effort']).toBe(effort);
      expect(losses).toEqual([expect.objectContaining({ code: 'reasoning-budget', action: 'approximated' })]);
    }
    expect(encodeRequest(body([user('q')], { reasoning: { effort: 'high' } })).value['reasoning_effort']).toBe('high');
    const adaptive = encodeRequest(body([user('q')], { reasoning: { mode: 'adaptive' } }));
    expect(adaptive.value).not.toHaveProperty('reasoning_effort');
    expect(codes(adaptive.losses)).toEqual(['reasoning-mode']);
  });

  it('caps stop sequences at four and gives a schema name when there is none', () => {
    const { value, losses } = encodeRequest(body([user('q')], { stop: ['a', 'b', 'c', 'd', 'e'], responseFormat: { type: 'json-schema', schema: {} } }));
    expect(value['stop']).toEqual(['a', 'b', 'c', 'd']);
    expect(value['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema: {} } });
    expect(codes(losses)).toEqual(['stop-limit', 'schema-name']);
  });

  it('writes an empty model when there is none, reports it, and brings the absence back under preserve', () => {
    const req: Request = { messages: [user('q')] };
    const { value, losses } = encodeRequest(req);
    expect(value['model']).toBe('');
    expect(losses).toEqual([{ code: 'missing-model', path: ['model'], message: expect.any(String), action: 'approximated' }]);
    const kept = encodeRequest(req, true);
    expect(kept.losses.map((l) => l.action)).toEqual(['stashed']);
    expect(decodeRequest(JSON.parse(JSON.stringify(kept.value)))).toEqual(req);
  });

  it('reports foreign top-level fields', () => {
    const { losses } = encodeRequest(body([user('q')], { ext: { 'anthropic-messages': { container: 'c1', $hint: true, empty: null } } }));
    expect(losses).toEqual([expect.objectContaining({ code: 'unsupported-field', path: ['container'] })]);
  });
});

describe('preserve', () => {
  it('brings reasoning, tool-result placement, top-level fields and foreign ext back exactly', () => {
    const original: Request = {
      model: 'claude',
      topK: 3,
      reasoning: { enabled: true, budgetTokens: 2048 },
      ext: { 'anthropic-messages': { container: 'c1', $absent: true } },
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache: { type: 'ephemeral', ttl: '1h' } }] },
        user('q'),
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', origin: 'anthropic-messages', text: 't', signature: 'S==' },
            { type: 'reasoning', origin: 'anthropic-messages', redactedData: 'R==' },
            { type: 'text', text: 'x' },
            { type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 } },
          ],
        },
        { role: 'user', parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false }, { type: 'text', text: 'next' }] },
      ],
    };
    const there = encodeRequest(original, true);
    expect(there.losses.every((l) => l.action === 'stashed')).toBe(true);
    const wire = JSON.parse(JSON.stringify(there.value)) as unknown;
    expect(decodeRequest(wire)).toEqual(original);
  });

  it('ignores a stash whose messages were edited and decodes the visible content', () => {
    const a: Message = { role: 'assistant', parts: [{ type: 'reasoning', origin: 'anthropic-messages', text: 't', signature: 'S' }, { type: 'text', text: 'x' }] };
    const wire = JSON.parse(JSON.stringify(encodeRequest(body([user('q'), a]), true).value)) as { messages: Record<string, unknown>[] };
    (wire.messages[1] as Record<string, unknown>)['content'] = 'edited';
    expect(decodeRequest(wire).messages[1]?.parts).toEqual([{ type: 'text', text: 'edited' }]);
  });
});
