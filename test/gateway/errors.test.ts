/**
 * Failures come back in the client's dialect, read by its official SDK as its own error class
 * with the right status and message: provider errors (translated from another dialect), no route,
 * unreachable and timed-out providers, errors in the middle of a stream, and bad input of every kind.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeError, encodeError, formatSse, wireEventToMessage } from '../../src/index.js';
import { streamErrorEvent } from '../../src/gateway/errors.js';
import type { RunningGateway } from '../../src/gateway/server.js';
import { parseConfig } from '../../src/gateway/config.js';
import { callThrough } from './support/clients.js';
import { modelFor, replayConfig, startTestGateway, UPSTREAM_KEY } from './support/gateway.js';
import { DIALECTS, startReplayUpstream, streamChunks, type Dialect, type ReplayUpstream } from './support/replay-upstream.js';
import { failureOf } from './support/sdk-errors.js';

let upstream: ReplayUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  upstream = await startReplayUpstream();
  const base = replayConfig(upstream.url);
  const config = parseConfig({
    upstreams: {
      ...base.upstreams,
      gone: { format: 'anthropic-messages', url: 'http://127.0.0.1:9', apiKey: 'k' },
      slow: { format: 'openai-chat', url: `${upstream.url}/v1`, apiKey: 'k', timeout_ms: 300 },
    },
    routes: [{ model: 'gone', upstream: 'gone' }, { model: 'slow', upstream: 'slow' }, ...base.routes],
    limits: { body_bytes: 64 * 1024 },
  });
  gw = await startTestGateway(config);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** Another dialect than the client's, so each error is translated. */
const other = (d: Dialect): Dialect => DIALECTS[(DIALECTS.indexOf(d) + 1) % DIALECTS.length] as Dialect;

/** The upstream answers the next calls with `status` and the error body of its own dialect. */
function upstreamFails(status: number, message: string, headers: Record<string, string> = {}): void {
  upstream.respond = (rec, res) => {
    const e = encodeError(rec.dialect, { status, message });
    res.writeHead(e.status, { 'content-type': 'application/json', ...e.headers, ...headers }).end(JSON.stringify(e.body));
    return true;
  };
}

describe.each(DIALECTS)('%s client', (client) => {
  const target = other(client);

  it.each([
    [400, 'messages.0: bad thing'],
    [401, 'invalid x-api-key'],
    [500, 'the provider broke'],
  ])('gets an upstream %i with its message', async (status, message) => {
    upstreamFails(status, message);
    const f = await failureOf(client, () => callThrough(client, gw.url, modelFor(target), false));
    expect(f.status).toBe(status);
    expect(f.message).toContain(message);
    if (client === 'bedrock-converse') expect(f.name).toBe({ 400: 'ValidationException', 401: 'UnrecognizedClientException', 500: 'InternalServerException' }[status]);
  });

  it('gets a 429 with its retry-after', async () => {
    upstreamFails(429, 'rate limited, slow down', { 'retry-after': '7' });
    const f = await failureOf(client, () => callThrough(client, gw.url, modelFor(target), false));
    expect(f.status).toBe(429);
    expect(f.message).toContain('rate limited, slow down');
    if (f.headers !== undefined) expect(f.headers.get('retry-after')).toBe('7');
  });

  it('never sees the upstream key, even when the provider quotes it back', async () => {
    upstreamFails(401, `Incorrect API key provided: ${UPSTREAM_KEY}.`);
    const f = await failureOf(client, () => callThrough(client, gw.url, modelFor(target === 'bedrock-converse' ? 'openai-chat' : target), false));
    expect(f.status).toBe(401);
    expect(f.message).toContain('Incorrect API key provided: ***');
    expect(f.message).not.toContain(UPSTREAM_KEY);
  });

  it("gets Anthropic's 529 overloaded with its status", async () => {
    upstream.respond = (_rec, res) => {
      res.writeHead(529, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
      return true;
    };
    const f = await failureOf(client, () => callThrough(client, gw.url, modelFor('anthropic-messages'), false));
    expect(f.status).toBe(529);
    expect(f.message).toContain('Overloaded');
  });

  it('gets 404 for a model no route matches', async () => {
    const f = await failureOf(client, () => callThrough(client, gw.url, 'no-such-model', false));
    expect(f.status).toBe(404);
    expect(f.message).toContain("no route for model 'no-such-model'");
    expect(upstream.received).toHaveLength(0);
  });

  it('gets 502 when the upstream is unreachable', async () => {
    const f = await failureOf(client, () => callThrough(client, gw.url, 'gone', false));
    expect(f.status).toBe(502);
    expect(f.message).toContain("upstream 'gone' is unreachable");
  });

  it('gets 504 when the upstream does not answer in time', async () => {
    upstream.respond = () => true; // never answers
    const f = await failureOf(client, () => callThrough(client, gw.url, 'slow', false));
    expect(f.status).toBe(504);
    expect(f.message).toContain("upstream 'slow' did not answer in time");
  });

  it('gets an error mid-stream as its stream error', async () => {
    // The upstream starts its stream, then fails with its own dialect's error event.
    upstream.respond = (rec, res) => {
      const chunks = streamChunks(rec.dialect);
      const e = { status: 500, message: 'upstream failed mid-stream' };
      const wire = streamErrorEvent(rec.dialect, e);
      res.writeHead(200, { 'content-type': rec.dialect === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream' });
      res.write(chunks[0]);
      res.end(rec.dialect === 'bedrock-converse' ? wireEventToMessage(wire) : formatSse(wire));
      return true;
    };
    const f = await failureOf(client, () => callThrough(client, gw.url, modelFor(target), true));
    expect(f.message).toContain('upstream failed mid-stream');
    if (client === 'bedrock-converse') expect(f.name).toBe('InternalServerException');
  });
});

describe('bad input gets an error in the client dialect and the server stays up', () => {
  const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Response> =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers, body });
  const PATHS: Record<Dialect, string> = {
    'openai-chat': '/v1/chat/completions',
    'openai-responses': '/v1/responses',
    'anthropic-messages': '/v1/messages',
    gemini: `/v1beta/models/${modelFor('openai-chat')}:generateContent`,
    'bedrock-converse': `/model/${modelFor('openai-chat')}/converse`,
  };

  it.each(DIALECTS)('%s: not JSON → 400, wrong content type → 415, oversized → 413, invalid body → 400 with JSON paths', async (d) => {
    const notJson = await post(PATHS[d], '{"model": ');
    expect(notJson.status).toBe(400);
    expect(decodeError(d, await notJson.json(), 400)?.message).toContain('not valid JSON');

    const wrongType = await post(PATHS[d], '{}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(decodeError(d, await wrongType.json(), 415)?.message).toContain('must be JSON');

    const big = await post(PATHS[d], JSON.stringify({ model: modelFor('openai-chat'), pad: 'x'.repeat(70 * 1024) }));
    expect(big.status).toBe(413);
    expect(decodeError(d, await big.json(), 413)?.message).toContain('larger than');

    const invalid = await post(PATHS[d], JSON.stringify({ model: modelFor('openai-chat'), messages: 'nope', contents: 'nope', input: 42 }));
    expect(invalid.status).toBe(400);
    const body = JSON.stringify(await invalid.json());
    expect(decodeError(d, JSON.parse(body), 400)?.message).toMatch(/not valid/);
    expect(body).toContain('"path"');
    expect(upstream.received).toHaveLength(0);
  });

  it('answers an unknown path with 404 in the dialect its path and headers suggest', async () => {
    const r = await fetch(`${gw.url}/v1/nothing-here`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(404);
    expect(decodeError('openai-chat', await r.json(), 404)?.message).toContain('no endpoint POST /v1/nothing-here');
    const g = await fetch(`${gw.url}/v1beta/models/x:countTokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(g.status).toBe(404);
    expect(decodeError('gemini', await g.json(), 404)?.message).toContain('no endpoint');
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
  });

  it('refuses a lossy call with 422 under x-interlingua-strict: 1, and counts losses otherwise', async () => {
    // Chat → Anthropic needs a max_tokens the Chat body did not give: a loss.
    const body = JSON.stringify({ model: modelFor('anthropic-messages'), messages: [{ role: 'user', content: 'hi' }] });
    const strict = await post('/v1/chat/completions', body, { 'content-type': 'application/json', 'x-interlingua-strict': '1' });
    expect(strict.status).toBe(422);
    expect(decodeError('openai-chat', await strict.json(), 422)?.message).toContain('would lose information');
    expect(upstream.received).toHaveLength(0);
    const lossy = await post('/v1/chat/completions', body);
    expect(lossy.status).toBe(200);
    expect(Number(lossy.headers.get('x-interlingua-losses'))).toBeGreaterThan(0);
  });
});
