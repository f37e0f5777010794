/**
 * Validation of Bedrock Converse bodies: one zod pass for shape (schema.ts), then the API's
 * semantic rules, which the Smithy model does not state but the service enforces with these
 * ValidationException texts: "A conversation must start with a user message", "A conversation
 * must alternate between user and assistant roles", "The text field in the ContentBlock object ...
 * is blank", "The toolConfig field must be defined when using toolUse and toolResult content
 * blocks"; plus toolUse / toolResult pairing, the output schema is JSON, and text size. Every issue
 * is collected, then one ValidationError is thrown. Nothing here trusts the input's types.
 */
import type { z } from 'zod';
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { schemaCheck } from '../shared/zod-fast.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { requestSchema, responseSchema } from './schema.js';
import { requireObject } from '../shared/require-object.js';
import { childPath } from '../shared/child-path.js';

// The fast check answers first; zod parses only a body it refuses, to say what is wrong (zod-fast.ts).
const requestCheck = schemaCheck(requestSchema);
const responseCheck = schemaCheck(responseSchema);

export function validateRequest(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const issues = zodIssues(requestCheck(obj));
  checkRoles(obj, issues);
  checkPairing(obj, issues);
  checkToolConfig(obj, issues);
  checkOutputSchema(obj, issues);
  const system = obj['system'];
  if (Array.isArray(system)) checkBlocksText(system, ['system'], limits, issues);
  const messages = obj['messages'];
  if (Array.isArray(messages)) {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (!isJsonObject(m) || !Array.isArray(m['content'])) continue;
      const path = ['messages', i, 'content'];
      // "The content field in the Message object at messages.N is empty" (a ValidationException).
      if (m['content'].length === 0) issues.push({ code: 'empty_content', path, message: 'a message needs at least one content block' });
      checkBlocksText(m['content'], path, limits, issues);
      checkBlank(m['content'], path, issues);
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

export function validateResponse(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const issues = zodIssues(responseCheck(obj));
  const output = obj['output'];
  const message = isJsonObject(output) ? output['message'] : undefined;
  if (isJsonObject(message) && Array.isArray(message['content'])) {
    checkBlocksText(message['content'], ['output', 'message', 'content'], limits, issues);
    checkAssistantResults(message, ['output', 'message'], issues);
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

/** zod issues as ours; union checks in schema.ts name their own code in `params.code`. */
function zodIssues(raw: readonly z.core.$ZodIssue[]): Issue[] {
  return fromZodIssues(raw).map((issue, k) => {
    const z = raw[k];
    const params = z && z.code === 'custom' ? (z.params as { code?: string; expected?: string } | undefined) : undefined;
    if (params?.code !== undefined) issue.code = params.code;
    if (params?.expected !== undefined) issue.expected = params.expected;
    return issue;
  });
}

/** The block's single member name, when it is an object. */
function kind(block: unknown): string | undefined {
  if (!isJsonObject(block)) return undefined;
  for (const key in block) if (key !== 'x-interlingua') return key;
  return undefined;
}

const NONE: ReadonlyMap<string, number> = new Map();

/** The client tool ids of a message's toolUse or toolResult blocks, to their block index. */
function toolIds(message: unknown, member: 'toolUse' | 'toolResult'): ReadonlyMap<string, number> {
  if (!isJsonObject(message)) return NONE;
  const content = message['content'];
  if (!Array.isArray(content)) return NONE;
  let out: Map<string, number> | undefined;
  for (let j = 0; j < content.length; j++) {
    const b = content[j];
    const inner = isJsonObject(b) ? b[member] : undefined;
    if (!isJsonObject(inner) || typeof inner['toolUseId'] !== 'string') continue;
    // A server tool (type server_tool_use, or a typed result) is run and answered by Bedrock itself,
    // inside the same assistant message: it is not paired across turns.
    if (inner['type'] === 'server_tool_use' || (member === 'toolResult' && typeof inner['type'] === 'string')) continue;
    (out ??= new Map()).set(inner['toolUseId'], j);
  }
  return out ?? NONE;
}

/**
 * Bedrock's pairing rules: each toolUse of an assistant turn is answered by a toolResult in the
 * next (user) message, and each toolResult in a user turn answers a toolUse of the previous
 * (assistant) message. A toolUse in the LAST message has no next message yet; that is allowed,
 * because a body may be a stored history or a prefilled assistant turn being continued, and it is
 * the next request that must carry the results.
 */
function checkPairing(body: JsonObject, issues: Issue[]): void {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return;
  // Each message's ids are read once: a message is checked against both of its neighbours.
  const uses: (ReadonlyMap<string, number> | undefined)[] = [];
  const results: (ReadonlyMap<string, number> | undefined)[] = [];
  const usesAt = (k: number): ReadonlyMap<string, number> => (uses[k] ??= toolIds(messages[k], 'toolUse'));
  const resultsAt = (k: number): ReadonlyMap<string, number> => (results[k] ??= toolIds(messages[k], 'toolResult'));
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (role(m) === 'assistant') checkAssistantResults(m, ['messages', i], issues);
    if (role(m) === 'assistant') {
      const next: unknown = messages[i + 1];
      if (next === undefined) continue;
      const answered = role(next) === 'user' ? resultsAt(i + 1) : NONE;
      for (const [id, j] of usesAt(i)) {
        if (!answered.has(id)) {
          issues.push({ code: 'tool_use_without_result', path: ['messages', i, 'content', j, 'toolUse', 'toolUseId'], message: `toolUse '${id}' has no toolResult in the next message` });
        }
      }
    } else if (role(m) === 'user') {
      const prev = role(messages[i - 1]) === 'assistant' ? usesAt(i - 1) : undefined;
      for (const [id, j] of resultsAt(i)) {
        if (!prev?.has(id)) {
          issues.push({ code: 'tool_result_without_use', path: ['messages', i, 'content', j, 'toolResult', 'toolUseId'], message: `toolResult '${id}' answers no toolUse in the previous assistant message` });
        }
      }
    }
  }
}

function role(m: unknown): unknown {
  return isJsonObject(m) ? m['role'] : undefined;
}

/** The first turn is the user's, and user and assistant turns alternate (system turns aside). */
function checkRoles(body: JsonObject, issues: Issue[]): void {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return;
  let prev: unknown;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    const role = isJsonObject(m) ? m['role'] : undefined;
    if (role !== 'user' && role !== 'assistant') continue;
    if (prev === undefined && role !== 'user') {
      issues.push({ code: 'first_message_not_user', path: ['messages', i, 'role'], message: 'a conversation must start with a user message', expected: 'user', received: role });
    } else if (prev === role) {
      issues.push({ code: 'roles_not_alternating', path: ['messages', i, 'role'], message: `two ${role} turns in a row; user and assistant turns must alternate`, received: role });
    }
    prev = role;
  }
}

/**
 * Message-level text must not be empty. Whitespace is not "blank" to Bedrock: a recorded request
 * with a text block "\n" was answered 200 (pydantic-ai cassette test_bedrock_cache_write_and_read).
 * Inside a tool result, empty text is accepted too.
 */
function checkBlank(blocks: unknown[], path: Path, issues: Issue[]): void {
  for (let j = 0; j < blocks.length; j++) {
    const b: unknown = blocks[j];
    if (isJsonObject(b) && b['text'] === '') {
      issues.push({ code: 'blank_text', path: childPath(path, j, 'text'), message: 'a text block must not be empty' });
    }
  }
}

/** Client-side toolUse / toolResult blocks need a toolConfig in the same request. */
function checkToolConfig(body: JsonObject, issues: Issue[]): void {
  const messages = body['messages'];
  if (!Array.isArray(messages) || body['toolConfig'] !== undefined && body['toolConfig'] !== null) return;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const uses = toolIds(m, 'toolUse');
    const results = toolIds(m, 'toolResult');
    const first = [...uses.values(), ...results.values()][0];
    if (first !== undefined) {
      const member = uses.size > 0 ? 'toolUse' : 'toolResult';
      issues.push({ code: 'tool_config_required', path: ['toolConfig'], message: `messages[${i}].content[${first}] is a ${member} block, so the request must define toolConfig` });
      return;
    }
  }
}

/**
 * Tool results belong in user turns; an assistant turn holds only the typed results of tools
 * Bedrock ran itself (e.g. nova_code_interpreter_result).
 */
export function checkAssistantResults(message: unknown, path: Path, issues: Issue[]): void {
  if (!isJsonObject(message)) return;
  const content = message['content'];
  if (!Array.isArray(content)) return;
  for (let j = 0; j < content.length; j++) {
    const b: unknown = content[j];
    const r = isJsonObject(b) ? b['toolResult'] : undefined;
    if (isJsonObject(r) && typeof r['type'] !== 'string') {
      issues.push({ code: 'tool_result_in_assistant', path: childPath(path, 'content', j, 'toolResult'), message: 'a client tool result belongs in a user message' });
    }
  }
}

/** outputConfig's JSON schema travels as a string; it must parse. */
function checkOutputSchema(body: JsonObject, issues: Issue[]): void {
  const oc = body['outputConfig'];
  const tf = isJsonObject(oc) ? oc['textFormat'] : undefined;
  const st = isJsonObject(tf) ? tf['structure'] : undefined;
  const js = isJsonObject(st) ? st['jsonSchema'] : undefined;
  const schema = isJsonObject(js) ? js['schema'] : undefined;
  if (typeof schema !== 'string') return;
  try {
    JSON.parse(schema);
  } catch {
    issues.push({ code: 'invalid_json', path: ['outputConfig', 'textFormat', 'structure', 'jsonSchema', 'schema'], message: 'the JSON schema is not valid JSON' });
  }
}

/** Text in blocks, and in the blocks one level down (tool results, citations, search results). */
function checkBlocksText(blocks: unknown[], path: Path, limits: Limits, issues: Issue[]): void {
  for (let j = 0; j < blocks.length; j++) {
    const b: unknown = blocks[j];
    if (!isJsonObject(b)) continue;
    const key = kind(b);
    const value = key === undefined ? undefined : b[key];
    // checkTextSize's own cheap bound first, so that no path is built for a short text.
    if (key === 'text' && typeof value === 'string' && value.length * 3 > limits.maxTextBytes) checkTextSize(value, limits, childPath(path, j, 'text'), issues);
    if (!isJsonObject(value)) continue;
    // Paths are built only where a check goes on below the block.
    if (key === 'toolResult' && Array.isArray(value['content'])) checkBlocksText(value['content'], childPath(path, j, 'toolResult', 'content'), limits, issues);
    else if (key === 'citationsContent' && Array.isArray(value['content'])) checkBlocksText(value['content'], childPath(path, j, 'citationsContent', 'content'), limits, issues);
    else if (key === 'searchResult' && Array.isArray(value['content'])) checkBlocksText(value['content'], childPath(path, j, 'searchResult', 'content'), limits, issues);
    else if (key === 'guardContent' && isJsonObject(value['text']) && typeof value['text']['text'] === 'string') {
      checkTextSize(value['text']['text'], limits, [...path, j, 'guardContent', 'text', 'text'], issues);
    }
  }
}
