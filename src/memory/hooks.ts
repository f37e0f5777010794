/**
 * Memory hooks (issue 5, "Hooks"): the source design's memory architecture for agents.
 * - `onAgentInitialized({ actorId, sessionId, format })`: the session's last k turns, as messages in
 *   `format`'s message shape and as the prompt text `Recent conversation:` + one line per message
 *   (prompt.ts says how non-text looks). An empty session gives no messages and prompt ''.
 * - `onMessageAdded({ actorId, sessionId, message, format })`: stores that one message, whole (text,
 *   tool calls, tool results, reasoning ...), as one event. A system message is not stored and comes
 *   back as a `system-message` loss.
 * Both take `{ userId, agentId, sessionId? }` in place of `{ actorId, sessionId }` (see sessionIds).
 *
 * One message at a time meets the formats' conversation rules: a tool result must answer a call of
 * the message before it (every format but AG-UI), a Converse conversation starts with a user
 * message. So a message its format refuses alone is decoded again after the session's last turn as
 * stored (in the same format) — the conversation it belongs to — and only it is kept. If it is
 * refused there too, the first error is thrown, naming the message's own fields.
 *
 * `recent` and `store` are the same two steps on canonical messages, for adapters that map their
 * own message shape (adapters/strands.ts, adapters/vercel-ai.ts).
 */
import { UsageError, ValidationError, type Issue } from '../model/errors.js';
import type { Loss } from '../model/loss.js';
import type { Message } from '../model/message.js';
import { checkId } from './ids.js';
import { appendMessages, decodeMessages, encodeMessages, readsHints, recallMessages, type AppendResult, type Memory, type RecallOptions } from './messages.js';
import { pendingCallContexts } from './pending-calls.js';
import { conversationPrompt } from './prompt.js';
import { DEFAULT_TURNS } from './store.js';

/** Who and which conversation: AgentCore's ids, or the user and agent they are made from. */
export type SessionRef = { actorId: string; sessionId: string } | { userId: string; agentId: string; sessionId?: string };

export interface SessionIds {
  actorId: string;
  sessionId: string;
}

export interface MemoryHooksOptions {
  /** Turns loaded on start (a turn starts at a user message); default 10. */
  k?: number;
}

export interface Loaded {
  /** The last k turns in the format's message shape, oldest first. */
  messages: unknown[];
  /** `Recent conversation:` and one line per message; '' for an empty session. */
  prompt: string;
  losses: Loss[];
}

export interface LoadedCanonical {
  messages: Message[];
  prompt: string;
  losses: Loss[];
}

export interface MemoryHooks {
  readonly k: number;
  onAgentInitialized(options: SessionRef & { format: string }): Promise<Loaded>;
  onMessageAdded(options: SessionRef & { message: unknown; format: string }): Promise<AppendResult>;
  /**
   * The last k turns as canonical messages, with their prompt text. `{ verbatim: false }` when the
   * messages are only read as text or encoded to a format that reads no hints (see RecallOptions).
   */
  recent(session: SessionRef, options?: RecallOptions): Promise<LoadedCanonical>;
  /** Stores canonical messages, one event each (system messages reported, not stored). */
  store(session: SessionRef, messages: readonly Message[]): Promise<AppendResult>;
}

function rethrowAs(field: string, what: string, error: unknown): never {
  if (!(error instanceof ValidationError)) throw error;
  throw new ValidationError(error.issues.map((i): Issue => ({ ...i, path: [field], message: `${what}: ${i.message}` })));
}

/**
 * The source design's identifiers: the actor is the user, the session `<userId>_<agentId>_default`
 * unless one is given. Each is checked as AgentCore checks it; an error names the field given
 * (`userId`, `agentId` when the session made from it is not a valid sessionId, `sessionId`).
 */
export function sessionIds(ids: { userId: string; agentId: string; sessionId?: string }): SessionIds {
  if (typeof ids !== 'object' || ids === null) throw new UsageError('sessionIds takes { userId, agentId, sessionId? }');
  let actorId: string;
  try {
    actorId = checkId('actorId', ids.userId);
  } catch (e) {
    rethrowAs('userId', 'userId (the actorId)', e);
  }
  if (ids.sessionId !== undefined) {
    try {
      return { actorId, sessionId: checkId('sessionId', ids.sessionId) };
    } catch (e) {
      rethrowAs('sessionId', 'sessionId', e);
    }
  }
  if (typeof ids.agentId !== 'string' || ids.agentId === '') {
    throw new ValidationError([{ code: 'invalid_identifier', path: ['agentId'], message: 'agentId must be a non-empty string' }]);
  }
  const sessionId = `${actorId}_${ids.agentId}_default`;
  try {
    return { actorId, sessionId: checkId('sessionId', sessionId) };
  } catch (e) {
    rethrowAs('agentId', `the default session id made from userId and agentId (${JSON.stringify(sessionId.slice(0, 60))}) is not a valid sessionId; pass sessionId`, e);
  }
}

/** `{ actorId, sessionId }` from either form of a SessionRef. */
export function resolveSession(ref: SessionRef, call: string): SessionIds {
  if (typeof ref !== 'object' || ref === null) throw new UsageError(`${call} takes { actorId, sessionId } or { userId, agentId, sessionId? }`);
  const r = ref as Partial<{ actorId: string; sessionId: string; userId: string; agentId: string }>;
  const byActor = r.actorId !== undefined;
  const byUser = r.userId !== undefined || r.agentId !== undefined;
  if (byActor && byUser) throw new UsageError(`${call}: give { actorId, sessionId } or { userId, agentId }, not both`);
  if (byUser) return sessionIds(ref as { userId: string; agentId: string; sessionId?: string });
  if (!byActor || r.sessionId === undefined) throw new UsageError(`${call} takes { actorId, sessionId } or { userId, agentId, sessionId? }`);
  return { actorId: r.actorId as string, sessionId: r.sessionId };
}

export function createMemoryHooks(mem: Memory, options: MemoryHooksOptions = {}): MemoryHooks {
  const k = options.k ?? DEFAULT_TURNS;
  if (!Number.isInteger(k) || k < 1) throw new UsageError(`createMemoryHooks: k must be a whole number of turns, at least 1 (got ${String(k)})`);

  async function load(session: SessionRef, verbatim: boolean): Promise<LoadedCanonical> {
    const { actorId, sessionId } = resolveSession(session, 'recent');
    const r = await recallMessages(mem, actorId, sessionId, k, { verbatim });
    return { messages: r.messages, prompt: conversationPrompt(r.messages), losses: r.losses };
  }

  async function recent(session: SessionRef, options: RecallOptions = {}): Promise<LoadedCanonical> {
    return load(session, options.verbatim !== false);
  }

  async function store(session: SessionRef, messages: readonly Message[]): Promise<AppendResult> {
    const { actorId, sessionId } = resolveSession(session, 'store');
    return appendMessages(mem, actorId, sessionId, messages);
  }

  async function onAgentInitialized(opts: SessionRef & { format: string }): Promise<Loaded> {
    // Encoded to `format` and shown as text (which reads no hints).
    const loaded = await load(opts, readsHints(opts.format));
    const shaped = encodeMessages(loaded.messages, opts.format, 'onAgentInitialized');
    return { messages: shaped.messages, prompt: loaded.prompt, losses: [...loaded.losses, ...shaped.losses] };
  }

  /** The message decoded alone, or after the session's last turn when its format needs that. */
  async function decodeOne(ids: SessionIds, message: unknown, format: string): Promise<{ messages: Message[]; losses: Loss[] }> {
    try {
      return decodeMessages([message], format, 'onMessageAdded');
    } catch (alone) {
      if (!(alone instanceof ValidationError)) throw alone;
      const last = await recallMessages(mem, ids.actorId, ids.sessionId, 1, { verbatim: readsHints(format) });
      if (last.messages.length === 0) throw alone;
      for (const turn of [last.messages, ...pendingCallContexts(last.messages)]) {
        const decoded = decodeAfter(turn, message, format);
        if (decoded !== undefined) return decoded;
      }
      throw alone;
    }
  }

  /** `message` decoded after `turn` (both in `format`), or undefined when the format refuses it there too. */
  function decodeAfter(turn: Message[], message: unknown, format: string): { messages: Message[]; losses: Loss[] } | undefined {
    let before: Message[];
    let after: { messages: Message[]; losses: Loss[] };
    const context = encodeMessages(turn, format, 'onMessageAdded').messages;
    try {
      before = decodeMessages(context, format, 'onMessageAdded').messages;
      after = decodeMessages([...context, message], format, 'onMessageAdded');
    } catch {
      return undefined;
    }
    if (after.messages.length <= before.length) return undefined;
    // Losses about the new message only, with its path as if it had been decoded alone.
    const at = context.length;
    const losses = after.losses.filter((l) => l.path[1] === at).map((l) => ({ ...l, path: [l.path[0] as string, 0, ...l.path.slice(2)] }));
    return { messages: after.messages.slice(before.length), losses };
  }

  async function onMessageAdded(opts: SessionRef & { message: unknown; format: string }): Promise<AppendResult> {
    const ids = resolveSession(opts, 'onMessageAdded');
    const decoded = await decodeOne(ids, opts.message, opts.format);
    const r = await appendMessages(mem, ids.actorId, ids.sessionId, decoded.messages);
    return { events: r.events, losses: [...decoded.losses, ...r.losses] };
  }

  return { k, onAgentInitialized, onMessageAdded, recent, store };
}
