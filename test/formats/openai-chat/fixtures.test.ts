/** Round trips and decoded meaning on real captures copied to test/fixtures/openai-chat. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { listFiles, readExchanges } from '../../support/captures.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, fixture, FIXTURES } from './helpers.js';

describe('openai-chat round trip on local captures', () => {
  for (const file of listFiles(join(FIXTURES, 'requests'), ['.json'])) {
    it(`request ${file.split('/').pop()} is exact and lossless`, () => {
      const body = fixture(`requests/${file.split('/').pop()}`);
      const { value, losses } = encodeRequest(decodeRequest(body));
      expect(value).toEqual(body);
      expect(losses).toEqual([]);
    });
  }
  for (const file of listFiles(join(FIXTURES, 'responses'), ['.json'])) {
    it(`response ${file.split('/').pop()} is exact and lossless`, () => {
      const body = fixture(`responses/${file.split('/').pop()}`);
      const { value, losses } = encodeResponse(decodeResponse(body));
      expect(value).toEqual(body);
      expect(losses).toEqual([]);
    });
  }
  for (const file of listFiles(join(FIXTURES, 'exchanges'), ['.yaml'])) {
    for (const ex of readExchanges(file, FIXTURES)) {
      it(`exchange ${ex.name} is exact both ways`, () => {
        expect(encodeRequest(decodeRequest(ex.request)).value).toEqual(ex.request);
        expect(encodeResponse(decodeResponse(ex.response)).value).toEqual(ex.response);
      });
    }
  }
});

describe('what the captures decode to', () => {
  it('full.json: every mapped field lands in its slot, the rest is residue', () => {
    const r = decodeRequest(fixture('requests/full.json'));
    expect(r).toMatchObject({
      model: 'gpt-4-turbo-preview',
      maxTokens: 1000,
      temperature: 0.7,
      topP: 0.9,
      candidateCount: 3,
      stream: false,
      stop: ['\n\n', 'END'],
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      user: 'user_12345',
      responseFormat: { type: 'json' },
      seed: 42,
      toolChoice: { type: 'tool', name: 'my_function' },
    });
    expect(r.tools?.[0]).toMatchObject({ type: 'function', name: 'get_weather', parameters: { type: 'object' } });
    expect(r.messages[0]).toMatchObject({ role: 'system', name: 'system_assistant', stringContent: true });
    expect(r.messages[3]?.parts[1]).toEqual({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } });
    const rest = r.ext?.['openai-chat'];
    expect(rest).toMatchObject({ logit_bias: { '50256': -100 }, function_call: 'auto', $maxTokens: true });
    expect(rest?.['functions']).toHaveLength(1);
  });

  it('tool-call.json: empty arguments mean {} and are written back verbatim', () => {
    const r = decodeRequest(fixture('requests/tool-call.json'));
    const calls = r.messages[1]?.parts ?? [];
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ type: 'tool-call', id: 'call_5rQmXtLpZ9wKvNbJhGyDsFcE', name: 'get_time', arguments: {}, argumentsJson: '' });
    expect(r.messages[2]).toMatchObject({ role: 'tool', name: 'get_weather', parts: [{ type: 'tool-result', callId: 'call_iMGPsr4Xx1u0G5sOzFsTCbQU', stringContent: true }] });
  });

  it('reasoning_replay.json: reasoning_content is openai-chat reasoning before the answer', () => {
    const r = decodeRequest(fixture('requests/reasoning_replay.json'));
    expect(r.messages[1]?.parts).toEqual([
      { type: 'reasoning', origin: 'openai-chat', text: 'Two plus two.' },
      { type: 'text', text: '4' },
    ]);
    expect(r.messages[1]?.ext?.['openai-chat']).toEqual({ reasoning_signature: 'SIG-replay==' });
  });

  it('structured-output.json: json_schema with name and schema', () => {
    const r = decodeRequest(fixture('requests/structured-output.json'));
    expect(r.responseFormat).toMatchObject({ type: 'json-schema', name: 'person', schema: { type: 'object', required: ['person'] } });
  });

  it('deepseek-reasoning.json: reasoning, usage with cache and reasoning tokens, provider extras kept', () => {
    const r = decodeResponse(fixture('responses/deepseek-reasoning.json'));
    const choice = r.choices[0];
    expect(choice?.message.parts[0]).toMatchObject({ type: 'reasoning', origin: 'openai-chat' });
    expect(choice?.message.parts[1]).toMatchObject({ type: 'text' });
    expect(choice?.stopReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(r.usage).toMatchObject({ inputTokens: 18, outputTokens: 345, totalTokens: 363, cacheReadTokens: 0, reasoningTokens: 315 });
    expect(r.usage?.ext?.['openai-chat']).toMatchObject({ prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 18 });
    expect(r.ext?.['openai-chat']).toMatchObject({ system_fingerprint: 'fp_eaab8d114b_prod0820_fp8_kvcache' });
    // object 'chat.completion' is what the encoder writes anyway: not residue, so not a loss elsewhere.
    expect(r.ext?.['openai-chat']).not.toHaveProperty('object');
  });

  it('mistral-tool-call.json: a tool call without type and a message without content or refusal', () => {
    const r = decodeResponse(fixture('responses/mistral-tool-call.json'));
    const msg = r.choices[0]?.message;
    expect(msg?.parts).toEqual([
      { type: 'tool-call', id: 'gSIMJiOkT', name: 'weather', arguments: { location: 'San Francisco' }, argumentsJson: '{"location": "San Francisco"}', ext: { 'openai-chat': { $noType: true } } },
    ]);
    expect(r.choices[0]?.stopReason?.unified).toBe('tool-calls');
  });

  it('parse-multiple-pydantic-tools.json: parallel calls stay separate parts in order', () => {
    const r = decodeResponse(fixture('responses/parse-multiple-pydantic-tools.json'));
    const calls = r.choices[0]?.message.parts.filter((p) => p.type === 'tool-call') ?? [];
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((c) => (c.type === 'tool-call' ? c.id : ''))).size).toBe(calls.length);
  });

  it('parse-pydantic-model-refusal.json: refusal becomes a refusal part', () => {
    const r = decodeResponse(fixture('responses/parse-pydantic-model-refusal.json'));
    expect(r.choices[0]?.message.parts).toEqual([{ type: 'refusal', text: expect.stringMatching(/sorry/i) }]);
  });

  it('document cassette: a PDF file part is a base64 document with its file name', () => {
    const [ex] = readExchanges(join(FIXTURES, 'exchanges/test_document_as_binary_content_input.yaml'), FIXTURES);
    const r = decodeRequest(ex?.request);
    const doc = r.messages[0]?.parts.find((p) => p.type === 'document');
    expect(doc).toMatchObject({ type: 'document', name: 'filename.pdf', source: { kind: 'base64', mediaType: 'application/pdf' } });
  });
});
