/** Responses: stop reasons, usage arithmetic, annotations, and encoding responses of other formats. */
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../src/model/response.js';
import type { UnifiedStopReason } from '../../../src/model/stop-reason.js';
import { convert } from '../../../src/index.js';
import { codes, decodeResponse, encodeResponse } from './helpers.js';

const wire = (finish: string | null, message: Record<string, unknown> = { role: 'assistant', content: 'hi', refusal: null }) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt',
  choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
});

describe('finish_reason', () => {
  it('decodes every Chat Completions value, keeps raw, and unknown values as other', () => {
    const cases: [string, UnifiedStopReason][] = [
      ['stop', 'stop'],
      ['length', 'length'],
      ['tool_calls', 'tool-calls'],
      ['content_filter', 'content-filter'],
      ['function_call', 'tool-calls'],
      ['insufficient_system_resource', 'other'],
    ];
    for (const [raw, unified] of cases) {
      const body = wire(raw);
      const r = decodeResponse(body);
      expect(r.choices[0]?.stopReason).toEqual({ unified, raw });
      expect(encodeResponse(r).value).toEqual(body);
    }
  });

  it('maps reasons of other formats and reports the approximate ones', () => {
    const cases: [UnifiedStopReason, string, string[]][] = [
      ['stop', 'stop', []],
      ['stop-sequence', 'stop', ['stop-sequence']],
      ['length', 'length', []],
      ['tool-calls', 'tool_calls', []],
      ['refusal', 'content_filter', ['stop-reason']],
      ['pause', 'stop', ['stop-reason']],
      ['error', 'stop', ['stop-reason']],
    ];
    for (const [unified, finish, lost] of cases) {
      const res: Response = { choices: [{ index: 0, message: { role: 'assistant', parts: [] }, stopReason: { unified, raw: 'x_anthropic', sequence: 'END' } }] };
      const { value, losses } = encodeResponse(res);
      expect((value['choices'] as Record<string, unknown>[])[0]?.['finish_reason']).toBe(finish);
      expect(codes(losses)).toEqual(lost);
    }
  });
});

describe('usage', () => {
  it('reads prompt_tokens as input including cache, and details into their slots', () => {
    const body = {
      ...wire('stop'),
      usage: {
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 80, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 30 },
      },
    };
    const r = decodeResponse(body);
    expect(r.usage).toMatchObject({ inputTokens: 100, outputTokens: 50, totalTokens: 150, cacheReadTokens: 80, reasoningTokens: 30, raw: body.usage });
    expect(encodeResponse(r).value).toEqual(body);
  });

  it('writes another format usage: total = input + output, cache reads and writes in details', () => {
    const res: Response = {
      choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, stopReason: { unified: 'stop', raw: 'end_turn' } }],
      usage: { inputTokens: 120, outputTokens: 10, cacheReadTokens: 100, cacheWriteTokens: 15, raw: { input_tokens: 5 } },
    };
    const { value } = encodeResponse(res);
    expect(value['usage']).toEqual({
      prompt_tokens: 120,
      completion_tokens: 10,
      total_tokens: 130,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 15 },
    });
  });

  it('a usage without total_tokens and a body without object (compatible providers) come back without them', () => {
    const { object: _o, ...body } = { ...wire('stop'), usage: { prompt_tokens: 3, completion_tokens: 4 } };
    const r = decodeResponse(body);
    expect(r.usage?.totalTokens).toBeUndefined();
    expect(encodeResponse(r).value).toEqual(body);
  });
});

describe('response messages', () => {
  it('turns url citations into annotations with offsets into the joined content', () => {
    const res: Response = {
      id: 'msg_1',
      model: 'claude',
      created: 5,
      choices: [
        {
          index: 0,
          stopReason: { unified: 'stop', raw: 'end_turn' },
          message: {
            role: 'assistant',
            parts: [
              { type: 'reasoning', origin: 'anthropic-messages', text: 't', signature: 's' },
              { type: 'text', text: 'Per the docs, ' },
              { type: 'text', text: 'it is blue', citations: [{ type: 'url', url: 'https://a', title: 'A', citedText: 'blue sky' }] },
              { type: 'text', text: '.' },
            ],
          },
        },
      ],
    };
    const { value, losses } = encodeResponse(res);
    const message = (value['choices'] as Record<string, Record<string, unknown>>[])[0]?.['message'];
    expect(message).toEqual({
      role: 'assistant',
      content: 'Per the docs, it is blue.',
      refusal: null,
      annotations: [{ type: 'url_citation', url_citation: { url: 'https://a', title: 'A', start_index: 14, end_index: 24 } }],
    });
    expect((message?.['content'] as string).slice(14, 24)).toBe('it is blue');
    expect(codes(losses).sort()).toEqual(['citations', 'foreign-reasoning', 'text-joined']);
  });

  it('decodes annotations back onto the text part and round-trips them', () => {
    const body = wire('stop', {
      role: 'assistant',
      content: 'See it here.',
      refusal: null,
      annotations: [{ type: 'url_citation', url_citation: { url: 'https://x', title: 'X', start_index: 4, end_index: 11 } }],
    });
    const r = decodeResponse(body);
    expect(r.choices[0]?.message.parts[0]).toEqual({
      type: 'text',
      text: 'See it here.',
      citations: [{ type: 'url', url: 'https://x', title: 'X', startIndex: 4, endIndex: 11 }],
    });
    expect(encodeResponse(r).value).toEqual(body);
  });

  it('writes refusals to the refusal field and openai-chat reasoning to reasoning_content', () => {
    const res: Response = {
      choices: [
        {
          index: 0,
          message: { role: 'assistant', parts: [{ type: 'reasoning', origin: 'openai-chat', text: 'hmm' }, { type: 'refusal', text: 'No.' }] },
          stopReason: { unified: 'stop' },
        },
      ],
    };
    const { value, losses } = encodeResponse(res);
    expect((value['choices'] as Record<string, unknown>[])[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: null, refusal: 'No.', reasoning_content: 'hmm' },
      finish_reason: 'stop',
      logprobs: null,
    });
    expect(losses).toEqual([]);
  });

  it('fills required fields a response of another format lacks', () => {
    const { value } = encodeResponse({ choices: [{ index: 0, message: { role: 'assistant', parts: [] } }] });
    expect(value).toMatchObject({ object: 'chat.completion', model: '', id: expect.stringMatching(/^chatcmpl-/) });
    expect(Number.isInteger(value['created'])).toBe(true);
  });

  it('brings the absence of id, created and model, and another format\'s choice fields, back through preserve', () => {
    const res: Response = {
      choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, ext: { gemini: { avgLogprobs: -0.5, $noIndex: true } } }],
    };
    const { value, losses } = encodeResponse(res, true);
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['unsupported-field', ['choices', 0, 'avgLogprobs'], 'stashed']]);
    const back = decodeResponse(JSON.parse(JSON.stringify(value)));
    expect([back.id, back.created, back.model]).toEqual([undefined, undefined, undefined]);
    expect(back.choices[0]?.ext?.['gemini']).toEqual({ avgLogprobs: -0.5, $noIndex: true });
  });

  it('keeps several choices and brings a stop reason back through preserve', () => {
    const res: Response = {
      id: 'a',
      created: 1,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }], stringContent: true }, stopReason: { unified: 'pause', raw: 'pause_turn' } },
        { index: 1, message: { role: 'assistant', parts: [{ type: 'text', text: 'y' }], stringContent: true }, stopReason: { unified: 'length', raw: 'length' } },
      ],
    };
    const { value, losses } = encodeResponse(res, true);
    expect(losses.map((l) => l.action)).toEqual(['stashed']);
    const back = decodeResponse(JSON.parse(JSON.stringify(value)));
    expect(back.choices.map((c) => c.stopReason)).toEqual([{ unified: 'pause', raw: 'pause_turn' }, { unified: 'length', raw: 'length' }]);
  });
});

describe('usage from providers that count reasoning beside completion_tokens', () => {
  // xAI (../shared openai-chat/stream/vercel-ai/xai-tool-call): total 560 = 307 prompt + 26 completion + 227 reasoning.
  const usage = { prompt_tokens: 307, completion_tokens: 26, total_tokens: 560, completion_tokens_details: { reasoning_tokens: 227 } };
  const body = { id: 'x', object: 'chat.completion', created: 1, model: 'grok-4', choices: [{ index: 0, message: { role: 'assistant', content: 'hi', refusal: null }, finish_reason: 'stop', logprobs: null }], usage };

  it('decodes output tokens with the reasoning in them (the canonical convention) and writes the provider form back', () => {
    const res = convert<Record<string, unknown>>(body, { from: 'openai-chat', to: 'openai-chat', kind: 'response' });
    expect(res.value['usage']).toEqual(usage);
    const anthropic = convert<{ usage: { output_tokens: number } }>(body, { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' });
    expect(anthropic.value.usage.output_tokens).toBe(253);
  });
});
