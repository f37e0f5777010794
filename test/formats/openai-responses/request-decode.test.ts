/**
 * Decoding Responses requests: each field to its canonical slot or to residue, and what another
 * format is told about what it cannot hold (server-side state above all).
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { decodeRequest, encodeRequest } from './helpers.js';

/** Decodes and checks the body comes back exactly, losslessly. */
function decoded(body: Record<string, unknown>): ReturnType<typeof decodeRequest> {
  const r = decodeRequest(body);
  const back = encodeRequest(r);
  expect(back.value).toEqual(body);
  expect(back.losses).toEqual([]);
  return r;
}

describe('top-level fields', () => {
  it('tool_choice: modes and a named function map; built-in tool choices stay residue', () => {
    for (const mode of ['auto', 'none', 'required'] as const) expect(decoded({ input: 'x', tool_choice: mode }).toolChoice).toEqual({ type: mode });
    expect(decoded({ input: 'x', tool_choice: { type: 'function', name: 'f' } }).toolChoice).toEqual({ type: 'tool', name: 'f' });
    const hosted = decoded({ input: 'x', tool_choice: { type: 'web_search_preview' } });
    expect(hosted.toolChoice).toBeUndefined();
    expect(hosted.ext?.['openai-responses']?.['tool_choice']).toEqual({ type: 'web_search_preview' });
  });

  it('function tools map with their nulls kept; built-in tools are kept whole for this format', () => {
    const r = decoded({
      input: 'x',
      tools: [
        { type: 'function', name: 'f', description: null, parameters: { type: 'object' }, strict: null },
        { type: 'function', name: 'g' },
        { type: 'web_search', search_context_size: 'low' },
        { type: 'custom', name: 'exec', description: 'run' },
      ],
    });
    expect(r.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object' }, ext: { 'openai-responses': { description: null, strict: null } } },
      { type: 'function', name: 'g', ext: { 'openai-responses': { $noParameters: true, $noStrict: true } } },
      { type: 'provider', origin: 'openai-responses', config: { type: 'web_search', search_context_size: 'low' } },
      { type: 'provider', origin: 'openai-responses', name: 'exec', config: { type: 'custom', name: 'exec', description: 'run' } },
    ]);
  });

  it('reasoning.effort and text.format map; the rest of both objects is residue', () => {
    const r = decoded({ input: 'x', reasoning: { effort: 'minimal', summary: 'auto' }, text: { format: { type: 'json_object' }, verbosity: 'low' } });
    expect(r.reasoning).toEqual({ effort: 'minimal' });
    expect(r.responseFormat).toEqual({ type: 'json' });
    expect(r.ext?.['openai-responses']).toMatchObject({ reasoning: { summary: 'auto' }, text: { verbosity: 'low' } });
    const unknownEffort = decoded({ input: 'x', reasoning: { effort: null } });
    expect(unknownEffort.reasoning).toBeUndefined();
  });

  it('user, or safety_identifier when there is no user, is the end-user id', () => {
    expect(decoded({ input: 'x', user: 'u' }).user).toBe('u');
    const safety = decoded({ input: 'x', safety_identifier: 's' });
    expect(safety.user).toBe('s');
    const both = decoded({ input: 'x', safety_identifier: 's', user: 'u' });
    expect(both.user).toBe('u');
    expect(both.ext?.['openai-responses']?.['safety_identifier']).toBe('s');
  });

  it('numbers and switches land in their slots', () => {
    const r = decoded({ input: 'x', model: 'gpt-5', max_output_tokens: 64, temperature: 0.5, top_p: 0.8, parallel_tool_calls: false, stream: true, metadata: { a: 'b' } });
    expect(r).toMatchObject({ model: 'gpt-5', maxTokens: 64, temperature: 0.5, topP: 0.8, parallelToolCalls: false, stream: true, metadata: { a: 'b' } });
  });

  it('store, include, truncation and previous_response_id are kept as residue', () => {
    const r = decoded({ input: 'x', store: false, include: ['reasoning.encrypted_content'], truncation: 'auto', previous_response_id: 'resp_1' });
    expect(r.ext?.['openai-responses']).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], truncation: 'auto', previous_response_id: 'resp_1' });
  });
});

describe('server-side state converted to another dialect', () => {
  const body = { model: 'gpt-5', previous_response_id: 'resp_1', store: true, input: [{ type: 'item_reference', id: 'msg_1' }, { role: 'user', content: 'And then?' }] };

  it.each(['anthropic-messages', 'openai-chat'])('is reported by %s, and comes back under preserve', (to) => {
    const there = convert(body, { from: 'openai-responses', to });
    const lost = there.losses.map((l) => [l.code, l.path.join('.')]);
    expect(lost).toContainEqual(['unsupported-field', 'previous_response_id']);
    expect(lost).toContainEqual(['unsupported-field', 'store']);
    // The item reference (stored server-side) is a provider block the target cannot take.
    expect(lost.some(([code, path]) => /provider-block/.test(code ?? '') && path?.startsWith('messages.0.'))).toBe(true);
    const kept = convert(body, { from: 'openai-responses', to, preserve: true });
    expect(convert(kept.value, { from: to, to: 'openai-responses' }).value).toEqual(body);
  });
});

describe('input items', () => {
  it('messages with or without `type`, every role, string or list content', () => {
    const r = decoded({
      input: [
        { role: 'developer', content: 'Rules.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look' }, { type: 'input_image', file_id: 'file-1', detail: 'high' }] },
        { role: 'assistant', content: 'Seen.' },
      ],
    });
    expect(r.messages).toEqual([
      { role: 'developer', parts: [{ type: 'text', text: 'Rules.' }], stringContent: true },
      { role: 'user', parts: [{ type: 'text', text: 'Look' }, { type: 'image', source: { kind: 'file-id', fileId: 'file-1' }, detail: 'high' }], ext: { 'openai-responses': { type: 'message' } } },
      { role: 'assistant', parts: [{ type: 'text', text: 'Seen.', ext: { 'openai-responses': { $item: true, $itemString: true } } }], stringContent: true },
    ]);
  });

  it("image detail: 'auto' is the default (no detail, no loss elsewhere); 'low' is kept and reported where lost; none is kept as none", () => {
    const image = (detail?: string): Record<string, unknown> => ({ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', ...(detail === undefined ? {} : { detail }) });
    const body = (detail?: string): Record<string, unknown> => ({ model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Look' }, image(detail)] }] });
    expect(decoded(body('auto')).messages[0]?.parts[1]).toEqual({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(decoded(body('low')).messages[0]?.parts[1]).toMatchObject({ type: 'image', detail: 'low' });
    expect(decoded(body()).messages[0]?.parts[1]).not.toHaveProperty('detail');
    for (const to of ['anthropic-messages', 'bedrock-converse', 'gemini']) {
      expect(convert(body('auto'), { from: 'openai-responses', to }).losses.map((l) => l.code)).not.toContain('image-detail');
      expect(convert(body('low'), { from: 'openai-responses', to }).losses.map((l) => l.code)).toContain('image-detail');
    }
  });

  it('a part whose source is ambiguous is kept whole', () => {
    const both = { type: 'input_image', image_url: 'https://x/y.png', file_id: 'file-1', detail: 'auto' };
    const bare = { type: 'input_file', file_data: 'JVBERi0=', filename: 'a.pdf' };
    const r = decoded({ input: [{ role: 'user', content: [both, bare] }] });
    expect(r.messages[0]?.parts).toEqual([
      { type: 'provider-block', origin: 'openai-responses', block: both },
      { type: 'provider-block', origin: 'openai-responses', block: bare },
    ]);
  });

  it('model-side items in a row form one assistant turn; client items each their own message', () => {
    const r = decoded({
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'ok' }] },
        { type: 'computer_call_output', call_id: 'cc', output: { type: 'computer_screenshot', image_url: 'https://x/s.png' } },
        { type: 'item_reference', id: 'msg_9' },
      ],
    });
    expect(r.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'provider-block' ? String(p.block['type']) : p.type))])).toEqual([
      ['user', ['text']],
      ['assistant', ['reasoning', 'web_search_call', 'tool-call']],
      ['tool', ['tool-result']],
      ['tool', ['computer_call_output']],
      ['assistant', ['item_reference']],
    ]);
  });

  it('an assistant message item with an empty content list is kept whole', () => {
    const item = { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [] };
    expect(decoded({ input: [item] }).messages[0]?.parts).toEqual([{ type: 'provider-block', origin: 'openai-responses', block: item }]);
  });

  it('an empty input list and explicit nulls are residue', () => {
    const r = decoded({ input: [], instructions: null, max_output_tokens: null });
    expect(r.messages).toEqual([]);
    expect(r.ext?.['openai-responses']).toEqual({ input: [], instructions: null, max_output_tokens: null });
  });
});
