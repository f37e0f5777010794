/**
 * Chat Completions messages -> canonical messages (request `messages[]` and response
 * `choices[].message`). Shapes are schema-checked; arguments were parsed once by validate.ts.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { DecodeContext } from '../codec.js';
import { keepResidue, residue } from '../shared/residue.js';
import { takeMessageStash } from '../shared/stash.js';
import { decodeContent, withHint } from './content-decode.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { spanArguments, type ParsedArgs } from './validate.js';

const CONTENT_KEYS = new Set(['role', 'content', 'name']);
const ASSISTANT_KEYS = new Set(['role', 'content', 'refusal', 'name', 'tool_calls', 'function_call', 'reasoning_content']);
const TOOL_KEYS = new Set(['role', 'content', 'tool_call_id', 'name']);
const CALL_KEYS = new Set(['id', 'type', 'function', 'custom']);
const FN_KEYS = new Set(['name', 'arguments']);
const CUSTOM_KEYS = new Set(['name', 'input']);
/** The assistant keys whose null or empty value keepUnused keeps (one list, not one per message). */
const ASSISTANT_UNUSED: readonly string[] = ['content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content'];
/** takeMessageStash's base path: read only (it builds the stash's own path from it). */
const MESSAGES_PATH: Path = ['messages'];

/** Known keys whose value said nothing (null, []) go back to residue so the way back is exact. */
export function keepUnused(obj: JsonObject, rest: JsonObject | undefined, keys: readonly string[]): JsonObject | undefined {
  for (const key of keys) {
    const v = obj[key];
    if (v === null || (Array.isArray(v) && v.length === 0)) (rest ??= {})[key] = v;
  }
  return rest;
}

/** A wire tool call -> tool-call part; `function`/`custom` residue nests under its own key. */
export function decodeToolCall(call: JsonObject, args: ParsedArgs): ToolCallPart {
  let rest = residue(call, CALL_KEYS);
  let part: ToolCallPart;
  if (call['type'] === 'custom') {
    const custom = call['custom'] as JsonObject;
    part = { type: 'tool-call', id: call['id'] as string, name: custom['name'] as string, arguments: custom['input'] as string };
    rest = withHint(rest, '$custom', true);
    const inner = residue(custom, CUSTOM_KEYS);
    if (inner) rest['custom'] = inner;
  } else {
    const fn = call['function'] as JsonObject;
    const text = fn['arguments'] as string;
    part = { type: 'tool-call', id: call['id'] as string, name: fn['name'] as string, arguments: args.get(fn) ?? {}, argumentsJson: text };
    if (call['type'] === undefined) rest = withHint(rest, '$noType', true);
    const inner = residue(fn, FN_KEYS);
    if (inner) (rest ??= {})['function'] = inner;
  }
  keepResidue(part, OPENAI_CHAT, rest);
  return part;
}

/**
 * Deprecated `function_call`: a tool call whose id is the function name, which is how the
 * matching `role: 'function'` message refers to it; `$legacy` writes it back in the old form.
 */
function decodeFunctionCall(fc: JsonObject, args: ParsedArgs): ToolCallPart {
  const name = fc['name'] as string;
  const part: ToolCallPart = { type: 'tool-call', id: name, name, arguments: args.get(fc) ?? {}, argumentsJson: fc['arguments'] as string };
  keepResidue(part, OPENAI_CHAT, withHint(residue(fc, FN_KEYS), '$legacy', true));
  return part;
}

/** The assistant fields shared by request messages and response messages. */
export function decodeAssistant(m: JsonObject, args: ParsedArgs, known: ReadonlySet<string> = ASSISTANT_KEYS): Message {
  const parts: Part[] = [];
  const msg: Message = { role: 'assistant', parts };
  // Reasoning comes before the answer it led to.
  const reasoning = m['reasoning_content'];
  if (typeof reasoning === 'string') parts.push({ type: 'reasoning', origin: OPENAI_CHAT, text: reasoning });
  let rest = residue(m, known);
  const content = m['content'];
  if (content !== undefined && content !== null) {
    const form = decodeContent(content as string | JsonObject[], parts);
    if (form.string) msg.stringContent = true;
    if (form.textArray) rest = withHint(rest, '$textArray', true);
  }
  if (typeof m['refusal'] === 'string') parts.push({ type: 'refusal', text: m['refusal'] });
  const calls = m['tool_calls'];
  if (Array.isArray(calls)) for (const call of calls) parts.push(decodeToolCall(call as JsonObject, args));
  const fc = m['function_call'];
  if (fc !== null && typeof fc === 'object') parts.push(decodeFunctionCall(fc as JsonObject, args));
  if (typeof m['name'] === 'string') msg.name = m['name'];
  keepResidue(msg, OPENAI_CHAT, keepUnused(m, rest, ASSISTANT_UNUSED));
  return msg;
}

function decodeTool(m: JsonObject): Message {
  const content: Part[] = [];
  const form = decodeContent(m['content'] as string | JsonObject[], content);
  const result: Part = { type: 'tool-result', callId: m['tool_call_id'] as string, content };
  if (form.string) result.stringContent = true;
  const msg: Message = { role: 'tool', parts: [result] };
  // `name` on a tool message is pre-2024 / compatible-provider usage: the called function's name.
  if (typeof m['name'] === 'string') {
    msg.name = m['name'];
    result.name = m['name'];
  }
  keepResidue(msg, OPENAI_CHAT, residue(m, TOOL_KEYS));
  return msg;
}

/** Deprecated `role: 'function'`: the result of the `function_call` whose id is its name. */
function decodeFunctionResult(m: JsonObject): Message {
  const name = m['name'] as string;
  const content: Part[] = [];
  const text = m['content'];
  if (typeof text === 'string') content.push({ type: 'text', text });
  const result: Part = { type: 'tool-result', callId: name, name, content };
  if (typeof text === 'string') result.stringContent = true;
  const msg: Message = { role: 'tool', name, parts: [result] };
  keepResidue(msg, OPENAI_CHAT, withHint(residue(m, TOOL_KEYS), '$role', 'function'));
  return msg;
}

function decodeMessage(m: JsonObject, args: ParsedArgs): Message {
  const role = m['role'];
  if (role === 'assistant') return decodeAssistant(m, args);
  if (role === 'tool') return decodeTool(m);
  if (role === 'function') return decodeFunctionResult(m);
  const parts: Part[] = [];
  const msg: Message = { role: role as 'system' | 'developer' | 'user', parts };
  const form = decodeContent(m['content'] as string | JsonObject[], parts);
  if (form.string) msg.stringContent = true;
  if (typeof m['name'] === 'string') msg.name = m['name'];
  let rest = residue(m, CONTENT_KEYS);
  if (form.textArray) rest = withHint(rest, '$textArray', true);
  keepResidue(msg, OPENAI_CHAT, rest);
  return msg;
}

/** Messages decoded alone, their arguments parsed here: the preserve stash's SpanDecoder (stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  const args = spanArguments(wire);
  return wire.map((m) => decodeMessage(m, args));
}

/** `messages[]`, taking any preserve stash left by an encode of another format first. */
export function decodeMessages(list: JsonObject[], args: ParsedArgs, ctx: DecodeContext): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < list.length; ) {
    const stash = takeMessageStash(list, i, ctx, MESSAGES_PATH, decodeSpan);
    if (stash) {
      for (const m of stash.messages) out.push(m);
      i += stash.span;
      continue;
    }
    out.push(decodeMessage(list[i] as JsonObject, args));
    i++;
  }
  return out;
}
