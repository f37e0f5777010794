/**
 * Validation of inbound agent input bodies. Which form `input` has is decided here (string, then
 * an array whose first item has `role` = messages, else content blocks); every problem is
 * collected with its JSON path so the caller gets them all in one ValidationError. Messages are
 * the source design's where it names one, ml-commons' (protocols.md §4.2-4.3) for its further rules.
 */
import type { z } from 'zod';
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { MEDIA_KINDS, ROLES, type MediaKind } from './agent-input-api.js';
import { mediaSourceSchema, ToolCallSchema } from './schema.js';
import { schemaIssues } from '../shared/zod-fast.js';
import { childPath } from '../shared/child-path.js';

export type Form = 'text' | 'blocks' | 'messages' | 'legacy';

/** Parsed tool-call arguments, keyed by the wire `function` object they came from (parsed once). */
export type ParsedArgs = Map<object, JsonValue>;

export interface Validated {
  body: JsonObject;
  form: Form;
  args: ParsedArgs;
}

export const FORM_MESSAGE = 'expected string, array of content blocks, or array of messages';

/** A short name for what a value is, for `received`. */
export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'empty array' : `array of ${describe(value[0])}`;
  if (typeof value === 'string' && value.trim() === '') return 'blank string';
  return typeof value;
}

/**
 * zod issues with `received` filled in from the value at their path (zod's own issues carry no
 * received value), so error bodies can say what was sent.
 */
function zodIssues(zodList: readonly z.core.$ZodIssue[], value: unknown, prefix: Path): Issue[] {
  return fromZodIssues(zodList, prefix).map((out, k) => {
    let at: unknown = value;
    for (const seg of zodList[k]?.path ?? []) at = isJsonObject(at) || Array.isArray(at) ? (at as Record<PropertyKey, unknown>)[seg as PropertyKey] : undefined;
    if (out.received === undefined) out.received = typeof at === 'string' && at.trim() !== '' ? at : describe(at);
    return out;
  });
}

function issue(issues: Issue[], code: string, path: Path, message: string, expected?: string, received?: string): void {
  const out: Issue = { code, path, message };
  if (expected !== undefined) out.expected = expected;
  if (received !== undefined) out.received = received;
  issues.push(out);
}

/** Text input / text block rules: present, not blank (ml-commons), within the size limit. */
function checkText(value: unknown, path: Path, blankMessage: string, limits: Limits, issues: Issue[]): void {
  if (typeof value !== 'string') return;
  if (value.trim() === '') issue(issues, 'too_small', path, blankMessage, 'non-blank text', 'blank text');
  else checkTextSize(value, limits, path, issues);
}

/** The media object of a media block: under the block's type name (source design) or `source` (ml-commons). */
export function mediaKey(block: JsonObject, kind: MediaKind): string | undefined {
  if (block[kind] !== undefined && block[kind] !== null) return kind;
  if (block['source'] !== undefined && block['source'] !== null) return 'source';
  return undefined;
}

function checkBlock(block: unknown, parent: Path, index: number, limits: Limits, issues: Issue[]): void {
  if (isJsonObject(block) && block['type'] === 'text') {
    // The common case first, with no path built: a text block whose text is not blank and cannot be over the size limit.
    const text = block['text'];
    if (typeof text === 'string' && text.length * 3 <= limits.maxTextBytes && text.trim() !== '') return;
  }
  // The block's path, built only past the common case above (this runs for every block).
  const path = childPath(parent, index);
  if (!isJsonObject(block)) {
    issue(issues, 'invalid_type', path, 'Content block must have a type', 'object', describe(block));
    return;
  }
  const type = block['type'];
  if (typeof type !== 'string' || type.trim() === '') {
    issue(issues, 'invalid_type', childPath(path, 'type'), 'Content block must have a type', 'string', describe(type));
    return;
  }
  const kind = type.toLowerCase();
  if (kind === 'text') {
    const text = block['text'];
    if (typeof text !== 'string') issue(issues, 'invalid_type', childPath(path, 'text'), 'Text content block must have text field', 'string', describe(text));
    else checkText(text, childPath(path, 'text'), 'Text content block cannot have null or empty text', limits, issues);
    return;
  }
  if (!(MEDIA_KINDS as readonly string[]).includes(kind)) {
    issue(issues, 'invalid_value', childPath(path, 'type'), `Unsupported content block type: ${type}`, 'text, image, video or document', type);
    return;
  }
  const media = kind as MediaKind;
  const key = mediaKey(block, media);
  if (key === undefined) {
    const label = media.charAt(0).toUpperCase() + media.slice(1);
    issue(issues, 'invalid_type', childPath(path, media), `${label} content block must have ${media} data`, 'object', 'missing');
    return;
  }
  const found = schemaIssues(mediaSourceSchema(media), block[key]);
  if (found.length > 0) issues.push(...zodIssues(found, block[key], childPath(path, key)));
}

/** A list of blocks: the top-level `input` (where a message-shaped item means mixed types) or a message's content. */
function checkBlocks(list: unknown[], path: Path, top: boolean, limits: Limits, issues: Issue[]): void {
  for (let i = 0; i < list.length; i++) {
    const block = list[i];
    if (top && isJsonObject(block) && 'role' in block) {
      issue(issues, 'invalid_type', childPath(path, i), `Mixed array types: expected all items to be content blocks, but item at index ${i} is a message`, 'content block', 'message');
      continue;
    }
    checkBlock(block, path, i, limits, issues);
  }
}

/** Empty or whitespace-only arguments mean "no arguments" (ml-commons' Bedrock provider sends `{}`). */
function parseArguments(fn: JsonObject, calls: Path, j: number, args: ParsedArgs, issues: Issue[]): void {
  const text = fn['arguments'] as string;
  if (text.trim() === '') {
    args.set(fn, {});
    return;
  }
  try {
    args.set(fn, JSON.parse(text) as JsonValue);
  } catch {
    issue(issues, 'invalid_json', childPath(calls, j, 'function', 'arguments'), 'tool call arguments are not valid JSON', 'a JSON text');
  }
}

function checkToolCalls(calls: unknown, path: Path, args: ParsedArgs, issues: Issue[]): void {
  if (!Array.isArray(calls)) {
    issue(issues, 'invalid_type', path, 'toolCalls must be an array of tool calls', 'array', describe(calls));
    return;
  }
  for (let j = 0; j < calls.length; j++) {
    const call: unknown = calls[j];
    const found = schemaIssues(ToolCallSchema, call);
    if (found.length > 0) issues.push(...zodIssues(found, call, childPath(path, j)));
    else parseArguments((call as JsonObject)['function'] as JsonObject, path, j, args, issues);
  }
}

function checkMessage(m: unknown, path: Path, limits: Limits, args: ParsedArgs, issues: Issue[]): void {
  const missing = 'Message must have role and content';
  if (!isJsonObject(m)) {
    issue(issues, 'invalid_type', path, missing, 'object', describe(m));
    return;
  }
  const role = m['role'];
  if (typeof role !== 'string' || role.trim() === '') {
    issue(issues, 'invalid_type', childPath(path, 'role'), missing, 'string', describe(role));
    return;
  }
  // Any role is accepted (ml-commons passes unknown roles through); only the five canonical ones
  // have rules of their own.
  const canonical = ROLES.get(role.toLowerCase());
  const calls = m['toolCalls'];
  const hasCalls = canonical === 'assistant' && calls !== undefined && calls !== null;
  if (hasCalls) checkToolCalls(calls, childPath(path, 'toolCalls'), args, issues);
  const content = m['content'];
  // ml-commons lets an assistant message that only calls tools leave content out.
  const callsOnly = hasCalls && Array.isArray(calls) && calls.length > 0;
  if (Array.isArray(content) && content.length > 0) checkBlocks(content, childPath(path, 'content'), false, limits, issues);
  else if (!(callsOnly && (content === undefined || content === null || (Array.isArray(content) && content.length === 0)))) {
    issue(issues, 'invalid_type', childPath(path, 'content'), missing, 'non-empty array of content blocks', describe(content));
  }
  if (canonical === 'tool') {
    const id = m['toolCallId'];
    if (typeof id !== 'string' || id.trim() === '') issue(issues, 'invalid_type', childPath(path, 'toolCallId'), 'Tool message must have toolCallId', 'string', describe(id));
  }
}

/** A string that is not blank, as `required` in schema.ts asks; trimmed only when its first unit is not plain ASCII. */
function nonBlank(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0) return false;
  const c = v.charCodeAt(0);
  return (c > 32 && c < 127) || v.trim() !== '';
}

/**
 * Yes/no form of checkMessage for the common messages (text blocks, tool calls, tool results): true
 * only when checkMessage would push no issue, with the arguments parsed as it parses them. False
 * sends the message to checkMessage, which finds the issues (and parses the same arguments again).
 */
function messageOk(m: unknown, limits: Limits, args: ParsedArgs): boolean {
  if (!isJsonObject(m)) return false;
  const role = m['role'];
  if (!nonBlank(role)) return false;
  const canonical = ROLES.get(role.toLowerCase());
  const calls = m['toolCalls'];
  const hasCalls = canonical === 'assistant' && calls !== undefined && calls !== null;
  if (hasCalls) {
    if (!Array.isArray(calls)) return false;
    for (let j = 0; j < calls.length; j++) {
      const call: unknown = calls[j];
      if (!isJsonObject(call) || !nonBlank(call['id']) || (call['type'] !== undefined && call['type'] !== 'function')) return false;
      const fn = call['function'];
      if (!isJsonObject(fn) || !nonBlank(fn['name'])) return false;
      const text = fn['arguments'];
      if (typeof text !== 'string') return false;
      if (text.charCodeAt(0) === 123) {
        try {
          args.set(fn, JSON.parse(text) as JsonValue);
        } catch {
          return false;
        }
      } else if (text.trim() === '') args.set(fn, {});
      else return false;
    }
  }
  const content = m['content'];
  if (Array.isArray(content) && content.length > 0) {
    for (let j = 0; j < content.length; j++) {
      const block: unknown = content[j];
      if (!isJsonObject(block) || block['type'] !== 'text') return false;
      const text = block['text'];
      if (typeof text !== 'string' || text.length * 3 > limits.maxTextBytes || !nonBlank(text)) return false;
    }
  } else if (!(hasCalls && (calls as unknown[]).length > 0 && (content === undefined || content === null || Array.isArray(content)))) return false;
  return canonical !== 'tool' || nonBlank(m['toolCallId']);
}

function checkLegacy(body: JsonObject, limits: Limits, issues: Issue[]): boolean {
  const params = body['parameters'];
  if (!isJsonObject(params) || params['question'] === undefined || params['question'] === null) return false;
  const question = params['question'];
  if (typeof question !== 'string') issue(issues, 'invalid_type', ['parameters', 'question'], 'parameters.question must be a string', 'string', describe(question));
  else checkText(question, ['parameters', 'question'], 'Text input cannot be null or empty', limits, issues);
  return true;
}

/** Checks a request body; returns it with its form and parsed tool-call arguments. */
export function validateRequest(body: unknown, limits: Limits): Validated {
  if (body === null || body === undefined) throw new ValidationError([{ code: 'invalid_type', path: [], message: 'Input cannot be null', expected: 'object', received: describe(body) }]);
  if (!isJsonObject(body)) {
    throw new ValidationError([{ code: 'invalid_type', path: [], message: 'an agent input request must be a JSON object', expected: 'object', received: describe(body) }]);
  }
  const issues: Issue[] = [];
  const args: ParsedArgs = new Map();
  const input = body['input'];
  let form: Form = 'text';
  if (input === undefined || input === null) {
    if (checkLegacy(body, limits, issues)) form = 'legacy';
    else issue(issues, 'invalid_type', ['input'], 'Input cannot be null', FORM_MESSAGE.slice('expected '.length), describe(input));
  } else if (typeof input === 'string') {
    checkText(input, ['input'], 'Text input cannot be null or empty', limits, issues);
  } else if (Array.isArray(input) && isJsonObject(input[0])) {
    if ('role' in input[0]) {
      form = 'messages';
      for (let i = 0; i < input.length; i++) if (!messageOk(input[i], limits, args)) checkMessage(input[i], ['input', i], limits, args, issues);
    } else {
      form = 'blocks';
      checkBlocks(input, ['input'], true, limits, issues);
    }
  } else {
    issue(issues, 'invalid_type', ['input'], FORM_MESSAGE, 'string, array of content blocks, or array of messages', describe(input));
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, form, args };
}
