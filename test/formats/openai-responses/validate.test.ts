/** Invalid Responses bodies: one ValidationError listing every issue at its JSON path. */
import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, issuesOf } from './helpers.js';

const paths = (fn: () => unknown): string[] => issuesOf(fn).map((i) => i.path.join('.'));

describe('request validation', () => {
  it('refuses what is not an object', () => {
    expect(issuesOf(() => decodeRequest([]))).toMatchObject([{ code: 'invalid_type', path: [] }]);
    expect(issuesOf(() => decodeResponse('x'))).toMatchObject([{ code: 'invalid_type', path: [] }]);
  });

  it('collects every problem in one error, each at its path', () => {
    const body = {
      model: 5,
      input: [
        { role: 'user', content: [{ type: 'input_text' }] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{oops' },
        { type: 'function_call_output', call_id: 'c9', output: 'x' },
        { type: 'reasoning', summary: [{ type: 'summary_text' }] },
        { type: 'teleport' },
        { content: 'no role or type' },
      ],
      tools: [{ type: 'function', parameters: {} }],
      text: { format: { type: 'json_schema', schema: {} } },
      max_output_tokens: 1.5,
    };
    expect(paths(() => decodeRequest(body)).sort()).toEqual(
      [
        'model',
        'max_output_tokens',
        'input.0.content.0.text',
        'input.1.arguments',
        'input.2.call_id',
        'input.3.summary.0.text',
        'input.4.type',
        'input.5.type',
        'tools.0.name',
        'text.format.name',
      ].sort(),
    );
  });

  it('names the unknown item type it met', () => {
    expect(issuesOf(() => decodeRequest({ input: [{ type: 'teleport' }] }))).toEqual([
      { code: 'unknown_item_type', path: ['input', 0, 'type'], message: "unknown item type 'teleport'", received: 'teleport' },
    ]);
  });

  it('an assistant message takes output_text, refusal (and input_text as sent in history) only', () => {
    expect(paths(() => decodeRequest({ input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }))).toEqual(['input.0.content.0.type']);
  });

  it('an output may answer a call stored server-side when the request points at server state', () => {
    const orphan = { type: 'function_call_output', call_id: 'c9', output: 'x' };
    expect(paths(() => decodeRequest({ input: [orphan] }))).toEqual(['input.0.call_id']);
    expect(decodeRequest({ previous_response_id: 'resp_1', input: [orphan] }).messages).toHaveLength(1);
    expect(decodeRequest({ conversation: 'conv_1', input: [orphan] }).messages).toHaveLength(1);
    expect(decodeRequest({ input: [{ type: 'item_reference', id: 'fc_1' }, orphan] }).messages).toHaveLength(2);
  });

  it('empty arguments mean no arguments, and are kept verbatim', () => {
    const r = decodeRequest({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '' }] });
    expect(r.messages[0]?.parts[0]).toMatchObject({ type: 'tool-call', arguments: {}, argumentsJson: '' });
  });

  it('text over the size limit is refused at its path', () => {
    const long = 'x'.repeat(64);
    const body = { instructions: long, input: [{ role: 'user', content: [{ type: 'input_text', text: long }] }, { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: long }] }] };
    expect(paths(() => decodeRequest(body, { maxTextBytes: 16 }))).toEqual(['instructions', 'input.0.content.0.text', 'input.1.summary.0.text']);
  });

  it('accepts the x-interlingua key on the body and on items', () => {
    const r = decodeRequest({ input: [{ role: 'user', content: 'hi', 'x-interlingua': { v: 1, span: 1, hash: '00000000', messages: [] } }] });
    expect(r.messages).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'hi' }], stringContent: true }]);
  });
});

describe('response validation', () => {
  it('needs an id and an output list, and checks each output item', () => {
    expect(paths(() => decodeResponse({ output: {} })).sort()).toEqual(['id', 'output']);
    const body = {
      id: 'resp_1',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text' }] },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":' },
      ],
      usage: { input_tokens: 'many', output_tokens: 1 },
    };
    // Arguments that are not JSON are what the model wrote: a response still converts.
    expect(paths(() => decodeResponse(body)).sort()).toEqual(['output.0.content.0.text', 'usage.input_tokens'].sort());
  });

  it('output items answer nothing, so a function_call_output there is no orphan', () => {
    const r = decodeResponse({ id: 'r', output: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] });
    expect(r.choices[0]?.message.parts).toMatchObject([{ type: 'provider-block', block: { type: 'function_call_output' } }]);
  });
});
