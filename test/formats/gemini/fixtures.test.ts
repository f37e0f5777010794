/**
 * Every local Gemini capture (test/fixtures/gemini) decodes, encodes back deep-equal with no loss,
 * and — apart from the hand-written passthrough vector — is a valid REST body. Plus what the
 * decoder makes of a few of them, checked field by field.
 */
import { describe, expect, it } from 'vitest';
import type { ReasoningPart, ToolCallPart, ToolResultPart } from '../../../src/model/part.js';
import { validateGemini } from '../../support/validators/gemini.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, fixture, localBodies } from './helpers.js';

const bodies = localBodies();

describe('local Gemini captures', () => {
  it('are all there', () => {
    expect(bodies.filter((b) => b.kind === 'request').length).toBeGreaterThanOrEqual(25);
    expect(bodies.filter((b) => b.kind === 'response').length).toBeGreaterThanOrEqual(25);
  });

  it.each(bodies.map((b) => [b.name, b] as const))('%s round-trips exactly', (_name, b) => {
    const { value, losses } = b.kind === 'request' ? encodeRequest(decodeRequest(b.body)) : encodeResponse(decodeResponse(b.body));
    expect(value).toEqual(b.body);
    expect(losses).toEqual([]);
  });

  it.each(bodies.filter((b) => !b.name.includes('passthrough')).map((b) => [b.name, b] as const))('%s is a valid REST body', (_name, b) => {
    expect(validateGemini(b.kind, b.body)).toEqual([]);
  });

  it('the passthrough vector is not valid (its unknown fields are named) yet still round-trips', () => {
    const errors = validateGemini('request', fixture('requests/passthrough-fields.json'));
    expect(errors).toContain('someNewTopLevelField: unknown field of GenerateContentRequest');
    expect(errors).toContain('contents[0].parts[0].someNewPartField: unknown field of Part');
  });
});

describe('decoding real captures', () => {
  it('tools.json: signature on the call kept as residue, response paired by id, built-in tools kept whole', () => {
    const req = decodeRequest(fixture('requests/tools.json'));
    const call = req.messages[1]?.parts[0] as ToolCallPart;
    expect(call).toMatchObject({ type: 'tool-call', id: 'fc_1', name: 'get_weather', arguments: { location: 'Boston', unit: 'celsius' } });
    expect(call.ext?.['gemini']?.['thoughtSignature']).toBe('CjEBc2lnbmF0dXJlLWZvci10aGUtY2FsbA==');
    const result = req.messages[2]?.parts[0] as ToolResultPart;
    expect(result).toMatchObject({ type: 'tool-result', callId: 'fc_1', name: 'get_weather', content: [{ type: 'data', data: { temperature: 12, conditions: 'rain' } }] });
    expect(req.tools?.map((t) => (t.type === 'function' ? t.name : Object.keys(t.config)[0]))).toEqual(['get_weather', 'googleSearch', 'codeExecution', 'urlContext']);
    expect(req.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('thinking.json: thought parts are gemini reasoning with their signature; thinkingLevel is an effort', () => {
    const req = decodeRequest(fixture('requests/thinking.json'));
    const thought = req.messages[1]?.parts[0] as ReasoningPart;
    expect(thought).toEqual({ type: 'reasoning', origin: 'gemini', text: 'The classic argument is by contradiction.', signature: 'Ck0BdGhvdWdodC1zaWduYXR1cmUtb25l' });
    expect(req.reasoning).toEqual({ effort: 'high' });
    expect(req.temperature).toBe(1);
  });

  it('text.json: systemInstruction, sampling fields, and Gemini-only fields as residue', () => {
    const req = decodeRequest(fixture('requests/text.json'));
    expect(req.messages[0]).toMatchObject({ role: 'system', parts: [{ type: 'text', text: 'Answer in one sentence.' }] });
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(req).toMatchObject({ temperature: 0.7, topP: 0.95, topK: 40, maxTokens: 1024, stop: ['END'], candidateCount: 1, seed: 42 });
    expect(Object.keys(req.ext?.['gemini'] ?? {}).filter((k) => !k.startsWith('$')).sort()).toEqual(['cachedContent', 'labels', 'safetySettings']);
  });

  it('a js-genai chat: calls without ids get stable minted ids, and upper-case Schema types read as JSON Schema', () => {
    const body = bodies.find((b) => b.name.includes('Chats_Tests_chats_function_calling_Google_AI_with_function_calling.json#1 request'))?.body;
    const a = decodeRequest(body);
    const b = decodeRequest(body);
    const call = a.messages[1]?.parts[0] as ToolCallPart;
    expect(call.id).toMatch(/^gemini_[0-9a-f]{8}$/);
    expect((b.messages[1]?.parts[0] as ToolCallPart).id).toBe(call.id);
    const tool = a.tools?.[0];
    expect(tool?.type === 'function' ? tool.parameters : undefined).toEqual({
      properties: { denominator: { type: 'number' }, numerator: { type: 'number' } },
      type: 'object',
    });
  });

  it('server-side MCP: a call answered in the same model turn ran on Google', () => {
    const body = bodies.find((b) => b.name.includes('server_side_MCP_server.json#0 response'))?.body;
    const parts = decodeResponse(body).choices[0]?.message.parts ?? [];
    expect(parts.slice(0, 2).map((p) => [p.type, 'providerExecuted' in p ? p.providerExecuted : undefined])).toEqual([
      ['tool-call', true],
      ['tool-result', true],
    ]);
    expect((parts[1] as ToolResultPart).callId).toBe((parts[0] as ToolCallPart).id);
  });
});
