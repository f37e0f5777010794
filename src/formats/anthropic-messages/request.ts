/** Anthropic Messages request <-> canonical Request. */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { ReasoningConfig, ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { FunctionTool, Tool, ToolChoice } from '../../model/tool.js';
import type { DecodeContext, EncodeContext, KindCodec } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash, takeMessageStash, takeTopStash } from '../shared/stash.js';
import type { AnthropicRequest } from './anthropic-messages-api.js';
import { decodeBlocks, decodeMessage, decodeSpan } from './content-decode.js';
import { encodeMessages } from './messages-encode.js';
import { applyTopStash, encodeExtras } from './request-extras.js';
import { validateRequest } from './validate.js';
import { decodeCache, foreignExt, ID, rest, restWithCache } from './wire-util.js';

const KNOWN = new Set([
  'model', 'messages', 'system', 'max_tokens', 'metadata', 'stop_sequences', 'temperature', 'top_p', 'top_k',
  'stream', 'tools', 'tool_choice', 'thinking', 'output_config', 'output_format',
]);
/** takeMessageStash's base path: read only (it builds the stash's own path from it), so one for all messages. */
const MESSAGES_PATH: Path = ['messages'];
const TOOL_KEYS = new Set(['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);
const TOOL_CHOICE_KEYS = new Set(['type', 'name', 'disable_parallel_tool_use']);
const THINKING_KEYS = new Set(['type', 'budget_tokens']);
const OUTPUT_CONFIG_KEYS = new Set(['effort', 'format']);
const FORMAT_KEYS = new Set(['type', 'schema']);

export function decodeRequest(body: unknown, ctx: DecodeContext): Request {
  const b = validateRequest(body, ctx.limits);
  const messages: Message[] = [];
  const system = b['system'];
  if (typeof system === 'string') messages.push({ role: 'system', parts: [{ type: 'text', text: system }], stringContent: true });
  else if (Array.isArray(system) && system.length > 0) messages.push({ role: 'system', parts: decodeBlocks(system) });
  decodeMessages(b['messages'] as JsonValue[], ctx, messages);

  const req: Request = { messages };
  const res: JsonObject = rest(b, KNOWN) ?? {};
  if (Array.isArray(system) && system.length === 0) res['system'] = system;
  req.model = b['model'] as string;
  req.maxTokens = b['max_tokens'] as number;
  decodeMetadata(b['metadata'], req, res);
  if (Array.isArray(b['stop_sequences'])) req.stop = b['stop_sequences'] as string[];
  if (typeof b['temperature'] === 'number') req.temperature = b['temperature'];
  if (typeof b['top_p'] === 'number') req.topP = b['top_p'];
  if (typeof b['top_k'] === 'number') req.topK = b['top_k'];
  // Sampling parameters exist only in older API versions: they go back only where they came from.
  if (req.temperature !== undefined || req.topP !== undefined || req.topK !== undefined) res['$sampling'] = true;
  if (typeof b['stream'] === 'boolean') req.stream = b['stream'];
  if (Array.isArray(b['tools'])) req.tools = b['tools'].map((t) => decodeTool(t as JsonObject));
  if (isJsonObject(b['tool_choice'])) decodeToolChoice(b['tool_choice'], req, res);
  decodeReasoning(b, req, res);
  decodeFormat(b, req, res);
  if (Object.keys(res).length > 0) keepResidue(req, ID, res);

  const stash = takeTopStash(b, ctx);
  if (stash) applyTopStash(req, stash);
  return req;
}

function decodeMessages(list: JsonValue[], ctx: DecodeContext, out: Message[]): void {
  for (let i = 0; i < list.length; ) {
    const stashed = takeMessageStash(list, i, ctx, MESSAGES_PATH, decodeSpan);
    if (stashed) {
      out.push(...stashed.messages);
      i += stashed.span;
      continue;
    }
    out.push(decodeMessage(list[i] as JsonObject));
    i++;
  }
}

function decodeMetadata(meta: JsonValue | undefined, req: Request, res: JsonObject): void {
  if (!isJsonObject(meta)) return;
  const { user_id: user, ...others } = meta;
  if (typeof user === 'string') req.user = user;
  else if (user === null) others['user_id'] = null;
  // The rest of metadata (and an empty one) comes back verbatim.
  if (Object.keys(others).length > 0 || typeof user !== 'string') res['metadata'] = others;
}

function decodeTool(t: JsonObject): Tool {
  const type = t['type'];
  if (type === undefined || type === null || type === 'custom') {
    const tool: FunctionTool = { type: 'function', name: t['name'] as string };
    if (typeof t['description'] === 'string') tool.description = t['description'];
    if (isJsonObject(t['input_schema'])) tool.parameters = t['input_schema'];
    if (typeof t['strict'] === 'boolean') tool.strict = t['strict'];
    const cache = decodeCache(t['cache_control']);
    if (cache) tool.cache = cache;
    const r = restWithCache(t, TOOL_KEYS, cache);
    keepResidue(tool, ID, type === 'custom' ? { ...r, $custom: true } : r);
    return tool;
  }
  // Server and versioned tools (web_search_20250305, bash_20250124 ...): kept whole.
  const { cache_control: cc, ...config } = t;
  const tool: Tool = { type: 'provider', origin: ID, name: t['name'] as string, config };
  const cache = decodeCache(cc);
  if (cache) tool.cache = cache;
  else if (cc !== undefined) tool.config = t;
  return tool;
}

function decodeToolChoice(tc: JsonObject, req: Request, res: JsonObject): void {
  const type = tc['type'];
  const choice: ToolChoice =
    type === 'any' ? { type: 'required' } : type === 'tool' ? { type: 'tool', name: tc['name'] as string } : type === 'none' ? { type: 'none' } : { type: 'auto' };
  req.toolChoice = choice;
  const parallel = tc['disable_parallel_tool_use'];
  if (typeof parallel === 'boolean') req.parallelToolCalls = !parallel;
  const r = rest(tc, TOOL_CHOICE_KEYS);
  if (r) res['tool_choice'] = r;
}

function decodeReasoning(b: JsonObject, req: Request, res: JsonObject): void {
  const reasoning: ReasoningConfig = {};
  const thinking = b['thinking'];
  if (isJsonObject(thinking)) {
    const type = thinking['type'];
    if (type === 'enabled') {
      reasoning.enabled = true;
      reasoning.budgetTokens = thinking['budget_tokens'] as number;
    } else if (type === 'disabled') reasoning.enabled = false;
    else if (type === 'adaptive') reasoning.mode = 'adaptive';
    if (type === 'enabled' || type === 'disabled' || type === 'adaptive') {
      const r = rest(thinking, THINKING_KEYS);
      if (r) res['thinking'] = r;
    } else res['thinking'] = thinking; // a newer thinking mode with no canonical meaning yet
  }
  const oc = b['output_config'];
  if (isJsonObject(oc)) {
    if (typeof oc['effort'] === 'string') {
      reasoning.effort = oc['effort'] as ReasoningEffort;
      // Effort without thinking: other formats' effort means "reason", which writes adaptive thinking.
      if (thinking === undefined) res['$effortOnly'] = true;
    }
    const r = rest(oc, OUTPUT_CONFIG_KEYS);
    // An output_config that maps to nothing else (e.g. `{}`) must still come back.
    if (r || (oc['effort'] === undefined && oc['format'] === undefined)) res['output_config'] = r ?? {};
  }
  if (Object.keys(reasoning).length > 0) req.reasoning = reasoning;
}

function decodeFormat(b: JsonObject, req: Request, res: JsonObject): void {
  const oc = b['output_config'];
  const fromConfig = isJsonObject(oc) && isJsonObject(oc['format']) ? oc['format'] : undefined;
  const legacy = b['output_format'];
  const format = fromConfig ?? (isJsonObject(legacy) ? legacy : undefined);
  if (!format) return;
  const rf: ResponseFormat = { type: 'json-schema', schema: format['schema'] as JsonObject };
  req.responseFormat = rf;
  const r = rest(format, FORMAT_KEYS);
  if (format === legacy) {
    res['$outputFormat'] = true;
    if (r) res['output_format'] = r;
  } else {
    if (r) res['$formatResidue'] = r;
    if (isJsonObject(legacy)) res['output_format'] = legacy; // both given: the older one is residue
  }
}

export function encodeRequest(req: Request, ctx: EncodeContext): AnthropicRequest {
  const out: JsonObject = {};
  const top: JsonObject = {};
  if (req.model !== undefined) out['model'] = req.model;
  else {
    // Anthropic requires a model. Guessing one would pick the caller's model (and bill) for them;
    // an empty name keeps the body well-formed, and the API names the problem when it is sent.
    out['model'] = '';
    ctx.losses.push({ code: 'missing-model', path: ['model'], message: "Anthropic requires a model; none was given, '' written", action: ctx.preserve ? 'stashed' : 'approximated' });
    top['model'] = null;
  }
  if (req.maxTokens !== undefined) out['max_tokens'] = req.maxTokens;
  else {
    out['max_tokens'] = 4096;
    ctx.losses.push({ code: 'default-max-tokens', path: ['maxTokens'], message: 'Anthropic requires max_tokens; 4096 used', action: ctx.preserve ? 'stashed' : 'approximated' });
    top['maxTokens'] = null;
  }
  const encoded = encodeMessages(req.messages, ctx);
  if (encoded.system !== undefined) out['system'] = encoded.system;
  out['messages'] = encoded.messages;
  Object.assign(top, encoded.stash);
  encodeExtras(req, out, top, ctx);
  const ownExt = req.ext?.[ID];
  if (ownExt) restoreResidue(out, req.ext, ID);
  // Other formats' ext (even hint-only) rides in the stash, so A -> Anthropic -> A is exact.
  // A request with no ext has nothing to report: no sink made for it.
  if (req.ext !== undefined) reportForeignExt(req.ext, ID, [], { push: (l) => ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l) });
  const foreign = foreignExt(req.ext);
  if (foreign) top['ext'] = foreign;
  putTopStash(out, top, ctx);
  return out as unknown as AnthropicRequest;
}

export const requestCodec: KindCodec<Request> = {
  decode: decodeRequest,
  encode: (value, ctx) => encodeRequest(value, ctx),
};
