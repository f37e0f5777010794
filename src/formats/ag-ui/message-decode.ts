/**
 * AG-UI messages -> canonical messages. A run of `reasoning` messages joins the assistant message
 * right after it as reasoning parts (one turn, as providers hold it); one with no assistant message
 * after it is an assistant message of its own. `activity` messages (UI progress, which the 1.0
 * client never sends to an agent) are kept whole as an ag-ui provider block. Message ids are hints
 * (`$id`, or `$noId` when a producer left the id out); every other unmapped field is residue.
 */
import { isFormatId } from '../../model/format-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ReasoningPart, ToolCallPart } from '../../model/part.js';
import type { DecodeContext } from '../codec.js';
import { deleteKey } from '../shared/delete-keys.js';
import { keepResidue, residue } from '../shared/residue.js';
import { takeMessageStash } from '../shared/stash.js';
import { AG_UI, ASSISTANT_KEYS, CALL_KEYS, FUNCTION_KEYS, META_KEY, MESSAGE_KEYS, REASONING_MESSAGE_KEYS, TOOL_MESSAGE_KEYS } from './ag-ui-api.js';
import { decodeContent, withHint } from './content-decode.js';
import { parseArguments, type ParsedArgs } from './validate.js';

/** The message id as a hint: `$id`, or `$noId` when the producer sent none. */
function idHint(m: JsonObject, rest: JsonObject | undefined): JsonObject {
  return typeof m['id'] === 'string' ? withHint(rest, '$id', m['id']) : withHint(rest, '$noId', true);
}

function decodeToolCall(call: JsonObject, args: ParsedArgs): ToolCallPart {
  const fn = call['function'] as JsonObject;
  const text = fn['arguments'] as string;
  let value: JsonValue | undefined = args.get(fn);
  if (value === undefined) {
    const parsed = parseArguments(text);
    value = parsed.ok ? parsed.value : {};
  }
  const part: ToolCallPart = { type: 'tool-call', id: call['id'] as string, name: fn['name'] as string, arguments: value, argumentsJson: text };
  let rest = residue(call, CALL_KEYS);
  const inner = residue(fn, FUNCTION_KEYS);
  if (inner) rest = withHint(rest, 'function', inner);
  keepResidue(part, AG_UI, rest);
  return part;
}

/**
 * A reasoning message as a reasoning part. `metadata.interlingua` (written by this codec's encoder)
 * names the provider that minted the opaque value in `encryptedValue` and which canonical field it
 * was, so a signature that travelled through AG-UI reaches its provider again byte-exact.
 */
export function decodeReasoning(m: JsonObject): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', origin: AG_UI, text: m['content'] as string };
  let rest = idHint(m, residue(m, REASONING_MESSAGE_KEYS));
  const meta = m['metadata'];
  const ours = isJsonObject(meta) ? meta[META_KEY] : undefined;
  const value = m['encryptedValue'];
  if (isJsonObject(ours) && typeof ours['origin'] === 'string' && isFormatId(ours['origin'])) {
    applyReasoningMeta(part, ours, typeof value === 'string' ? value : undefined);
    const { [META_KEY]: _ours, ...others } = meta as JsonObject;
    if (Object.keys(others).length > 0) rest = withHint(rest, 'metadata', others);
  } else {
    if (typeof value === 'string') part.encryptedContent = value;
    if (meta !== undefined) rest = withHint(rest, 'metadata', meta);
  }
  keepResidue(part, AG_UI, rest);
  return part;
}

/** Fills a reasoning part from `metadata.interlingua` ({ origin, field, id?, summary?, and any second opaque field }). */
export function applyReasoningMeta(part: ReasoningPart, ours: JsonObject, value: string | undefined): void {
  part.origin = ours['origin'] as ReasoningPart['origin'];
  const field = ours['field'];
  if (value !== undefined && (field === 'signature' || field === 'redactedData' || field === 'encryptedContent')) part[field] = value;
  for (const key of ['signature', 'redactedData', 'encryptedContent', 'id'] as const) {
    const v = ours[key];
    if (typeof v === 'string') part[key] = v;
  }
  const summary = ours['summary'];
  if (Array.isArray(summary) && summary.every((s) => typeof s === 'string')) part.summary = summary as string[];
  if (ours['noText'] === true) deleteKey(part as unknown as JsonObject, 'text');
}

function decodeAssistant(m: JsonObject, args: ParsedArgs, reasoning: ReasoningPart[]): Message {
  const parts: Part[] = [...reasoning];
  const content = m['content'];
  let rest = idHint(m, residue(m, ASSISTANT_KEYS));
  if (typeof content === 'string' && content !== '') parts.push({ type: 'text', text: content });
  else if (content === '') rest = withHint(rest, '$content', '');
  const calls = m['toolCalls'];
  if (Array.isArray(calls)) {
    for (const c of calls) parts.push(decodeToolCall(c as JsonObject, args));
    if (calls.length === 0) rest = withHint(rest, 'toolCalls', []);
  }
  const msg: Message = { role: 'assistant', parts };
  if (typeof m['name'] === 'string') msg.name = m['name'];
  keepResidue(msg, AG_UI, rest);
  return msg;
}

/** One wire message (validated, or just written by this codec) and the reasoning parts before it. */
export function decodeMessage(m: JsonObject, args: ParsedArgs = new Map(), reasoning: ReasoningPart[] = []): Message {
  const role = m['role'] as string;
  if (role === 'assistant') return decodeAssistant(m, args, reasoning);
  if (role === 'activity') return { role: 'assistant', parts: [{ type: 'provider-block', origin: AG_UI, block: m }] };
  if (role === 'tool') {
    const { parts, string } = decodeContent(m['content'] as JsonValue);
    const result: Part = { type: 'tool-result', callId: m['toolCallId'] as string, content: parts };
    if (string) result.stringContent = true;
    const error = m['error'];
    if (typeof error === 'string') {
      result.isError = true;
      keepResidue(result, AG_UI, { error });
    }
    const msg: Message = { role: 'tool', parts: [result] };
    keepResidue(msg, AG_UI, idHint(m, residue(m, TOOL_MESSAGE_KEYS)));
    return msg;
  }
  // user, system, developer
  const { parts, string } = decodeContent(m['content'] as JsonValue);
  const msg: Message = { role: role as Message['role'], parts };
  if (string) msg.stringContent = true;
  if (typeof m['name'] === 'string') msg.name = m['name'];
  keepResidue(msg, AG_UI, idHint(m, residue(m, MESSAGE_KEYS)));
  return msg;
}

/** Messages decoded alone, their arguments parsed here: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  return decodeMessages(wire, new Map());
}

/** takeMessageStash's base path: read only. */
const MESSAGES_PATH: Path = ['messages'];

/**
 * Wire messages in order, taking any preserve stash an encode of another format left first. A run
 * of reasoning messages is held until the message after it says where it belongs.
 */
export function decodeMessages(list: readonly JsonValue[], args: ParsedArgs, ctx?: DecodeContext): Message[] {
  const out: Message[] = [];
  let pending: ReasoningPart[] = [];
  const flush = (): void => {
    if (pending.length > 0) out.push({ role: 'assistant', parts: pending });
    pending = [];
  };
  for (let i = 0; i < list.length; ) {
    const stash = ctx ? takeMessageStash(list, i, ctx, MESSAGES_PATH, decodeSpan) : undefined;
    if (stash) {
      flush();
      out.push(...stash.messages);
      i += stash.span;
      continue;
    }
    const m = list[i] as JsonObject;
    i++;
    if (m['role'] === 'reasoning') {
      pending.push(decodeReasoning(m));
      continue;
    }
    if (m['role'] === 'assistant') {
      out.push(decodeMessage(m, args, pending));
      pending = [];
      continue;
    }
    flush();
    out.push(decodeMessage(m, args));
  }
  flush();
  return out;
}
