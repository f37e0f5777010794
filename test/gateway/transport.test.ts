/**
 * What travels between client, gateway and provider: client keys (401 in each dialect), the SigV4
 * signature a Bedrock provider receives, upstream keys that never reach the client, the usage the
 * gateway asks a Chat provider for, model lists, aborting the provider when the client leaves, metrics.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { parseSse } from '../../src/index.js';
import type { RunningGateway } from '../../src/gateway/server.js';
import { anthropicClient, callThrough, geminiClient, openaiClient } from './support/clients.js';
import { AWS_TEST_CREDENTIALS, modelFor, replayConfig, startTestGateway, UPSTREAM_KEY } from './support/gateway.js';
import { DIALECTS, startReplayUpstream, streamChunks, type Received, type ReplayUpstream } from './support/replay-upstream.js';
import { failureOf } from './support/sdk-errors.js';

const GATEWAY_KEY = 'il-client-key-1';
let upstream: ReplayUpstream;
let open: RunningGateway;
let locked: RunningGateway;

beforeAll(async () => {
  upstream = await startReplayUpstream();
  open = await startTestGateway(replayConfig(upstream.url));
  locked = await startTestGateway(replayConfig(upstream.url, { keys: ['other-key', GATEWAY_KEY] }));
});
afterAll(async () => {
  await open?.close();
  await locked?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('client keys', () => {
  it.each(DIALECTS)('%s: a wrong key is a 401 in its own error class; the right key passes', async (client) => {
    const bearer = client === 'bedrock-converse' ? { bearer: true } : {};
    const f = await failureOf(client, () => callThrough(client, locked.url, modelFor('openai-chat'), false, { key: 'wrong', ...bearer }));
    expect(f.status).toBe(401);
    expect(f.message).toContain('invalid or missing API key');
    expect(upstream.received).toHaveLength(0);
    const ok = await callThrough(client, locked.url, modelFor('openai-chat'), false, { key: GATEWAY_KEY, ...bearer });
    expect(ok.calls.length).toBeGreaterThan(0);
    // The client's key stays at the gateway; the provider gets the configured key.
    const got = upstream.received[0] as Received;
    expect(JSON.stringify(got.headers)).not.toContain(GATEWAY_KEY);
    expect(got.headers['authorization']).toBe(`Bearer ${UPSTREAM_KEY}`);
  });

  it("takes a Gemini client's key from ?key= as the REST API allows, and refuses a wrong one", async () => {
    const call = (key: string) =>
      fetch(`${locked.url}/v1beta/models/${modelFor('openai-chat')}:generateContent?key=${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] }),
      });
    const wrong = await call('wrong');
    expect(wrong.status).toBe(401);
    expect(upstream.received).toHaveLength(0);
    const right = await call(GATEWAY_KEY);
    expect(right.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
  });

  it('refuses a Bedrock SigV4 client when keys are configured (the gateway cannot check AWS signatures)', async () => {
    const f = await failureOf('bedrock-converse', () => callThrough('bedrock-converse', locked.url, modelFor('openai-chat'), false));
    expect(f.status).toBe(401);
  });
});

describe('upstream calls', () => {
  it('signs Bedrock calls with SigV4 that verifies with the same signer and credentials', async () => {
    await callThrough('openai-chat', open.url, modelFor('bedrock-converse'), false);
    const rec = upstream.received[0] as Received;
    const auth = String(rec.headers['authorization']);
    const m = /^AWS4-HMAC-SHA256 Credential=AKIDGATEWAYTEST\/(\d{8})\/us-east-1\/bedrock\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
    expect(m, auth).not.toBeNull();
    const signedHeaders = (m as RegExpExecArray)[2] as string;
    const resign = async (body: Buffer): Promise<string> => {
      const headers: Record<string, string> = {};
      for (const h of signedHeaders.split(';')) headers[h] = String(rec.headers[h]);
      // The payload hash the signature covers is that of the body given here.
      if (headers['x-amz-content-sha256'] !== undefined) headers['x-amz-content-sha256'] = createHash('sha256').update(body).digest('hex');
      const url = new URL(upstream.url);
      const request = new HttpRequest({ method: 'POST', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: rec.path, headers, body });
      const amzDate = String(rec.headers['x-amz-date']);
      const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
      const signer = new SignatureV4({ service: 'bedrock', region: 'us-east-1', sha256: Sha256, credentials: AWS_TEST_CREDENTIALS });
      return (await signer.sign(request, { signingDate })).headers['authorization'] as string;
    };
    expect(await resign(rec.raw)).toBe(auth);
    // A body changed on the way would not verify.
    expect(await resign(Buffer.concat([rec.raw, Buffer.from(' ')]))).not.toBe(auth);
  });

  it('sends each provider its key where its API reads it, and never shows it to the client', async () => {
    for (const target of ['anthropic-messages', 'gemini', 'openai-responses'] as const) {
      upstream.reset();
      const res = await fetch(`${open.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: modelFor(target), messages: [{ role: 'user', content: 'hi' }] }) });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const shown: string[] = [];
      res.headers.forEach((v, k) => shown.push(`${k}: ${v}`));
      expect(text + shown.join("\n")).not.toContain(UPSTREAM_KEY);
      const h = (upstream.received[0] as Received).headers;
      if (target === 'anthropic-messages') expect([h['x-api-key'], h['anthropic-version']]).toEqual([UPSTREAM_KEY, '2023-06-01']);
      if (target === 'gemini') expect(h['x-goog-api-key']).toBe(UPSTREAM_KEY);
      if (target === 'openai-responses') expect(h['authorization']).toBe(`Bearer ${UPSTREAM_KEY}`);
    }
  });

  it('asks a Chat provider for its usage chunk; a Chat client that did not ask does not get one', async () => {
    const viaChat = await callThrough('anthropic-messages', open.url, modelFor('openai-chat'), true);
    expect((upstream.received[0] as Received).body['stream_options']).toEqual({ include_usage: true });
    expect(viaChat.usage.output).toBeGreaterThan(0);

    upstream.reset();
    const res = await fetch(`${open.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: modelFor('anthropic-messages'), stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    const events = parseSse(await res.text());
    const chunks = events.filter((e) => typeof e.data === 'object');
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.some((e) => (e.data as { usage?: unknown }).usage != null)).toBe(false);
    const asked = await fetch(`${open.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: modelFor('anthropic-messages'), stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(parseSse(await asked.text()).some((e) => typeof e.data === 'object' && (e.data as { usage?: unknown }).usage != null)).toBe(true);
  });

  it('forwards stream events as they arrive and aborts the provider call when the client disconnects', async () => {
    let release: (() => void) | undefined;
    upstream.respond = (rec, res) => {
      const chunks = streamChunks(rec.dialect);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunks[0]);
      res.write(chunks[1]);
      // Then the provider holds the rest back until the test lets it go (it never does).
      void new Promise<void>((r) => (release = r)).then(() => res.end());
      return true;
    };
    const ac = new AbortController();
    const res = await fetch(`${open.url}/v1/messages`, { method: 'POST', signal: ac.signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: modelFor('openai-chat'), max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await Promise.race([reader.read(), new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no first event in 5 s')), 5000))]);
    expect(new TextDecoder().decode(first.value)).toContain('message_start');
    ac.abort();
    await until(() => upstream.received[0]?.aborted === true, 5000, 'the upstream request aborted');
    release?.();
  });
});

describe('model lists, health and metrics', () => {
  it('lists the routes in the caller dialect', async () => {
    const gw = await startTestGateway(replayConfig(upstream.url, { routes: [{ model: 'gpt-4o-mini', upstream: 'up-openai-chat' }, { model: 'claude-*', upstream: 'up-anthropic-messages', model_rewrite: 'claude-sonnet-4-5' }] }));
    try {
      const oa = await openaiClient(gw.url).models.list();
      expect(oa.data.map((m) => m.id)).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
      const an = await anthropicClient(gw.url).models.list();
      expect(an.data.map((m) => m.id)).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
      const ge = await geminiClient(gw.url).models.list();
      const names: string[] = [];
      for await (const m of ge) names.push(m.name ?? '');
      expect(names).toEqual(['models/gpt-4o-mini', 'models/claude-sonnet-4-5']);
      // The rewrite reaches the provider.
      await callThrough('openai-chat', gw.url, 'claude-haiku', false);
      expect((upstream.received.at(-1) as Received).body['model']).toBe('claude-sonnet-4-5');
    } finally {
      await gw.close();
    }
  });

  it('counts requests, errors and losses by dialect pair in /metrics', async () => {
    await callThrough('gemini', open.url, modelFor('anthropic-messages'), false);
    await callThrough('gemini', open.url, 'no-route', false).catch(() => undefined);
    const text = await (await fetch(`${open.url}/metrics`)).text();
    expect(text).toMatch(/interlingua_gateway_requests_total\{client="gemini",upstream_format="anthropic-messages",upstream="up-anthropic-messages",stream="false",status="200"\} [1-9]/);
    expect(text).toMatch(/interlingua_gateway_errors_total\{client="gemini",upstream_format="none",upstream="none",status="404"\} [1-9]/);
    expect(text).toMatch(/interlingua_gateway_losses_total\{client="gemini",upstream_format="anthropic-messages",upstream="up-anthropic-messages"\} [1-9]/);
    expect(text).toContain('interlingua_gateway_request_duration_seconds_bucket');
    expect(await (await fetch(`${open.url}/healthz`)).json()).toEqual({ status: 'ok' });
  });
});

describe('one port, two protocols', () => {
  it('answers HTTP/2 with prior knowledge (h2c) and HTTP/1.1 on the same port', async () => {
    const { connect } = await import('node:http2');
    const session = connect(open.url);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({ ':method': 'GET', ':path': '/healthz' });
        req.on('response', (h) => resolve(Number(h[':status'])));
        req.on('error', reject);
        req.end();
        setTimeout(() => reject(new Error('no h2 answer in 5 s')), 5000).unref();
      });
      expect(status).toBe(200);
    } finally {
      session.close();
    }
    expect((await fetch(`${open.url}/healthz`)).status).toBe(200);
  });
});
