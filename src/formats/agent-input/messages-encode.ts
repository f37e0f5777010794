/**
 * Canonical messages -> agent input messages. Each canonical message is one stash group
 * (stashGroup): tool results become `tool` messages (ml-commons' shape, §4.2), tool calls ride
 * on the assistant message as `toolCalls`, and under `preserve` the original canonical message
 * rides on the first wire message written for it.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { childPath } from '../shared/child-path.js';
import { hasForeignExt, messageHasForeignExt } from '../shared/foreign-ext.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { AGENT_INPUT, ROLES } from './agent-input-api.js';
import { encodeBlocks, loss, own } from './content-encode.js';
import { decodeSpan } from './request-decode.js';
import { encodePerMessage } from '../shared/stash-groups.js';
import { readBack } from '../shared/stash.js';
import { orphanResultsAsContent } from '../shared/tool-pairing.js';
import { deleteKey } from '../shared/delete-keys.js';

/** Content of a tool message whose result had none: ml-commons requires tool messages to have content. */
export const EMPTY_RESULT_TEXT = '(no content)';

/** What an assistant message holds as content blocks: everything but its tool calls and results. */
const isAssistantContent = (part: Part): boolean => part.type !== 'tool-call' && part.type !== 'tool-result';
/** What a user-like message holds as content blocks: everything but its tool results. */
const isUserContent = (part: Part): boolean => part.type !== 'tool-result';

/** The wire role: a role of no canonical meaning decoded here (kept on a user message), or the source's spelling. */
function roleName(m: Message): string {
  const hints = own(m.ext);
  const other = hints?.['role'];
  if (m.role === 'user' && typeof other === 'string' && other.trim() !== '' && !ROLES.has(other.toLowerCase())) return other;
  const spelled = hints?.['$role'];
  return typeof spelled === 'string' && spelled.toLowerCase() === m.role ? spelled : m.role;
}

/** `parts[j]` of the message at `base`; its path is made only when something is reported. */
function encodeToolCall(part: ToolCallPart, base: Path, j: number, losses: LossSink): JsonObject {
  if (part.cache || part.providerExecuted === true || hasForeignExt(part.ext, AGENT_INPUT)) {
    const path = childPath(base, 'parts', j);
    if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'agent input has no cache breakpoints');
    reportForeignExt(part.ext, AGENT_INPUT, path, losses);
    if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, `call of provider-run tool '${part.name}' is sent as an ordinary tool call`, 'approximated');
  }
  const hints = own(part.ext);
  const fn: JsonObject = { name: part.name, arguments: part.argumentsJson ?? JSON.stringify(part.arguments) };
  const inner = hints?.['function'];
  const call: JsonObject = { id: part.id, type: 'function', function: inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? { ...inner, ...fn } : fn };
  restoreResidue(call, part.ext, AGENT_INPUT);
  if (hints?.['$noType'] === true) deleteKey(call, 'type');
  return call;
}

function encodeToolResult(part: ToolResultPart, path: Path, losses: LossSink): JsonObject {
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'agent input has no cache breakpoints');
  reportForeignExt(part.ext, AGENT_INPUT, path, losses);
  const content = encodeBlocks(part.content, path, losses);
  if (content.length === 0) {
    loss(losses, 'empty-tool-result', childPath(path, 'content'), `a tool result with no content is sent as '${EMPTY_RESULT_TEXT}'`, 'approximated');
    content.push({ type: 'text', text: EMPTY_RESULT_TEXT });
  }
  if (part.isError !== undefined) loss(losses, 'tool-error-flag', childPath(path, 'isError'), 'agent input tool messages have no error flag');
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, 'a result of a provider-run tool is sent as an ordinary tool message', 'approximated');
  return { role: 'tool', content, toolCallId: part.callId };
}

/** user / system / developer / tool messages: tool results first as tool messages, then the rest. */
function encodeUserLike(m: Message, path: Path, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  let rest = 0;
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    if (part.type === 'tool-result') out.push(encodeToolResult(part, childPath(path, 'parts', j), losses));
    else if (m.role === 'tool') loss(losses, 'unsupported-part', childPath(path, 'parts', j), `a tool message can only hold tool results, not ${part.type}`);
    else rest++;
  }
  if (m.role === 'tool') {
    // The message's own spelling of the role and its residue belong to the wire message it came from.
    for (const w of out) w['role'] = roleName(m);
    if (out.length === 1) restoreResidue(out[0] as JsonObject, m.ext, AGENT_INPUT);
    return out;
  }
  if (rest === 0 && out.length > 0) return out;
  const content = encodeBlocks(parts, path, losses, isUserContent);
  if (content.length === 0) {
    loss(losses, 'empty-message', path, `a ${m.role} message with no content agent input can hold is dropped`);
    return out;
  }
  const msg: JsonObject = { role: roleName(m), content };
  restoreResidue(msg, m.ext, AGENT_INPUT);
  out.push(msg);
  return out;
}

function encodeAssistant(m: Message, path: Path, losses: LossSink): JsonObject[] {
  const calls: JsonObject[] = [];
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    if (part.type === 'tool-call') calls.push(encodeToolCall(part, path, j, losses));
    else if (part.type === 'tool-result') loss(losses, 'unsupported-part', childPath(path, 'parts', j), 'tool results cannot sit in an assistant message');
  }
  const content = encodeBlocks(parts, path, losses, isAssistantContent);
  if (content.length === 0 && calls.length === 0) {
    loss(losses, 'empty-message', path, 'an assistant message with no content agent input can hold is dropped');
    return [];
  }
  const msg: JsonObject = { role: roleName(m) };
  // An assistant message that only calls tools may leave content out (ml-commons); keep how it came.
  const hints = own(m.ext);
  if (content.length > 0 || (hints?.['$noContent'] !== true && hints?.['content'] !== null)) msg['content'] = content;
  if (calls.length > 0) msg['toolCalls'] = calls;
  restoreResidue(msg, m.ext, AGENT_INPUT);
  return [msg];
}

/** Whether a tool result of the message has no call id (ml-commons refuses a blank one). */
function hasBlankCallId(m: Message): boolean {
  for (const p of m.parts) if (p.type === 'tool-result' && p.callId.trim() === '') return true;
  return false;
}

function encodeMessage(m: Message, i: number, losses: LossSink): JsonObject[] {
  const path: Path = ['messages', i];
  reportForeignExt(m.ext, AGENT_INPUT, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', childPath(path, 'name'), 'agent input messages have no participant name');
  if (m.role === 'assistant') return encodeAssistant(m, path, losses);
  // A tool message needs a call id: a result without one (an AgentCore TOOL text with no results
  // blob) is sent as text naming its tool.
  if (!hasBlankCallId(m)) return encodeUserLike(m, path, losses);
  const paired = orphanResultsAsContent([m], 0, (j) => loss(losses, 'orphan-tool-result', childPath(path, 'parts', j), 'a tool result with no call id is sent as text', 'approximated'), (r) => r.callId.trim() !== '');
  return encodeUserLike(paired, path, losses);
}

/** The one message written when nothing of the conversation can be held (input must not be empty). */
const EMPTY_CONVERSATION: JsonObject = { role: 'user', content: [{ type: 'text', text: '[empty conversation]' }] };

/**
 * Whether these wire messages decode back to exactly the canonical messages they were written
 * for. When they do not (another format's hints, tool results split off a user turn, a recoverable
 * tool name ...) nothing a reader needs was lost, but `preserve` must stash them for an exact way back.
 */
export function decodesBack(wire: readonly JsonObject[], messages: readonly Message[]): boolean {
  if (messages.some((m) => messageHasForeignExt(m, AGENT_INPUT))) return false;
  return sameValue(readBack(decodeSpan, wire), messages);
}

export function encodeMessages(messages: readonly Message[], ctx: EncodeContext): JsonObject[] {
  return encodePerMessage(messages, ctx, {
    encode: encodeMessage,
    decodesBack,
    decodeSpan,
    // A placeholder keeps the body valid (input must not be empty) and carries the stash under preserve.
    whenEmpty: (losses) => {
      loss(losses, 'empty-message', ['messages'], 'no message agent input can hold is left; a placeholder user message is written', 'approximated');
      return [structuredClone(EMPTY_CONVERSATION)];
    },
  });
}
