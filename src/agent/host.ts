/**
 * The agent host: the generic loader at work. For each call it checks the ids, loads the agent's
 * module, takes the session's lock (one turn at a time per session, across processes when the
 * store can lock), and calls the agent's `invoke` (or `stream`) with the payload, a context bound to
 * the gateway, and the injected memory hooks and session state. Memory is the host's: agents never
 * open a store. Endpoints (src/gateway/agent-*.ts) sit on `invoke` and `stream`.
 */
import { randomUUID } from 'node:crypto';
import { checkId, createMemoryHooks, openMemory, openStoreLock, sessionIds, type Memory, type MemoryHooks } from '../memory/index.js';
import { InterlinguaError, ValidationError } from '../model/errors.js';
import type { StreamEvent } from '../model/stream-event.js';
import type { AgentsConfig } from './config.js';
import { makeContext, makeInjected, type AgentContext, type Channel } from './context.js';
import { gatewayModelClient, type FetchLike } from './gateway-client.js';
import { createLoader, type AgentLoader, type LoadedAgent } from './loader.js';
import type { ModelClient } from './model-client.js';
import { SessionLocks } from './session-lock.js';

export const INTERNAL_BASE_URL = 'http://interlingua.internal';

export interface AgentCall {
  agentId: string;
  userId: string;
  actorId?: string | undefined;
  sessionId?: string | undefined;
  /** What the agent's `invoke` gets first: `prompt` / `question` and `messages` as the endpoint read them. */
  payload: Record<string, unknown>;
  channel: Channel;
  requestId?: string;
  signal?: AbortSignal;
}

export interface Session {
  agentId: string;
  actorId: string;
  sessionId: string;
  requestId: string;
}

export interface AgentOutcome extends Session {
  output: unknown;
}

/** The agent threw or answered with something that is not `{ output }`; the details are logged, not sent. */
export class AgentFailure extends InterlinguaError {
  constructor(readonly requestId: string, readonly detail: unknown) {
    super('agent_failed', `the agent failed (request ${requestId})`);
    this.name = 'AgentFailure';
  }
}

export interface HostOptions {
  /** The gateway's fetch handler: agents' model calls go through it in process. */
  fetch: FetchLike;
  /** Headers for those calls (the gateway key when keys are configured). */
  gatewayHeaders?: Record<string, string>;
  /** The store's clock (tests). */
  now?: () => number;
  /** Called with an agent's error and the request id (the log). */
  onAgentError?: (requestId: string, error: unknown) => void;
}

export class AgentHost {
  readonly models: ModelClient;

  private constructor(
    readonly config: AgentsConfig,
    readonly memory: Memory,
    readonly hooks: MemoryHooks,
    private readonly loader: AgentLoader,
    private readonly locks: SessionLocks,
    private readonly options: HostOptions,
  ) {
    this.models = gatewayModelClient(options.fetch, { baseUrl: INTERNAL_BASE_URL, ...(options.gatewayHeaders === undefined ? {} : { headers: options.gatewayHeaders }) });
  }

  static async open(config: AgentsConfig, options: HostOptions): Promise<AgentHost> {
    const memory = await openMemory(config.memory.store, { expiryDays: config.memory.expiryDays, ...(options.now === undefined ? {} : { now: options.now }) });
    try {
      const lock = await openStoreLock(config.memory.store, { timeoutMs: config.lock.timeoutMs, ttlMs: config.lock.ttlMs });
      const hooks = createMemoryHooks(memory, { k: config.memory.turns });
      return new AgentHost(config, memory, hooks, createLoader(config.source), new SessionLocks(lock), options);
    } catch (err) {
      await memory.close().catch(() => undefined);
      throw err;
    }
  }

  /** The call's ids, checked as AgentCore checks them: actor defaults to the user, session to `<user>_<agent>_default`. */
  session(call: Pick<AgentCall, 'agentId' | 'userId' | 'actorId' | 'sessionId' | 'requestId'>): Session {
    if (typeof call.userId !== 'string' || call.userId === '') throw new ValidationError([{ code: 'missing_field', path: ['user_id'], message: 'user_id is required' }]);
    let ids;
    try {
      ids = sessionIds({ userId: call.userId, agentId: call.agentId, ...(call.sessionId === undefined ? {} : { sessionId: call.sessionId }) });
    } catch (err) {
      // Name the fields as the API spells them.
      if (err instanceof ValidationError) throw new ValidationError(err.issues.map((i) => ({ ...i, path: i.path.map((p) => (p === 'userId' ? 'user_id' : p === 'agentId' ? 'agent_id' : p === 'sessionId' ? 'session_id' : p)) })));
      throw err;
    }
    let actorId = ids.actorId;
    if (call.actorId !== undefined) {
      try {
        actorId = checkId('actorId', call.actorId);
      } catch (err) {
        if (err instanceof ValidationError) throw new ValidationError(err.issues.map((i) => ({ ...i, path: ['actor_id'] })));
        throw err;
      }
    }
    return { agentId: call.agentId, actorId, sessionId: ids.sessionId, requestId: call.requestId ?? randomUUID() };
  }

  private context(call: AgentCall, s: Session): AgentContext {
    const headers = this.options.gatewayHeaders ?? {};
    const fetch = this.options.fetch;
    return makeContext({
      agentId: s.agentId,
      userId: call.userId,
      actorId: s.actorId,
      sessionId: s.sessionId,
      requestId: s.requestId,
      channel: call.channel,
      model: this.config.model,
      maxSteps: this.config.maxSteps,
      models: this.models,
      fetch: async (input, init) => {
        const req = new globalThis.Request(input, init);
        for (const [k, v] of Object.entries(headers)) req.headers.set(k, v);
        return fetch(req);
      },
      baseUrl: INTERNAL_BASE_URL,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    });
  }

  private fail(requestId: string, err: unknown): never {
    this.options.onAgentError?.(requestId, err);
    throw new AgentFailure(requestId, err);
  }

  /** The agent's module (for its card), as the loader finds it. */
  loadAgent(agentId: string, userId: string): Promise<LoadedAgent> {
    return this.loader.load(agentId, userId);
  }

  /** Runs one turn: the agent's `invoke`, the session locked throughout. */
  async invoke(call: AgentCall): Promise<AgentOutcome> {
    const s = this.session(call);
    const loaded = await this.loader.load(s.agentId, call.userId);
    const state = { actor_id: s.actorId, session_id: s.sessionId };
    const release = await this.locks.acquire(s.actorId, s.sessionId);
    try {
      let result: unknown;
      try {
        result = await loaded.module.invoke(call.payload, this.context(call, s), makeInjected(this.memory, this.hooks, this.config.memory.turns, state));
      } catch (err) {
        this.fail(s.requestId, err);
      }
      if (typeof result !== 'object' || result === null || !('output' in result)) this.fail(s.requestId, new Error(`${loaded.location}: invoke returned no { output }`));
      return { ...s, output: (result as { output: unknown }).output };
    } finally {
      await release();
    }
  }

  /**
   * Runs one turn as canonical stream events: the agent's `stream` when it has one, else its
   * `invoke` answer as one text block. The session is locked from the first read to the end. An agent
   * error ends the stream with an `error` event (its message stays in the log).
   */
  async stream(call: AgentCall): Promise<{ session: Session; events: AsyncGenerator<StreamEvent, void> }> {
    const s = this.session(call);
    const loaded = await this.loader.load(s.agentId, call.userId);
    const state = { actor_id: s.actorId, session_id: s.sessionId };
    const host = this;
    // The lock is taken when the stream is first read, so a stream never read holds nothing.
    async function* events(): AsyncGenerator<StreamEvent, void> {
      let ended = false;
      let started = false;
      const release = await host.locks.acquire(s.actorId, s.sessionId);
      try {
        const injected = makeInjected(host.memory, host.hooks, host.config.memory.turns, state);
        const ctx = host.context(call, s);
        const mod = loaded.module;
        if (typeof mod.stream === 'function') {
          const it = (await mod.stream(call.payload, ctx, injected)) as AsyncIterable<StreamEvent>;
          for await (const e of it) {
            if (e.type === 'response-end' || e.type === 'error') ended = true;
            started = true;
            yield e;
            if (ended) break;
          }
        } else {
          const result = (await mod.invoke(call.payload, ctx, injected)) as { output?: unknown } | null;
          if (typeof result !== 'object' || result === null || !('output' in result)) throw new Error(`${loaded.location}: invoke returned no { output }`);
          const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
          yield* outputEvents(text);
          ended = true;
        }
        if (!ended) throw new Error(`${loaded.location}: the stream ended without response-end`);
      } catch (err) {
        host.options.onAgentError?.(s.requestId, err);
        // A run opens before it fails, so clients see a run that errored (AG-UI RUN_STARTED, A2A's task).
        if (!started) yield { type: 'response-start' };
        if (!ended) yield { type: 'error', error: { message: `the agent failed (request ${s.requestId})`, type: 'agent_failed' } };
      } finally {
        await release();
      }
    }
    return { session: s, events: events() };
  }

  async close(): Promise<void> {
    await this.locks.close();
    await this.memory.close();
  }
}

/** An answer given whole, as a stream. */
export function* outputEvents(text: string): Generator<StreamEvent> {
  yield { type: 'response-start' };
  yield { type: 'text-start', index: 0 };
  if (text !== '') yield { type: 'text-delta', index: 0, delta: text };
  yield { type: 'text-end', index: 0 };
  yield { type: 'finish', stopReason: { unified: 'stop' } };
  yield { type: 'response-end' };
}
