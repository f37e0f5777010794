/**
 * One model call through the gateway, whatever the client's dialect: key check → body → route →
 * memory turns → request translation → upstream call → answer (body, stream or error) back in
 * the client's dialect, with losses counted in a header, logged with the request id and measured.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { accumulateStream, type Loss, type WireEvent } from '../index.js';
import type { KeyCheck } from './auth.js';
import { readClientBody } from './body.js';
import { lazyChild } from './log.js';
import type { Dialect } from './config.js';
import { DIALECT_FACTS } from './dialects.js';
import { errorResponse, GatewayError, upstreamFailure } from './errors.js';
import { answerMessage, Continuity } from './memory.js';
import type { GatewayMetrics, Pair } from './metrics.js';
import { relayStream } from './relay.js';
import type { Router } from './routes.js';
import { translateRequest, translateResponse } from './translate.js';
import { transportError, upstreamPath, type UpstreamAnswer, type UpstreamClient } from './upstream.js';

export type MockHandler = (request: Request) => Promise<Response>;
export type Upstream = { kind: 'http'; client: UpstreamClient } | { kind: 'mock'; handler: MockHandler };

export interface PipelineContext {
  router: Router;
  keys: KeyCheck;
  upstreams: ReadonlyMap<string, Upstream>;
  memory: Continuity | undefined;
  metrics: GatewayMetrics;
  log: Logger;
  bodyLimit: number;
}

/** What the endpoint read from the path: the dialect, and the model and stream switch where the path holds them. */
export interface DialectCall {
  dialect: Dialect;
  pathModel?: string;
  pathStream?: boolean;
}

const FORWARDED_ANTHROPIC_HEADERS = ['anthropic-version', 'anthropic-beta'];

export async function handleModelCall(ctx: PipelineContext, call: DialectCall, req: Request): Promise<Response> {
  const started = performance.now();
  const requestId = randomUUID();
  const log = lazyChild(ctx.log, { requestId });
  const client = call.dialect;
  const pair: Pair = { client, upstream_format: 'none', upstream: 'none' };
  let stream = call.pathStream ?? false;
  const done = (status: number): void => {
    ctx.metrics.answered(pair, stream, status, (performance.now() - started) / 1000);
    if (ctx.log.isLevelEnabled('debug')) log.debug({ ...pair, stream, status, ms: Math.round(performance.now() - started) }, 'request done');
  };
  try {
    if (!ctx.keys.allows(req.headers, req.url)) throw new GatewayError(401, 'invalid or missing API key');
    const { bytes, json } = await readClientBody(req, ctx.bodyLimit);
    const model = call.pathModel ?? json['model'];
    if (typeof model !== 'string' || model === '') throw new GatewayError(400, 'the request names no model', undefined, {}, [{ code: 'missing_model', path: ['model'], message: 'a model is required' }]);
    stream = call.pathStream ?? json['stream'] === true;
    const routed = ctx.router.match(model);
    if (routed === undefined) throw new GatewayError(404, `no route for model '${model}'`);
    pair.upstream = routed.name;
    pair.upstream_format = routed.upstream.format;
    const upstream = ctx.upstreams.get(routed.name) as Upstream;
    const target: Dialect = upstream.kind === 'mock' ? client : (routed.upstream.format as Dialect);
    const strict = req.headers.get('x-interlingua-strict') === '1';

    const ref = ctx.memory === undefined ? undefined : Continuity.sessionOf(req.headers);
    let body = json;
    let changed = false;
    if (ref !== undefined && ctx.memory !== undefined) {
      const h = await ctx.memory.withHistory(client, json, ref);
      body = h.body;
      changed = h.added > 0;
    }
    const translated = translateRequest({ client, target, json: body, bytes, changed, clientModel: model, upstreamModel: routed.model, stream, strict, maxTextBytes: ctx.bodyLimit });
    const report = (losses: readonly Loss[], stage: string): void => {
      if (losses.length === 0) return;
      ctx.metrics.losses.inc(pair, losses.length);
      log.info({ stage, from: stage === 'request' ? client : target, to: stage === 'request' ? target : client, losses }, `${losses.length} conversion loss(es)`);
    };
    report(translated.losses, 'request');

    const abort = new AbortController();
    const onClientGone = (): void => abort.abort(req.signal.reason);
    if (req.signal.aborted) onClientGone();
    else req.signal.addEventListener('abort', onClientGone, { once: true });

    const headers: Record<string, string> = {};
    if (client === 'anthropic-messages' && target === client) {
      for (const h of FORWARDED_ANTHROPIC_HEADERS) {
        const v = req.headers.get(h);
        if (v !== null) headers[h] = v;
      }
    }
    const answer = await callUpstream(upstream, { target, model: routed.model, stream, body: translated.body, headers, signal: abort.signal });
    ctx.metrics.upstreamHeaders(pair, (performance.now() - started) / 1000);
    if (answer.status >= 400) throw upstreamFailure(target, answer.status, await readText(answer, routed.name), answer.headers, routed.upstream.apiKey);
    if (stream && (answer.headers.get('content-type') ?? '').includes('application/json')) {
      // Some providers answer a stream call that failed at once with a JSON error body and a 200.
      const failure = upstreamFailure(target, 502, await readText(answer, routed.name), answer.headers, routed.upstream.apiKey);
      throw new GatewayError(502, `upstream '${routed.name}' answered a stream call with a JSON body: ${failure.message}`, failure.type, failure.headers);
    }

    const out: Record<string, string> = { 'x-request-id': requestId, 'x-interlingua-losses': String(translated.losses.length) };
    const remember = async (message: () => ReturnType<typeof answerMessage>): Promise<void> => {
      if (ref === undefined || ctx.memory === undefined) return;
      try {
        await ctx.memory.record(client, json, message(), ref);
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'memory: the turn was not stored');
      }
    };

    if (!stream) {
      const text = await readText(answer, routed.name);
      req.signal.removeEventListener('abort', onClientGone);
      // Same dialect without memory: the provider's bytes go back unread.
      if (target === client && ref === undefined) {
        done(200);
        return new Response(text, { status: 200, headers: { 'content-type': 'application/json', ...out } });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new GatewayError(502, `upstream '${routed.name}' answered with a body that is not JSON`);
      }
      let value: string = text;
      let losses: Loss[] = [];
      if (target !== client) {
        const r = translateResponse(target, client, parsed, strict);
        value = JSON.stringify(r.value);
        losses = r.losses;
        report(losses, 'response');
        parsed = r.value;
      }
      out['x-interlingua-losses'] = String(translated.losses.length + losses.length);
      await remember(() => answerMessage(client, parsed));
      done(200);
      return new Response(value, { status: 200, headers: { 'content-type': 'application/json', ...out } });
    }

    const streamLosses: Loss[] = [];
    const askedUsage = (json['stream_options'] as { include_usage?: unknown } | undefined)?.include_usage === true;
    const body$ = relayStream(answer.chunks, {
      from: target,
      to: client,
      includeUsage: client !== 'openai-chat' || askedUsage,
      strict,
      collect: ref !== undefined,
      onLoss: (loss) => streamLosses.push(loss),
      transportError: (err) => transportError(routed.name, err),
      abort: (reason) => abort.abort(reason),
      onEnd: async ({ events, error }) => {
        req.signal.removeEventListener('abort', onClientGone);
        report(streamLosses, 'stream');
        if (error !== undefined) log.warn({ status: error.status, message: error.message }, 'stream ended with an error');
        done(error?.status ?? 200);
        if (error === undefined) await remember(() => streamAnswer(events, target));
      },
    });
    return new Response(body$, { status: 200, headers: { 'content-type': DIALECT_FACTS[client].streamContentType, 'cache-control': 'no-cache', ...out } });
  } catch (err) {
    const ge = asGatewayError(err, req);
    if (ge.status >= 500) log.error({ status: ge.status, err: ge.message, stack: ge.status === 500 ? (err as Error).stack : undefined }, 'request failed');
    else log.info({ status: ge.status, err: ge.message }, 'request refused');
    done(ge.status);
    return errorResponse(client, ge, { 'x-request-id': requestId });
  }
}

function streamAnswer(events: WireEvent[], format: Dialect): ReturnType<typeof answerMessage> {
  return accumulateStream(events, { from: format, to: format }).response.choices[0]?.message;
}

function asGatewayError(err: unknown, req: Request): GatewayError {
  if (err instanceof GatewayError) return err;
  if (req.signal.aborted) return new GatewayError(499, 'client closed the request');
  return new GatewayError(500, `internal error: ${(err as Error)?.message ?? String(err)}`);
}

interface Outgoing {
  target: Dialect;
  model: string;
  stream: boolean;
  body: string | Uint8Array;
  headers: Record<string, string>;
  signal: AbortSignal;
}

async function callUpstream(upstream: Upstream, o: Outgoing): Promise<UpstreamAnswer> {
  if (upstream.kind === 'http') return upstream.client.call({ model: o.model, stream: o.stream, body: o.body, headers: o.headers, signal: o.signal });
  // The mock answers in whatever dialect it is called through: the client's own, on its real path.
  const path = DIALECT_FACTS[o.target].pathPrefix + upstreamPath(o.target, o.model, o.stream);
  const res = await upstream.handler(new Request(`http://mock.invalid${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...o.headers }, body: o.body as BodyInit, signal: o.signal }));
  return { status: res.status, headers: res.headers, chunks: (res.body ?? new ReadableStream({ start: (c) => c.close() })) as unknown as AsyncIterable<Uint8Array>, text: () => res.text() };
}

async function readText(answer: UpstreamAnswer, upstream: string): Promise<string> {
  try {
    return await answer.text();
  } catch (err) {
    throw transportError(upstream, (err as { cause?: unknown }).cause ?? err);
  }
}
