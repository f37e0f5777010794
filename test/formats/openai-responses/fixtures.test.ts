/** Round trips and decoded meaning on the real captures copied to test/fixtures/openai-responses. */
import { describe, expect, it } from 'vitest';
import type { ReasoningPart, TextPart } from '../../../src/model/part.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, fixture, issuesOf, localBodies } from './helpers.js';

const bodies = localBodies();

describe('openai-responses round trip on local captures', () => {
  it('has requests and responses to check', () => {
    expect(bodies.filter((b) => b.kind === 'request').length).toBeGreaterThanOrEqual(20);
    expect(bodies.filter((b) => b.kind === 'response').length).toBeGreaterThanOrEqual(25);
  });

  it.each(bodies.map((b) => [b.name, b] as const))('%s is exact and lossless', (_name, b) => {
    const { value, losses } = b.kind === 'request' ? encodeRequest(decodeRequest(b.body)) : encodeResponse(decodeResponse(b.body));
    expect(value).toEqual(b.body);
    expect(losses).toEqual([]);
  });
});

describe('bodies that are invalid on purpose are refused with the path of the problem', () => {
  it('assistant-history.json: a refusal part written with `text` instead of `refusal`', () => {
    const issues = issuesOf(() => decodeRequest(fixture('requests/agentgateway/assistant-history.json')));
    expect(issues.map((i) => i.path)).toEqual([['input', 0, 'content', 1, 'refusal']]);
  });

});

describe('a response cut off mid-call (truncated_tool_call.json)', () => {
  it('converts: the model’s unfinished arguments count as {} and their text is kept', () => {
    const r = decodeResponse(fixture('responses/agentgateway/truncated_tool_call.json'));
    expect(r.choices[0]?.message.parts).toMatchObject([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: {}, argumentsJson: '{"location": "Par' }]);
    expect(r.choices[0]?.stopReason).toEqual({ unified: 'other', raw: 'incomplete' });
  });

  it('the same arguments in a request are refused: the caller wrote them', () => {
    const issues = issuesOf(() => decodeRequest({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{"location": "Par' }] }));
    expect(issues).toMatchObject([{ code: 'invalid_json', path: ['input', 0, 'arguments'] }]);
  });
});

describe('what the captures decode to', () => {
  const find = (name: string): Record<string, unknown> => {
    const b = bodies.find((x) => x.name === name);
    if (!b) throw new Error(`no local body ${name}`);
    return b.body;
  };

  it('instructions.json: instructions is a leading system message, the string input one user message', () => {
    const r = decodeRequest(fixture('requests/agentgateway/instructions.json'));
    expect(r.messages).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'Always use the get_weather tool for weather questions.' }], stringContent: true, ext: { 'openai-responses': { $instructions: true } } },
      { role: 'user', parts: [{ type: 'text', text: 'What is the weather like in San Francisco?' }], stringContent: true },
    ]);
    expect(r.maxTokens).toBe(1024);
  });

  it('parallel-tool-call.json: calls are parts of one assistant turn, each output its own tool message', () => {
    const r = decodeRequest(fixture('requests/agentgateway/parallel-tool-call.json'));
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(r.messages[1]?.parts).toMatchObject([
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { location: 'Columbus, OH' }, argumentsJson: '{"location":"Columbus, OH"}' },
      { type: 'tool-call', id: 'call_2', name: 'get_weather', arguments: { location: 'New York, NY' } },
    ]);
    expect(r.messages[3]?.parts).toEqual([{ type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: '{ "temperature": 22, "condition": "Sunny" }' }], stringContent: true }]);
  });

  it('input-media.json: data URLs keep their media type; detail auto is the default; a bare text/plain file keeps no name', () => {
    const body = fixture('requests/agentgateway/input-media.json');
    const parts = decodeRequest(body).messages[0]?.parts ?? [];
    // The wire says detail: 'auto', the API's default and what the encoder writes for none.
    expect(parts[1]).toEqual({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(encodeRequest(decodeRequest(body)).value).toEqual(body);
    expect(parts[2]).toEqual({ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, name: 'report.pdf' });
    // file_url is a URL source even when it holds a data URL: that is what the wire says.
    expect(parts[3]).toMatchObject({ type: 'document', source: { kind: 'url' }, name: 'data.csv' });
    expect(parts[6]).toEqual({ type: 'document', source: { kind: 'base64', mediaType: 'text/plain', data: 'dGVzdA==' } });
  });

  it('cache_control.json: an explicit prompt_cache_breakpoint is a cache hint on the part', () => {
    const r = decodeRequest(fixture('requests/agentgateway/cache_control.json'));
    expect(r.messages.map((m) => [m.role, m.parts[0]])).toEqual([
      ['user', { type: 'text', text: 'Cached user input', cache: { type: 'ephemeral' } }],
      ['system', { type: 'text', text: 'Cached system input', cache: { type: 'ephemeral' } }],
    ]);
  });

  it('structured-output.json: text.format json_schema is the response format', () => {
    const r = decodeRequest(fixture('requests/agentgateway/structured-output.json'));
    expect(r.responseFormat).toEqual({
      type: 'json-schema',
      name: 'city_schema',
      description: 'Structured city extraction',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    });
    // `text` held only the format: nothing of it stays residue (the hint says input was a string).
    expect(r.ext).toEqual({ 'openai-responses': { $inputString: true } });
  });

  it('thinking_with_tool_calls #1: reasoning with summary and encrypted content, then the call, in one turn', () => {
    const r = decodeRequest(find('exchanges/test_openai_responses_thinking_with_tool_calls.yaml#1 request'));
    const turn = r.messages.find((m) => m.role === 'assistant');
    expect(turn?.parts.map((p) => p.type)).toEqual(['reasoning', 'tool-call']);
    const reasoning = turn?.parts[0] as ReasoningPart;
    expect(reasoning).toMatchObject({ origin: 'openai-responses', id: expect.stringMatching(/^rs_/), encryptedContent: expect.stringMatching(/^gAAAAA/) });
    expect(reasoning.summary?.length).toBe(5);
    expect(r.reasoning).toEqual({ effort: 'low' });
    expect(r.ext?.['openai-responses']).toMatchObject({ include: ['reasoning.encrypted_content'], reasoning: { summary: 'detailed' } });
  });

  it('phase_live #1: an assistant message item keeps its id, status and phase on its first part', () => {
    const r = decodeRequest(find('exchanges/test_openai_responses_phase_live.yaml#1 request'));
    const turn = r.messages.find((m) => m.role === 'assistant');
    expect(turn?.parts.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(turn?.parts[1]?.ext?.['openai-responses']).toMatchObject({ $item: true, item: { type: 'message', status: 'completed', phase: 'commentary', id: expect.stringMatching(/^msg_/) } });
  });

  it('previous_response_id #1: the server-side state reference is kept as residue', () => {
    const r = decodeRequest(find('exchanges/test_openai_previous_response_id.yaml#1 request'));
    expect(r.ext?.['openai-responses']).toMatchObject({ previous_response_id: 'resp_1234' });
  });

  it('mcp_server_tool: the mcp tool and mcp items are this format’s own provider data', () => {
    const r = decodeRequest(find('exchanges/test_openai_responses_model_mcp_server_tool.yaml#1 request'));
    expect(r.tools).toEqual([expect.objectContaining({ type: 'provider', origin: 'openai-responses', config: expect.objectContaining({ type: 'mcp', server_label: 'deepwiki' }) })]);
    const turn = r.messages.find((m) => m.role === 'assistant');
    expect(turn?.parts.map((p) => (p.type === 'provider-block' ? String(p.block['type']) : p.type))).toEqual(['mcp_list_tools', 'reasoning', 'mcp_call', 'reasoning', 'text']);
  });

  it('thinking_part_from_other_model #1: assistant string items of another model stay one turn of two texts', () => {
    const r = decodeRequest(find('exchanges/test_openai_responses_thinking_part_from_other_model.yaml#1 request'));
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(r.messages[1]?.parts.map((p) => (p as TextPart).text.slice(0, 7))).toEqual(['<think>', "Here's "]);
  });

  it('web search response: built-in calls are provider blocks in order, url annotations citations', () => {
    const r = decodeResponse(fixture('responses/vercel-ai/openai-web-search-tool.1.json'));
    const parts = r.choices[0]?.message.parts ?? [];
    expect(parts.map((p) => (p.type === 'provider-block' ? String(p.block['type']) : p.type))).toEqual([
      'reasoning', 'web_search_call', 'reasoning', 'web_search_call', 'reasoning', 'web_search_call', 'reasoning', 'text',
    ]);
    const text = parts[7] as TextPart;
    expect(text.citations?.[0]).toMatchObject({ type: 'url', url: expect.stringMatching(/^https:/), title: expect.any(String), startIndex: expect.any(Number), endIndex: expect.any(Number) });
    expect(text.citations?.every((c) => c.type === 'url' && (c.endIndex ?? 0) <= text.text.length)).toBe(true);
  });

  it('file search response: file_citation annotations are document citations with the file id', () => {
    const r = decodeResponse(fixture('responses/vercel-ai/openai-file-search-tool.1.json'));
    const text = r.choices[0]?.message.parts.find((p): p is TextPart => p.type === 'text');
    expect(text?.citations).toEqual([{ type: 'document', fileId: 'file-Ebzhf8H4DPGPr9pUhr7n7v', documentTitle: 'ai.pdf', ext: { 'openai-responses': { index: 438 } } }]);
    expect(r.usage).toMatchObject({ inputTokens: 3700, cacheReadTokens: 2560, outputTokens: 741, reasoningTokens: 640, totalTokens: 4441 });
  });

  it('lmstudio-basic: reasoning_text content is the reasoning text', () => {
    const r = decodeResponse(fixture('responses/vercel-ai/lmstudio-basic.1.json'));
    expect(r.choices[0]?.message.parts[0]).toMatchObject({ type: 'reasoning', origin: 'openai-responses', text: 'reasoning content', summary: [] });
  });

  it('azure tool call: a completed response ending in a function call stopped for tool calls', () => {
    const r = decodeResponse(fixture('responses/vercel-ai/azure-tool-call.1.json'));
    expect(r.choices[0]?.stopReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(r.choices[0]?.message.parts.map((p) => p.type)).toEqual(['tool-call']);
  });

  it('custom tool call: kept whole, and a call the client runs', () => {
    const r = decodeResponse(fixture('responses/agentgateway/custom-tool.json'));
    expect(r.choices[0]?.message.parts).toEqual([{ type: 'provider-block', origin: 'openai-responses', block: expect.objectContaining({ type: 'custom_tool_call', name: 'exec' }) }]);
    expect(r.choices[0]?.stopReason?.unified).toBe('tool-calls');
  });
});
