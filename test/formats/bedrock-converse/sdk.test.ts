/**
 * The official SDK (@aws-sdk/client-bedrock-runtime) as an oracle, with no network: a request
 * handler stands in for the HTTP client.
 * - Requests: the body we encode, in the SDK's in-memory shape (blobs as Uint8Array: the SDK types
 *   bytes that way, the JSON wire carries base64 text; toSdkShape converts at the blob positions of
 *   the Smithy model), is typed ConverseCommandInput and sent; the SDK serializes only the members
 *   it knows, so its JSON must equal ours (minus modelId, which it moves to the URL path).
 * - Responses: our encoded body is handed to the SDK as the HTTP answer; what it deserializes
 *   (ConverseCommandOutput) must equal our body in SDK shape.
 */
import { Readable } from 'node:stream';
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandInput, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import { samples } from '../../cross/corpus.js';
import { toSdkShape } from '../../support/validators/bedrock-converse.js';
import type { BedrockRequest, BedrockResponse } from '../../../src/formats/bedrock-converse/index.js';
import { hasSharedFixtures } from '../../support/captures.js';

interface Captured {
  path?: string;
  body?: unknown;
}

function client(answer: string, captured: Captured): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' },
    requestHandler: {
      handle: async (req: { path?: string; body?: unknown }) => {
        if (req.path !== undefined) captured.path = req.path;
        captured.body = req.body;
        return { response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(answer)]) } };
      },
    } as never,
  });
}

const ANSWER = JSON.stringify({ output: { message: { role: 'assistant', content: [{ text: 'ok' }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } });
const text = (body: unknown): string => (typeof body === 'string' ? body : new TextDecoder().decode(body as Uint8Array));

async function sendThroughSdk(value: BedrockRequest): Promise<Captured> {
  const captured: Captured = {};
  const input = toSdkShape('request', { ...value, modelId: value.modelId ?? 'test-model' }) as ConverseCommandInput;
  await client(ANSWER, captured).send(new ConverseCommand(input));
  return captured;
}

async function receiveThroughSdk(value: BedrockResponse): Promise<ConverseCommandOutput> {
  return client(JSON.stringify(value), {}).send(new ConverseCommand({ modelId: 'test-model', messages: [] }));
}

describe('the SDK serializes our requests to exactly our JSON', () => {
  for (const other of ['anthropic-messages', 'openai-chat'] as const) {
    const list = samples(other, 'request');
    it(`${other} -> bedrock-converse: ${list.length} bodies`, async () => {
      expect(list.length).toBeGreaterThan(hasSharedFixtures() ? 10 : 2);
      for (const s of list) {
        const { value } = convert<BedrockRequest>(s.body, { from: other, to: 'bedrock-converse' });
        const captured = await sendThroughSdk(value);
        const { modelId, ...body } = value;
        expect(captured.path, s.name).toBe(`/model/${encodeURIComponent(modelId ?? 'test-model')}/converse`);
        expect(JSON.parse(text(captured.body)), s.name).toEqual(body);
      }
    });
  }

  it('bytes travel as the same base64 text the SDK writes for a Uint8Array', async () => {
    const { value } = convert<BedrockRequest>(
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'text', text: 'what is it?' }] }] },
      { from: 'openai-chat', to: 'bedrock-converse' },
    );
    const sent = JSON.parse(text((await sendThroughSdk(value)).body)) as { messages: { content: unknown[] }[] };
    expect(sent.messages[0]?.content[0]).toEqual({ image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } });
  });
});

describe('the SDK reads our responses as we wrote them', () => {
  for (const other of ['anthropic-messages', 'openai-chat'] as const) {
    const list = samples(other, 'response');
    it(`${other} -> bedrock-converse: ${list.length} bodies`, async () => {
      expect(list.length).toBeGreaterThan(hasSharedFixtures() ? 10 : 2);
      for (const s of list) {
        const { value } = convert<BedrockResponse>(s.body, { from: other, to: 'bedrock-converse', kind: 'response' });
        const { $metadata: _m, ...out } = await receiveThroughSdk(value);
        expect(out, s.name).toEqual(toSdkShape('response', value));
      }
    });
  }
});
