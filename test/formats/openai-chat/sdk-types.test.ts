/**
 * Compile-time check that the wire types describe what the official SDK accepts and returns:
 * `npm run typecheck` fails if ChatRequest / ChatResponse drift from the SDK at top level.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse } from '../../../src/formats/openai-chat/index.js';
import { encodeRequest, encodeResponse } from './helpers.js';

type Params = OpenAI.Chat.ChatCompletionCreateParams;
type Completion = OpenAI.Chat.ChatCompletion;

// Top-level fields we write must be assignable to the SDK's.
type Known<T> = Pick<T, Extract<keyof T, string> & Exclude<keyof T, number>>;
type RequestTop = Omit<Known<ChatRequest>, 'messages' | 'tools' | 'tool_choice' | 'response_format' | 'metadata' | 'reasoning_effort' | 'stream'>;
const requestFits = (r: RequestTop): Partial<Params> => r;
const messageFits = (m: ChatRequest['messages'][number]): Params['messages'][number] => m;
const toolFits = (t: NonNullable<ChatRequest['tools']>[number]): NonNullable<Params['tools']>[number] => t;
const choiceFits = (c: NonNullable<ChatRequest['tool_choice']>): NonNullable<Params['tool_choice']> => c;
const formatFits = (f: NonNullable<ChatRequest['response_format']>): NonNullable<Params['response_format']> => f;
const responseFits = (r: Omit<ChatResponse, 'choices' | 'usage'> & { choices: ChatResponse['choices'] }): Omit<Completion, 'choices' | 'usage'> => r;
const usageFits = (u: NonNullable<ChatResponse['usage']>): NonNullable<Completion['usage']> => u;
const choiceMessageFits = (m: ChatResponse['choices'][number]['message']): Pick<Completion['choices'][number]['message'], 'role' | 'content' | 'refusal'> => m;

describe('wire types against the openai SDK', () => {
  it('are used by the encoders (typed results)', () => {
    const req: ChatRequest = encodeRequest({ model: 'm', messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }], stringContent: true }] }).value as ChatRequest;
    const res = encodeResponse({ choices: [{ index: 0, message: { role: 'assistant', parts: [] }, stopReason: { unified: 'stop' } }] }).value as unknown as ChatResponse;
    expect(requestFits(req).model).toBe('m');
    expect(messageFits(req.messages[0] as ChatRequest['messages'][number]).role).toBe('user');
    expect(responseFits(res).object).toBe('chat.completion');
    expect(choiceMessageFits((res.choices[0] as ChatResponse['choices'][number]).message).content).toBeNull();
    expect([usageFits, toolFits, choiceFits, formatFits].every((f) => typeof f === 'function')).toBe(true);
  });
});
