/**
 * Reasoning items are opaque state of this API: id, summary and encrypted_content come back
 * byte-exact, and are never sent anywhere else. Reasoning of another origin (Anthropic thinking
 * with its signature, Chat reasoning_content) is never sent as an OpenAI reasoning item.
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import type { ReasoningPart } from '../../../src/model/part.js';
import type { Request } from '../../../src/model/request.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, fixture, localBodies } from './helpers.js';

const encrypted = fixture('responses/vercel-ai/openai-reasoning-encrypted-content.1.json');
const item = (encrypted['output'] as Record<string, unknown>[])[0] as Record<string, unknown>;
const ciphertext = item['encrypted_content'] as string;

describe('this API’s reasoning items', () => {
  it('decode to a reasoning part holding id, summary and the encrypted content as received', () => {
    const part = decodeResponse(encrypted).choices[0]?.message.parts[0] as ReasoningPart;
    expect(part).toEqual({
      type: 'reasoning',
      origin: 'openai-responses',
      id: item['id'],
      encryptedContent: ciphertext,
      summary: [((item['summary'] as Record<string, unknown>[])[0] as Record<string, unknown>)['text']],
    });
  });

  it('go back byte-exact, replayed in the next request as the API expects', () => {
    const answer = decodeResponse(encrypted).choices[0]?.message;
    if (!answer) throw new Error('no message');
    const next: Request = { model: 'gpt-5-mini', messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }], stringContent: true }, answer, { role: 'user', parts: [{ type: 'text', text: 'again' }], stringContent: true }] };
    const { value, losses } = encodeRequest(next);
    expect(losses).toEqual([]);
    const items = value['input'] as Record<string, unknown>[];
    expect(items[1]).toEqual(item);
    expect(JSON.stringify(items[1])).toContain(ciphertext);
  });

  it.each(['anthropic-messages', 'openai-chat'])('survive a trip through %s under preserve, and are not sent there', (to) => {
    const withCiphertext = localBodies().filter((x) => JSON.stringify(x.body).includes('"encrypted_content":"'));
    expect(withCiphertext.filter((b) => b.kind === 'request').length).toBeGreaterThanOrEqual(3);
    expect(withCiphertext.filter((b) => b.kind === 'response').length).toBeGreaterThanOrEqual(3);
    for (const b of withCiphertext) {
      const plain = convert(b.body, { from: 'openai-responses', to, kind: b.kind });
      expect(JSON.stringify(plain.value)).not.toMatch(/gAAAAA/);
      expect(plain.losses.map((l) => l.code)).toContain('foreign-reasoning');
      const kept = convert(b.body, { from: 'openai-responses', to, kind: b.kind, preserve: true });
      expect(convert(kept.value, { from: to, to: 'openai-responses', kind: b.kind }).value).toEqual(b.body);
    }
  });

  it('without encrypted content or summary text, and with reasoning text, still round-trip', () => {
    const body = {
      id: 'resp_1',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: null, status: null, content: [{ type: 'reasoning_text', text: 'step' }] },
        { id: 'rs_2', type: 'reasoning', summary: [{ type: 'summary_text', text: 'a', extra: 1 }] },
      ],
    };
    const r = decodeResponse(body);
    expect(r.choices[0]?.message.parts).toEqual([
      { type: 'reasoning', origin: 'openai-responses', id: 'rs_1', summary: [], text: 'step', ext: { 'openai-responses': { encrypted_content: null, status: null } } },
      { type: 'reasoning', origin: 'openai-responses', id: 'rs_2', ext: { 'openai-responses': { summary: [{ type: 'summary_text', text: 'a', extra: 1 }] } } },
    ]);
    expect(encodeResponse(r).value).toMatchObject(body);
  });
});

describe('reasoning of another origin', () => {
  const request = (origin: 'anthropic-messages' | 'openai-chat'): Request => ({
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'q' }], stringContent: true },
      { role: 'assistant', parts: [{ type: 'reasoning', origin, text: 'thinking', signature: 'SIG' }, { type: 'text', text: 'a' }] },
      { role: 'user', parts: [{ type: 'text', text: 'more' }], stringContent: true },
    ],
  });

  it.each(['anthropic-messages', 'openai-chat'] as const)('from %s is dropped with foreign-reasoning, stashed under preserve', (origin) => {
    const plain = encodeRequest(request(origin));
    expect((plain.value['input'] as Record<string, unknown>[]).map((i) => i['type'] ?? i['role'])).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(plain.value)).not.toContain('thinking');
    expect(plain.losses).toEqual([{ code: 'foreign-reasoning', path: ['messages', 1, 'parts', 0], message: expect.stringContaining(origin), action: 'dropped' }]);
    const kept = encodeRequest(request(origin), true);
    expect(kept.losses.map((l) => l.action)).toEqual(['stashed']);
    expect(decodeRequest(kept.value)).toEqual(request(origin));
  });

  it('an Anthropic capture with thinking converts without any reasoning item', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'EqQB' }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'next' },
      ],
    };
    const out = convert(body, { from: 'anthropic-messages', to: 'openai-responses' });
    expect((out.value as { input: Record<string, unknown>[] }).input.some((i) => i['type'] === 'reasoning')).toBe(false);
    expect(out.losses.map((l) => l.code)).toContain('foreign-reasoning');
  });
});
