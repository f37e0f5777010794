/**
 * Validation of Anthropic bodies: one zod pass for shape, then the API's semantic rules (tool_use /
 * tool_result pairing, custom tools need a schema, text size). Every issue is collected, then one
 * ValidationError is thrown. Nothing here trusts the input's types: it never crashes on garbage.
 */
import type { z } from 'zod';
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { requestSchema, responseSchema } from './schema.js';
import { requireObject } from '../shared/require-object.js';
import { schemaCheck } from '../shared/zod-fast.js';
import { childPath } from '../shared/child-path.js';

type ZodIssue = z.core.$ZodIssue;

const requestCheck = schemaCheck(requestSchema);
const responseCheck = schemaCheck(responseSchema);

/** Validates a request body; returns it typed as an object when valid. */
export function validateRequest(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const issues = zodIssues(requestCheck(obj), obj);
  checkTools(obj, issues);
  checkThinking(obj, issues);
  checkPairing(obj, issues);
  checkTextSizes(obj, limits, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

export function validateResponse(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const issues = zodIssues(responseCheck(obj), obj);
  const content = obj['content'];
  if (Array.isArray(content) && blocksOverLimit(content, limits)) checkBlocksText(content, ['content'], limits, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

function zodIssues(issues: readonly ZodIssue[], body: JsonObject): Issue[] {
  if (issues.length === 0) return [];
  return flatten(issues, []).map((issue) => refine(issue, body));
}

/**
 * zod reports a failed `string | array` union as one vague issue holding every branch's issues.
 * Keep the branch that got furthest (its issues have the deepest paths), so the path points at
 * the real problem (e.g. `messages[0].content[1].type`), not at `content`.
 */
function flatten(issues: readonly ZodIssue[], prefix: PropertyKey[]): ZodIssue[] {
  const out: ZodIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      let best: readonly ZodIssue[] | undefined;
      let bestDepth = 0;
      for (const branch of issue.errors) {
        const depth = Math.min(...branch.map((b) => b.path.length + (b.code === 'invalid_union' ? 1 : 0)));
        if (depth > bestDepth) {
          best = branch;
          bestDepth = depth;
        }
      }
      if (best) {
        out.push(...flatten(best, path));
        continue;
      }
      const expected = issue.errors.map((b) => (b[0] && 'expected' in b[0] ? String(b[0].expected) : '?')).join(' or ');
      out.push({ ...issue, errors: [], path, message: `Invalid input: expected ${expected}` });
      continue;
    }
    out.push({ ...issue, path } as ZodIssue);
  }
  return out;
}

/** Names unknown discriminator values plainly (an unknown block type is the usual case). */
function refine(zodIssue: ZodIssue, body: JsonObject): Issue {
  const [issue] = fromZodIssues([zodIssue]) as [Issue];
  if (zodIssue.code === 'invalid_union' && 'note' in zodIssue && zodIssue.note === 'No matching discriminator') {
    const options = 'options' in zodIssue && Array.isArray(zodIssue.options) ? zodIssue.options.map(String) : [];
    const value = at(body, issue.path);
    const isBlock = options.includes('text');
    return {
      code: isBlock ? 'unknown_block_type' : 'unknown_type',
      path: issue.path,
      message: `unknown ${isBlock ? 'content block ' : ''}type ${JSON.stringify(value) ?? 'undefined'}`,
      expected: options.join(' | '),
      received: typeof value === 'string' ? value : typeof value,
    };
  }
  return issue;
}

function at(root: unknown, path: Path): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function checkTools(body: JsonObject, issues: Issue[]): void {
  const tools = body['tools'];
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (!isJsonObject(t)) return;
    const type = t['type'];
    const custom = type === undefined || type === null || type === 'custom';
    if (custom && !isJsonObject(t['input_schema'])) {
      issues.push({ code: 'invalid_type', path: ['tools', i, 'input_schema'], message: 'a custom tool needs an input_schema object', expected: 'object' });
    }
  });
}

function checkThinking(body: JsonObject, issues: Issue[]): void {
  const thinking = body['thinking'];
  if (isJsonObject(thinking) && thinking['type'] === 'enabled' && typeof thinking['budget_tokens'] !== 'number') {
    issues.push({ code: 'invalid_type', path: ['thinking', 'budget_tokens'], message: "thinking type 'enabled' needs budget_tokens", expected: 'number' });
  }
}

function blocksOf(message: unknown): unknown[] {
  if (!isJsonObject(message)) return [];
  const content = message['content'];
  return Array.isArray(content) ? content : [];
}

function idsOf(blocks: unknown[], type: string, key: string): Map<string, number> {
  const out = new Map<string, number>();
  blocks.forEach((b, j) => {
    if (isJsonObject(b) && b['type'] === type && typeof b[key] === 'string') out.set(b[key], j);
  });
  return out;
}

/**
 * Anthropic's pairing rules: each tool_use of an assistant turn is answered by a tool_result in
 * the next (user) message, and each tool_result answers a tool_use of the previous (assistant)
 * message. A tool_use in the last message has no next message yet: that is allowed (the caller
 * may be continuing a prefilled assistant turn), so only a present next message is checked.
 */
function checkPairing(body: JsonObject, issues: Issue[]): void {
  const messages = body['messages'];
  if (!Array.isArray(messages) || pairingHolds(messages)) return;
  const uses = messages.map((m) => (isJsonObject(m) && m['role'] === 'assistant' ? idsOf(blocksOf(m), 'tool_use', 'id') : new Map<string, number>()));
  messages.forEach((m, i) => {
    if (!isJsonObject(m)) return;
    if (m['role'] === 'assistant') {
      const next = messages[i + 1];
      if (next === undefined) return;
      const answered = isJsonObject(next) && next['role'] === 'user' ? idsOf(blocksOf(next), 'tool_result', 'tool_use_id') : new Map<string, number>();
      for (const [id, j] of uses[i] ?? []) {
        if (!answered.has(id)) {
          issues.push({
            code: 'tool_use_without_result',
            path: ['messages', i, 'content', j, 'id'],
            message: `tool_use '${id}' has no tool_result in the next message`,
          });
        }
      }
    } else if (m['role'] === 'user') {
      const prev = uses[i - 1];
      for (const [id, j] of idsOf(blocksOf(m), 'tool_result', 'tool_use_id')) {
        if (!prev?.has(id)) {
          issues.push({
            code: 'tool_result_without_use',
            path: ['messages', i, 'content', j, 'tool_use_id'],
            message: `tool_result '${id}' answers no tool_use in the previous assistant message`,
          });
        }
      }
    }
  });
}

/** Whether `message` is an object with this role holding a `type` block whose `key` is `id`. */
function holdsBlock(message: unknown, role: string, type: string, key: string, id: string): boolean {
  if (!isJsonObject(message) || message['role'] !== role) return false;
  const content = message['content'];
  if (!Array.isArray(content)) return false;
  for (const b of content) if (isJsonObject(b) && b['type'] === type && b[key] === id) return true;
  return false;
}

/**
 * Yes or no for checkPairing's rules, with no Map per message and no path built: a valid body
 * (almost every body) is answered here, and only one that breaks a rule is walked again to say where.
 */
function pairingHolds(messages: unknown[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isJsonObject(m)) continue;
    const content = m['content'];
    if (!Array.isArray(content)) continue;
    const role = m['role'];
    if (role === 'assistant') {
      if (i + 1 >= messages.length) continue;
      const next = messages[i + 1];
      for (const b of content) {
        if (isJsonObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string' && !holdsBlock(next, 'user', 'tool_result', 'tool_use_id', b['id'])) return false;
      }
    } else if (role === 'user') {
      const prev = messages[i - 1];
      for (const b of content) {
        if (isJsonObject(b) && b['type'] === 'tool_result' && typeof b['tool_use_id'] === 'string' && !holdsBlock(prev, 'assistant', 'tool_use', 'id', b['tool_use_id'])) return false;
      }
    }
  }
  return true;
}

function checkTextSizes(body: JsonObject, limits: Limits, issues: Issue[]): void {
  const system = body['system'];
  if (typeof system === 'string') checkTextSize(system, limits, ['system'], issues);
  else if (Array.isArray(system)) checkBlocksText(system, ['system'], limits, issues);
  const messages = body['messages'];
  if (!Array.isArray(messages)) return;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isJsonObject(m)) continue;
    const content = m['content'];
    if (typeof content === 'string') {
      if (overTextLimit(content, limits)) checkTextSize(content, limits, ['messages', i, 'content'], issues);
    } else if (Array.isArray(content) && blocksOverLimit(content, limits)) checkBlocksText(content, ['messages', i, 'content'], limits, issues);
  }
}

/** Whether checkBlocksText would find a text over the limit: lets a body within it (the usual case) build no path. */
function blocksOverLimit(blocks: unknown[], limits: Limits): boolean {
  for (const b of blocks) {
    if (!isJsonObject(b)) continue;
    const text = b['text'];
    if (typeof text === 'string' && overTextLimit(text, limits)) return true;
    const type = b['type'];
    if (type === 'tool_result' || type === 'mcp_tool_result' || type === 'search_result') {
      const inner = b['content'];
      if (typeof inner === 'string' ? overTextLimit(inner, limits) : Array.isArray(inner) && blocksOverLimit(inner, limits)) return true;
    }
  }
  return false;
}

/** Text blocks, and the text inside tool results and search results, one level down. */
function checkBlocksText(blocks: unknown[], path: Path, limits: Limits, issues: Issue[]): void {
  blocks.forEach((b, j) => {
    if (!isJsonObject(b)) return;
    if (typeof b['text'] === 'string') checkTextSize(b['text'], limits, childPath(path, j, 'text'), issues);
    const inner = b['content'];
    if (b['type'] === 'tool_result' || b['type'] === 'mcp_tool_result' || b['type'] === 'search_result') {
      if (typeof inner === 'string') checkTextSize(inner, limits, childPath(path, j, 'content'), issues);
      else if (Array.isArray(inner)) checkBlocksText(inner, childPath(path, j, 'content'), limits, issues);
    }
  });
}
