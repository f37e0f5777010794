/**
 * What the loader hands an agent besides its payload: the `context` (who and which conversation,
 * the gateway as a model client and as a fetch function, and the Agent kit, so an agent module needs
 * no imports of its own) and the injected `{ hooks, state }` (memory hooks bound to the loader's
 * store, the session state `{ actor_id, session_id }`, and a Strands memory plugin on request).
 */
import { z } from 'zod';
import type { Memory, MemoryHooks } from '../memory/index.js';
import { Agent, type AgentOptions } from './agent.js';
import type { AgentState } from './hooks.js';
import type { ModelClient } from './model-client.js';
import { tool } from './tool.js';

export type Channel = 'chat' | 'execute' | 'a2a' | 'ag-ui';

export interface AgentContext {
  agentId: string;
  userId: string;
  actorId: string;
  sessionId: string;
  requestId: string;
  /** Which endpoint the call came through. */
  channel: Channel;
  /** The configured default model name (agents.model), if any. */
  model: string | undefined;
  /** The gateway's routes as a ModelClient (in process). */
  models: ModelClient;
  /** The gateway's routes as a fetch function and the base URL to use with it (for SDKs that take a fetch, e.g. OpenAI's). */
  fetch: (input: string | URL | globalThis.Request, init?: RequestInit) => Promise<globalThis.Response>;
  baseUrl: string;
  /** An Agent on the gateway: model defaults to `context.model`, client to `context.models`. */
  createAgent(options: Partial<AgentOptions>): Agent;
  Agent: typeof Agent;
  tool: typeof tool;
  z: typeof z;
  signal?: AbortSignal;
}

export interface Injected {
  /** The memory hook provider bound to the loader's store (createMemoryHooks). */
  hooks: MemoryHooks;
  state: AgentState;
  /** The same memory as a Strands plugin for this session (needs @strands-agents/sdk). */
  strandsMemory(options?: { inject?: 'messages' | 'system-prompt' | 'both' }): Promise<unknown>;
}

/** What makeContext is given: the context's data fields, and the step limit createAgent applies. */
export type ContextInput = Pick<AgentContext, 'agentId' | 'userId' | 'actorId' | 'sessionId' | 'requestId' | 'channel' | 'model' | 'models' | 'fetch' | 'baseUrl' | 'signal'> & {
  maxSteps: number | undefined;
};

export function makeContext(c: ContextInput): AgentContext {
  const ctx: AgentContext = {
    agentId: c.agentId,
    userId: c.userId,
    actorId: c.actorId,
    sessionId: c.sessionId,
    requestId: c.requestId,
    channel: c.channel,
    model: c.model,
    models: c.models,
    fetch: c.fetch,
    baseUrl: c.baseUrl,
    createAgent(options) {
      const model = options.model ?? c.model;
      if (model === undefined) throw new Error('createAgent: no model given and agents.model is not configured');
      return new Agent({ ...(c.maxSteps === undefined ? {} : { maxSteps: c.maxSteps }), ...options, model, client: options.client ?? c.models });
    },
    Agent,
    tool,
    z,
  };
  if (c.signal !== undefined) ctx.signal = c.signal;
  return ctx;
}

export function makeInjected(memory: Memory, hooks: MemoryHooks, turns: number, state: AgentState): Injected {
  return {
    hooks,
    state,
    async strandsMemory(options = {}) {
      const { strandsMemory } = await import('../memory/adapters/strands.js');
      return strandsMemory(memory, { actorId: state.actor_id, sessionId: state.session_id }, { k: turns, ...options });
    },
  };
}
