import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';

/**
 * The ids of the client tool calls in `messages[i]` that the next turn does not answer. Formats
 * that pair calls with results (Anthropic: tool_result in the next user turn; OpenAI Chat: tool
 * messages right after) refuse such a call, while others allow it (Gemini history may hold a
 * functionCall the user never answered). The next turn is the run of `tool` messages after the
 * message and the `user` message that follows them (system messages in between are skipped: the
 * formats that pair move them out). A call in the last message is not unanswered: its results
 * have not arrived yet.
 */
export function unansweredCalls(messages: readonly Message[], i: number): Set<string> {
  const out = new Set<string>();
  const m = messages[i];
  if (m === undefined || m.role !== 'assistant') return out;
  for (const p of m.parts) if (p.type === 'tool-call' && p.providerExecuted !== true) out.add(p.id);
  if (out.size === 0) return out;
  let j = i + 1;
  while (messages[j]?.role === 'system' || messages[j]?.role === 'developer') j++;
  if (j >= messages.length) return new Set();
  const answer = (msg: Message | undefined): void => {
    for (const p of msg?.parts ?? []) if (p.type === 'tool-result') out.delete(p.callId);
  };
  while (messages[j]?.role === 'tool') answer(messages[j++]);
  if (messages[j]?.role === 'user') answer(messages[j]);
  return out;
}

/** The client tool call ids of the assistant message a tool result at `messages[i]` may answer. */
function callsInScope(messages: readonly Message[], i: number): Set<string> {
  let j = i - 1;
  while (j >= 0 && (messages[j]?.role === 'tool' || messages[j]?.role === 'system' || messages[j]?.role === 'developer')) j--;
  const ids = new Set<string>();
  const m = messages[j];
  if (m?.role === 'assistant') for (const p of m.parts) if (p.type === 'tool-call' && p.providerExecuted !== true) ids.add(p.id);
  return ids;
}

/**
 * `messages[i]` with every client tool result that answers no call of the assistant message before
 * it (a format that pairs results by name, such as Gemini, may hold one) turned into user content:
 * a text saying which tool it came from, then the result's own parts. Formats that pair by id
 * refuse such a result; this keeps what it said. Each one is reported through `report`.
 */
export function orphanResultsAsContent(
  messages: readonly Message[],
  i: number,
  report: (j: number, callId: string) => void,
  answered?: (result: ToolResultPart) => boolean,
): Message {
  const m = messages[i] as Message;
  if (m.role !== 'user' && m.role !== 'tool') return m;
  let scope: Set<string> | undefined;
  const isAnswered = answered ?? ((p: ToolResultPart): boolean => (scope ??= callsInScope(messages, i)).has(p.callId));
  let out: Part[] | undefined;
  m.parts.forEach((p, j) => {
    if (p.type === 'tool-result' && p.providerExecuted !== true && !isAnswered(p)) {
      out ??= m.parts.slice(0, j);
      report(j, p.callId);
      out.push({ type: 'text', text: `[result of tool ${p.name ?? p.callId}${p.isError === true ? ' (error)' : ''}]` }, ...p.content);
    } else out?.push(p);
  });
  return out === undefined ? m : { ...m, role: 'user', parts: out };
}

/**
 * `messages[i]` without the client tool calls the next turn does not answer, each reported as
 * dropped at its canonical path: `target` (a format's display name) refuses them.
 */
export function withoutUnansweredCalls(messages: readonly Message[], i: number, losses: LossSink, target: string): Message {
  const m = messages[i] as Message;
  const unanswered = unansweredCalls(messages, i);
  if (unanswered.size === 0) return m;
  const parts = m.parts.filter((p, j) => {
    if (p.type !== 'tool-call' || !unanswered.has(p.id)) return true;
    losses.push({ code: 'unanswered-tool-call', path: ['messages', i, 'parts', j], message: `tool call '${p.id}' has no result in the next turn, which ${target} refuses; left out`, action: 'dropped' });
    return false;
  });
  return { ...m, parts };
}

/** `messages[i]` with orphan tool results as user content (see orphanResultsAsContent), each reported. */
export function withOrphansAsContent(messages: readonly Message[], i: number, losses: LossSink, target: string): Message {
  return orphanResultsAsContent(messages, i, (j, id) =>
    losses.push({ code: 'orphan-tool-result', path: ['messages', i, 'parts', j], message: `tool result '${id}' answers no tool call of the previous turn, which ${target} refuses; sent as text`, action: 'approximated' }),
  );
}
