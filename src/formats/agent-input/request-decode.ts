/**
 * Agent input request -> canonical Request. A string is one user message (`stringContent`), a
 * list of blocks is ONE user message, a list of messages maps role by role. Fields with no
 * canonical slot (agent_id, tenant_id, other `parameters` ...) are residue.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext } from '../codec.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { keepResidue, residue } from '../shared/residue.js';
import { STASH_KEY, takeMessageStash } from '../shared/stash.js';
import { AGENT_INPUT, ASSISTANT_KEYS, BODY_KEYS, CALL_KEYS, FN_KEYS, MESSAGE_KEYS, ROLES, TOOL_MESSAGE_KEYS } from './agent-input-api.js';
import { decodeBlocks, withHint } from './content-decode.js';
import { validateRequest, type Form, type ParsedArgs } from './validate.js';

/** Arguments validate.ts did not parse (a message this codec just wrote): blank means none, as there. */
function parseArguments(text: string): JsonValue {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function decodeToolCall(call: JsonObject, args: ParsedArgs): ToolCallPart {
  const fn = call['function'] as JsonObject;
  const text = fn['arguments'] as string;
  const parsed = args.has(fn) ? (args.get(fn) as JsonValue) : parseArguments(text);
  const part: ToolCallPart = { type: 'tool-call', id: call['id'] as string, name: fn['name'] as string, arguments: parsed, argumentsJson: text };
  let rest = residue(call, CALL_KEYS);
  if (call['type'] === undefined) rest = withHint(rest, '$noType', true);
  const inner = residue(fn, FN_KEYS);
  if (inner) rest = withHint(rest, 'function', inner);
  keepResidue(part, AGENT_INPUT, rest);
  return part;
}

/** Known keys whose value said nothing (null, []) go back to residue so the way back is exact. */
function keepUnused(m: JsonObject, rest: JsonObject | undefined, keys: readonly string[]): JsonObject | undefined {
  for (const key of keys) {
    const v = m[key];
    if (v === null || (Array.isArray(v) && v.length === 0)) rest = withHint(rest, key, v);
  }
  return rest;
}

/** One wire message (validated, or just written by this codec's encoder) -> one canonical message. */
export function decodeMessage(m: JsonObject, args: ParsedArgs = new Map()): Message {
  const wireRole = m['role'] as string;
  const known = ROLES.get(wireRole.toLowerCase());
  const role = known ?? 'user';
  const content = Array.isArray(m['content']) ? decodeBlocks(m['content']) : [];
  let rest: JsonObject | undefined;
  let parts: Part[] = content;
  if (role === 'tool') {
    parts = [{ type: 'tool-result', callId: m['toolCallId'] as string, content }];
    rest = residue(m, TOOL_MESSAGE_KEYS);
  } else if (role === 'assistant') {
    const calls = m['toolCalls'];
    if (Array.isArray(calls)) for (const call of calls) parts.push(decodeToolCall(call as JsonObject, args));
    rest = keepUnused(m, residue(m, ASSISTANT_KEYS), ['toolCalls']);
    // A calls-only message may leave content out or null; `[]` is what the encoder writes anyway.
    if (m['content'] === null) rest = withHint(rest, 'content', null);
    if (m['content'] === undefined) rest = withHint(rest, '$noContent', true);
  } else {
    rest = residue(m, MESSAGE_KEYS);
  }
  // A known role in another case is a spelling (private hint); an unknown role is meaning that
  // other formats cannot carry (residue, reported by them).
  if (known === undefined) rest = withHint(rest, 'role', wireRole);
  else if (wireRole !== role) rest = withHint(rest, '$role', wireRole);
  const msg: Message = { role, parts };
  keepResidue(msg, AGENT_INPUT, rest);
  return msg;
}

/** Messages decoded alone, their arguments parsed here: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  return wire.map((w) => decodeMessage(w));
}

/** takeMessageStash's base path: read only. */
const INPUT_PATH: Path = ['input'];

/** `input[]` messages, taking any preserve stash left by an encode of another format first. */
function decodeMessages(list: JsonValue[], args: ParsedArgs, ctx: DecodeContext): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < list.length; ) {
    const stash = takeMessageStash(list, i, ctx, INPUT_PATH, decodeSpan);
    if (stash) {
      out.push(...stash.messages);
      i += stash.span;
      continue;
    }
    out.push(decodeMessage(list[i] as JsonObject, args));
    i++;
  }
  return out;
}

function decodeInput(body: JsonObject, form: Form, args: ParsedArgs, ctx: DecodeContext): Message[] {
  const input = body['input'];
  switch (form) {
    case 'text':
      return [{ role: 'user', parts: [{ type: 'text', text: input as string }], stringContent: true }];
    case 'legacy': {
      const question = (body['parameters'] as JsonObject)['question'] as string;
      return [{ role: 'user', parts: [{ type: 'text', text: question }], stringContent: true }];
    }
    case 'blocks':
      return [{ role: 'user', parts: decodeBlocks(input as JsonValue[]) }];
    case 'messages':
      return decodeMessages(input as JsonValue[], args, ctx);
  }
}

/**
 * The form the encoder would pick for these messages by default (see request-encode.ts); a hint
 * records the source's form only when it differs, so most decoded requests carry no ext.
 */
function defaultForm(messages: readonly Message[]): Form {
  const only = messages.length === 1 ? messages[0] : undefined;
  if (only?.role !== 'user' || only.parts.some((p) => p.type === 'tool-result')) return 'messages';
  return only.stringContent && only.parts.length === 1 && only.parts[0]?.type === 'text' ? 'text' : 'blocks';
}

export function decodeRequest(input: unknown, ctx: DecodeContext): Request {
  return decodeWithForm(input, ctx).req;
}

/** Decodes and says which of the input forms the body used (for deriveQuestion). */
export function decodeWithForm(input: unknown, ctx: DecodeContext): { req: Request; form: Form } {
  const { body, form, args } = validateRequest(input, ctx.limits);
  const req: Request = { messages: decodeInput(body, form, args, ctx) };
  let rest = residue(body, BODY_KEYS);
  const params = body['parameters'];
  if (form === 'legacy') {
    const others = residue(params as JsonObject, new Set(['question']));
    if (others) rest = withHint(rest, 'parameters', others);
  } else if (params !== undefined) {
    rest = withHint(rest, 'parameters', params);
  }
  if (form === 'legacy' && body['input'] === null) rest = withHint(rest, 'input', null);
  // A stash means an encoder chose the messages form to carry it: not a form worth remembering.
  const stashed = form === 'messages' && (body['input'] as JsonValue[]).some((m) => isJsonObject(m) && STASH_KEY in m);
  if (form !== 'legacy' && !stashed && form !== defaultForm(req.messages)) rest = withHint(rest, '$form', form);
  if (form === 'legacy') rest = withHint(rest, '$form', 'legacy');
  keepResidue(req, AGENT_INPUT, rest);
  applyTopStash(req as unknown as JsonObject, body, ctx);
  return { req, form };
}
