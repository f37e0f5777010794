/**
 * Older events: before results blobs, a tool's answer was stored as a conversational TOOL text
 * alone (Camunda's first layout wrote the calls as a bare JSON array blob, and the Python SDK's
 * `create_event` writes any `(text, "TOOL")` pair that way). Read one event at a time such a text
 * is a result of no call (event-decode.ts: call id ''); read in its conversation, the texts right
 * after an assistant message whose client tool calls no result answers are those calls' results:
 * - as many texts (TOOL payloads, in one event or several in a row) as unanswered calls: the k-th
 *   text answers the k-th call;
 * - otherwise the first text answers the first unanswered call; the other calls stay unanswered
 *   and the other texts stay results of no call (reported: which text answers which is unknown).
 * Each such reading is reported `approximated` (the event never said which call it answers). A
 * paired result keeps the call's id in its `$paired` hint, so it is still written back as the lone
 * TOOL text it was read from (event-encode.ts isMinimal).
 */
import type { Ext } from '../../model/ext.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { AGENTCORE } from './agentcore-memory-api.js';
import { own } from './content.js';

/** A result read from a lone TOOL text and not paired with a call. */
function isLone(p: Part): boolean {
  const mine = own(p.ext);
  return p.type === 'tool-result' && p.callId === '' && mine?.['$minimal'] === true && mine['$paired'] === undefined && Object.keys(mine).length === 1;
}

const isClientCall = (p: Part): p is ToolCallPart => p.type === 'tool-call' && p.providerExecuted !== true;

function paired(p: ToolResultPart, callId: string): ToolResultPart {
  return { ...p, callId, ext: { ...p.ext, [AGENTCORE]: { ...own(p.ext), $paired: callId } } };
}

/** Whether the tool messages right after message `i` hold a lone result (most conversations have none: nothing else is built then). */
function loneAfter(messages: readonly Message[], i: number): boolean {
  for (let k = i + 1; messages[k]?.role === 'tool'; k++) if ((messages[k] as Message).parts.some(isLone)) return true;
  return false;
}

/**
 * The messages, with lone TOOL texts after unanswered calls read as their results (see above).
 * `origins[i]` is the index of the event message i was read from, for loss paths.
 */
export function pairOlderResults(messages: readonly Message[], origins: readonly number[], losses: LossSink): Message[] {
  let out: Message[] | undefined;
  const at = (i: number): Path => ['events', origins[i] ?? i];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'assistant' || !m.parts.some(isClientCall) || !loneAfter(messages, i)) continue;
    const lone: { i: number; j: number }[] = [];
    const answered = new Set<string>();
    let k = i + 1;
    for (; messages[k]?.role === 'tool'; k++) {
      (messages[k] as Message).parts.forEach((p, j) => {
        if (isLone(p)) lone.push({ i: k, j });
        else if (p.type === 'tool-result') answered.add(p.callId);
      });
    }
    // Results read as a user message (Anthropic and Bedrock put them there) answer calls too.
    for (const p of messages[k]?.role === 'user' ? (messages[k] as Message).parts : []) if (p.type === 'tool-result') answered.add(p.callId);
    const open = m.parts.filter(isClientCall).filter((c) => !answered.has(c.id));
    if (open.length === 0 || lone.length === 0) continue;
    const n = lone.length === open.length ? open.length : 1;
    out ??= messages.slice();
    for (let t = 0; t < n; t++) {
      const { i: mi, j } = lone[t] as { i: number; j: number };
      const call = open[t] as ToolCallPart;
      const target = out[mi] as Message;
      const parts = target.parts.slice();
      parts[j] = paired(parts[j] as ToolResultPart, call.id);
      out[mi] = { ...target, parts };
      losses.push({
        code: 'older-tool-result',
        path: at(mi),
        message: `a TOOL text without a results blob after the tool calls of event ${String(origins[i] ?? i)} is read as the result of call '${call.id}' (${call.name}): the event does not say which call it answers`,
        action: 'approximated',
      });
    }
    if (n !== lone.length || n !== open.length) {
      losses.push({
        code: 'older-tool-result',
        path: at(i),
        message: `${lone.length} TOOL text(s) without a results blob answer ${open.length} tool calls: they do not split one per call, so the first is read as the result of call '${(open[0] as ToolCallPart).id}'; ${open.length - 1} call(s) stay unanswered and ${lone.length - 1} text(s) answer no call`,
        action: 'approximated',
      });
    }
  }
  return out ?? (messages as Message[]);
}

/** `m` with results paired with a call taken back to the lone texts they were read from (for comparisons with one event read alone). */
export function unpaired(m: Message): Message {
  let parts: Part[] | undefined;
  m.parts.forEach((p, j) => {
    const mine = own(p.ext);
    if (p.type !== 'tool-result' || mine?.['$minimal'] !== true || mine['$paired'] !== p.callId) return;
    const { $paired: _p, ...rest } = mine;
    (parts ??= m.parts.slice())[j] = { ...p, callId: '', ext: { ...p.ext, [AGENTCORE]: rest } as Ext };
  });
  return parts === undefined ? m : { ...m, parts };
}
