/**
 * Responses request (POST /v1/responses) -> canonical Request. A field maps to its canonical slot
 * only when it fits exactly; everything else (store, previous_response_id, include, truncation,
 * explicit nulls, built-in tool choices ...) stays as residue so the way back is exact.
 * `previous_response_id` and `conversation` name server-side state another dialect cannot read:
 * they are kept here and reported by any other encoder (unsupported-field).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { Tool, ToolChoice } from '../../model/tool.js';
import type { DecodeContext } from '../codec.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { keepResidue, residue } from '../shared/residue.js';
import { withHints } from './content-decode.js';
import { decodeItems } from './items-decode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { validateRequest } from './validate.js';

const OR = OPENAI_RESPONSES;
const FUNCTION_KEYS = new Set(['type', 'name', 'description', 'parameters', 'strict']);
export const EFFORTS: ReadonlySet<string> = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

function onlyKeys(obj: JsonObject, allowed: readonly string[]): boolean {
  for (const key in obj) if (!allowed.includes(key)) return false;
  return true;
}

/** Function tools map; built-in tools (web_search, mcp, custom ...) are kept whole for this format. */
function decodeTool(t: JsonObject): Tool {
  if (t['type'] !== 'function') {
    const tool: Tool = { type: 'provider', origin: OR, config: t };
    if (typeof t['name'] === 'string') tool.name = t['name'];
    return tool;
  }
  const tool: Tool = { type: 'function', name: t['name'] as string };
  const hints: JsonObject = {};
  let rest = residue(t, FUNCTION_KEYS);
  if (typeof t['description'] === 'string') tool.description = t['description'];
  else if (t['description'] !== undefined) (rest ??= {})['description'] = t['description'];
  if (isJsonObject(t['parameters'])) tool.parameters = t['parameters'];
  else if (t['parameters'] === undefined) hints['$noParameters'] = true;
  else (rest ??= {})['parameters'] = t['parameters'];
  if (typeof t['strict'] === 'boolean') tool.strict = t['strict'];
  else if (t['strict'] === undefined) hints['$noStrict'] = true;
  else (rest ??= {})['strict'] = t['strict'];
  keepResidue(tool, OR, withHints(rest, hints));
  return tool;
}

function decodeToolChoice(v: JsonValue): ToolChoice | undefined {
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v };
  if (isJsonObject(v) && v['type'] === 'function' && typeof v['name'] === 'string' && onlyKeys(v, ['type', 'name'])) {
    return { type: 'tool', name: v['name'] };
  }
  return undefined; // allowed_tools, built-in tool types, mcp, custom: residue
}

function decodeFormat(v: JsonValue | undefined): ResponseFormat | undefined {
  if (!isJsonObject(v)) return undefined;
  if (v['type'] === 'text' && onlyKeys(v, ['type'])) return { type: 'text' };
  if (v['type'] === 'json_object' && onlyKeys(v, ['type'])) return { type: 'json' };
  if (v['type'] !== 'json_schema' || !onlyKeys(v, ['type', 'name', 'schema', 'description', 'strict'])) return undefined;
  const schema = v['schema'];
  if (!isJsonObject(schema) || typeof v['name'] !== 'string' || v['strict'] === null) return undefined;
  const out: ResponseFormat = { type: 'json-schema', schema, name: v['name'] };
  if (typeof v['description'] === 'string') out.description = v['description'];
  if (typeof v['strict'] === 'boolean') out.strict = v['strict'];
  return out;
}

/**
 * A wrapper (`text`, `reasoning`) whose one mapped field is `key`: when that field maps, the
 * wrapper's other fields (verbosity, summary ...) are what stays residue; otherwise all of it.
 */
function unwrap(v: JsonObject, key: string, mapped: boolean): JsonObject | undefined {
  if (!mapped) return v;
  const { [key]: _taken, ...rest } = v;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Maps one top-level field; returns the part of it that stays residue (undefined: none). */
function decodeField(req: Request, key: string, v: JsonValue, hints: JsonObject): JsonValue | undefined {
  switch (key) {
    case 'model':
      if (typeof v !== 'string') return v;
      req.model = v;
      return undefined;
    case 'user':
      return typeof v === 'string' ? undefined : v; // mapped before the other fields
    case 'safety_identifier':
      // The successor of `user`; used as the end-user id when `user` is absent.
      if (typeof v !== 'string' || req.user !== undefined) return v;
      req.user = v;
      hints['$safety'] = true;
      return undefined;
    case 'temperature':
    case 'top_p':
    case 'max_output_tokens':
      if (typeof v !== 'number') return v;
      req[key === 'temperature' ? 'temperature' : key === 'top_p' ? 'topP' : 'maxTokens'] = v;
      return undefined;
    case 'stream':
    case 'parallel_tool_calls':
      if (typeof v !== 'boolean') return v;
      if (key === 'stream') req.stream = v;
      else req.parallelToolCalls = v;
      return undefined;
    case 'metadata':
      if (!isJsonObject(v)) return v;
      req.metadata = v as { [k: string]: string };
      return undefined;
    case 'tools':
      if (!Array.isArray(v) || v.length === 0) return v;
      req.tools = v.map((t) => decodeTool(t as JsonObject));
      return undefined;
    case 'tool_choice': {
      const choice = decodeToolChoice(v);
      if (choice === undefined) return v;
      req.toolChoice = choice;
      return undefined;
    }
    case 'text': {
      if (!isJsonObject(v)) return v;
      const format = decodeFormat(v['format']);
      if (format) req.responseFormat = format;
      return unwrap(v, 'format', format !== undefined);
    }
    case 'reasoning': {
      if (!isJsonObject(v)) return v;
      const effort = v['effort'];
      const mapped = typeof effort === 'string' && EFFORTS.has(effort);
      if (mapped) req.reasoning = { effort: effort as ReasoningEffort };
      return unwrap(v, 'effort', mapped);
    }
    default:
      return v;
  }
}

/** `instructions` is a system message ahead of the input, marked so it goes back to its own field. */
function instructionsMessage(text: string): Message {
  return { role: 'system', parts: [{ type: 'text', text }], stringContent: true, ext: { [OR]: { $instructions: true } } };
}

export function decodeRequest(input: unknown, ctx: DecodeContext): Request {
  const { body, args } = validateRequest(input, ctx.limits);
  const messages: Message[] = [];
  const req: Request = { messages };
  const hints: JsonObject = {};
  let rest: JsonObject | undefined;
  const instructions = body['instructions'];
  if (typeof instructions === 'string') messages.push(instructionsMessage(instructions));
  else if (instructions !== undefined) (rest ??= {})['instructions'] = instructions;
  const list = body['input'];
  if (typeof list === 'string') {
    messages.push({ role: 'user', parts: [{ type: 'text', text: list }], stringContent: true });
    hints['$inputString'] = true;
  } else if (Array.isArray(list) && list.length > 0) messages.push(...decodeItems(list as JsonObject[], args, ctx, ['input']));
  else if (list !== undefined) (rest ??= {})['input'] = list;
  if (typeof body['user'] === 'string') req.user = body['user'];
  for (const key in body) {
    if (key === 'input' || key === 'instructions' || key === 'x-interlingua') continue;
    const v = body[key];
    if (v === undefined) continue;
    const left = decodeField(req, key, v, hints);
    if (left !== undefined) (rest ??= {})[key] = left;
  }
  keepResidue(req, OR, withHints(rest, hints));
  const stash = applyTopStash(req as unknown as JsonObject, body, ctx);
  // Messages an earlier encode could put on no item at all.
  if (Array.isArray(stash?.['$trailing'])) messages.push(...(stash['$trailing'] as unknown as Message[]));
  return req;
}
