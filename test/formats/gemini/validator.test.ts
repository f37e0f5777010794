/**
 * validateGemini (test/support/validators/gemini.ts) is an oracle for other tests, so it is tested
 * itself: every kind of check bites with a path-named message, and the messages it covers know
 * every field and enum value of the official protos (test/fixtures/schemas/gemini).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_REASONS, FINISH_REASONS, knownFields, MODES, validateGemini } from '../../support/validators/gemini.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

const ok = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('validateGemini', () => {
  it('accepts a minimal request and response, in either proto3 JSON spelling', () => {
    expect(validateGemini('request', ok)).toEqual([]);
    expect(validateGemini('request', { contents: [{ parts: [{ file_data: { file_uri: 'gs://b/o', mime_type: 'image/png' } }] }], generation_config: { max_output_tokens: 5 } })).toEqual([]);
    expect(validateGemini('response', { candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: 'STOP', index: 0 }] })).toEqual([]);
  });

  it.each([
    ['unknown field', { ...ok, temperature: 1 }, 'temperature: unknown field of GenerateContentRequest'],
    ['required field', { generationConfig: {} }, 'contents: required field missing'],
    ['enum', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role: "assistant" is not one of user, model'],
    ['oneof: none', { contents: [{ role: 'user', parts: [{ thought: true }] }] }, 'contents[0].parts[0]: exactly one of text, inlineData, functionCall, functionResponse, fileData, executableCode, codeExecutionResult must be set (found none)'],
    ['oneof: two', { contents: [{ role: 'user', parts: [{ text: 'x', fileData: { fileUri: 'gs://a' } }] }] }, 'contents[0].parts[0]: exactly one of text, inlineData, functionCall, functionResponse, fileData, executableCode, codeExecutionResult must be set (found text, fileData)'],
    ['nested required', { contents: [{ role: 'user', parts: [{ inlineData: { data: 'AA==' } }] }] }, 'contents[0].parts[0].inlineData.mimeType: required field missing'],
    ['bytes', { contents: [{ role: 'model', parts: [{ text: 'x', thoughtSignature: 'not base64!' }] }] }, 'contents[0].parts[0].thoughtSignature: expected base64 bytes'],
    ['function name', { ...ok, tools: [{ functionDeclarations: [{ name: '9lives' }] }] }, "tools[0].functionDeclarations[0].name: '9lives' is not a valid function name"],
    ['Schema keyword', { ...ok, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', additionalProperties: false } }] }] }, 'tools[0].functionDeclarations[0].parameters.additionalProperties: unknown field of Schema'],
    ['exclusive fields', { ...ok, generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'object' }, responseJsonSchema: {} } }, 'generationConfig: responseSchema and responseJsonSchema are mutually exclusive'],
    ['names with AUTO', { ...ok, toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['f'] } } }, 'toolConfig.functionCallingConfig.allowedFunctionNames: only allowed with mode ANY or VALIDATED'],
    ['duration', { contents: [{ role: 'user', parts: [{ fileData: { fileUri: 'gs://a' }, videoMetadata: { startOffset: 5 } }] }] }, 'contents[0].parts[0].videoMetadata.startOffset: expected a string'],
    ['null', { ...ok, generationConfig: { temperature: null } }, 'generationConfig.temperature: null is not a value of this field'],
  ])('catches: %s', (_what, body, message) => {
    expect(validateGemini('request', body)).toContain(message);
  });

  it('checks responses: finish reasons, usage counts, feedback', () => {
    const errors = validateGemini('response', { candidates: [{ finishReason: 'DONE' }], usageMetadata: { promptTokenCount: 1.5 }, promptFeedback: { blockReason: 'NOPE' } });
    expect(errors).toEqual([
      expect.stringMatching(/^candidates\[0\]\.finishReason: "DONE" is not one of/),
      'usageMetadata.promptTokenCount: expected an integer',
      expect.stringMatching(/^promptFeedback\.blockReason: "NOPE" is not one of/),
    ]);
  });
});

/** `message Name { ... }` blocks of a proto file: field names (camelCase) and enum values, by message path. */
function parseProto(file: string): { fields: Map<string, string[]>; enums: Map<string, string[]> } {
  const fields = new Map<string, string[]>();
  const enums = new Map<string, string[]>();
  const stack: { kind: string; name: string }[] = [];
  const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const open = /^(message|enum|oneof)\s+(\w+)\s*\{/.exec(line);
    if (open) {
      stack.push({ kind: open[1] ?? '', name: open[2] ?? '' });
      if (line.endsWith('}')) stack.pop(); // `message UrlContext {}`
      continue;
    }
    // Option blocks (`resource_reference = { ... }`) open and close braces too.
    const opens = (line.match(/\{/g) ?? []).length;
    const closes = (line.match(/\}/g) ?? []).length;
    if (opens > 0 || closes > 0) {
      for (let k = 0; k < opens; k++) stack.push({ kind: 'option', name: '' });
      for (let k = 0; k < closes; k++) stack.pop();
      if (!/=\s*\d+/.test(line)) continue;
    }
    const top = stack[stack.length - 1];
    const owner = stack.filter((s) => s.kind === 'message').map((s) => s.name).join('.');
    if (top?.kind === 'enum') {
      const v = /^(\w+)\s*=/.exec(line);
      if (v?.[1]) enums.set(`${owner}.${top.name}`, [...(enums.get(`${owner}.${top.name}`) ?? []), v[1]]);
    } else if (top) {
      const f = /^(?:optional |repeated )?[\w.]+(?:<[\w., ]+>)?\s+(\w+)\s*=\s*\d+/.exec(line);
      if (f?.[1]) fields.set(owner, [...(fields.get(owner) ?? []), camel(f[1])]);
    }
  }
  return { fields, enums };
}

const PROTOS = join(LOCAL_FIXTURES, 'schemas/gemini');
const v1beta = ['v1beta-content.proto', 'v1beta-generative_service.proto', 'v1beta-safety.proto'].map((f) => parseProto(join(PROTOS, f)));
const vertex = [parseProto(join(PROTOS, 'vertex-v1-content.proto')), parseProto(join(PROTOS, 'vertex-v1-tool.proto'))];
const protoFields = (name: string, from: typeof v1beta): string[] => from.flatMap((p) => p.fields.get(name) ?? []);
const protoEnum = (name: string, from: typeof v1beta): string[] => from.flatMap((p) => p.enums.get(name) ?? []);

describe('validateGemini covers the protos', () => {
  // validator message <- proto message (both APIs; Vertex-only fields the codec never writes are left out)
  const COVERED: [string, string][] = [
    ['Content', 'Content'],
    ['Part', 'Part'],
    ['Blob', 'Blob'],
    ['FileData', 'FileData'],
    ['FunctionCall', 'FunctionCall'],
    ['FunctionResponse', 'FunctionResponse'],
    ['ExecutableCode', 'ExecutableCode'],
    ['CodeExecutionResult', 'CodeExecutionResult'],
    ['Tool', 'Tool'],
    ['FunctionDeclaration', 'FunctionDeclaration'],
    ['Schema', 'Schema'],
    ['ToolConfig', 'ToolConfig'],
    ['FunctionCallingConfig', 'FunctionCallingConfig'],
    ['GenerationConfig', 'GenerationConfig'],
    ['ThinkingConfig', 'ThinkingConfig'],
    ['SafetySetting', 'SafetySetting'],
    ['GenerateContentRequest', 'GenerateContentRequest'],
    ['Candidate', 'Candidate'],
    ['UsageMetadata', 'GenerateContentResponse.UsageMetadata'],
    ['PromptFeedback', 'GenerateContentResponse.PromptFeedback'],
    ['GenerateContentResponse', 'GenerateContentResponse'],
  ];

  it.each(COVERED)('%s knows every v1beta field', (mine, proto) => {
    const fields = protoFields(proto, v1beta);
    const known = knownFields(mine) ?? [];
    expect(fields.length).toBeGreaterThan(0);
    // v1beta spells responseJsonSchema's json name `_responseJsonSchema` (an internal alias); the REST name is responseJsonSchema.
    expect(fields.filter((f) => !known.includes(f) && f !== 'responseJsonSchemaOrdered')).toEqual([]);
  });

  it.each([['Part'], ['FunctionCall'], ['FunctionResponse'], ['Candidate'], ['FunctionCallingConfig']])('%s knows every Vertex v1 field', (name) => {
    const fields = protoFields(name, vertex);
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter((f) => !(knownFields(name) ?? []).includes(f))).toEqual([]);
  });

  it('knows every finish reason, block reason and calling mode of both protos', () => {
    const finish = [...protoEnum('Candidate.FinishReason', v1beta), ...protoEnum('Candidate.FinishReason', vertex)];
    expect(finish.length).toBeGreaterThan(15);
    expect(finish.filter((v) => !(FINISH_REASONS as readonly string[]).includes(v))).toEqual([]);
    const block = protoEnum('GenerateContentResponse.PromptFeedback.BlockReason', v1beta);
    expect(block.filter((v) => !(BLOCK_REASONS as readonly string[]).includes(v))).toEqual([]);
    const modes = protoEnum('FunctionCallingConfig.Mode', v1beta);
    expect(modes.filter((v) => !(MODES as readonly string[]).includes(v))).toEqual([]);
  });
});
