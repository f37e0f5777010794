/**
 * Error bodies per dialect: what `encodeError` writes is raised by that dialect's official SDK as
 * its own error class with the status and message; `decodeError` reads real error captures and
 * reads back what `encodeError` wrote.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeError, encodeError, type HttpErrorBody } from '../../../src/index.js';

/** The error the next request is answered with; each test sets it before calling its SDK. */
let answer: HttpErrorBody = { status: 500, headers: {}, body: null };

function reply(res: { writeHead(s: number, h: Record<string, string>): unknown; end(b: string): unknown }): void {
  res.writeHead(answer.status, answer.headers);
  res.end(JSON.stringify(answer.body));
}

let h1: http.Server;
let h2: http2.Http2Server;
let base1 = '';
let base2 = '';

beforeAll(async () => {
  h1 = http.createServer((req, res) => req.resume().on('end', () => reply(res)));
  // The Bedrock Runtime client's default handler speaks HTTP/2 (cleartext to an http:// endpoint).
  h2 = http2.createServer((req, res) => req.resume().on('end', () => reply(res)));
  await new Promise<void>((r) => h1.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
  base1 = `http://127.0.0.1:${(h1.address() as AddressInfo).port}`;
  base2 = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => h1.close(r));
  await new Promise((r) => h2.close(r));
});

const STATUSES = [400, 401, 403, 404, 413, 429, 500, 503, 529] as const;

async function caught(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (e) {
    return e;
  }
  throw new Error('the call did not fail');
}

describe.each(['openai-chat', 'openai-responses'] as const)('%s errors read by the openai SDK', (format) => {
  const client = (): OpenAI => new OpenAI({ baseURL: `${base1}/v1`, apiKey: 'k', maxRetries: 0 });
  it.each(STATUSES)('status %i', async (status) => {
    answer = encodeError(format, { status, message: `boom ${status}` });
    const e = await caught(() =>
      format === 'openai-chat'
        ? client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        : client().responses.create({ model: 'm', input: 'hi' }),
    );
    expect(e).toBeInstanceOf(OpenAI.APIError);
    const err = e as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(status);
    expect(err.message).toBe(`${status} boom ${status}`);
    if (status === 400) expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    if (status === 429) expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    if (status >= 500) expect(e).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.type).toBe(status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error');
  });
});

describe('anthropic-messages errors read by the Anthropic SDK', () => {
  const client = (): Anthropic => new Anthropic({ baseURL: base1, apiKey: 'k', maxRetries: 0 });
  it.each(STATUSES)('status %i', async (status) => {
    answer = encodeError('anthropic-messages', { status, message: `boom ${status}` });
    const e = await caught(() => client().messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }));
    expect(e).toBeInstanceOf(Anthropic.APIError);
    const err = e as InstanceType<typeof Anthropic.APIError>;
    expect(err.status).toBe(status);
    expect(err.message).toContain(`boom ${status}`);
    const expected: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 503: 'api_error', 529: 'overloaded_error' };
    expect(err.type).toBe(expected[status]);
    if (status === 429) expect(e).toBeInstanceOf(Anthropic.RateLimitError);
  });

  it('keeps a type of its own dialect and replaces a foreign one', () => {
    expect(encodeError('anthropic-messages', { status: 500, message: 'x', type: 'overloaded_error' }).body).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'x' } });
    expect(encodeError('anthropic-messages', { status: 429, message: 'x', type: 'ThrottlingException' }).body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'x' } });
  });
});

describe('gemini errors read by the Gen AI SDK', () => {
  const client = (): GoogleGenAI => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: base1 } });
  it.each(STATUSES)('status %i', async (status) => {
    answer = encodeError('gemini', { status, message: `boom ${status}` });
    const e = await caught(() => client().models.generateContent({ model: 'gemini-x', contents: 'hi' }));
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    expect(err.status).toBe(status);
    // The SDK's message is the JSON body it was answered with.
    const body = JSON.parse(err.message) as { error: { code: number; message: string; status: string } };
    expect(body.error.message).toBe(`boom ${status}`);
    expect(body.error.code).toBe(status);
    expect(decodeError('gemini', body, status)).toMatchObject({ message: `boom ${status}`, status, type: body.error.status });
  });
});

describe('bedrock-converse errors read by the AWS SDK', () => {
  const client = (): BedrockRuntimeClient =>
    new BedrockRuntimeClient({ region: 'us-east-1', endpoint: base2, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });
  const names: Record<number, string> = { 400: 'ValidationException', 401: 'UnrecognizedClientException', 403: 'AccessDeniedException', 404: 'ResourceNotFoundException', 413: 'ValidationException', 429: 'ThrottlingException', 500: 'InternalServerException', 503: 'ServiceUnavailableException', 529: 'InternalServerException' };
  it.each(STATUSES)('status %i', async (status) => {
    answer = encodeError('bedrock-converse', { status, message: `boom ${status}` });
    const c = client();
    const e = (await caught(() => c.send(new ConverseCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }] })))) as Error & { $metadata: { httpStatusCode: number } };
    c.destroy();
    expect(e.name).toBe(names[status]);
    expect(e.message).toBe(`boom ${status}`);
    expect(e.$metadata.httpStatusCode).toBe(status);
  });
});

describe('decodeError', () => {
  it('reads the real Gemini 404 capture', () => {
    const capture = JSON.parse(readFileSync(new URL('../../fixtures/gemini/errors/not-found-404.json', import.meta.url), 'utf8')) as unknown;
    expect(decodeError('gemini', capture, 404)).toMatchObject({ status: 404, type: 'NOT_FOUND', code: 404, message: expect.stringContaining('is not found for API version v1beta') as unknown });
  });

  it('reads the real Bedrock 400 capture, with its type from the header', () => {
    const capture = JSON.parse(readFileSync(new URL('../../fixtures/bedrock-converse/errors/invalid-model-400.json', import.meta.url), 'utf8')) as unknown;
    const headers = new Headers({ 'X-Amzn-ErrorType': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' });
    expect(decodeError('bedrock-converse', capture, 400, headers)).toMatchObject({ status: 400, type: 'ValidationException', message: 'The provided model identifier is invalid.' });
    expect(decodeError('bedrock-converse', capture, 400)).toEqual({ status: 400, message: 'The provided model identifier is invalid.', raw: capture });
  });

  it('reads the Anthropic error event of a real stream capture', () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(decodeError('anthropic-messages', body)).toEqual({ message: 'Overloaded', type: 'overloaded_error', raw: body });
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'bedrock-converse'] as const)('%s reads back what it writes, and refuses what is not its shape', (format) => {
    for (const status of STATUSES) {
      const written = encodeError(format, { status, message: `m${status}` });
      const read = decodeError(format, written.body, status, written.headers);
      expect(read?.message).toBe(`m${status}`);
      expect(read?.status).toBe(status);
      expect(read?.type).toBeTypeOf('string');
    }
    for (const other of [null, 'text', [], { ok: true }, { error: 'x' }, { type: 'message', content: [] }]) expect(decodeError(format, other)).toBeUndefined();
  });

  it('is refused for a dialect with no HTTP error shape', () => {
    expect(() => decodeError('ag-ui', {})).toThrow(/has no HTTP error shape/);
  });
});
