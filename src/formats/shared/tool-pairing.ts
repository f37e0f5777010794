import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';

/** What most messages get: nothing unanswered. Shared, so the common case allocates nothing. */
const NONE: ReadonlySet<string> = new Set();

/** Takes out of `open` the call ids the tool results of `msg` answer. */
function answer(open: Set<string>, msg: Message | undefined): void {
  if (msg === undefined) return;
  for (const p of msg.parts) if (p.type === 'tool-result') open.delete(p.callId);
}

/**
 * The ids of the client tool calls in `messages[i]` that the next turn does not answer. Formats
 * that pair calls with results (Anthropic: tool_result in the next user turn; OpenAI Chat: tool
 * messages right after) refuse such a call, while others allow it (Gemini history may hold a
 * functionCall the user never answered). The next turn is the run of `tool` messages after the
 * message and the `user` message that follows them (system messages in between are skipped: the
 * formats that pair move them out). A call in the last message is not unanswered: its results
 * have not arrived yet.
 */
export function unansweredCalls(messages: readonly Message[], i: number): ReadonlySet<string> {
  const m = messages[i];
  if (m === undefined || m.role !== 'assistant') return NONE;
  let j = i + 1;
  while (messages[j]?.role === 'system' || messages[j]?.role === 'developer') j++;
  if (j >= messages.length) return NONE;
  // Usually every call is answered: found by scanning (a turn holds a handful), with no Set made.
  let answeredAll = true;
  for (const p of m.parts) {
    if (p.type === 'tool-call' && p.providerExecuted !== true && !answeredFrom(messages, j, p.id)) {
      answeredAll = false;
      break;
    }
  }
  if (answeredAll) return NONE;
  const open = new Set<string>();
  for (const p of m.parts) if (p.type === 'tool-call' && p.providerExecuted !== true) open.add(p.id);
  while (messages[j]?.role === 'tool') answer(open, messages[j++]);
  if (messages[j]?.role === 'user') answer(open, messages[j]);
  return open.size === 0 ? NONE : open;
}

/** Whether the next turn starting at `messages[j]` (tool messages, then a user message) holds a result for `id`. */
function answeredFrom(messages: readonly Message[], j: number, id: string): boolean {
  while (messages[j]?.role === 'tool') if (holdsResult(messages[j++] as Message, id)) return true;
  const user = messages[j];
  return user?.role === 'user' && holdsResult(user, id);
}

function holdsResult(msg: Message, id: string): boolean {
  for (const p of msg.parts) if (p.type === 'tool-result' && p.callId === id) return true;
  return false;
}

/** The assistant message a tool result at `messages[i]` may answer (past tool and system messages), if any. */
export function assistantBefore(messages: readonly Message[], i: number): Message | undefined {
  let j = i - 1;
  while (j >= 0 && (messages[j]?.role === 'tool' || messages[j]?.role === 'system' || messages[j]?.role === 'developer')) j--;
  const m = messages[j];
  return m?.role === 'assistant' ? m : undefined;
}

/** The name of the client tool call `id` in `assistant`, if it holds one (a message holds a handful: a scan beats a Set). */
export function callName(assistant: Message | undefined, id: string): string | undefined {
  if (assistant === undefined) return undefined;
  for (const p of assistant.parts) if (p.type === 'tool-call' && p.providerExecuted !== true && p.id === id) return p.name;
  return undefined;
}

/** Whether `assistant` holds a client tool call with this id. */
function hasCall(assistant: Message | undefined, id: string): boolean {
  return callName(assistant, id) !== undefined;
}

/** The text that stands for an orphan result's origin, before its own parts. */
function orphanLabel(p: ToolResultPart): Part {
  return { type: 'text', text: `[result of tool ${p.name ?? p.callId}${p.isError === true ? ' (error)' : ''}]` };
}

/**
 * orphanResultsAsContent's work, reporting each orphan to `losses` (with `target` in the message)
 * or to `report`: one loop, no closure made per message.
 */
function orphansAsContent(
  messages: readonly Message[],
  i: number,
  answered: ((result: ToolResultPart) => boolean) | undefined,
  report: ((j: number, callId: string) => void) | undefined,
  losses?: LossSink,
  target?: string,
): Message {
  const m = messages[i] as Message;
  if (m.role !== 'user' && m.role !== 'tool') return m;
  let scope: Message | undefined;
  let scoped = false;
  let out: Part[] | undefined;
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j] as Part;
    let orphan = false;
    if (p.type === 'tool-result' && p.providerExecuted !== true) {
      if (answered !== undefined) orphan = !answered(p);
      else {
        if (!scoped) {
          scope = assistantBefore(messages, i);
          scoped = true;
        }
        orphan = !hasCall(scope, p.callId);
      }
    }
    if (!orphan) {
      out?.push(p);
      continue;
    }
    const result = p as ToolResultPart;
    out ??= parts.slice(0, j);
    if (report !== undefined) report(j, result.callId);
    else losses?.push({ code: 'orphan-tool-result', path: ['messages', i, 'parts', j], message: `tool result '${result.callId}' answers no tool call of the previous turn, which ${target ?? ''} refuses; sent as text`, action: 'approximated' });
    out.push(orphanLabel(result), ...result.content);
  }
  return out === undefined ? m : { ...m, role: 'user', parts: out };
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
  return orphansAsContent(messages, i, answered, report);
}

/**
 * `messages[i]` without the client tool calls the next turn does not answer, each reported as
 * dropped at its canonical path: `target` (a format's display name) refuses them.
 */
export function withoutUnansweredCalls(messages: readonly Message[], i: number, losses: LossSink, target: string): Message {
  const m = messages[i] as Message;
  const unanswered = unansweredCalls(messages, i);
  if (unanswered.size === 0) return m;
  const parts: Part[] = [];
  for (let j = 0; j < m.parts.length; j++) {
    const p = m.parts[j] as Part;
    if (p.type !== 'tool-call' || !unanswered.has(p.id)) parts.push(p);
    else losses.push({ code: 'unanswered-tool-call', path: ['messages', i, 'parts', j], message: `tool call '${p.id}' has no result in the next turn, which ${target} refuses; left out`, action: 'dropped' });
  }
  return { ...m, parts };
}

/** `messages[i]` with orphan tool results as user content (see orphanResultsAsContent), each reported. */
export function withOrphansAsContent(messages: readonly Message[], i: number, losses: LossSink, target: string): Message {
  return orphansAsContent(messages, i, undefined, undefined, losses, target);
}
