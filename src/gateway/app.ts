/**
 * The gateway as a Web fetch handler (Hono): the dialect endpoints, `GET /v1/models`, `/healthz`
 * and `/metrics`, and an error in the caller's dialect for any path no endpoint serves. Runtime
 * neutral: server.ts puts it on Node's HTTP/1.1 and h2c.
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { KeyCheck } from './auth.js';
import { mountAgentHost } from './agent-routes.js';
import { DEFAULT_BODY_LIMIT, type Dialect, type GatewayConfig, type UpstreamConfig } from './config.js';
import { guessDialect, modelList, mountDialectEndpoints } from './endpoints.js';
import { errorResponse, GatewayError } from './errors.js';
import { createLogger } from './log.js';
import { Continuity } from './memory.js';
import { GatewayMetrics } from './metrics.js';
import { createMockUpstream, type MockUpstreamOptions } from './mock-upstream.js';
import { handleModelCall, type MockHandler, type PipelineContext, type Upstream } from './pipeline.js';
import { Router } from './routes.js';
import { createAgent, UpstreamClient, type UpstreamOptions } from './upstream.js';
import { mountPlayground } from '../playground/mount.js';

export interface GatewayOptions extends UpstreamOptions {
  logger?: Logger;
  /** Makes the handler of a `format: mock` upstream (default: the library's mock upstream). */
  mockUpstream?: (options: MockUpstreamOptions) => MockHandler;
  /** The agent host's memory clock (tests). */
  agentClock?: () => number;
}

export interface Gateway {
  fetch(req: Request): Promise<Response>;
  /** Resolves once stores are open (rejects with the start-up error, e.g. an unreachable memory store). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function mockOptions(u: UpstreamConfig): MockUpstreamOptions {
  const o: MockUpstreamOptions = {};
  if (u.error !== undefined) o.error = { status: u.error.status, message: u.error.message, ...(u.error.type === undefined ? {} : { type: u.error.type }) };
  if (u.latency_ms !== undefined) o.latencyMs = u.latency_ms;
  return o;
}

export function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Gateway {
  const log = options.logger ?? createLogger(config.log_level);
  const metrics = new GatewayMetrics();
  const router = new Router(config);
  const agent = createAgent();
  const keys = new KeyCheck(config.keys);

  const setup = (async (): Promise<PipelineContext> => {
    const upstreams = new Map<string, Upstream>();
    const mockFactory = options.mockUpstream ?? createMockUpstream;
    for (const [name, u] of Object.entries(config.upstreams)) {
      if (u.format === 'mock') {
        upstreams.set(name, { kind: 'mock', handler: mockFactory(mockOptions(u)) });
      } else {
        upstreams.set(name, { kind: 'http', client: new UpstreamClient(name, { ...u, format: u.format }, agent, options) });
      }
    }
    const memory = await Continuity.open(config.memory);
    return { router, keys, upstreams, memory, metrics, log, bodyLimit: config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT };
  })();
  setup.catch(() => undefined); // reported by ready() and by each request

  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/metrics', async (c) => {
    const { body, contentType } = await metrics.text();
    return c.body(body, 200, { 'content-type': contentType });
  });
  const listModels = (dialect: Dialect, req: Request): Response => {
    if (!keys.allows(req.headers, req.url)) return errorResponse(dialect, new GatewayError(401, 'invalid or missing API key'));
    return Response.json(modelList(dialect, router.listedModels()));
  };
  app.get('/v1/models', (c) => listModels(guessDialect(c.req.raw) === 'anthropic-messages' ? 'anthropic-messages' : 'openai-chat', c.req.raw));
  app.get('/v1beta/models', (c) => listModels('gemini', c.req.raw));
  mountDialectEndpoints(app, async (call, req) => handleModelCall(await setup, call, req));
  // Browsing memory needs no key, so only a keyless (loopback-only) gateway offers it.
  const playground = mountPlayground(app, config.memory && (config.keys ?? []).length === 0 ? { memory: config.memory.store } : {});
  const agents =
    config.agents === undefined
      ? undefined
      : mountAgentHost({ section: config.agents, app, keys, keyList: config.keys, log, bodyLimit: config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT, ...(options.agentClock === undefined ? {} : { now: options.agentClock }) });
  app.notFound((c) => {
    const req = c.req.raw;
    return errorResponse(guessDialect(req), new GatewayError(404, `no endpoint ${req.method} ${new URL(req.url).pathname} (see the README's gateway section for the paths served)`));
  });
  app.onError((err, c) => {
    const ge = err instanceof GatewayError ? err : new GatewayError(500, `internal error: ${err.message}`);
    if (ge.status >= 500) log.error({ err: err.message, stack: err.stack }, 'unhandled error');
    return errorResponse(guessDialect(c.req.raw), ge);
  });

  return {
    fetch: async (req) => app.fetch(req),
    ready: async () => {
      await setup;
      await agents?.ready();
    },
    close: async () => {
      await agent.close();
      await agents?.close();
      const ctx = await setup.catch(() => undefined);
      await ctx?.memory?.close();
      await playground.close();
      log.flush();
    },
  };
}
