/**
 * OpenAI usage details whose counters the canonical usage holds (cached, cache-write, reasoning
 * tokens) are not reported as dropped by other targets; details with counters of their own are;
 * and the same format gets its details back as they came (shared/usage-details.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

const responsesBody = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'openai-responses', 'responses', name), 'utf8')) as Record<string, unknown>;
const usageLosses = (r: { losses: { code: string; path: (string | number)[] }[] }): string[] => r.losses.filter((l) => l.path[0] === 'usage').map((l) => `${l.code} ${l.path.join('.')}`);

describe('OpenAI usage details', () => {
  it('Responses: details of known counters only are no loss elsewhere; the reasoning count is; same-format output is unchanged', () => {
    for (const name of ['agentgateway/tool.json', 'vercel-ai/openai-code-interpreter-tool.1.json']) {
      const body = responsesBody(name);
      for (const to of ['anthropic-messages', 'bedrock-converse']) {
        expect(usageLosses(convert(body, { from: 'openai-responses', to, kind: 'response' }))).toEqual(['reasoning-tokens usage.reasoningTokens']);
      }
      const same = convert(body, { from: 'openai-responses', to: 'openai-responses', kind: 'response' }).value as Record<string, unknown>;
      expect(same['usage']).toEqual(body['usage']);
    }
  });

  it('Responses: details with counters of their own are still reported where they cannot go', () => {
    const r = convert(responsesBody('agentgateway/reasoning.json'), { from: 'openai-responses', to: 'anthropic-messages', kind: 'response' });
    expect(usageLosses(r)).toEqual(expect.arrayContaining(['unsupported-field usage.input_tokens_details', 'unsupported-field usage.output_tokens_details']));
  });

  it('Chat: prompt_tokens_details with cached tokens only is no loss; with audio tokens it is; a reasoning count of 0 is reported', () => {
    const chat = (usage: Record<string, unknown>): Record<string, unknown> => ({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi', refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, ...usage },
    });
    const to = (body: Record<string, unknown>): string[] => usageLosses(convert(body, { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' }));
    expect(to(chat({ prompt_tokens_details: { cached_tokens: 4 } }))).toEqual([]);
    expect(to(chat({ prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 } }))).toEqual(['unsupported-field usage.prompt_tokens_details']);
    expect(to(chat({ completion_tokens_details: { reasoning_tokens: 0 } }))).toEqual(['reasoning-tokens usage.reasoningTokens']);
    const body = chat({ prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 0 } });
    expect((convert(body, { from: 'openai-chat', to: 'openai-chat', kind: 'response' }).value as Record<string, unknown>)['usage']).toEqual(body['usage']);
  });
});
