/**
 * Validation of inbound Responses bodies: the zod schemas (shape and types, run once per object)
 * plus what a schema cannot say: the item type decides which schema applies, function_call
 * arguments must be JSON, a function_call_output must answer an earlier call, and text is size
 * limited. Every issue is collected with its JSON path and thrown as one ValidationError.
 */
import type { z } from 'zod';
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import * as S from './schema.js';
import { schemaIssues } from '../shared/zod-fast.js';
import { optString } from '../shared/fast-guards.js';
import { childPath } from '../shared/child-path.js';

/** Parsed function_call arguments, keyed by the wire item they came from (parsed once). */
export type ParsedArgs = Map<object, JsonValue>;

/** Every item type of the Responses input / output unions (OpenAPI `InputItem`, `ItemResource`). */
export const ITEM_TYPES: ReadonlySet<string> = new Set([
  'message', 'function_call', 'function_call_output', 'reasoning', 'item_reference',
  'file_search_call', 'computer_call', 'computer_call_output', 'web_search_call', 'tool_search_call',
  'tool_search_output', 'additional_tools', 'compaction', 'compaction_trigger', 'image_generation_call',
  'code_interpreter_call', 'local_shell_call', 'local_shell_call_output', 'shell_call', 'shell_call_output',
  'apply_patch_call', 'apply_patch_call_output', 'mcp_list_tools', 'mcp_approval_request',
  'mcp_approval_response', 'mcp_call', 'custom_tool_call', 'custom_tool_call_output', 'program', 'program_output',
]);

/** An item's type: EasyInputMessage may leave `type` out and is known by its `role`. */
export function itemType(item: JsonObject): string | undefined {
  const t = item['type'];
  if (typeof t === 'string') return t;
  return t === undefined && 'role' in item ? 'message' : undefined;
}

function check(schema: z.ZodType, value: unknown, path: Path, issues: Issue[]): boolean {
  const found = schemaIssues(schema, value);
  if (found.length > 0) issues.push(...fromZodIssues(found, path));
  return found.length === 0;
}

function notObject(what: string): ValidationError {
  return new ValidationError([{ code: 'invalid_type', path: [], message: `a Responses ${what} must be a JSON object`, expected: 'object' }]);
}

/** Arguments text -> JSON; empty means "no arguments" (as in Chat Completions). Undefined when not JSON. */
export function argumentsValue(text: string): JsonValue | undefined {
  // An object's text starts with '{' (the common case) and is never blank: no trimmed copy.
  if (text.charCodeAt(0) !== 123 && text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * Parses a function_call's arguments once; the text itself is kept verbatim by the decoder.
 * Arguments that are not JSON are an error in a request (the caller wrote them). In a response
 * they are what the model wrote (cut off at max_output_tokens, say): they count as `{}`, the text
 * is still kept, so only another format loses it (and reports it), as for Chat Completions.
 */
function parseArguments(item: JsonObject, path: Path, args: ParsedArgs, issues: Issue[] | undefined): void {
  const text = item['arguments'];
  if (typeof text !== 'string') return;
  const value = argumentsValue(text);
  if (value !== undefined) args.set(item, value);
  else if (issues === undefined) args.set(item, {});
  else issues.push({ code: 'invalid_json', path: childPath(path, 'arguments'), message: 'function_call arguments are not valid JSON', expected: 'a JSON text' });
}

function checkParts(list: unknown[], assistant: boolean, limits: Limits, path: Path, issues: Issue[]): void {
  const schema = assistant ? S.AssistantPart : S.InputPart;
  // A loop, and paths built only for a problem (the size check's own first test made here): this runs per part.
  for (let j = 0; j < list.length; j++) {
    const p = list[j];
    const found = schemaIssues(schema, p);
    if (found.length > 0) {
      issues.push(...fromZodIssues(found, childPath(path, j)));
      continue;
    }
    if (!isJsonObject(p)) continue;
    const text = p['text'] ?? p['refusal'];
    if (typeof text === 'string' && text.length * 3 > limits.maxTextBytes) checkTextSize(text, limits, childPath(path, j, typeof p['text'] === 'string' ? 'text' : 'refusal'), issues);
  }
}

function checkContent(content: unknown, assistant: boolean, limits: Limits, path: Path, issues: Issue[]): void {
  if (typeof content === 'string') checkTextSize(content, limits, path, issues);
  else if (Array.isArray(content)) checkParts(content, assistant, limits, path, issues);
}

/**
 * State carried along the item list: calls seen so far, whether calls may live server-side, and
 * whether the items are a response's output (the model's words: arguments need not be JSON).
 */
interface Scope {
  calls: Set<string>;
  serverState: boolean;
  output?: true;
}

function checkItem(item: unknown, path: Path, scope: Scope, ctx: { limits: Limits; args: ParsedArgs; issues: Issue[] }): void {
  const { limits, args, issues } = ctx;
  if (!isJsonObject(item)) {
    issues.push({ code: 'invalid_type', path, message: 'an item must be a JSON object', expected: 'object' });
    return;
  }
  const type = itemType(item);
  if (type === undefined || !ITEM_TYPES.has(type)) {
    const received = typeof item['type'] === 'string' ? item['type'] : undefined;
    const issue: Issue = { code: 'unknown_item_type', path: childPath(path, 'type'), message: received ? `unknown item type '${received}'` : 'an item needs a type (or a role)' };
    if (received) issue.received = received;
    issues.push(issue);
    return;
  }
  switch (type) {
    case 'message': {
      const assistant = item['role'] === 'assistant';
      if (check(assistant ? S.AssistantMessageItem : S.UserMessageItem, item, path, issues)) {
        checkContent(item['content'], assistant, limits, childPath(path, 'content'), issues);
      }
      return;
    }
    case 'function_call':
      if (check(S.FunctionCallItem, item, path, issues)) {
        parseArguments(item, path, args, scope.output ? undefined : issues);
        scope.calls.add(item['call_id'] as string);
      }
      return;
    case 'function_call_output': {
      if (!check(S.FunctionCallOutputItem, item, path, issues)) return;
      const id = item['call_id'] as string;
      // With previous_response_id / conversation / item references, the call may live server-side.
      if (!scope.serverState && !scope.calls.has(id)) {
        issues.push({ code: 'unknown_tool_call', path: childPath(path, 'call_id'), message: `function_call_output answers '${id}', which no earlier function_call has` });
      }
      const output = item['output'];
      if (typeof output === 'string') {
        if (output.length * 3 > limits.maxTextBytes) checkTextSize(output, limits, childPath(path, 'output'), issues);
      } else checkParts(output as unknown[], false, limits, childPath(path, 'output'), issues);
      return;
    }
    case 'reasoning':
      if (check(S.ReasoningItem, item, path, issues)) {
        const summary = item['summary'] as JsonObject[];
        for (let k = 0; k < summary.length; k++) {
          const text = (summary[k] as JsonObject)['text'] as string;
          if (text.length * 3 > limits.maxTextBytes) checkTextSize(text, limits, childPath(path, 'summary', k, 'text'), issues);
        }
      }
      return;
    case 'item_reference':
      scope.serverState = true;
      check(S.ItemReference, item, path, issues);
      return;
    default:
      check(S.OpaqueItem, item, path, issues);
  }
}

/** `undefined`, `null` or a string (`nullish(z.string())`). */
function nullishString(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

/** A text that cannot be over the size limit (the same first test checkTextSize makes). */
function smallText(v: unknown, limits: Limits): boolean {
  return typeof v === 'string' && v.length * 3 <= limits.maxTextBytes;
}

/** input_text as InputText accepts it. */
function inputTextOk(p: JsonObject): boolean {
  const bp = p['prompt_cache_breakpoint'];
  return typeof p['text'] === 'string' && (bp === undefined || (isJsonObject(bp) && typeof bp['mode'] === 'string'));
}

/**
 * Yes/no form of checkParts for the common parts: true only when checkParts would push nothing.
 * Anything it does not model answers false, and the collecting check decides.
 */
function partsOk(list: unknown[], assistant: boolean, limits: Limits): boolean {
  for (let j = 0; j < list.length; j++) {
    const p = list[j];
    if (!isJsonObject(p)) return false;
    // checkParts sizes `text ?? refusal` on whatever part type holds it.
    const text = p['text'] ?? p['refusal'];
    if (typeof text === 'string' && text.length * 3 > limits.maxTextBytes) return false;
    switch (p['type']) {
      case 'input_text':
        if (!inputTextOk(p)) return false;
        break;
      case 'output_text':
        if (!assistant || typeof p['text'] !== 'string' || !annotationsOk(p['annotations'])) return false;
        break;
      case 'refusal':
        if (!assistant || typeof p['refusal'] !== 'string') return false;
        break;
      case 'input_image':
        if (assistant || !nullishString(p['image_url']) || !nullishString(p['file_id']) || !optString(p['detail'])) return false;
        break;
      case 'input_file':
        if (assistant || !optString(p['file_data']) || !nullishString(p['file_id']) || !optString(p['file_url']) || !optString(p['filename'])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Entries `{ type: string, text: string }` (summary, reasoning text); with limits, texts under them. */
function textEntriesOk(list: unknown, limits: Limits | undefined): boolean {
  if (!Array.isArray(list)) return false;
  for (let k = 0; k < list.length; k++) {
    const e: unknown = list[k];
    if (!isJsonObject(e) || typeof e['type'] !== 'string') return false;
    if (limits === undefined ? typeof e['text'] !== 'string' : !smallText(e['text'], limits)) return false;
  }
  return true;
}

/** `annotations` as OutputText accepts it: absent, or a list of objects with a string `type`. */
function annotationsOk(list: unknown): boolean {
  if (list === undefined) return true;
  if (!Array.isArray(list)) return false;
  for (let k = 0; k < list.length; k++) {
    const a: unknown = list[k];
    if (!isJsonObject(a) || typeof a['type'] !== 'string') return false;
  }
  return true;
}

/**
 * Yes/no form of checkItem for the common items (messages, calls, outputs, reasoning), with no
 * paths or issue objects: true when checkItem would push no issue, after doing what it does on
 * success (arguments parsed, the call id noted). False sends the item to checkItem, which finds
 * the issues; the work done here before a false is what checkItem does again, so it is harmless.
 */
function itemOk(item: unknown, scope: Scope, limits: Limits, args: ParsedArgs): boolean {
  if (!isJsonObject(item)) return false;
  const t = item['type'];
  if (t === 'function_call') {
    const text = item['arguments'];
    const id = item['call_id'];
    if (typeof id !== 'string' || typeof item['name'] !== 'string' || typeof text !== 'string' || !optString(item['id'])) return false;
    const value = argumentsValue(text);
    if (value === undefined) {
      if (!scope.output) return false;
      args.set(item, {});
    } else args.set(item, value);
    scope.calls.add(id);
    return true;
  }
  if (t === 'function_call_output') {
    const id = item['call_id'];
    const output = item['output'];
    if (typeof id !== 'string' || (!scope.serverState && !scope.calls.has(id))) return false;
    if (typeof output === 'string') return output.length * 3 <= limits.maxTextBytes;
    return Array.isArray(output) && partsOk(output, false, limits);
  }
  if (t === 'message' || (t === undefined && 'role' in item)) {
    const role = item['role'];
    const assistant = role === 'assistant';
    if (!assistant && role !== 'user' && role !== 'system' && role !== 'developer') return false;
    const content = item['content'];
    if (typeof content === 'string') return content.length * 3 <= limits.maxTextBytes;
    return Array.isArray(content) && partsOk(content, assistant, limits);
  }
  if (t === 'reasoning') {
    const content = item['content'];
    return optString(item['id']) && nullishString(item['encrypted_content']) && textEntriesOk(item['summary'], limits)
      && (content === undefined || textEntriesOk(content, undefined));
  }
  return false;
}

/** Every item through itemOk, and through checkItem (issues with paths) only when it says no. */
function checkItems(list: unknown[], base: string, scope: Scope, limits: Limits, args: ParsedArgs, issues: Issue[]): void {
  let ctx: { limits: Limits; args: ParsedArgs; issues: Issue[] } | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!itemOk(item, scope, limits, args)) checkItem(item, [base, i], scope, (ctx ??= { limits, args, issues }));
  }
}

/** Checks a request body; returns it typed as an object with its parsed arguments. */
export function validateRequest(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) throw notObject('request');
  const issues: Issue[] = [];
  check(S.RequestSchema, body, [], issues);
  const args: ParsedArgs = new Map();
  if (typeof body['instructions'] === 'string') checkTextSize(body['instructions'], limits, ['instructions'], issues);
  const input = body['input'];
  if (typeof input === 'string') checkTextSize(input, limits, ['input'], issues);
  else if (Array.isArray(input)) {
    const serverState = typeof body['previous_response_id'] === 'string' || (body['conversation'] ?? null) !== null;
    checkItems(input, 'input', { calls: new Set(), serverState }, limits, args, issues);
  }
  const tools = body['tools'];
  if (Array.isArray(tools)) tools.forEach((t, i) => isJsonObject(t) && t['type'] === 'function' && check(S.FunctionToolSchema, t, ['tools', i], issues));
  const format = isJsonObject(body['text']) ? body['text']['format'] : undefined;
  if (isJsonObject(format) && format['type'] === 'json_schema') check(S.JsonSchemaFormat, format, ['text', 'format'], issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}

/** Checks a non-streaming response body (a `response` object). */
export function validateResponse(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) throw notObject('response');
  const issues: Issue[] = [];
  check(S.ResponseSchema, body, [], issues);
  const args: ParsedArgs = new Map();
  const output = body['output'];
  if (Array.isArray(output)) {
    // Output items answer nothing: no call matching applies.
    checkItems(output, 'output', { calls: new Set(), serverState: true, output: true }, limits, args, issues);
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}
