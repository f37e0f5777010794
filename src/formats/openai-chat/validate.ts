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
import { checkTextSize } from '../shared/text-limit.js';
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
function parseArguments(fn: unknown, path: Path, args: ParsedArgs, issues: Issue[] | undefined): void {
  if (!isJsonObject(fn) || typeof fn['arguments'] !== 'string') return;
  const text = fn['arguments'];
  if (text.trim() === '') {
    args.set(fn, {});
    return;
  }
  try {
    args.set(fn, JSON.parse(text) as JsonValue);
  } catch {
    if (issues === undefined) args.set(fn, {});
    else issues.push({ code: 'invalid_json', path: [...path, 'arguments'], message: 'tool call arguments are not valid JSON', expected: 'a JSON text' });
  }
}

function callIds(message: JsonObject): string[] {
  const calls = message['tool_calls'];
  if (!Array.isArray(calls)) return [];
  const ids: string[] = [];
  for (const call of calls) if (isJsonObject(call) && typeof call['id'] === 'string') ids.push(call['id']);
  return ids;
}

function checkText(value: unknown, limits: Limits, path: Path, issues: Issue[]): void {
  if (typeof value === 'string') checkTextSize(value, limits, path, issues);
  else if (Array.isArray(value)) {
    value.forEach((part, j) => {
      if (isJsonObject(part) && typeof part['text'] === 'string') checkTextSize(part['text'], limits, [...path, j, 'text'], issues);
      else if (isJsonObject(part) && typeof part['refusal'] === 'string') checkTextSize(part['refusal'], limits, [...path, j, 'refusal'], issues);
    });
  }
}

function checkAssistant(m: JsonObject, i: number, list: unknown[], args: ParsedArgs, issues: Issue[]): void {
  const calls = m['tool_calls'];
  if (Array.isArray(calls)) {
    calls.forEach((call, j) => {
      if (isJsonObject(call)) parseArguments(call['function'], ['messages', i, 'tool_calls', j, 'function'], args, issues);
    });
  }
  parseArguments(m['function_call'], ['messages', i, 'function_call'], args, issues);
  // A trailing assistant turn with calls is a conversation whose results have not arrived yet
  // (a stored history, or a body being assembled): nothing to check until later messages exist.
  if (!Array.isArray(calls) || i + 1 >= list.length) return;
  const answered = new Set<string>();
  for (let k = i + 1; k < list.length; k++) {
    const next = list[k];
    if (!isJsonObject(next) || next['role'] !== 'tool') break;
    if (typeof next['tool_call_id'] === 'string') answered.add(next['tool_call_id']);
  }
  calls.forEach((call, j) => {
    if (isJsonObject(call) && typeof call['id'] === 'string' && !answered.has(call['id'])) {
      issues.push({
        code: 'missing_tool_result',
        path: ['messages', i, 'tool_calls', j, 'id'],
        message: `tool call '${call['id']}' has no tool message answering it right after this assistant message`,
      });
    }
  });
}

function checkMessages(list: unknown[], limits: Limits, args: ParsedArgs, issues: Issue[]): void {
  let callsInScope: string[] = [];
  list.forEach((m, i) => {
    if (!isJsonObject(m)) return;
    const role = m['role'];
    checkText(m['content'], limits, ['messages', i, 'content'], issues);
    if (typeof m['refusal'] === 'string') checkTextSize(m['refusal'], limits, ['messages', i, 'refusal'], issues);
    if (typeof m['reasoning_content'] === 'string') checkTextSize(m['reasoning_content'], limits, ['messages', i, 'reasoning_content'], issues);
    if (role === 'tool') {
      const id = m['tool_call_id'];
      if (typeof id === 'string' && !callsInScope.includes(id)) {
        issues.push({
          code: 'unknown_tool_call',
          path: ['messages', i, 'tool_call_id'],
          message: `tool message answers '${id}', which no tool call of the preceding assistant message has`,
        });
      }
      return; // tool messages may follow each other: the assistant's calls stay in scope
    }
    callsInScope = role === 'assistant' ? callIds(m) : [];
    if (role === 'assistant') checkAssistant(m, i, list, args, issues);
  });
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

/** Checks a non-streaming response body; returns it with its parsed tool-call arguments. */
export function validateResponse(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) throw notObject('response');
  const issues = schemaIssues(responseCheck, body);
  const args: ParsedArgs = new Map();
  const choices = body['choices'];
  if (Array.isArray(choices)) {
    choices.forEach((choice, i) => {
      const message = isJsonObject(choice) ? choice['message'] : undefined;
      if (!isJsonObject(message)) return;
      const at = ['choices', i, 'message'];
      for (const key of ['content', 'refusal', 'reasoning_content']) {
        if (typeof message[key] === 'string') checkTextSize(message[key], limits, [...at, key], issues);
      }
      const calls = message['tool_calls'];
      if (Array.isArray(calls)) {
        calls.forEach((call, j) => {
          if (isJsonObject(call)) parseArguments(call['function'], ['choices', i, 'message', 'tool_calls', j, 'function'], args, undefined);
        });
      }
      parseArguments(message['function_call'], ['choices', i, 'message', 'function_call'], args, undefined);
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}
