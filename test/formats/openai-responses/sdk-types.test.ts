/**
 * Compile-time check that the wire types describe what the official SDK accepts and returns:
 * `npm run typecheck` fails if ResponsesRequest / ResponsesResponse and their items drift from
 * ResponseCreateParams / Response. At run time, bodies the encoders write are typed with them.
 */
import type OpenAI from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';
import { describe, expect, it } from 'vitest';
import type * as W from '../../../src/formats/openai-responses/openai-responses-api.js';
import type { ResponsesRequest, ResponsesResponse } from '../../../src/formats/openai-responses/index.js';
import { encodeRequest, encodeResponse } from './helpers.js';

type R = typeof OpenAI.Responses;
type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type SdkResponse = OpenAI.Responses.Response;
type InputItem = OpenAI.Responses.ResponseInputItem;

// Top-level request fields we write must be assignable to the SDK's.
type RequestTop = Omit<W.MappedRequest, 'input' | 'tools' | 'stream'>;
const requestFits = (r: RequestTop): Partial<Params> => r;
const inputMessageFits = (m: W.InputMessage): InputItem => m;
const assistantStringFits = (m: W.AssistantInputMessage & { content: string }): InputItem => m;
const outputMessageFits = (m: W.OutputMessage): OpenAI.Responses.ResponseOutputMessage => m;
const callFits = (c: W.FunctionCallItem): OpenAI.Responses.ResponseFunctionToolCall => c;
const outputFits = (o: W.FunctionCallOutputItem): InputItem => o;
const reasoningFits = (r: W.ReasoningItem): OpenAI.Responses.ResponseReasoningItem => r;
const referenceFits = (r: W.ItemReference): InputItem => r;
const toolFits = (t: W.FunctionTool): OpenAI.Responses.FunctionTool => t;
const choiceFits = (c: W.ToolChoice): NonNullable<Params['tool_choice']> => c;
const formatFits = (f: W.TextFormat): OpenAI.Responses.ResponseFormatTextConfig => f;
const effortFits = (e: W.Effort): NonNullable<ReasoningEffort> => e;
const usageFits = (u: W.ResponseUsage): Omit<OpenAI.Responses.ResponseUsage, 'input_tokens_details'> => u;
const statusFits = (s: W.ResponseStatus): NonNullable<SdkResponse['status']> => s;
type ResponseTop = Omit<W.MappedResponse, 'output' | 'usage' | 'tools' | 'tool_choice' | 'error' | 'incomplete_details' | 'metadata'>;
const responseFits = (r: ResponseTop): Partial<SdkResponse> => r;

describe('wire types against the openai SDK', () => {
  it('type what the encoders write', () => {
    const req = encodeRequest({ model: 'gpt-5', messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }], stringContent: true }], maxTokens: 64 }).value as unknown as ResponsesRequest;
    const res = encodeResponse({ id: 'resp_1', model: 'gpt-5', created: 1, choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, stopReason: { unified: 'stop' } }] }).value as unknown as ResponsesResponse;
    expect(requestFits(req as RequestTop).max_output_tokens).toBe(64);
    const first = (req.input as W.InputMessage[])[0] as W.InputMessage;
    expect(inputMessageFits(first)).toEqual({ role: 'user', content: 'q' });
    expect(statusFits(res.status)).toBe('completed');
    expect(responseFits(res).object).toBe('response');
    expect(outputMessageFits(res.output[0] as W.OutputMessage).content[0]).toMatchObject({ type: 'output_text', text: 'a' });
    const checks = [assistantStringFits, callFits, outputFits, reasoningFits, referenceFits, toolFits, choiceFits, formatFits, effortFits, usageFits];
    expect(checks.every((f) => typeof f === 'function')).toBe(true);
    expect(typeof ({} as R)).toBe('object');
  });
});
