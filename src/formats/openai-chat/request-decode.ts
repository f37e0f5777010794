/**
 * Chat Completions request -> canonical Request. One pass over the body's keys: a field maps to
 * its canonical slot only when it fits exactly; anything else (explicit nulls, shapes with extra
 * keys, fields with no canonical meaning) stays as residue so the way back is exact.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { Tool, ToolChoice } from '../../model/tool.js';
import type { DecodeContext } from '../codec.js';
import { keepResidue, residue } from '../shared/residue.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { withHint } from './content-decode.js';
import { decodeMessages } from './message-decode.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { validateRequest } from './validate.js';

const TOOL_KEYS = new Set(['type', 'function']);
const FN_KEYS = new Set(['name', 'description', 'parameters', 'strict']);
export const EFFORTS: ReadonlySet<string> = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

function onlyKeys(obj: JsonObject, allowed: readonly string[]): boolean {
  for (const key in obj) if (!allowed.includes(key)) return false;
  return true;
}

function decodeTool(t: JsonObject): Tool {
  if (t['type'] !== 'function') {
    // Custom (free-form input) tools have no canonical slot: kept whole for this format.
    const custom = t['custom'] as JsonObject;
    return { type: 'provider', origin: OPENAI_CHAT, name: custom['name'] as string, config: t };
  }
  const fn = t['function'] as JsonObject;
  const tool: Tool = { type: 'function', name: fn['name'] as string };
  if (typeof fn['description'] === 'string') tool.description = fn['description'];
  if (isJsonObject(fn['parameters'])) tool.parameters = fn['parameters'];
  if (typeof fn['strict'] === 'boolean') tool.strict = fn['strict'];
  let rest = residue(t, TOOL_KEYS);
  let inner = residue(fn, FN_KEYS);
  if (fn['strict'] === null) (inner ??= {})['strict'] = null;
  if (inner) (rest ??= {})['function'] = inner;
  keepResidue(tool, OPENAI_CHAT, rest);
  return tool;
}

function decodeToolChoice(v: JsonValue): ToolChoice | undefined {
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v };
  if (isJsonObject(v) && v['type'] === 'function' && onlyKeys(v, ['type', 'function'])) {
    const fn = v['function'] as JsonObject;
    if (onlyKeys(fn, ['name'])) return { type: 'tool', name: fn['name'] as string };
  }
  return undefined; // allowed_tools, custom, extra keys: residue
}

function decodeResponseFormat(v: JsonValue): ResponseFormat | undefined {
  if (!isJsonObject(v)) return undefined;
  if (v['type'] === 'text' && onlyKeys(v, ['type'])) return { type: 'text' };
  if (v['type'] === 'json_object' && onlyKeys(v, ['type'])) return { type: 'json' };
  if (v['type'] !== 'json_schema' || !onlyKeys(v, ['type', 'json_schema'])) return undefined;
  const js = v['json_schema'] as JsonObject;
  const schema = js['schema'];
  if (!isJsonObject(schema) || !onlyKeys(js, ['name', 'schema', 'description', 'strict']) || js['strict'] === null) return undefined;
  const out: ResponseFormat = { type: 'json-schema', schema, name: js['name'] as string };
  if (typeof js['description'] === 'string') out.description = js['description'];
  if (typeof js['strict'] === 'boolean') out.strict = js['strict'];
  return out;
}

/** Maps one top-level field; returns false when it stays as residue. */
function decodeField(req: Request, key: string, v: JsonValue, hints: JsonObject): boolean {
  switch (key) {
    case 'model':
      req.model = v as string;
      return true;
    case 'temperature':
    case 'top_p':
    case 'seed':
    case 'presence_penalty':
    case 'frequency_penalty':
    case 'n':
    case 'max_completion_tokens': {
      if (typeof v !== 'number') return false;
      const slot = NUMBER_SLOTS[key];
      req[slot] = v;
      return true;
    }
    case 'max_tokens':
      // The newer field wins when both are present; the legacy one is then residue.
      if (typeof v !== 'number' || req.maxTokens !== undefined) return false;
      req.maxTokens = v;
      hints['$maxTokens'] = true;
      return true;
    case 'top_k':
      // Not OpenAI; accepted by many compatible servers (vLLM, Gemini's endpoint).
      if (typeof v !== 'number') return false;
      req.topK = v;
      hints['$topK'] = true;
      return true;
    case 'stop':
      if (typeof v === 'string') {
        req.stop = [v];
        hints['$stopString'] = true;
        return true;
      }
      if (!Array.isArray(v)) return false;
      req.stop = v as string[];
      return true;
    case 'stream':
    case 'parallel_tool_calls':
      if (typeof v !== 'boolean') return false;
      if (key === 'stream') req.stream = v;
      else req.parallelToolCalls = v;
      return true;
    case 'user':
      req.user = v as string;
      return true;
    case 'metadata':
      if (!isJsonObject(v)) return false;
      req.metadata = v as { [k: string]: string };
      return true;
    case 'reasoning_effort':
      if (typeof v !== 'string' || !EFFORTS.has(v)) return false;
      req.reasoning = { effort: v as ReasoningEffort };
      return true;
    case 'tools':
      if (!Array.isArray(v) || v.length === 0) return false;
      req.tools = v.map((t) => decodeTool(t as JsonObject));
      return true;
    case 'tool_choice': {
      const choice = decodeToolChoice(v);
      if (choice) req.toolChoice = choice;
      return choice !== undefined;
    }
    case 'response_format': {
      const format = decodeResponseFormat(v);
      if (format) req.responseFormat = format;
      return format !== undefined;
    }
    default:
      return false;
  }
}

const NUMBER_SLOTS = {
  temperature: 'temperature',
  top_p: 'topP',
  seed: 'seed',
  presence_penalty: 'presencePenalty',
  frequency_penalty: 'frequencyPenalty',
  n: 'candidateCount',
  max_completion_tokens: 'maxTokens',
} as const;

export function decodeRequest(input: unknown, ctx: DecodeContext): Request {
  const { body, args } = validateRequest(input, ctx.limits);
  const req: Request = { messages: decodeMessages(body['messages'] as JsonObject[], args, ctx) };
  const hints: JsonObject = {};
  let rest: JsonObject | undefined;
  // max_completion_tokens first, so a body with both keeps max_tokens as residue.
  if (typeof body['max_completion_tokens'] === 'number') req.maxTokens = body['max_completion_tokens'];
  for (const key in body) {
    if (key === 'messages' || key === 'x-interlingua' || key === 'max_completion_tokens') continue;
    const v = body[key];
    if (v === undefined) continue;
    if (!decodeField(req, key, v, hints)) (rest ??= {})[key] = v;
  }
  const mct = body['max_completion_tokens'];
  if (mct !== undefined && typeof mct !== 'number') (rest ??= {})['max_completion_tokens'] = mct;
  for (const key in hints) rest = withHint(rest, key, hints[key] as JsonValue);
  keepResidue(req, OPENAI_CHAT, rest);
  applyTopStash(req as unknown as JsonObject, body, ctx);
  return req;
}
