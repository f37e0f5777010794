/**
 * Validation of inbound Chat Completions bodies: the zod schema (shape and types) plus the rules a
 * schema cannot say (tool call / tool message pairing, arguments that must be JSON, text size).
 * Semantic checks read the raw body defensively, so they run even when the schema failed and the
 * caller gets every issue in one ValidationError.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { schemaCheck, type SchemaCheck } from '../shared/zod-fast.js';
import { RequestSchema, ResponseSchema } from './schema.js';

/** Parsed tool-call arguments, keyed by the wire `function` object they came from (parsed once). */
export type ParsedArgs = Map<object, JsonValue>;

function notObject(what: string): ValidationError {
  return new ValidationError([{ code: 'invalid_type', path: [], message: `a Chat Completions ${what} must be a JSON object`, expected: 'object' }]);
}

const requestCheck = schemaCheck(RequestSchema);
const responseCheck = schemaCheck(ResponseSchema);

function schemaIssues(check: SchemaCheck, body: unknown): Issue[] {
  return fromZodIssues(check(body));
}

/**
 * Empty or whitespace-only arguments mean "no arguments" (some providers send `""` for tools
 * without parameters): they parse to `{}` and the text is kept verbatim in `argumentsJson`.
 * Arguments that are not JSON are an error in a request (the caller wrote them). In a response
 * they are what the model wrote ("the model does not always generate valid JSON", API
 * reference; e.g. cut off at max tokens): `issues` is undefined there, they count as `{}`, and
 * the text is still kept verbatim, so only another format loses it (and reports it).
 */
function parseArguments(fn: unknown, args: ParsedArgs): boolean {
  if (!isJsonObject(fn) || typeof fn['arguments'] !== 'string') return true;
  const text = fn['arguments'];
  // An object's text starts with '{' (the common case) and is never blank: no trimmed copy.
  if (text.charCodeAt(0) !== 123 && text.trim() === '') {
    args.set(fn, {});
    return true;
  }
  try {
    args.set(fn, JSON.parse(text) as JsonValue);
    return true;
  } catch {
    return false;
  }
}

/** A request's arguments that are not JSON are an issue; the path is built only then. */
function parseRequestArguments(fn: unknown, i: number, call: number | undefined, args: ParsedArgs, issues: Issue[]): void {
  if (parseArguments(fn, args)) return;
  const path: Path = call === undefined ? ['messages', i, 'function_call', 'arguments'] : ['messages', i, 'tool_calls', call, 'function', 'arguments'];
  issues.push({ code: 'invalid_json', path, message: 'tool call arguments are not valid JSON', expected: 'a JSON text' });
}

/** A response's arguments that are not JSON count as `{}` (see above). */
function parseResponseArguments(fn: unknown, args: ParsedArgs): void {
  if (!parseArguments(fn, args)) args.set(fn as object, {});
}

/**
 * The parsed arguments of these messages' tool calls, as a response reads them (text that is not
 * JSON counts as `{}`): for a preserve stash's span decode, which sees the messages alone.
 */
export function spanArguments(wire: readonly JsonObject[]): ParsedArgs {
  const args: ParsedArgs = new Map();
  for (const m of wire) {
    const calls = m['tool_calls'];
    if (Array.isArray(calls)) for (const call of calls) if (isJsonObject(call)) parseResponseArguments(call['function'], args);
    parseResponseArguments(m['function_call'], args);
  }
  return args;
}

/** Whether `list` holds a tool call with this id (a message holds a handful: a scan beats a Set). */
function hasCallId(calls: unknown, id: string): boolean {
  if (!Array.isArray(calls)) return false;
  for (const call of calls) if (isJsonObject(call) && call['id'] === id) return true;
  return false;
}

/**
 * The size check of `obj[key]` when it is a string. The path (`messages[i].key`, or
 * `messages[i].content[j].key` when `j` is given) is built only for a text over the limit.
 */
function checkSize(obj: JsonObject, key: string, limits: Limits, issues: Issue[], i: number, j?: number): void {
  const text = obj[key];
  if (typeof text !== 'string' || !overTextLimit(text, limits)) return;
  checkTextSize(text, limits, j === undefined ? ['messages', i, key] : ['messages', i, 'content', j, key], issues);
}

function checkText(m: JsonObject, limits: Limits, i: number, issues: Issue[]): void {
  const value = m['content'];
  if (typeof value === 'string') checkSize(m, 'content', limits, issues, i);
  else if (Array.isArray(value)) {
    for (let j = 0; j < value.length; j++) {
      const part: unknown = value[j];
      if (!isJsonObject(part)) continue;
      if (typeof part['text'] === 'string') checkSize(part, 'text', limits, issues, i, j);
      else checkSize(part, 'refusal', limits, issues, i, j);
    }
  }
}

function checkAssistant(m: JsonObject, i: number, list: unknown[], args: ParsedArgs, issues: Issue[]): void {
  const calls = m['tool_calls'];
  if (Array.isArray(calls)) {
    for (let j = 0; j < calls.length; j++) {
      const call: unknown = calls[j];
      if (isJsonObject(call)) parseRequestArguments(call['function'], i, j, args, issues);
    }
  }
  if (m['function_call'] !== undefined) parseRequestArguments(m['function_call'], i, undefined, args, issues);
  // A trailing assistant turn with calls is a conversation whose results have not arrived yet
  // (a stored history, or a body being assembled): nothing to check until later messages exist.
  if (!Array.isArray(calls) || i + 1 >= list.length) return;
  for (let j = 0; j < calls.length; j++) {
    const call: unknown = calls[j];
    if (!isJsonObject(call) || typeof call['id'] !== 'string' || isAnswered(list, i, call['id'])) continue;
    issues.push({
      code: 'missing_tool_result',
      path: ['messages', i, 'tool_calls', j, 'id'],
      message: `tool call '${call['id']}' has no tool message answering it right after this assistant message`,
    });
  }
}

/** Whether one of the tool messages right after `list[i]` answers `id`. */
function isAnswered(list: unknown[], i: number, id: string): boolean {
  for (let k = i + 1; k < list.length; k++) {
    const next = list[k];
    if (!isJsonObject(next) || next['role'] !== 'tool') return false;
    if (next['tool_call_id'] === id) return true;
  }
  return false;
}

function checkMessages(list: unknown[], limits: Limits, args: ParsedArgs, issues: Issue[]): void {
  // The assistant message whose calls tool messages may answer (tool messages may follow each other).
  let scope: JsonObject | undefined;
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isJsonObject(m)) continue;
    const role = m['role'];
    checkText(m, limits, i, issues);
    if (m['refusal'] !== undefined) checkSize(m, 'refusal', limits, issues, i);
    if (m['reasoning_content'] !== undefined) checkSize(m, 'reasoning_content', limits, issues, i);
    if (role === 'tool') {
      const id = m['tool_call_id'];
      if (typeof id === 'string' && !hasCallId(scope?.['tool_calls'], id)) {
        issues.push({
          code: 'unknown_tool_call',
          path: ['messages', i, 'tool_call_id'],
          message: `tool message answers '${id}', which no tool call of the preceding assistant message has`,
        });
      }
      continue;
    }
    scope = role === 'assistant' ? m : undefined;
    if (role === 'assistant') checkAssistant(m, i, list, args, issues);
  }
}

/** Checks a request body; returns it typed as an object with its parsed tool-call arguments. */
export function validateRequest(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) throw notObject('request');
  const issues = schemaIssues(requestCheck, body);
  const args: ParsedArgs = new Map();
  const messages = body['messages'];
  if (Array.isArray(messages)) checkMessages(messages, limits, args, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}

const MESSAGE_TEXT_KEYS = ['content', 'refusal', 'reasoning_content'] as const;

/** Checks a non-streaming response body; returns it with its parsed tool-call arguments. */
export function validateResponse(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) throw notObject('response');
  const issues = schemaIssues(responseCheck, body);
  const args: ParsedArgs = new Map();
  const choices = body['choices'];
  if (Array.isArray(choices)) {
    for (let i = 0; i < choices.length; i++) {
      const choice: unknown = choices[i];
      const message = isJsonObject(choice) ? choice['message'] : undefined;
      if (!isJsonObject(message)) continue;
      for (const key of MESSAGE_TEXT_KEYS) {
        const text = message[key];
        if (typeof text === 'string' && overTextLimit(text, limits)) checkTextSize(text, limits, ['choices', i, 'message', key], issues);
      }
      const calls = message['tool_calls'];
      if (Array.isArray(calls)) {
        for (const call of calls) if (isJsonObject(call)) parseResponseArguments(call['function'], args);
      }
      parseResponseArguments(message['function_call'], args);
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}
