/**
 * Tool result names. A `camunda.toolCallResults` entry is `{id, name, content}` ([CAM]
 * ToolCallResultContent): Camunda names every result after its call. Anthropic, Bedrock and Chat
 * results have no name of their own, the call they answer does: when the conversation holds that
 * call, the encoder writes its name into the entry as the entry's last key (Camunda and the
 * Python SDK read keys by name, so the order means nothing to them). Reading, a name that is the
 * entry's last key and the name of the call of that id earlier in the conversation is the call's,
 * not the result's own: the result reads back without it, as it was before it was written. Any
 * other name (written first, as Camunda and Gemini results have it, or one no call accounts for)
 * stays the result's.
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import { AGENTCORE } from './agentcore-memory-api.js';
import { withoutKey } from '../shared/delete-keys.js';
import { own } from './content.js';

/** Call id -> tool name. */
export type CallNames = ReadonlyMap<string, string>;

const isClientCall = (p: Part): p is Part & { type: 'tool-call' } => p.type === 'tool-call' && p.providerExecuted !== true;
const isClientResult = (p: Part): p is ToolResultPart => p.type === 'tool-result' && p.providerExecuted !== true;

/** Adds the client tool calls of an assistant message to `names` (a later call of an id wins). */
export function learnCalls(m: Message, names: Map<string, string>): void {
  if (m.role !== 'assistant') return;
  for (const p of m.parts) if (isClientCall(p)) names.set(p.id, p.name);
}

/**
 * The names of the client tool calls in `messages`, by call id (a later call of an id wins): what a
 * result in a message after them is named from (`messageToEvent`'s `toolNames`).
 */
export function toolCallNames(messages: readonly Message[], into: Map<string, string> = new Map()): Map<string, string> {
  for (const m of messages) learnCalls(m, into);
  return into;
}

/**
 * The names of the calls before `m` that its client results answer, for the results without a name
 * (they get it) and those read with a last-key name (reading checks it against the call): only the
 * ids it answers, so a long conversation does not copy its whole map per message; undefined when none.
 */
export function namesFor(m: Message, before: CallNames): CallNames | undefined {
  if (m.role === 'assistant' || m.role === 'system' || m.role === 'developer') return undefined;
  let out: Map<string, string> | undefined;
  for (const p of m.parts) {
    if (!isClientResult(p) || (p.name !== undefined && own(p.ext)?.['$nameLast'] !== true)) continue;
    const name = before.get(p.callId);
    if (name !== undefined) (out ??= new Map()).set(p.callId, name);
  }
  return out;
}

function withoutHint(ext: Ext | undefined): Ext | undefined {
  const mine = own(ext);
  if (mine === undefined) return ext;
  const rest = withoutKey(mine, '$nameLast');
  // withoutKey, not a delete from a copy, which leaves a dictionary of any key but the last.
  const out = (Object.keys(rest).length > 0 ? { ...ext, [AGENTCORE]: rest } : withoutKey(ext as JsonObject, AGENTCORE)) as Ext;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `m` with each name its results took from their calls (last key, and `names` agrees) taken off again. */
export function withoutCallNames(m: Message, names: CallNames | undefined): Message {
  if (names === undefined || m.role === 'assistant') return m;
  let parts: Part[] | undefined;
  for (let j = 0; j < m.parts.length; j++) {
    const p = m.parts[j] as Part;
    if (!isClientResult(p) || p.name === undefined || own(p.ext)?.['$nameLast'] !== true || names.get(p.callId) !== p.name) continue;
    const next = withoutKey(p as unknown as JsonObject, 'name', 'ext') as unknown as ToolResultPart;
    const kept = withoutHint(p.ext);
    if (kept !== undefined) next.ext = kept;
    (parts ??= m.parts.slice())[j] = next;
  }
  return parts === undefined ? m : { ...m, parts };
}

/** Read messages of a conversation, in order, with the names results took from their calls taken off. */
export function readCallNames(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  return messages.map((m) => {
    const out = withoutCallNames(m, names);
    learnCalls(out, names);
    return out;
  });
}
