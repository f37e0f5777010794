/**
 * Conversation continuity across requests: a request naming `x-interlingua-actor` and
 * `x-interlingua-session` gets the session's last turns placed before its own messages (in the
 * client's message shape, so they then travel the same way as the rest of the body), and once the
 * answer is complete the request's own messages and the assistant's answer are appended (a client
 * of a memory session sends only what is new: its message, or tool calls with their results). Without both
 * headers nothing is read or stored.
 */
import { decode, type Message, type Response as CanonicalResponse } from '../index.js';
import { appendMessages, decodeMessages, encodeMessages, openMemory, readsHints, recallMessages, type Memory } from '../memory/index.js';
import type { Dialect, GatewayConfig } from './config.js';
import { DIALECT_FACTS } from './dialects.js';
import { GatewayError } from './errors.js';

export interface SessionRef {
  actorId: string;
  sessionId: string;
}

export const ACTOR_HEADER = 'x-interlingua-actor';
export const SESSION_HEADER = 'x-interlingua-session';

const LEADING_INSTRUCTION_ROLES = new Set(['system', 'developer']);

export class Continuity {
  private constructor(
    private readonly memory: Memory,
    private readonly turns: number,
  ) {}

  static async open(config: GatewayConfig['memory']): Promise<Continuity | undefined> {
    if (config === undefined) return undefined;
    return new Continuity(await openMemory(config.store), config.turns);
  }

  /** The session a request names, or undefined (then memory is not touched); one header alone is an error. */
  static sessionOf(headers: Headers): SessionRef | undefined {
    const actorId = headers.get(ACTOR_HEADER);
    const sessionId = headers.get(SESSION_HEADER);
    if (actorId === null && sessionId === null) return undefined;
    if (actorId === null || sessionId === null) throw new GatewayError(400, `memory needs both ${ACTOR_HEADER} and ${SESSION_HEADER} headers`);
    return { actorId, sessionId };
  }

  /** The body with the session's last turns before its own messages (after leading system messages). */
  async withHistory(dialect: Dialect, body: Record<string, unknown>, ref: SessionRef): Promise<{ body: Record<string, unknown>; added: number }> {
    let recalled: unknown[];
    try {
      // Canonical first: an empty session adds nothing (encoding no messages would give a placeholder).
      const canonical = (await recallMessages(this.memory, ref.actorId, ref.sessionId, this.turns, { verbatim: readsHints(dialect) })).messages;
      if (canonical.length === 0) return { body, added: 0 };
      recalled = encodeMessages(canonical, dialect).messages;
    } catch (err) {
      throw memoryError(err);
    }
    const key = DIALECT_FACTS[dialect].messagesKey;
    const own = ownMessages(body[key]);
    let at = 0;
    if (dialect === 'openai-chat' || dialect === 'openai-responses') {
      while (at < own.length && LEADING_INSTRUCTION_ROLES.has(String((own[at] as { role?: unknown } | null)?.role))) at++;
    }
    return { body: { ...body, [key]: [...own.slice(0, at), ...recalled, ...own.slice(at)] }, added: recalled.length };
  }

  /** Appends the request's own messages (the session holds what came before) and the answer's message (canonical) to the session. */
  async record(dialect: Dialect, originalBody: Record<string, unknown>, answer: Message | undefined, ref: SessionRef): Promise<void> {
    const own = ownMessages(originalBody[DIALECT_FACTS[dialect].messagesKey]);
    // With memory the session holds the history, so every message the client sent is new: a user
    // message, or an assistant's tool calls and all their results (decoded together so they pair).
    const decoded = own.length === 0 ? [] : decodeMessages(own, dialect).messages;
    const messages: Message[] = decoded.filter((m) => m.role !== 'system' && m.role !== 'developer');
    if (answer !== undefined) messages.push(answer);
    if (messages.length > 0) await appendMessages(this.memory, ref.actorId, ref.sessionId, messages);
  }

  close(): Promise<void> {
    return this.memory.close();
  }
}

function ownMessages(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  // Responses takes a bare string as one user message.
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  return [];
}

function memoryError(err: unknown): GatewayError {
  const e = err as { name?: string; message?: string };
  if (e.name === 'ValidationError' || e.name === 'UsageError') return new GatewayError(400, `memory: ${e.message ?? ''}`);
  return new GatewayError(500, `memory store failed: ${e.message ?? String(err)}`);
}

/** The assistant message of a final response body of `format`. */
export function answerMessage(format: Dialect, body: unknown): Message | undefined {
  const res = decode(body, { from: format, kind: 'response', limits: { maxTextBytes: Number.MAX_SAFE_INTEGER } }).value as CanonicalResponse;
  return res.choices[0]?.message;
}
