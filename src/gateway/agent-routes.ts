/**
 * The agent host on the gateway: opens the host (memory store, store lock, loader) when the
 * gateway starts and mounts its endpoints — /chat, the execute API, A2A and AG-UI. Agents' model
 * calls go to the gateway's own fetch handler, in process, with the gateway's first key.
 */
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { parseAgentsConfig } from '../agent/config.js';
import { AgentHost } from '../agent/host.js';
import type { KeyCheck } from './auth.js';
import { describe, type AgentEndpoints } from './agent-common.js';
import { mountAgentA2a } from './agent-a2a.js';
import { mountAgentAgUi } from './agent-ag-ui.js';
import { mountAgentChat } from './agent-chat.js';
import { mountAgentExecute } from './agent-execute.js';

export interface AgentRoutesOptions {
  /** The `agents:` section as configured. */
  section: unknown;
  app: Hono;
  keys: KeyCheck;
  /** The gateway's configured keys (the first is used for agents' model calls). */
  keyList: readonly string[] | undefined;
  log: Logger;
  bodyLimit: number;
  /** The store's clock (tests). */
  now?: () => number;
}

/** Mounts the endpoints; the returned object opens nothing until `ready` / the first call, and closes the host. */
export function mountAgentHost(o: AgentRoutesOptions): { ready(): Promise<void>; close(): Promise<void> } {
  const config = parseAgentsConfig(o.section);
  const key = o.keyList?.[0];
  const opening = AgentHost.open(config, {
    fetch: async (req) => o.app.fetch(req),
    ...(key === undefined ? {} : { gatewayHeaders: { authorization: `Bearer ${key}` } }),
    ...(o.now === undefined ? {} : { now: o.now }),
    onAgentError: (requestId, err) => o.log.error({ requestId, err: describe(err) }, 'agent failed'),
  });
  opening.catch(() => undefined); // reported by ready() and by each call
  const ep: AgentEndpoints = { host: () => opening, keys: o.keys, userHeader: config.userHeader, log: o.log, bodyLimit: o.bodyLimit };
  mountAgentChat(o.app, ep);
  mountAgentExecute(o.app, ep);
  mountAgentA2a(o.app, ep);
  mountAgentAgUi(o.app, ep);
  return {
    ready: async () => {
      await opening;
    },
    close: async () => {
      const host = await opening.catch(() => undefined);
      await host?.close();
    },
  };
}
