/**
 * Gemini request -> canonical: where each wire field lands, and that fields without a canonical
 * slot (or in the other proto3 JSON spelling) come back exactly.
 */
import { describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest } from './helpers.js';

const user = { role: 'user', parts: [{ text: 'hi' }] };
const roundTrip = (body: object): void => {
  const { value, losses } = encodeRequest(decodeRequest(body));
  expect(value).toEqual(body);
  expect(losses).toEqual([]);
};

describe('request decode', () => {
  it('a model member in the body is the model', () => {
    expect(decodeRequest({ model: 'gemini-2.5-pro', contents: [user] }).model).toBe('gemini-2.5-pro');
  });

  it.each([
    [{ mode: 'AUTO' }, { type: 'auto' }],
    [{ mode: 'NONE' }, { type: 'none' }],
    [{ mode: 'ANY' }, { type: 'required' }],
    [{ mode: 'ANY', allowedFunctionNames: ['f'] }, { type: 'tool', name: 'f' }],
    [{ mode: 'ANY', allowedFunctionNames: ['f', 'g'] }, { type: 'required' }],
    // A name outside Gemini's rule would be written back renamed: it stays as it came (residue).
    [{ mode: 'ANY', allowedFunctionNames: [''] }, { type: 'required' }],
    [{ mode: 'ANY', allowedFunctionNames: ['9lives'] }, { type: 'required' }],
    [{ mode: 'VALIDATED' }, undefined],
  ])('functionCallingConfig %j is tool choice %j, and comes back', (fcc, choice) => {
    const body = { contents: [user], tools: [{ functionDeclarations: [{ name: 'f' }, { name: 'g' }] }], toolConfig: { functionCallingConfig: fcc } };
    expect(decodeRequest(body).toolChoice).toEqual(choice);
    roundTrip(body);
  });

  it.each([
    [{ thinkingBudget: 0 }, { enabled: false }],
    [{ thinkingBudget: -1 }, { mode: 'adaptive' }],
    [{ thinkingBudget: 512, includeThoughts: true }, { budgetTokens: 512 }],
    [{ thinkingLevel: 'LOW' }, { effort: 'low' }],
    [{ thinkingLevel: 'minimal' }, { effort: 'minimal' }],
    [{ includeThoughts: true }, undefined],
  ])('thinkingConfig %j is reasoning %j, and comes back', (tc, reasoning) => {
    const body = { contents: [user], generationConfig: { thinkingConfig: tc } };
    expect(decodeRequest(body).reasoning).toEqual(reasoning);
    roundTrip(body);
  });

  it.each([
    [{ responseMimeType: 'text/plain' }, { type: 'text' }],
    [{ responseMimeType: 'application/json' }, { type: 'json' }],
    [{ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } }, { type: 'json-schema', schema: { type: 'object', properties: { a: { type: 'string' } } } }],
    [{ responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } }, undefined],
  ])('generationConfig %j is response format %j, and comes back', (gc, format) => {
    const body = { contents: [user], generationConfig: gc };
    expect(decodeRequest(body).responseFormat).toEqual(format);
    roundTrip(body);
  });

  it('snake_case spellings are read and written back as they came', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ file_data: { file_uri: 'gs://b/x.png', mime_type: 'image/png' } }, { inline_data: { mime_type: 'audio/wav', data: 'UklGRg==' } }] }],
      tools: [{ function_declarations: [{ name: 'f', parameters_json_schema: { type: 'object' } }] }],
      generationConfig: { thinkingConfig: { include_thoughts: true } },
    };
    const req = decodeRequest(body);
    expect(req.messages[0]?.parts.map((p) => p.type)).toEqual(['image', 'audio']);
    expect(req.tools).toMatchObject([{ type: 'function', name: 'f', parameters: { type: 'object' } }]);
    roundTrip(body);
  });

  it('code execution parts and built-in tools are kept whole for Gemini', () => {
    const body = {
      contents: [
        user,
        { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } }, { text: '1' }] },
      ],
      tools: [{ codeExecution: {} }, { googleSearch: {} }],
    };
    const req = decodeRequest(body);
    expect(req.messages[1]?.parts.slice(0, 2)).toEqual([
      { type: 'provider-block', origin: 'gemini', block: { executableCode: { language: 'PYTHON', code: 'print(1)' } } },
      { type: 'provider-block', origin: 'gemini', block: { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } } },
    ]);
    expect(req.tools?.map((t) => t.type)).toEqual(['provider', 'provider']);
    roundTrip(body);
  });

  it('a function response names its call; a lone text output is the text, error marks an error', () => {
    const req = decodeRequest({
      contents: [
        user,
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'g', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'g', response: { error: 'nope' } } }, { functionResponse: { name: 'f', response: { output: 'ok' } } }] },
      ],
    });
    const calls = req.messages[1]?.parts ?? [];
    const results = req.messages[2]?.parts ?? [];
    expect(results).toEqual([
      { type: 'tool-result', callId: calls[1]?.type === 'tool-call' ? calls[1].id : '', name: 'g', content: [{ type: 'text', text: 'nope' }], stringContent: true, isError: true, ext: { gemini: { $noId: true } } },
      { type: 'tool-result', callId: calls[0]?.type === 'tool-call' ? calls[0].id : '', name: 'f', content: [{ type: 'text', text: 'ok' }], stringContent: true, ext: { gemini: { $noId: true } } },
    ]);
  });

  it('tools given as one object (a recorded pydantic-ai call the API answered 200) are read and written back so', () => {
    const body = {
      contents: [user],
      tools: { function_declarations: [{ name: 'get_capital', description: 'Get the capital of a country.', parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] } }] },
    };
    expect(decodeRequest(body).tools).toMatchObject([{ type: 'function', name: 'get_capital' }]);
    roundTrip(body);
  });
});
