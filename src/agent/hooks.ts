/**
 * The Agent's hooks, the two of the source design: `onAgentInitialized` once before the agent's
 * first model call, `onMessageAdded` for every message added to its conversation (the user's, each
 * assistant answer, each tool result). Their events carry the session (`actorId`, `sessionId`, from
 * the agent's `state`) and the message in a chat dialect's message shape (`format`, default
 * openai-chat), so the memory hooks of `createMemoryHooks` plug in as they are: what
 * `onAgentInitialized` returns with a non-empty `prompt` (their `Recent conversation:` text) joins
 * the system prompt.
 * A provider that also speaks canonical messages (`recent` and `store`, as createMemoryHooks' do) is
 * called through those instead: the Agent's messages are canonical already, so they are stored as
 * they are, without a round trip through a dialect that may not hold all of them (reasoning in
 * OpenAI Chat) and without encoding the loaded turns that the Agent only reads as prompt text.
 */
import type { Loss } from '../model/loss.js';
import type { Message } from '../model/message.js';

/** The session state the loader injects, as the source design names it. */
export interface AgentState {
  actor_id: string;
  session_id: string;
  [key: string]: unknown;
}

export interface InitializedEvent {
  actorId: string;
  sessionId: string;
  /** The dialect of the messages the hooks are given. */
  format: string;
}

export interface MessageAddedEvent extends InitializedEvent {
  /** The message in `format`'s message shape. */
  message: unknown;
  /** The same message, canonical. */
  canonical: Message;
}

export interface SessionRefIds {
  actorId: string;
  sessionId: string;
}

export interface AgentHooks {
  /** May return `{ prompt }`: text that joins the system prompt (and `losses`, kept on the agent). */
  onAgentInitialized?(event: InitializedEvent): unknown;
  onMessageAdded?(event: MessageAddedEvent): unknown;
  /**
   * With `store`, called in place of `onAgentInitialized`: may return `{ prompt, losses }` likewise.
   * Called with `{ verbatim: false }`: the Agent reads only the prompt text, not the messages.
   */
  recent?(session: SessionRefIds, options: { verbatim: false }): unknown;
  /** With `recent`, called in place of `onMessageAdded` with the canonical message; may return `{ losses }`. */
  store?(session: SessionRefIds, messages: readonly Message[]): unknown;
}

/** Whether the provider speaks canonical messages (both `recent` and `store`). */
export function isCanonicalHooks(h: AgentHooks): h is AgentHooks & Required<Pick<AgentHooks, 'recent' | 'store'>> {
  return typeof h.recent === 'function' && typeof h.store === 'function';
}

/** What a hook returned, read for the parts the Agent uses. */
export function initializedResult(value: unknown): { prompt: string; losses: Loss[] } {
  if (typeof value !== 'object' || value === null) return { prompt: '', losses: [] };
  const v = value as { prompt?: unknown; losses?: unknown };
  return { prompt: typeof v.prompt === 'string' ? v.prompt : '', losses: Array.isArray(v.losses) ? (v.losses as Loss[]) : [] };
}

export function lossesOf(value: unknown): Loss[] {
  if (typeof value !== 'object' || value === null) return [];
  const l = (value as { losses?: unknown }).losses;
  return Array.isArray(l) ? (l as Loss[]) : [];
}
