/**
 * Canonical messages -> agent input messages. Each canonical message is one stash group
 * (encodeGroup): tool results become `tool` messages (ml-commons' shape, §4.2), tool calls ride
 * on the assistant message as `toolCalls`, and under `preserve` the original canonical message
 * rides on the first wire message written for it.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { encodeGroup } from '../shared/stash.js';
import { AGENT_INPUT } from './agent-input-api.js';
import { encodeBlocks, loss, own } from './content-encode.js';

/** Content of a tool message whose result had none: ml-commons requires tool messages to have content. */
export const EMPTY_RESULT_TEXT = '(no content)';

type Indexed = { part: Part; j: number };

function roleName(m: Message): string {
  const spelled = own(m.ext)?.['$role'];
  return typeof spelled === 'string' && spelled.toLowerCase() === m.role ? spelled : m.role;
}

function encodeToolCall(part: ToolCallPart, path: Path, losses: LossSink): JsonObject {
  if (part.cache) loss(losses, 'cache-control', [...path, 'cache'], 'agent input has no cache breakpoints');
  reportForeignExt(part.ext, AGENT_INPUT, path, losses);
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, `call of provider-run tool '${part.name}' is sent as an ordinary tool call`, 'approximated');
  const hints = own(part.ext);
  const fn: JsonObject = { name: part.name, arguments: part.argumentsJson ?? JSON.stringify(part.arguments) };
  const inner = hints?.['function'];
  const call: JsonObject = { id: part.id, type: 'function', function: inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? { ...inner, ...fn } : fn };
  restoreResidue(call, part.ext, AGENT_INPUT);
  if (hints?.['$noType'] === true) delete call['type'];
  return call;
}

function encodeToolResult(part: ToolResultPart, path: Path, preserve: boolean, losses: LossSink): JsonObject {
  if (part.cache) loss(losses, 'cache-control', [...path, 'cache'], 'agent input has no cache breakpoints');
  reportForeignExt(part.ext, AGENT_INPUT, path, losses);
  const content = encodeBlocks(part.content.map((p, j) => ({ part: p, j })), path, losses);
  if (content.length === 0) {
    loss(losses, 'empty-tool-result', [...path, 'content'], `a tool result with no content is sent as '${EMPTY_RESULT_TEXT}'`, 'approximated');
    content.push({ type: 'text', text: EMPTY_RESULT_TEXT });
  }
  if (part.isError !== undefined) loss(losses, 'tool-error-flag', [...path, 'isError'], 'agent input tool messages have no error flag');
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, 'a result of a provider-run tool is sent as an ordinary tool message', 'approximated');
  if (part.stringContent === true && preserve) stringLoss([...path, 'content'], losses);
  return { role: 'tool', content, toolCallId: part.callId };
}

/**
 * Message content is always a block list here. The string shape says nothing a reader needs, so it
 * is reported only under `preserve`, where the report is what makes the stash bring it back.
 */
function stringLoss(path: Path, losses: LossSink): void {
  loss(losses, 'string-content', path, 'agent input message content is a list of blocks: the plain-string form is not kept', 'approximated');
}

/** user / system / developer / tool messages: tool results first as tool messages, then the rest. */
function encodeUserLike(m: Message, path: Path, preserve: boolean, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  const rest: Indexed[] = [];
  m.parts.forEach((part, j) => {
    if (part.type === 'tool-result') out.push(encodeToolResult(part, [...path, 'parts', j], preserve, losses));
    else if (m.role === 'tool') loss(losses, 'unsupported-part', [...path, 'parts', j], `a tool message can only hold tool results, not ${part.type}`);
    else rest.push({ part, j });
  });
  if (m.role === 'tool') {
    if (out.length === 1) restoreResidue(out[0] as JsonObject, m.ext, AGENT_INPUT);
    return out;
  }
  if (rest.length === 0 && out.length > 0) return out;
  const content = encodeBlocks(rest, path, losses);
  if (content.length === 0) {
    loss(losses, 'empty-message', path, `a ${m.role} message with no content agent input can hold is dropped`);
    return out;
  }
  if (m.stringContent === true && preserve) stringLoss([...path, 'parts'], losses);
  const msg: JsonObject = { role: roleName(m), content };
  restoreResidue(msg, m.ext, AGENT_INPUT);
  out.push(msg);
  return out;
}

function encodeAssistant(m: Message, path: Path, preserve: boolean, losses: LossSink): JsonObject[] {
  const rest: Indexed[] = [];
  const calls: JsonObject[] = [];
  m.parts.forEach((part, j) => {
    const at = [...path, 'parts', j];
    if (part.type === 'tool-call') calls.push(encodeToolCall(part, at, losses));
    else if (part.type === 'tool-result') loss(losses, 'unsupported-part', at, 'tool results cannot sit in an assistant message');
    else rest.push({ part, j });
  });
  const content = encodeBlocks(rest, path, losses);
  if (content.length === 0 && calls.length === 0) {
    loss(losses, 'empty-message', path, 'an assistant message with no content agent input can hold is dropped');
    return [];
  }
  if (m.stringContent === true && preserve) stringLoss([...path, 'parts'], losses);
  const msg: JsonObject = { role: roleName(m) };
  // An assistant message that only calls tools may leave content out (ml-commons); keep how it came.
  const hints = own(m.ext);
  if (content.length > 0 || (hints?.['$noContent'] !== true && hints?.['content'] !== null)) msg['content'] = content;
  if (calls.length > 0) msg['toolCalls'] = calls;
  restoreResidue(msg, m.ext, AGENT_INPUT);
  return [msg];
}

function encodeMessage(m: Message, i: number, preserve: boolean, losses: LossSink): JsonObject[] {
  const path: Path = ['messages', i];
  reportForeignExt(m.ext, AGENT_INPUT, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', [...path, 'name'], 'agent input messages have no participant name');
  return m.role === 'assistant' ? encodeAssistant(m, path, preserve, losses) : encodeUserLike(m, path, preserve, losses);
}

export function encodeMessages(messages: readonly Message[], ctx: EncodeContext): JsonObject[] {
  const out: JsonObject[] = [];
  messages.forEach((m, i) => {
    for (const w of encodeGroup([m], ctx, (losses) => encodeMessage(m, i, ctx.preserve, losses))) out.push(w);
  });
  return out;
}
