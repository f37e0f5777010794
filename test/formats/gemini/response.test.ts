/**
 * Responses: candidates as choices, every finish reason, usage accounting (thoughts apart from
 * candidates), residue kept for Gemini, and responses of other formats encoded as Gemini.
 */
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../src/model/response.js';
import type { UnifiedStopReason } from '../../../src/model/stop-reason.js';
import { convert } from '../../../src/index.js';
import { FINISH_REASONS, validateGemini } from '../../support/validators/gemini.js';
import { codes, decodeResponse, encodeResponse, fixture } from './helpers.js';

type Json = Record<string, unknown>;
const candidate = (parts: Json[], finishReason?: string): Json => ({
  content: { role: 'model', parts },
  ...(finishReason ? { finishReason } : {}),
  index: 0,
});

describe('finish reasons', () => {
  const EXPECTED: { [raw: string]: UnifiedStopReason } = {
    STOP: 'stop',
    MAX_TOKENS: 'length',
    SAFETY: 'content-filter',
    RECITATION: 'content-filter',
    BLOCKLIST: 'content-filter',
    PROHIBITED_CONTENT: 'content-filter',
    SPII: 'content-filter',
    IMAGE_SAFETY: 'content-filter',
    IMAGE_PROHIBITED_CONTENT: 'content-filter',
    IMAGE_RECITATION: 'content-filter',
    MODEL_ARMOR: 'content-filter',
    MALFORMED_FUNCTION_CALL: 'error',
    UNEXPECTED_TOOL_CALL: 'error',
    TOO_MANY_TOOL_CALLS: 'error',
    LANGUAGE: 'other',
    OTHER: 'other',
    IMAGE_OTHER: 'other',
    NO_IMAGE: 'other',
    FINISH_REASON_UNSPECIFIED: 'other',
  };

  it('covers every value of both protos', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...FINISH_REASONS].sort());
  });

  it.each(Object.entries(EXPECTED))('%s decodes to %s and encodes back unchanged', (raw, unified) => {
    const body = { candidates: [candidate([{ text: 'x' }], raw)] };
    const res = decodeResponse(body);
    expect(res.choices[0]?.stopReason).toEqual({ unified, raw });
    const { value, losses } = encodeResponse(res);
    expect(value).toEqual(body);
    expect(losses).toEqual([]);
  });

  it('STOP after function calls reads as tool-calls (raw kept), so other formats say tool_calls', () => {
    const body = { candidates: [candidate([{ functionCall: { name: 'f', args: {} } }], 'STOP')] };
    expect(decodeResponse(body).choices[0]?.stopReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    const chat = convert(body, { from: 'gemini', to: 'openai-chat', kind: 'response' }).value as { choices: { finish_reason: string }[] };
    expect(chat.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('a value newer than the codec is kept as other and written back as it came', () => {
    const body = { candidates: [candidate([{ text: 'x' }], 'SOMETHING_NEW')] };
    const res = decodeResponse(body);
    expect(res.choices[0]?.stopReason).toEqual({ unified: 'other', raw: 'SOMETHING_NEW' });
    expect(encodeResponse(res).value).toEqual(body);
  });

  it.each([
    [{ unified: 'stop', raw: 'end_turn' }, 'STOP', []],
    [{ unified: 'tool-calls', raw: 'tool_use' }, 'STOP', []],
    [{ unified: 'length', raw: 'max_tokens' }, 'MAX_TOKENS', []],
    [{ unified: 'content-filter', raw: 'content_filter' }, 'SAFETY', []],
    [{ unified: 'stop-sequence', raw: 'stop_sequence', sequence: '###' }, 'STOP', ['stop-reason']],
    [{ unified: 'refusal', raw: 'refusal' }, 'SAFETY', ['stop-reason']],
    [{ unified: 'pause', raw: 'pause_turn' }, 'STOP', ['stop-reason']],
    [{ unified: 'error' }, 'OTHER', ['stop-reason']],
  ] as const)("another format's %j is sent as %s", (stopReason, finish, lost) => {
    const calls = stopReason.unified === 'tool-calls' ? [{ type: 'tool-call' as const, id: 't', name: 'f', arguments: {} }] : [{ type: 'text' as const, text: 'x' }];
    const { value, losses } = encodeResponse({ choices: [{ index: 0, message: { role: 'assistant', parts: calls }, stopReason }] });
    expect((value['candidates'] as Json[])[0]?.['finishReason']).toBe(finish);
    expect(codes(losses)).toEqual(lost);
  });

  it('STOP on a turn with calls would read back as tool-calls: a plain stop there is reported', () => {
    const { losses } = encodeResponse({ choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'tool-call', id: 't', name: 'f', arguments: {} }] }, stopReason: { unified: 'stop', raw: 'end_turn' } }] });
    expect(codes(losses)).toEqual(['stop-reason']);
  });
});

describe('usage', () => {
  it('thoughts count as output, candidatesTokenCount excludes them; and back exactly', () => {
    const body = fixture('responses/vertex-reasoning.json');
    const usage = decodeResponse(body).usage;
    expect(usage).toMatchObject({ inputTokens: 10, outputTokens: 17, reasoningTokens: 5, totalTokens: 27 });
    expect(encodeResponse(decodeResponse(body)).value['usageMetadata']).toEqual(body['usageMetadata']);
  });

  it('cached content counts as cache reads inside the input; tool-use prompt tokens are input too', () => {
    const u = { promptTokenCount: 100, cachedContentTokenCount: 60, candidatesTokenCount: 7, toolUsePromptTokenCount: 20, totalTokenCount: 127 };
    const res = decodeResponse({ candidates: [candidate([{ text: 'x' }], 'STOP')], usageMetadata: u });
    expect(res.usage).toMatchObject({ inputTokens: 120, cacheReadTokens: 60, outputTokens: 7, totalTokens: 127 });
    expect(encodeResponse(res).value['usageMetadata']).toEqual(u);
  });

  it("another format's usage: reasoning comes out of candidatesTokenCount; cache writes are reported", () => {
    const { value, losses } = encodeResponse({
      choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }] } }],
      usage: { inputTokens: 50, outputTokens: 30, reasoningTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 5 },
    });
    expect(value['usageMetadata']).toEqual({ promptTokenCount: 50, cachedContentTokenCount: 10, candidatesTokenCount: 10, thoughtsTokenCount: 20, totalTokenCount: 80 });
    expect(codes(losses)).toEqual(['cache-write-tokens']);
  });

  it('Anthropic -> Gemini: input_tokens excluding the cache becomes a prompt count including it', () => {
    const body = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 5 } };
    const out = convert(body, { from: 'anthropic-messages', to: 'gemini', kind: 'response' }).value as Json;
    expect(out['usageMetadata']).toEqual({ promptTokenCount: 100, cachedContentTokenCount: 90, candidatesTokenCount: 5, totalTokenCount: 105 });
  });
});

describe('candidates and metadata', () => {
  it('each candidate is a choice; responseId and modelVersion are id and model', () => {
    const body = { candidates: [candidate([{ text: 'a' }], 'STOP'), { ...candidate([{ text: 'b' }], 'MAX_TOKENS'), index: 1 }], modelVersion: 'gemini-2.5-pro', responseId: 'r1' };
    const res = decodeResponse(body);
    expect(res.choices.map((c) => [c.index, c.message.parts[0], c.stopReason?.unified])).toEqual([
      [0, { type: 'text', text: 'a' }, 'stop'],
      [1, { type: 'text', text: 'b' }, 'length'],
    ]);
    expect([res.id, res.model]).toEqual(['r1', 'gemini-2.5-pro']);
  });

  it('a blocked prompt: no candidates, promptFeedback kept, and reported when converting elsewhere', () => {
    const body = fixture('responses/vertex-blocked.json');
    const res = decodeResponse(body);
    expect(res.choices).toEqual([]);
    expect(res.ext?.['gemini']?.['promptFeedback']).toEqual({ blockReason: 'SAFETY' });
    const out = convert(body, { from: 'gemini', to: 'openai-chat', kind: 'response' });
    expect(out.losses).toContainEqual(expect.objectContaining({ code: 'unsupported-field', path: ['promptFeedback'] }));
  });

  it('safety ratings, grounding and citation metadata stay on the choice for Gemini', () => {
    const body = {
      candidates: [
        {
          ...candidate([{ text: 'x' }], 'STOP'),
          safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
          citationMetadata: { citationSources: [{ uri: 'https://a', startIndex: 0, endIndex: 1 }] },
          groundingMetadata: { webSearchQueries: ['q'] },
          finishMessage: 'done',
        },
      ],
    };
    const res = decodeResponse(body);
    expect(Object.keys(res.choices[0]?.ext?.['gemini'] ?? {}).sort()).toEqual(['citationMetadata', 'finishMessage', 'groundingMetadata', 'safetyRatings']);
    expect(encodeResponse(res).value).toEqual(body);
  });

  it('a thought part is reasoning; its signature replays only to Gemini', () => {
    const res = decodeResponse(fixture('responses/google-reasoning-gemini3.json'));
    const parts = res.choices[0]?.message.parts ?? [];
    expect(parts.map((p) => p.type)).toContain('text');
    const out = convert(fixture('responses/vertex-reasoning.json'), { from: 'gemini', to: 'anthropic-messages', kind: 'response' });
    expect(codes(out.losses)).toContain('foreign-reasoning');
  });

  it("another format's response is a valid Gemini body; what it cannot hold is reported", () => {
    const res: Response = {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      created: 1700000000,
      choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'refusal', text: 'no' }] }, stopReason: { unified: 'stop', raw: 'stop' } }],
    };
    const { value, losses } = encodeResponse(res);
    expect(validateGemini('response', value)).toEqual([]);
    expect(value).toEqual({ candidates: [{ content: { parts: [{ text: 'no' }], role: 'model' }, finishReason: 'STOP', index: 0 }], modelVersion: 'gpt-4o', responseId: 'chatcmpl-1' });
    expect(codes(losses).sort()).toEqual(['refusal-as-text', 'unsupported-field']);
    // Under preserve all comes back; the stop reason's raw value is now Gemini's own.
    const kept = encodeResponse(res, true);
    const choice = res.choices[0];
    expect(decodeResponse(kept.value)).toEqual({ ...res, choices: [{ ...choice, stopReason: { unified: 'stop', raw: 'STOP' } }] });
  });
});
