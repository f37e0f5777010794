/**
 * Contexts for a tool result added alone while its assistant message's other calls are still
 * unanswered. Formats that pair calls with results refuse such a partial turn when it is encoded
 * and decoded whole (OpenAI Chat wants a tool message for every call of the assistant message before
 * them), so the result is decoded again after the turn cut at that assistant message, whose calls are
 * narrowed to the pending ones it may answer: each alone (a Chat tool message answers one call),
 * then all of them (an Anthropic user turn answers several).
 */
import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';

export function pendingCallContexts(turn: readonly Message[]): Message[][] {
  let at = -1;
  for (let i = turn.length - 1; i >= 0; i--) {
    const m = turn[i] as Message;
    if (m.role === 'assistant' && m.parts.some(isClientCall)) {
      at = i;
      break;
    }
  }
  if (at < 0) return [];
  const assistant = turn[at] as Message;
  const answered = new Set<string>();
  for (const m of turn.slice(at + 1)) for (const p of m.parts) if (p.type === 'tool-result') answered.add(p.callId);
  const pending = assistant.parts.filter((p) => isClientCall(p) && !answered.has(p.id)).map((p) => (p as { id: string }).id);
  if (pending.length === 0) return [];
  const narrowed = (keep: ReadonlySet<string>): Message[] => [
    ...turn.slice(0, at),
    { ...assistant, parts: assistant.parts.filter((p) => !isClientCall(p) || keep.has(p.id)) },
  ];
  const out = pending.map((id) => narrowed(new Set([id])));
  if (pending.length > 1) out.push(narrowed(new Set(pending)));
  return out;
}

function isClientCall(p: Part): p is Extract<Part, { type: 'tool-call' }> {
  return p.type === 'tool-call' && p.providerExecuted !== true;
}
