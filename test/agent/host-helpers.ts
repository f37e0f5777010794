/** A gateway with the agent host on it, the recall model as its only upstream, for the agent endpoint tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { createGateway, type Gateway } from '../../src/gateway/app.js';
import { parseConfig } from '../../src/gateway/config.js';
import { recallUpstream } from './scripted-model.js';

export const EXAMPLES = resolve('examples/agents');
export const MODEL = 'local-model';

export interface TestHost {
  gateway: Gateway;
  /** Every body the model was sent, in order. */
  bodies: ReturnType<typeof recallUpstream>['bodies'];
  chat(body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'il-agent-')), 'memory.db');
}

export async function startHost(options: { store: string; source?: string; keys?: string[]; agents?: Record<string, unknown>; now?: () => number; upstream?: ReturnType<typeof recallUpstream> }): Promise<TestHost> {
  const upstream = options.upstream ?? recallUpstream();
  const config = parseConfig({
    upstreams: { local: { format: 'mock' } },
    routes: [{ model: MODEL, upstream: 'local' }],
    ...(options.keys === undefined ? {} : { keys: options.keys }),
    agents: { source: options.source ?? EXAMPLES, model: MODEL, ...options.agents, memory: { ...(options.agents?.['memory'] as object | undefined), store: options.store } },
  });
  const gateway = createGateway(config, { logger: pino({ level: process.env['TEST_LOG'] ?? 'silent' }), mockUpstream: () => upstream.handler, ...(options.now === undefined ? {} : { agentClock: options.now }) });
  await gateway.ready();
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    gateway.fetch(new Request(`http://host.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
  return {
    gateway,
    bodies: upstream.bodies,
    post,
    async chat(body, headers) {
      const res = await post('/chat', body, headers);
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    close: () => gateway.close(),
  };
}

/** All the text of one model call (system prompt included). */
export function sentText(body: { messages: { content?: unknown }[] } | undefined): string {
  return JSON.stringify(body?.messages ?? []);
}
