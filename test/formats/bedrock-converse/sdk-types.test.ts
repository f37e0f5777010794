/**
 * Compile-time check that the wire types describe what the official SDK takes and returns:
 * `npm run typecheck` fails if BedrockRequest / BedrockResponse drift from ConverseCommandInput /
 * ConverseCommandOutput. The SDK holds bytes as Uint8Array where the JSON wire (and our types)
 * carry base64 text, so the SDK types are compared through `Wire<T>`, which maps Uint8Array to
 * string and leaves everything else as it is. At run time, sdk.test.ts sends real bodies through
 * the SDK.
 */
import type { ConverseCommandInput, ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import type { BedrockRequest, BedrockResponse } from '../../../src/formats/bedrock-converse/index.js';
import { encodeReq, encodeRes } from './helpers.js';

type Wire<T> = T extends Uint8Array ? string : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;
type SdkRequest = Wire<ConverseCommandInput>;
type SdkResponse = Wire<Omit<ConverseCommandOutput, '$metadata'>>;

type Message = NonNullable<BedrockRequest['messages']>[number];
const messageFits = (m: Message): NonNullable<SdkRequest['messages']>[number] => m;
const systemFits = (s: NonNullable<BedrockRequest['system']>[number]): NonNullable<SdkRequest['system']>[number] => s;
const inferenceFits = (i: NonNullable<BedrockRequest['inferenceConfig']>): NonNullable<SdkRequest['inferenceConfig']> => i;
const toolFits = (t: NonNullable<BedrockRequest['toolConfig']>['tools'][number]): NonNullable<NonNullable<SdkRequest['toolConfig']>['tools']>[number] => t;
const toolChoiceFits = (c: NonNullable<NonNullable<BedrockRequest['toolConfig']>['toolChoice']>): NonNullable<NonNullable<SdkRequest['toolConfig']>['toolChoice']> => c;
const requestFits = (r: Pick<BedrockRequest, 'additionalModelResponseFieldPaths' | 'requestMetadata' | 'performanceConfig'>): Partial<SdkRequest> => r;
const usageFits = (u: BedrockResponse['usage']): NonNullable<SdkResponse['usage']> => u;
const outputFits = (o: BedrockResponse['output']): NonNullable<SdkResponse['output']> => o;
const metricsFits = (m: BedrockResponse['metrics']): NonNullable<SdkResponse['metrics']> => m;

describe('wire types against @aws-sdk/client-bedrock-runtime', () => {
  it('are the encoders\' result types', () => {
    const req = encodeReq({ model: 'm', messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }] }], maxTokens: 5 }).value as BedrockRequest;
    const res = encodeRes({ choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'a' }] }, stopReason: { unified: 'stop' } }], usage: { inputTokens: 1, outputTokens: 1 } }).value as unknown as BedrockResponse;
    expect(messageFits(req.messages?.[0] as Message).role).toBe('user');
    expect(inferenceFits(req.inferenceConfig ?? {}).maxTokens).toBe(5);
    expect(usageFits(res.usage).totalTokens).toBe(2);
    expect(outputFits(res.output)).toEqual(res.output);
    expect(metricsFits(res.metrics).latencyMs).toBe(0);
    expect([systemFits, toolFits, toolChoiceFits, requestFits].every((f) => typeof f === 'function')).toBe(true);
  });
});
