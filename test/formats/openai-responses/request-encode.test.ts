/**
 * Encoding canonical requests that another format produced: what each part and field becomes, the
 * losses reported with their paths, and that `preserve` brings the canonical value back exactly.
 * Every body written without preserve must be valid against the closed OpenAPI schema.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { validateOpenaiResponsesClosed } from '../../support/validators/openai-responses.js';
import { codes, decodeRequest, encodeRequest } from './helpers.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }], stringContent: true });

/** Encodes, checks the body against the closed schema, and checks the preserve round trip. */
function encodeChecked(req: Request): ReturnType<typeof encodeRequest> {
  const out = encodeRequest(req);
  expect(validateOpenaiResponsesClosed('request', out.value)).toEqual([]);
  const kept = encodeRequest(req, true);
  expect(decodeRequest(kept.value)).toEqual(req);
  expect(kept.losses.every((l) => l.action === 'stashed')).toBe(true);
  return out;
}

describe('messages of another origin', () => {
  const anthropicTurn: Request = {
    model: 'claude-sonnet-4-5',
    maxTokens: 1024,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], stringContent: true },
      user('Weather in Paris?'),
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', origin: 'anthropic-messages', text: 'Use the tool.', signature: 'EqQBCkYIBxgC' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'toolu_01', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
      { role: 'user', parts: [{ type: 'tool-result', callId: 'toolu_01', content: [{ type: 'text', text: '18C' }] }, { type: 'text', text: 'And tomorrow?' }] },
    ],
  };

  it('become items in order; Anthropic thinking is never sent as a reasoning item', () => {
    const { value, losses } = encodeChecked(anthropicTurn);
    expect(value['input']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'toolu_01', output: [{ type: 'input_text', text: '18C' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'And tomorrow?' }] },
    ]);
    expect(losses).toEqual([{ code: 'foreign-reasoning', path: ['messages', 2, 'parts', 0], message: expect.any(String), action: 'dropped' }]);
    expect(JSON.stringify(value)).not.toContain('EqQBCkYIBxgC');
  });

  it('under preserve the dropped thinking rides in the stash of its turn', () => {
    const { value, losses } = encodeRequest(anthropicTurn, true);
    expect(losses.map((l) => [l.code, l.action])).toEqual([['foreign-reasoning', 'stashed']]);
    const items = value['input'] as Record<string, unknown>[];
    // Patch stashes: only what the items do not give back (the thinking), not the texts they hold.
    expect(items[2]?.['x-interlingua']).toMatchObject({ v: 2, span: 2 });
    expect(JSON.stringify(items[2]?.['x-interlingua'])).toContain('EqQBCkYIBxgC');
    expect(JSON.stringify(items[2]?.['x-interlingua'])).not.toContain('Checking.');
    // The user turn holding a result reads back as a tool message and a user message: stashed too,
    // as a regrouping of the two messages' parts into one.
    expect(items[4]?.['x-interlingua']).toMatchObject({ v: 2, span: 2, shape: [2] });
    expect(JSON.stringify(items[4]?.['x-interlingua'])).not.toContain('And tomorrow?');
    expect(items.filter((i) => 'x-interlingua' in i)).toHaveLength(2);
    expect(decodeRequest(value)).toEqual(anthropicTurn);
  });

  it('several assistant texts are several string items; citations in a request are reported', () => {
    const { value, losses } = encodeChecked({
      messages: [
        user('q'),
        { role: 'assistant', parts: [{ type: 'text', text: 'a', citations: [{ type: 'url', url: 'https://example.com' }] }, { type: 'text', text: 'b' }] },
      ],
    });
    expect(value['input']).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(losses).toMatchObject([{ code: 'citations', path: ['messages', 1, 'parts', 0, 'citations'], action: 'dropped' }]);
  });

  it('a refusal or a search result in request history is sent as assistant text', () => {
    const { value, losses } = encodeChecked({
      messages: [user('q'), { role: 'assistant', parts: [{ type: 'refusal', text: 'No.' }, { type: 'search-result', source: 'https://a.example', title: 'A', content: [{ type: 'text', text: 'body' }] }] }],
    });
    expect((value['input'] as unknown[]).slice(1)).toEqual([
      { role: 'assistant', content: 'No.' },
      { role: 'assistant', content: 'A (https://a.example)\nbody' },
    ]);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['refusal-as-text', 'approximated'],
      ['search-result-as-text', 'approximated'],
    ]);
  });

  it('two assistant turns in a row read back as one: reported', () => {
    const { losses } = encodeChecked({ messages: [user('q'), { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, { role: 'assistant', parts: [{ type: 'text', text: 'b' }] }] });
    expect(losses).toMatchObject([{ code: 'turns-merged', path: ['messages', 2], action: 'approximated' }]);
  });

  it('a tool result whose call is not in the input is paired by name, or left out', () => {
    const call = { role: 'assistant' as const, parts: [{ type: 'tool-call' as const, id: 'gemini_1', name: 'divide', arguments: {} }] };
    const paired = encodeChecked({ messages: [user('q'), call, { role: 'user', parts: [{ type: 'tool-result', callId: 'id', name: 'divide', content: [{ type: 'text', text: '50' }], stringContent: true }] }] });
    expect((paired.value['input'] as unknown[])[2]).toEqual({ type: 'function_call_output', call_id: 'gemini_1', output: '50' });
    expect(paired.losses).toMatchObject([{ code: 'tool-id', path: ['messages', 2, 'parts', 0, 'callId'], action: 'approximated' }]);
    const orphan = encodeChecked({ messages: [user('q'), { role: 'tool', parts: [{ type: 'tool-result', callId: 'nowhere', content: [] }] }] });
    expect(orphan.value['input']).toEqual([{ role: 'user', content: 'q' }]);
    expect(codes(orphan.losses)).toEqual(['unmatched-tool-result', 'empty-message']);
  });

  it('arguments text that is not JSON (a response cut off mid-call) is not sent in a request', () => {
    const { value, losses } = encodeChecked({
      messages: [user('q'), { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: {}, argumentsJson: '{"a": "b' }] }],
    });
    expect((value['input'] as unknown[])[1]).toEqual({ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' });
    expect(losses).toMatchObject([{ code: 'invalid-arguments', path: ['messages', 1, 'parts', 0, 'argumentsJson'], action: 'approximated' }]);
  });

  it('tool results: error flag as a text prefix, media kept in the output list', () => {
    const { value, losses } = encodeChecked({
      messages: [
        user('q'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: {} }] },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'c1', isError: true, content: [{ type: 'text', text: 'partial' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBO' } }] }],
        },
      ],
    });
    expect((value['input'] as unknown[])[2]).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: [
        { type: 'input_text', text: '[tool error]' },
        { type: 'input_text', text: 'partial' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
      ],
    });
    expect(losses).toMatchObject([{ code: 'tool-error-flag', path: ['messages', 2, 'parts', 0], action: 'approximated' }]);
  });

  it('parts the input cannot hold are rendered or reported', () => {
    const { value, losses } = encodeChecked({
      messages: [
        {
          role: 'user',
          name: 'alice',
          parts: [
            { type: 'document', source: { kind: 'text', text: 'notes' }, title: 'Notes' },
            { type: 'document', source: { kind: 's3', uri: 's3://b/k.pdf' } },
            { type: 'text', text: 'cached', cache: { type: 'ephemeral', ttl: '1h' } },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
          ],
        },
      ],
    });
    expect(value['input']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Notes\n\nnotes' },
          { type: 'input_text', text: 'cached', prompt_cache_breakpoint: { mode: 'explicit' } },
        ],
      },
    ]);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['message-name', 'messages.0.name'],
      ['document-as-text', 'messages.0.parts.0'],
      ['unsupported-source', 'messages.0.parts.1.source'],
      ['cache-control', 'messages.0.parts.2.cache.ttl'],
      ['unsupported-part', 'messages.0.parts.3'],
    ]);
  });
});

describe('top-level fields', () => {
  it('tools: another origin’s function tool is sent non-strict with the required keys', () => {
    const { value, losses } = encodeChecked({
      messages: [user('q')],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
        { type: 'function', name: 'now' },
        { type: 'provider', origin: 'anthropic-messages', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search' } },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
    });
    expect(value['tools']).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'function', name: 'now', parameters: null, strict: false },
    ]);
    expect(value['tool_choice']).toEqual({ type: 'function', name: 'get_weather' });
    expect(value['parallel_tool_calls']).toBe(false);
    expect(losses).toMatchObject([{ code: 'provider-tool', path: ['tools', 2], action: 'dropped' }]);
  });

  it('fields the Responses API has no parameter for are reported at their canonical path', () => {
    const { value, losses } = encodeChecked({
      messages: [user('q')],
      maxTokens: 8,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      candidateCount: 2,
    });
    expect(value).toMatchObject({ max_output_tokens: 16, temperature: 0.2, top_p: 0.9 });
    expect(Object.keys(value).sort()).toEqual(['input', 'max_output_tokens', 'temperature', 'top_p']);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['max-tokens', 'maxTokens'],
      ['top-k', 'topK'],
      ['stop-sequences', 'stop'],
      ['seed', 'seed'],
      ['penalty', 'presencePenalty'],
      ['penalty', 'frequencyPenalty'],
      ['candidate-count', 'candidateCount'],
    ]);
  });

  it('response format, reasoning effort, user, metadata, stream', () => {
    const { value, losses } = encodeChecked({
      messages: [user('q')],
      responseFormat: { type: 'json-schema', schema: { type: 'object' }, strict: true },
      reasoning: { enabled: true, budgetTokens: 2000 },
      user: 'u-1',
      metadata: { run: '7' },
      stream: true,
    });
    expect(value).toMatchObject({
      text: { format: { type: 'json_schema', name: 'response', schema: { type: 'object' }, strict: true } },
      reasoning: { effort: 'low' },
      user: 'u-1',
      metadata: { run: '7' },
      stream: true,
    });
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['schema-name', 'approximated'],
      ['reasoning-budget', 'approximated'],
    ]);
  });

  it('reasoning turned off is reported, not sent as an effort some models refuse', () => {
    const { value, losses } = encodeChecked({ messages: [user('q')], reasoning: { enabled: false } });
    expect(value['reasoning']).toBeUndefined();
    expect(losses).toMatchObject([{ code: 'reasoning-disabled', path: ['reasoning'] }]);
  });

  it('another format’s top-level residue is reported and comes back through the stash', () => {
    const req: Request = { messages: [user('q')], ext: { 'anthropic-messages': { container: 'c-1', $hint: true } } };
    const { losses } = encodeChecked(req);
    expect(losses).toMatchObject([{ code: 'unsupported-field', path: ['container'], action: 'dropped' }]);
  });

  it('a string input stays a string; instructions go back to their own field', () => {
    const body = { model: 'gpt-5', instructions: 'Be brief.', input: 'Hi' };
    expect(encodeRequest(decodeRequest(body)).value).toEqual(body);
    const r = decodeRequest(body);
    // Once edited so it no longer is one plain string, the instructions message is sent as an item.
    r.messages[0]?.parts.push({ type: 'text', text: 'More.' });
    expect(encodeRequest(r).value['input']).toEqual([
      { role: 'system', content: [{ type: 'input_text', text: 'Be brief.' }, { type: 'input_text', text: 'More.' }] },
      { role: 'user', content: 'Hi' },
    ]);
  });
});
