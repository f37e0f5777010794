/**
 * Decode validates first and throws one ValidationError listing every problem with its JSON path,
 * in whichever proto3 JSON spelling the body used.
 */
import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, issuesOf } from './helpers.js';

const text = (t: string) => ({ text: t });
const paths = (issues: { path: (string | number)[] }[]): string[] => issues.map((i) => i.path.join('.'));

describe('request validation', () => {
  it('a body that is not an object', () => {
    expect(issuesOf(() => decodeRequest([]))).toEqual([expect.objectContaining({ code: 'invalid_type', path: [] })]);
  });

  it('contents is required', () => {
    expect(paths(issuesOf(() => decodeRequest({ generationConfig: {} })))).toEqual(['contents']);
  });

  it('collects every problem at once, with paths', () => {
    const issues = issuesOf(() =>
      decodeRequest({
        contents: [
          { role: 'assistant', parts: [text('hi')] },
          { role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'AA' } }] },
          { role: 'user', parts: [{ inlineData: { data: 'AA' } }, {}] },
        ],
        generationConfig: { temperature: 'hot', thinkingConfig: { thinkingBudget: 1.5 } },
        toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } },
      }),
    );
    expect(paths(issues).sort()).toEqual(
      [
        'contents.0.role',
        'contents.1.parts.0',
        'contents.2.parts.0.inlineData.mimeType',
        'contents.2.parts.1',
        'generationConfig.temperature',
        'generationConfig.thinkingConfig.thinkingBudget',
        'toolConfig.functionCallingConfig.mode',
      ].sort(),
    );
    expect(issues.find((i) => i.path.join('.') === 'contents.1.parts.0')?.code).toBe('invalid_part');
  });

  it('a function response must answer an earlier call (by id, or by name when it has none)', () => {
    const call = { role: 'model', parts: [{ functionCall: { name: 'f', id: 'c1', args: {} } }] };
    const answer = (fr: object) => ({ contents: [{ role: 'user', parts: [text('x')] }, call, { role: 'user', parts: [{ functionResponse: fr }] }] });
    expect(decodeRequest(answer({ name: 'f', id: 'c1', response: {} })).messages).toHaveLength(3);
    expect(decodeRequest(answer({ name: 'f', response: {} })).messages).toHaveLength(3);
    const issues = issuesOf(() => decodeRequest(answer({ name: 'g', id: 'zz', response: {} })));
    expect(issues).toEqual([expect.objectContaining({ code: 'function_response_without_call', path: ['contents', 2, 'parts', 0, 'functionResponse'] })]);
  });

  it('snake_case fields are checked too, and named as spelled', () => {
    const issues = issuesOf(() => decodeRequest({ contents: [{ parts: [{ file_data: { mime_type: 'image/png' } }] }], system_instruction: { parts: [{ text: 1 }] } }));
    expect(paths(issues).sort()).toEqual(['contents.0.parts.0.file_data.fileUri', 'system_instruction.parts.0.text']);
  });

  it('text over the size limit', () => {
    const issues = issuesOf(() => decodeRequest({ contents: [{ role: 'user', parts: [text('x'.repeat(50))] }] }, { maxTextBytes: 10 }));
    expect(issues).toEqual([expect.objectContaining({ code: 'too_large', path: ['contents', 0, 'parts', 0, 'text'] })]);
  });

  it('accepts a part kind newer than the codec and keeps it whole', () => {
    const req = decodeRequest({ contents: [{ role: 'user', parts: [{ someNewPartKind: { a: 1 } }] }] });
    expect(req.messages[0]?.parts[0]).toEqual({ type: 'provider-block', origin: 'gemini', block: { someNewPartKind: { a: 1 } } });
  });
});

describe('response validation', () => {
  it('checks candidates and their parts', () => {
    const issues = issuesOf(() =>
      decodeResponse({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { args: {} } }] }, index: 'first' }], usageMetadata: { promptTokenCount: -0.5 } }),
    );
    expect(paths(issues).sort()).toEqual(['candidates.0.content.parts.0.functionCall.name', 'candidates.0.index', 'usageMetadata.promptTokenCount']);
  });

  it('an error body (google.rpc.Status) is refused as a response, saying what it is', () => {
    const issues = issuesOf(() => decodeResponse({ error: { code: 429, message: 'You exceeded your current quota', status: 'RESOURCE_EXHAUSTED' } }));
    expect(issues.map((i) => [i.code, paths([i])[0]])).toEqual([['error_body', 'error']]);
    expect(issues[0]?.message).toContain('RESOURCE_EXHAUSTED: You exceeded your current quota');
  });
});

describe('rules found by the robustness property', () => {
  it('systemInstruction holds text only; function calls belong in model turns; counts are not negative', () => {
    expect(paths(issuesOf(() => decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } })))).toEqual(['systemInstruction.parts.0']);
    expect(paths(issuesOf(() => decodeRequest({ contents: [{ parts: [{ functionCall: { name: 'f' } }] }] })))).toEqual(['contents.0.parts.0.functionCall']);
    expect(paths(issuesOf(() => decodeResponse({ usageMetadata: { candidatesTokenCount: -1 } })))).toEqual(['usageMetadata.candidatesTokenCount']);
  });

  it('function names follow Gemini rule in declarations, calls and responses', () => {
    const issues = issuesOf(() =>
      decodeRequest({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }, { role: 'model', parts: [{ functionCall: { name: 'bad name' } }] }],
        tools: [{ functionDeclarations: [{ name: '' }] }],
      }),
    );
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual([
      ['invalid_name', 'contents.1.parts.0.functionCall.name'],
      ['invalid_name', 'tools.0.functionDeclarations.0.name'],
    ]);
  });
});
