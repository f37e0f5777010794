/**
 * A yes/no form of RunAgentInputSchema for the common bodies (text content, tool calls, every
 * role but activity): true only when the schema accepts the body, with no zod runtime, paths or
 * issue objects. Anything it does not model (media parts, activity messages, a field of the wrong
 * type) answers false, and the schema check decides (and gives its issues).
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import { optString } from '../shared/fast-guards.js';

/** schema.ts's `object.optional()`: absent, or a non-null, non-array object. */
function optObject(v: unknown): boolean {
  return v === undefined || isJsonObject(v);
}

function listOf(v: unknown, ok: (item: JsonObject) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const item: unknown = v[i];
    if (!isJsonObject(item) || !ok(item)) return false;
  }
  return true;
}

function toolOk(t: JsonObject): boolean {
  return typeof t['name'] === 'string' && typeof t['description'] === 'string' && optObject(t['metadata']);
}

function contextOk(c: JsonObject): boolean {
  return typeof c['description'] === 'string' && typeof c['value'] === 'string';
}

function resumeOk(r: JsonObject): boolean {
  return typeof r['interruptId'] === 'string' && (r['status'] === 'resolved' || r['status'] === 'cancelled');
}

function callOk(c: JsonObject): boolean {
  const fn = c['function'];
  return typeof c['id'] === 'string' && c['type'] === 'function' && isJsonObject(fn) && typeof fn['name'] === 'string'
    && typeof fn['arguments'] === 'string' && optString(c['encryptedValue']) && optObject(c['metadata']);
}

/** Text parts only (TextPartSchema); a media or binary part goes to the schema. */
function textPartOk(p: JsonObject): boolean {
  return p['type'] === 'text' && typeof p['text'] === 'string' && optString(p['id']);
}

function contentOk(v: unknown): boolean {
  return typeof v === 'string' || listOf(v, textPartOk);
}

function messageOk(m: JsonObject): boolean {
  if (!optString(m['id']) || !optObject(m['metadata']) || !optString(m['subagentRunId']) || !optString(m['encryptedValue'])) return false;
  switch (m['role']) {
    case 'developer':
    case 'system':
      return typeof m['content'] === 'string' && optString(m['name']);
    case 'assistant': {
      const calls = m['toolCalls'];
      return optString(m['content']) && optString(m['name']) && (calls === undefined || listOf(calls, callOk));
    }
    case 'user':
      return contentOk(m['content']) && optString(m['name']);
    case 'tool':
      return contentOk(m['content']) && typeof m['toolCallId'] === 'string' && optString(m['error']);
    case 'reasoning':
      return typeof m['content'] === 'string';
    default:
      return false;
  }
}

/** Whether RunAgentInputSchema accepts `body`, when this can tell; false otherwise. */
export function runAgentInputOk(body: JsonObject): boolean {
  if (typeof body['threadId'] !== 'string' || typeof body['runId'] !== 'string') return false;
  if (!optString(body['protocolVersion']) || !optString(body['parentRunId'])) return false;
  const tools = body['tools'];
  const context = body['context'];
  const resume = body['resume'];
  if (tools !== undefined && !listOf(tools, toolOk)) return false;
  if (context !== undefined && !listOf(context, contextOk)) return false;
  if (resume !== undefined && !listOf(resume, resumeOk)) return false;
  return listOf(body['messages'], messageOk);
}
