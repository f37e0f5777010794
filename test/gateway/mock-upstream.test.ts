/**
 * The mock upstream served over HTTP on 127.0.0.1, read by each provider's official SDK: echo,
 * tool call, stream, and a configured error raised as the SDK's own error class. Bedrock goes
 * over h2c with the SDK's default (HTTP/2) handler; the others over HTTP/1.1.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI, type FunctionDeclaration } from '@google/genai';
import {
  BedrockRuntimeClient,
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  type Tool as BedrockTool,
} from '@aws-sdk/client-bedrock-runtime';
import { createMockUpstream, type MockUpstreamOptions } from '../../src/gateway/mock-upstream.js';

type Served = { url: string; close: () => Promise<void> };

function serveMock(options: MockUpstreamOptions = {}, h2c = false): Promise<Served> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch: createMockUpstream(options), port: 0, hostname: '127.0.0.1', ...(h2c ? { createServer: http2.createServer } : {}) },
      (info: AddressInfo) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
    );
  });
}

const ERROR = { status: 429, message: 'mock says slow down' };
const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 3 }, unit: { type: 'string', enum: ['c', 'f'] } },
  required: ['city'],
};
const WEATHER_ARGS = { city: 'city', days: 3, unit: 'c' };
const PROMPT = 'Please use get_weather for Paris.';

let ok: Served;
let failing: Served;
let okH2: Served;
let failingH2: Served;

beforeAll(async () => {
  [ok, failing, okH2, failingH2] = await Promise.all([serveMock(), serveMock({ error: ERROR }), serveMock({}, true), serveMock({ error: ERROR }, true)]);
});
afterAll(async () => {
  await Promise.all([ok, failing, okH2, failingH2].map((s) => s.close()));
});

describe('OpenAI SDK', () => {
  const client = (s: Served): OpenAI => new OpenAI({ apiKey: 'test', baseURL: `${s.url}/v1`, maxRetries: 0 });
  const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } }];

  it('chat: echoes the last user text with usage', async () => {
    const res = await client(ok).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'hello mock' }] });
    expect(res.choices[0]?.message.content).toBe('hello mock');
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.model).toBe('gpt-4o');
    expect(res.usage).toMatchObject({ completion_tokens: 3, prompt_tokens: Math.ceil('firstxhello mock'.length / 4) });
  });

  it('chat: calls a tool the prompt names, arguments from its schema', async () => {
    const res = await client(ok).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: PROMPT }], tools });
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(WEATHER_ARGS);
  });

  it('chat: streams word by word, usage only when asked', async () => {
    const collect = async (includeUsage: boolean): Promise<{ text: string; chunks: number; usage: unknown }> => {
      const stream = await client(ok).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'one two three' }],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      let text = '';
      let chunks = 0;
      let usage: unknown;
      for await (const chunk of stream) {
        chunks++;
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      return { text, chunks, usage };
    };
    const plain = await collect(false);
    expect(plain).toMatchObject({ text: 'one two three', usage: undefined });
    expect(plain.chunks).toBeGreaterThanOrEqual(4);
    expect((await collect(true)).usage).toMatchObject({ completion_tokens: 4 });
  });

  it('responses: echo, tool call and stream', async () => {
    const c = client(ok);
    const echo = await c.responses.create({ model: 'gpt-4o', input: 'hello responses' });
    expect(echo.output_text).toBe('hello responses');
    const tool = await c.responses.create({ model: 'gpt-4o', input: PROMPT, tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }] });
    const call = tool.output.find((i) => i.type === 'function_call');
    expect(call?.type === 'function_call' && [call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', WEATHER_ARGS]);
    const stream = c.responses.stream({ model: 'gpt-4o', input: 'streamed responses text' });
    let deltas = '';
    stream.on('response.output_text.delta', (e) => (deltas += e.delta));
    const final = await stream.finalResponse();
    expect(deltas).toBe('streamed responses text');
    expect(final.output_text).toBe('streamed responses text');
    expect(final.usage?.output_tokens).toBe(6);
  });

  it('a configured error is an APIError with its status and message', async () => {
    const err = await client(failing).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ status: 429 });
    expect((err as Error).message).toContain(ERROR.message);
    const viaResponses = await client(failing).responses.create({ model: 'gpt-4o', input: 'hi' }).catch((e: unknown) => e);
    expect(viaResponses).toBeInstanceOf(OpenAI.APIError);
    expect(viaResponses).toMatchObject({ status: 429 });
  });
});

describe('Anthropic SDK', () => {
  const client = (s: Served): Anthropic => new Anthropic({ apiKey: 'test', baseURL: s.url, maxRetries: 0 });

  it('echo, tool call and stream', async () => {
    const c = client(ok);
    const echo = await c.messages.create({ model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'hello claude' }] });
    expect(echo.content).toHaveLength(1);
    expect(echo.content[0]).toMatchObject({ type: 'text', text: 'hello claude' });
    expect(echo.stop_reason).toBe('end_turn');
    expect(echo.usage.output_tokens).toBe(3);
    const tool = await c.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: PROMPT }],
      tools: [{ name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }],
    });
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: WEATHER_ARGS });
    const stream = c.messages.stream({ model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'streamed claude text' }] });
    let deltas = 0;
    stream.on('text', () => deltas++);
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed claude text' });
    expect(deltas).toBe(3);
    expect(final.stop_reason).toBe('end_turn');
  });

  it('a configured error is an APIError with its status and message', async () => {
    const err = await client(failing).messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err).toMatchObject({ status: 429 });
    expect((err as Error).message).toContain(ERROR.message);
  });
});

describe('Google Gen AI SDK', () => {
  const client = (s: Served): GoogleGenAI => new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: s.url, retryOptions: { attempts: 1 } } });
  const declaration: FunctionDeclaration = { name: 'get_weather', parametersJsonSchema: WEATHER_SCHEMA };

  it('echo, tool call and stream', async () => {
    const c = client(ok);
    const echo = await c.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello gemini' });
    expect(echo.text).toBe('hello gemini');
    expect(echo.modelVersion).toBe('gemini-2.5-flash');
    expect(echo.usageMetadata?.candidatesTokenCount).toBe(3);
    const tool = await c.models.generateContent({ model: 'gemini-2.5-flash', contents: PROMPT, config: { tools: [{ functionDeclarations: [declaration] }] } });
    expect(tool.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: WEATHER_ARGS });
    let text = '';
    let chunks = 0;
    for await (const chunk of await c.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'streamed gemini text' })) {
      chunks++;
      text += chunk.text ?? '';
    }
    expect(text).toBe('streamed gemini text');
    expect(chunks).toBeGreaterThanOrEqual(3);
  });

  it('a configured error is an ApiError with its status and message', async () => {
    const err = await client(failing).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429 });
    expect((err as Error).message).toContain(ERROR.message);
  });
});

describe('Bedrock Runtime SDK (HTTP/2 cleartext)', () => {
  const client = (s: Served): BedrockRuntimeClient =>
    new BedrockRuntimeClient({ region: 'us-east-1', endpoint: s.url, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' }, maxAttempts: 1 });
  const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
  const tools: BedrockTool[] = [{ toolSpec: { name: 'get_weather', inputSchema: { json: WEATHER_SCHEMA } } }];

  it('echo, tool call and stream', async () => {
    const c = client(okH2);
    const echo = await c.send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hello bedrock' }] }] }));
    expect(echo.output?.message?.content?.[0]?.text).toBe('hello bedrock');
    expect(echo.stopReason).toBe('end_turn');
    expect(echo.usage).toMatchObject({ outputTokens: 4 });
    const tool = await c.send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: PROMPT }] }], toolConfig: { tools } }));
    expect(tool.stopReason).toBe('tool_use');
    expect(tool.output?.message?.content?.find((b) => b.toolUse)?.toolUse).toMatchObject({ name: 'get_weather', input: WEATHER_ARGS });
    const streamed = await c.send(new ConverseStreamCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'streamed bedrock text' }] }] }));
    let text = '';
    let stop: string | undefined;
    let usage: unknown;
    for await (const e of streamed.stream ?? []) {
      text += e.contentBlockDelta?.delta?.text ?? '';
      stop ??= e.messageStop?.stopReason;
      usage ??= e.metadata?.usage;
    }
    expect([text, stop]).toEqual(['streamed bedrock text', 'end_turn']);
    expect(usage).toMatchObject({ outputTokens: 6 });
  });

  it('a configured error is a ServiceException with the right name and status', async () => {
    const err = await client(failingH2).send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BedrockRuntimeServiceException);
    expect(err).toMatchObject({ name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } });
    expect((err as Error).message).toContain(ERROR.message);
  });
});

describe('over plain HTTP', () => {
  const post = (path: string, body: string): Promise<Response> => fetch(`${ok.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('an invalid body is a 400 in the dialect, naming the endpoint and the JSON path', async () => {
    const res = await post('/v1/messages', JSON.stringify({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 42 }] }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toContain('POST /v1/messages');
    expect(body.error.message).toContain('messages[0].content');
    const notJson = await post('/v1/chat/completions', '{nope');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toContain('not JSON');
  });

  it('the same request gets the same bytes', async () => {
    const body = JSON.stringify({ model: 'gpt-4o', input: PROMPT, tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER_SCHEMA }] });
    const [a, b] = await Promise.all([post('/v1/responses', body), post('/v1/responses', body)]);
    expect(await a.text()).toBe(await b.text());
  });

  it('an unknown path is a 404 and another method a 405', async () => {
    expect((await fetch(`${ok.url}/v2/nothing`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${ok.url}/v1/chat/completions`)).status).toBe(405);
  });
});

describe('in process', () => {
  const call = (handler: (r: Request) => Promise<Response>, body: unknown): Promise<Response> =>
    handler(new Request('http://mock.invalid/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const claude = (stream: boolean): unknown => ({ model: 'claude-x', max_tokens: 10, stream, messages: [{ role: 'user', content: 'hi' }] });

  it('latency holds back the answer, and for a stream its first event but not its headers', async () => {
    const slow = createMockUpstream({ latencyMs: 150 });
    let t0 = performance.now();
    await (await call(slow, claude(false))).text();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    t0 = performance.now();
    const res = await call(slow, claude(true));
    const headersAfter = performance.now() - t0;
    const first = await res.body?.getReader().read();
    expect(headersAfter).toBeLessThan(140);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(new TextDecoder().decode(first?.value)).toContain('message_start');
  });

  it('a configured error keeps its own type when the dialect has it', async () => {
    const res = await call(createMockUpstream({ error: { status: 529, message: 'busy', type: 'overloaded_error' } }), claude(false));
    expect(res.status).toBe(529);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
  });
});
