/** Anthropic request fields -> canonical slots, and back exactly. */
import { describe, expect, it } from 'vitest';
import type { Request } from '../../../src/model/request.js';
import { decodeReq, encodeReq } from './helpers.js';

const base = { model: 'claude-sonnet-4-5', max_tokens: 512 };
const user = { role: 'user', content: 'hi' };

function both(body: Record<string, unknown>): Request {
  const req = decodeReq(body);
  const { value, losses } = encodeReq(req);
  expect(value).toEqual(body);
  expect(losses).toEqual([]);
  return req;
}

describe('request decode', () => {
  it('maps the scalar fields', () => {
    const req = both({ ...base, messages: [user], temperature: 0.2, top_p: 0.9, top_k: 5, stop_sequences: ['END'], stream: true, metadata: { user_id: 'u-1' } });
    expect(req).toMatchObject({ model: 'claude-sonnet-4-5', maxTokens: 512, temperature: 0.2, topP: 0.9, topK: 5, stop: ['END'], stream: true, user: 'u-1' });
    // Only a private hint: sampling parameters (older API versions) go back where they came from.
    expect(req.ext).toEqual({ 'anthropic-messages': { $sampling: true } });
    expect(both({ ...base, messages: [user], stream: true }).ext).toBeUndefined();
  });

  it('keeps other metadata keys and unknown top-level fields as residue', () => {
    const req = both({ ...base, messages: [user], metadata: { user_id: 'u', trace_id: 't' }, service_tier: 'auto', container: 'c_1', mcp_servers: [{ type: 'url', url: 'https://x', name: 'x' }], context_management: { edits: [] } });
    expect(req.user).toBe('u');
    expect(req.ext?.['anthropic-messages']).toEqual({ metadata: { trace_id: 't' }, service_tier: 'auto', container: 'c_1', mcp_servers: [{ type: 'url', url: 'https://x', name: 'x' }], context_management: { edits: [] } });
    both({ ...base, messages: [user], metadata: {} });
    both({ ...base, messages: [user], metadata: { user_id: null } });
  });

  it('turns a string system into one leading system message with stringContent', () => {
    const req = both({ ...base, system: 'Be brief.', messages: [user] });
    expect(req.messages[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], stringContent: true });
  });

  it('turns system blocks into one system message, cache_control -> cache', () => {
    const req = both({ ...base, system: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache_control: { type: 'ephemeral', ttl: '1h' } }], messages: [user] });
    expect(req.messages[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache: { type: 'ephemeral', ttl: '1h' } }] });
  });

  it('keeps a cache_control the canonical hint cannot hold (extra keys) as residue', () => {
    const req = both({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', scope: 'turn' } }] }] });
    expect(req.messages[0]?.parts[0]).toEqual({ type: 'text', text: 'x', ext: { 'anthropic-messages': { cache_control: { type: 'ephemeral', scope: 'turn' } } } });
  });

  it('maps custom tools to functions, server tools to provider tools, type custom kept', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    const req = both({
      ...base,
      messages: [user],
      tools: [
        { name: 'find', description: 'd', input_schema: schema, cache_control: { type: 'ephemeral' }, strict: true },
        { type: 'custom', name: 'other', input_schema: schema, defer_loading: true },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3, cache_control: { type: 'ephemeral' } },
      ],
    });
    expect(req.tools).toEqual([
      { type: 'function', name: 'find', description: 'd', parameters: schema, strict: true, cache: { type: 'ephemeral' } },
      { type: 'function', name: 'other', parameters: schema, ext: { 'anthropic-messages': { defer_loading: true, $custom: true } } },
      { type: 'provider', origin: 'anthropic-messages', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }, cache: { type: 'ephemeral' } },
    ]);
  });

  it.each([
    [{ type: 'auto' }, { type: 'auto' }, undefined],
    [{ type: 'any' }, { type: 'required' }, undefined],
    [{ type: 'tool', name: 'find' }, { type: 'tool', name: 'find' }, undefined],
    [{ type: 'none' }, { type: 'none' }, undefined],
    [{ type: 'auto', disable_parallel_tool_use: true }, { type: 'auto' }, false],
    [{ type: 'any', disable_parallel_tool_use: false }, { type: 'required' }, true],
  ])('tool_choice %j -> %j, parallelToolCalls %j', (wire, choice, parallel) => {
    const req = both({ ...base, messages: [user], tool_choice: wire });
    expect(req.toolChoice).toEqual(choice);
    expect(req.parallelToolCalls).toBe(parallel);
  });

  it.each([
    [{ thinking: { type: 'enabled', budget_tokens: 2048 } }, { enabled: true, budgetTokens: 2048 }],
    [{ thinking: { type: 'disabled' } }, { enabled: false }],
    [{ thinking: { type: 'adaptive' } }, { mode: 'adaptive' }],
    [{ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }, { mode: 'adaptive', effort: 'high' }],
    [{ output_config: { effort: 'low' } }, { effort: 'low' }],
  ])('reasoning from %j', (fields, reasoning) => {
    expect(both({ ...base, messages: [user], ...fields }).reasoning).toEqual(reasoning);
  });

  it('keeps thinking display and unknown thinking modes as residue', () => {
    expect(both({ ...base, messages: [user], thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }).reasoning).toEqual({ enabled: true, budgetTokens: 1024 });
    expect(both({ ...base, messages: [user], thinking: { type: 'between_tools' } }).reasoning).toBeUndefined();
  });

  it('maps both structured-output fields to responseFormat and back to the one used', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    const cfg = both({ ...base, messages: [user], output_config: { format: { type: 'json_schema', schema }, effort: 'medium' } });
    expect(cfg.responseFormat).toEqual({ type: 'json-schema', schema });
    expect(cfg.reasoning).toEqual({ effort: 'medium' });
    const legacy = both({ ...base, messages: [user], output_format: { type: 'json_schema', schema } });
    expect(legacy.responseFormat).toEqual({ type: 'json-schema', schema });
  });

  it('decodes every block type in messages, one part per block', () => {
    const body = {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
            { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
            { type: 'image', source: { type: 'file', file_id: 'file_1' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'T', context: 'C', citations: { enabled: true } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain' } },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk' }] } },
            { type: 'document', source: { type: 'content', content: 'one string' } },
            { type: 'document', source: { type: 'url', url: 'https://x/a.pdf' } },
            { type: 'document', source: { type: 'file', file_id: 'file_2' } },
            { type: 'search_result', source: 'https://s', title: 'S', content: [{ type: 'text', text: 'r' }], citations: { enabled: true } },
            { type: 'container_upload', file_id: 'file_3' },
          ],
        },
      ],
    };
    const parts = both(body).messages[0]!.parts;
    expect(parts.map((p) => p.type)).toEqual(['image', 'image', 'image', 'document', 'document', 'document', 'document', 'document', 'document', 'search-result', 'provider-block']);
    expect(parts.slice(0, 3).map((p) => (p.type === 'image' ? p.source : null))).toEqual([
      { kind: 'base64', mediaType: 'image/png', data: 'iVBO' },
      { kind: 'url', url: 'https://x/y.png' },
      { kind: 'file-id', fileId: 'file_1' },
    ]);
    expect(parts[3]).toEqual({ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, title: 'T', context: 'C', citations: true });
    expect(parts[4]).toMatchObject({ source: { kind: 'text', text: 'plain', mediaType: 'text/plain' } });
    // A document URL is Anthropic's URLPDFSource: it names a PDF (an image URL says nothing of its type).
    expect(parts[7]).toEqual({ type: 'document', source: { kind: 'url', url: 'https://x/a.pdf', mediaType: 'application/pdf' } });
    expect(parts[9]).toEqual({ type: 'search-result', source: 'https://s', title: 'S', content: [{ type: 'text', text: 'r' }], citations: true });
  });

  it('a URL source has no media type: one given is reported, except a document URL\'s PDF', () => {
    const req: Request = {
      model: 'm',
      maxTokens: 5,
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'document', source: { kind: 'url', url: 'https://x/a.txt', mediaType: 'text/plain' } },
            { type: 'image', source: { kind: 'url', url: 'https://x/a', mediaType: 'image/png' } },
            { type: 'document', source: { kind: 'url', url: 'https://x/b', mediaType: 'application/pdf' } },
          ],
        },
      ],
    };
    const { value, losses } = encodeReq(req);
    expect((value as { messages: { content: unknown[] }[] }).messages[0]?.content).toEqual([
      { type: 'document', source: { type: 'url', url: 'https://x/a.txt' } },
      { type: 'image', source: { type: 'url', url: 'https://x/a' } },
      { type: 'document', source: { type: 'url', url: 'https://x/b' } },
    ]);
    expect(losses.map((l) => [l.code, l.path.join('.'), l.action])).toEqual([
      ['media-type', 'messages.0.parts.0.source', 'approximated'],
      ['media-type', 'messages.0.parts.1.source', 'approximated'],
    ]);
  });

  it('decodes assistant thinking, tool use, server tools and their results; user tool results', () => {
    const body = {
      ...base,
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig/+=' },
            { type: 'redacted_thinking', data: 'ENCRYPTED==' },
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: 'E', page_age: '1 day' }] },
            { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 'srv', input: {} },
            { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [{ type: 'text', text: 'echoed' }], is_error: false },
            { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'code_execution_result', stdout: '1', stderr: '', return_code: 0, content: [] } },
            { type: 'tool_use', id: 'toolu_1', name: 'get', input: { a: 1 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'r' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j' } }], is_error: true }, { type: 'text', text: 'next' }] },
      ],
    };
    const [, assistant, results] = both(body).messages;
    expect(assistant!.parts).toEqual([
      { type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig/+=' },
      { type: 'reasoning', origin: 'anthropic-messages', redactedData: 'ENCRYPTED==' },
      { type: 'tool-call', id: 'srvtoolu_1', name: 'web_search', arguments: { query: 'x' }, providerExecuted: true, ext: { 'anthropic-messages': { $type: 'server_tool_use' } } },
      {
        type: 'tool-result',
        callId: 'srvtoolu_1',
        providerExecuted: true,
        content: [{ type: 'search-result', source: 'https://a', title: 'A', content: [], encryptedContent: 'E', pageAge: '1 day' }],
        ext: { 'anthropic-messages': { $type: 'web_search_tool_result' } },
      },
      { type: 'tool-call', id: 'mcptoolu_1', name: 'echo', arguments: {}, providerExecuted: true, ext: { 'anthropic-messages': { server_name: 'srv', $type: 'mcp_tool_use' } } },
      { type: 'tool-result', callId: 'mcptoolu_1', content: [{ type: 'text', text: 'echoed' }], isError: false, providerExecuted: true, ext: { 'anthropic-messages': { $type: 'mcp_tool_result' } } },
      {
        type: 'tool-result',
        callId: 'srvtoolu_2',
        providerExecuted: true,
        content: [{ type: 'data', data: { type: 'code_execution_result', stdout: '1', stderr: '', return_code: 0, content: [] } }],
        ext: { 'anthropic-messages': { $type: 'code_execution_tool_result' } },
      },
      { type: 'tool-call', id: 'toolu_1', name: 'get', arguments: { a: 1 } },
    ]);
    expect(results!.parts[0]).toEqual({
      type: 'tool-result',
      callId: 'toolu_1',
      content: [{ type: 'text', text: 'r' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j' } }],
      isError: true,
    });
  });

  it('tells a tool_result with string, empty and absent content apart', () => {
    const turn = (content: unknown) => ({
      ...base,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
        { role: 'user', content: [content === undefined ? { type: 'tool_result', tool_use_id: 't' } : { type: 'tool_result', tool_use_id: 't', content }] },
      ],
    });
    expect(both(turn('s')).messages[1]!.parts[0]).toMatchObject({ stringContent: true, content: [{ type: 'text', text: 's' }] });
    expect(both(turn([])).messages[1]!.parts[0]).toMatchObject({ content: [] });
    expect(both(turn(undefined)).messages[1]!.parts[0]).toMatchObject({ content: [], ext: { 'anthropic-messages': { $noContent: true } } });
  });

  it('decodes every citation location type onto the text part', () => {
    const citations = [
      { type: 'char_location', cited_text: 'c', document_index: 0, document_title: 'D', start_char_index: 1, end_char_index: 5 },
      { type: 'page_location', cited_text: 'p', document_index: 1, document_title: null, start_page_number: 2, end_page_number: 3 },
      { type: 'content_block_location', cited_text: 'b', document_index: 2, document_title: 'B', start_block_index: 0, end_block_index: 1 },
      { type: 'search_result_location', cited_text: 's', source: 'https://s', title: 'S', search_result_index: 0, start_block_index: 0, end_block_index: 1 },
      { type: 'web_search_result_location', cited_text: 'w', url: 'https://w', title: 'W', encrypted_index: 'EI' },
    ];
    const req = both({ ...base, messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'cited', citations }] }] });
    const part = req.messages[1]!.parts[0];
    expect(part?.type === 'text' && part.citations).toEqual([
      { type: 'document', citedText: 'c', documentIndex: 0, documentTitle: 'D', location: { unit: 'char', start: 1, end: 5 } },
      { type: 'document', citedText: 'p', documentIndex: 1, location: { unit: 'page', start: 2, end: 3 }, ext: { 'anthropic-messages': { document_title: null } } },
      { type: 'document', citedText: 'b', documentIndex: 2, documentTitle: 'B', location: { unit: 'block', start: 0, end: 1 } },
      { type: 'search-result', source: 'https://s', title: 'S', citedText: 's', searchResultIndex: 0, startBlockIndex: 0, endBlockIndex: 1 },
      { type: 'url', url: 'https://w', title: 'W', citedText: 'w', encryptedIndex: 'EI' },
    ]);
  });

  it('keeps a role system message inside messages in place', () => {
    const req = both({ ...base, system: 'top', messages: [user, { role: 'system', content: 'mid' }, { role: 'system', content: [{ type: 'text', text: 'blocks' }] }] });
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'system', 'system']);
  });
});
