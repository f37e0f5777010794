/** Bedrock request -> canonical: what each construct becomes, and what other formats make of it. */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import { decodeReq, encodeReq, sample } from './helpers.js';

describe('decoding real requests', () => {
  it('system blocks, cache points and documents (pydantic-ai cache capture)', () => {
    const req = decodeReq(sample('request', 'test_bedrock_cache_write_and_read.yaml#0'));
    const [system, user] = req.messages;
    expect(system?.role).toBe('system');
    expect(system?.parts).toEqual([{ type: 'text', text: expect.stringMatching(/^YOU MUST RESPONSE/), cache: { type: 'ephemeral' } }]);
    expect(user?.parts.map((p) => [p.type, p.cache !== undefined])).toEqual([
      ['text', false],
      ['document', false],
      ['text', true],
      ['text', true],
    ]);
    expect(user?.parts[1]).toEqual({ type: 'document', name: 'Document 1', source: { kind: 'base64', mediaType: 'text/plain', data: 'WW91IGFyZSBhIGdyZWF0IG1hdGhlbWF0aWNpYW4=' } });
    expect(req.ext?.['bedrock-converse']).toEqual({ inferenceConfig: {} });
  });

  it('keeps model-specific and service fields as residue, written back only to Bedrock', () => {
    const body = sample('request', 'test_bedrock_model_guardrail_config.yaml#0') as Record<string, unknown>;
    const withAll = {
      ...body,
      modelId: 'us.amazon.nova-micro-v1:0',
      additionalModelRequestFields: { top_k: 5 },
      additionalModelResponseFieldPaths: ['/stop_sequence'],
      promptVariables: { city: { text: 'Paris' } },
      requestMetadata: { team: 'a' },
      performanceConfig: { latency: 'optimized' },
    };
    const req = decodeReq(withAll);
    expect(req.model).toBe('us.amazon.nova-micro-v1:0');
    expect(Object.keys(req.ext?.['bedrock-converse'] ?? {}).sort()).toEqual([
      'additionalModelRequestFields', 'additionalModelResponseFieldPaths', 'guardrailConfig', 'inferenceConfig', 'performanceConfig', 'promptVariables', 'requestMetadata',
    ]);
    expect(encodeReq(req).value).toEqual(withAll);
    const there = convert(withAll, { from: 'bedrock-converse', to: 'anthropic-messages' });
    expect(there.losses.filter((l) => l.code === 'unsupported-field').map((l) => l.path[0]).sort()).toEqual([
      'additionalModelRequestFields', 'additionalModelResponseFieldPaths', 'guardrailConfig', 'performanceConfig', 'promptVariables', 'requestMetadata',
    ]);
  });

  it('tool results with status and media, server tools and their typed results', () => {
    const req = decodeReq(sample('request', 'test_bedrock_model_with_code_execution_tool.yaml#1'));
    expect(req.tools?.map((t) => (t.type === 'function' ? `function:${t.name}` : `provider:${t.name ?? ''}`))).toEqual(['function:final_result', 'provider:nova_code_interpreter']);
    expect(req.toolChoice).toEqual({ type: 'required' });
    const assistant = req.messages.find((m) => m.role === 'assistant');
    expect(assistant?.parts.map((p) => (p.type === 'tool-call' || p.type === 'tool-result' ? `${p.type}:${String(p.providerExecuted ?? false)}` : p.type))).toEqual([
      'tool-call:true', 'tool-result:true', 'tool-call:false',
    ]);
    const media = decodeReq(sample('request', 'media_kind_delivered_in_tool_result[meta_document].yaml#1'));
    const result = media.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.content.map((p) => p.type)).toEqual(['document']);
  });

  it('reasoning of every kind is Bedrock-origin, signature and redacted bytes kept as they came', () => {
    const req = decodeReq(sample('request', 'test_bedrock_anthropic_tool_with_thinking.yaml#1'));
    const reasoning = req.messages.flatMap((m) => m.parts).find((p) => p.type === 'reasoning');
    expect(reasoning).toMatchObject({ type: 'reasoning', origin: 'bedrock-converse' });
    expect(reasoning?.type === 'reasoning' && typeof reasoning.signature === 'string' && reasoning.signature.length > 100).toBe(true);
  });
});

describe('decoding constructs the captures lack', () => {
  const body = {
    messages: [
      {
        role: 'user',
        content: [
          { guardContent: { text: { text: 'Is this safe?', qualifiers: ['query'] } } },
          { text: 'context' },
          { searchResult: { source: 'https://ex.com', title: 'Ex', content: [{ text: 'found' }], citations: { enabled: true } } },
          { video: { format: 'mpg', source: { s3Location: { uri: 's3://bkt/v.mpg' } } } },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            citationsContent: {
              content: [{ text: 'Paris is the capital.' }],
              citations: [
                { title: 'Atlas', sourceContent: [{ text: 'Paris, capital of France' }], location: { documentChar: { documentIndex: 0, start: 3, end: 27 } } },
                { location: { web: { url: 'https://ex.com', domain: 'ex.com' } } },
              ],
            },
          },
        ],
      },
      { role: 'user', content: [{ text: 'thanks' }] },
    ],
  };

  it('maps them onto canonical parts and writes them back exactly', () => {
    const req = decodeReq(body);
    const [user, assistant] = req.messages;
    expect(user?.parts[0]).toEqual({ type: 'text', text: 'Is this safe?', ext: { 'bedrock-converse': { qualifiers: ['query'], guardContent: true } } });
    expect(user?.parts[2]).toMatchObject({ type: 'search-result', source: 'https://ex.com', title: 'Ex', citations: true });
    expect(user?.parts[3]).toEqual({ type: 'video', source: { kind: 's3', uri: 's3://bkt/v.mpg', mediaType: 'video/mpeg' }, ext: { 'bedrock-converse': { format: 'mpg' } } });
    const text = assistant?.parts[0];
    expect(text?.type === 'text' && text.citations).toEqual([
      { type: 'document', documentTitle: 'Atlas', documentIndex: 0, location: { unit: 'char', start: 3, end: 27 }, citedText: 'Paris, capital of France' },
      { type: 'url', url: 'https://ex.com', ext: { 'bedrock-converse': { citation: { location: { web: { url: 'https://ex.com', domain: 'ex.com' } } } } } },
    ]);
    expect(encodeReq(req).value).toEqual(body);
  });

  it('another format reports what only Bedrock holds; preserve brings it back', () => {
    const there = convert(body, { from: 'bedrock-converse', to: 'anthropic-messages' });
    const inMessages = there.losses.filter((l) => l.path[0] === 'messages');
    expect(inMessages.map((l) => `${l.code} ${l.path.join('.')}`)).toEqual([
      'unsupported-field messages.0.parts.0.qualifiers',
      'unsupported-field messages.0.parts.0.guardContent',
      'unsupported-part messages.0.parts.3',
      'unsupported-citation messages.1.parts.0.citations.1',
    ]);
    const kept = convert(body, { from: 'bedrock-converse', to: 'anthropic-messages', preserve: true });
    for (const l of kept.losses) expect(l.action).not.toBe('dropped');
    const back = convert(kept.value, { from: 'anthropic-messages', to: 'bedrock-converse' });
    expect(back.value).toEqual(body);
  });
});
