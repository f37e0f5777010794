/**
 * Canonical Request -> Responses request. Top-level fields with no Responses slot (stop, seed,
 * penalties, top_k, n) are reported and, under `preserve`, go to the body-level stash.
 */
import type { JsonObject } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { ReasoningConfig, ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { Tool, ToolChoice } from '../../model/tool.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { effortForBudget } from '../shared/reasoning-effort.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash } from '../shared/stash.js';
import { loss, own } from './content-encode.js';
import { encodeItems } from './items-encode.js';
import { OPENAI_RESPONSES, type ResponsesRequest } from './openai-responses-api.js';
import { childPath } from '../shared/child-path.js';

const OR = OPENAI_RESPONSES;
/** The API refuses max_output_tokens below 16. */
const MIN_OUTPUT_TOKENS = 16;

/** Encodes one function tool; reports whether spec-required fields had to be filled in. */
function encodeTool(tool: Tool, i: number, losses: LossSink): { json?: JsonObject; filled: boolean } {
  const path = ['tools', i];
  reportForeignExt(tool.ext, OR, path, losses);
  if (tool.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoints on tools');
  if (tool.type === 'provider') {
    if (tool.origin === OR) return { json: tool.config, filled: false };
    loss(losses, 'provider-tool', path, `${tool.origin} tool '${tool.name ?? String(tool.config['type'])}' has no Responses equivalent`);
    return { filled: false };
  }
  const rest = own(tool.ext);
  const json: JsonObject = { type: 'function', name: tool.name };
  let filled = false;
  if (tool.description !== undefined) json['description'] = tool.description;
  // parameters and strict are required. Strict defaults to true on this API, which most schemas
  // written for other APIs do not meet: another origin's tool without a say is sent non-strict.
  if (tool.parameters !== undefined) json['parameters'] = tool.parameters;
  else if (rest?.['$noParameters'] !== true && rest?.['parameters'] === undefined) {
    json['parameters'] = null;
    filled = true;
  }
  if (tool.strict !== undefined) json['strict'] = tool.strict;
  else if (rest?.['$noStrict'] !== true && rest?.['strict'] === undefined) {
    json['strict'] = false;
    filled = true;
  }
  restoreResidue(json, tool.ext, OR);
  return { json, filled };
}

function encodeToolChoice(choice: ToolChoice): JsonObject[string] {
  return choice.type === 'tool' ? { type: 'function', name: choice.name } : choice.type;
}

function encodeFormat(format: ResponseFormat, losses: LossSink): JsonObject {
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json') return { type: 'json_object' };
  const out: JsonObject = { type: 'json_schema', name: format.name ?? 'response', schema: format.schema };
  if (format.name === undefined) loss(losses, 'schema-name', ['responseFormat', 'name'], "json_schema needs a name: 'response' is used", 'approximated');
  if (format.description !== undefined) out['description'] = format.description;
  if (format.strict !== undefined) out['strict'] = format.strict;
  return out;
}

function encodeEffort(r: ReasoningConfig, losses: LossSink): ReasoningEffort | undefined {
  const path = ['reasoning'];
  if (r.enabled === false) {
    loss(losses, 'reasoning-disabled', path, "not every model takes effort 'none': reasoning.effort left unset");
    return undefined;
  }
  if (r.mode === 'adaptive') loss(losses, 'reasoning-mode', [...path, 'mode'], 'adaptive reasoning has no Responses switch; the model default applies', 'approximated');
  if (r.effort !== undefined) {
    if (r.budgetTokens !== undefined) loss(losses, 'reasoning-budget', [...path, 'budgetTokens'], 'Responses takes an effort, not a token budget');
    return r.effort;
  }
  if (r.budgetTokens !== undefined) {
    const effort = effortForBudget(r.budgetTokens);
    loss(losses, 'reasoning-budget', [...path, 'budgetTokens'], `a budget of ${r.budgetTokens} tokens is sent as reasoning effort '${effort}'`, 'approximated');
    return effort;
  }
  if (r.enabled === true && r.mode === undefined) loss(losses, 'reasoning-mode', path, 'reasoning on without an effort: the model default applies', 'approximated');
  return undefined;
}

/** Moves losses gathered for one top-level field to ctx (stashed under preserve) and stashes the field. */
function flush(local: LossList, ctx: EncodeContext, stash: JsonObject, key: string, value: JsonObject[string]): void {
  if (local.length === 0) return;
  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  stash[key] = value;
  local.items.length = 0;
}

/** `{ ...residue[key], [field]: value }`: a wrapper object whose other fields were residue. */
function wrap(rest: JsonObject | undefined, key: string, field: string, value: JsonObject[string]): JsonObject {
  const inner = rest?.[key];
  return { ...(isJsonObject(inner) ? inner : {}), [field]: value };
}

/** The decoded `instructions` message, when it still is one plain string. */
function instructionsText(m: Message | undefined): string | undefined {
  if (m === undefined || own(m.ext)?.['$instructions'] !== true || m.role !== 'system') return undefined;
  const [only, more] = m.parts;
  if (more !== undefined || only?.type !== 'text' || only.cache || only.ext || only.citations) return undefined;
  return m.stringContent === true && m.name === undefined ? only.text : undefined;
}

/** A plain string input: one user message decoded from `input: "..."`, unchanged. */
function inputText(req: Request, start: number): string | undefined {
  if (own(req.ext)?.['$inputString'] !== true || req.messages.length !== start + 1) return undefined;
  const m = req.messages[start] as Message;
  const [only, more] = m.parts;
  if (m.role !== 'user' || m.stringContent !== true || m.ext || m.name !== undefined || more !== undefined) return undefined;
  return only?.type === 'text' && !only.cache && !only.ext && !only.citations ? only.text : undefined;
}

/** Canonical fields the Responses API has no parameter for. */
function unsupported(req: Request, local: LossList, ctx: EncodeContext, stash: JsonObject): void {
  const drop = (key: keyof Request, code: string, message: string): void => {
    if (req[key] === undefined) return;
    loss(local, code, [key], message);
    flush(local, ctx, stash, key, req[key] as JsonObject[string]);
  };
  drop('topK', 'top-k', 'Responses has no top_k');
  if (req.stop !== undefined && req.stop.length > 0) drop('stop', 'stop-sequences', 'Responses has no stop sequences');
  drop('seed', 'seed', 'Responses has no seed');
  drop('presencePenalty', 'penalty', 'Responses has no presence_penalty');
  drop('frequencyPenalty', 'penalty', 'Responses has no frequency_penalty');
  if (req.candidateCount !== undefined && req.candidateCount !== 1) drop('candidateCount', 'candidate-count', 'Responses returns one output: n is dropped');
  // An empty stop list or n = 1 says nothing, but only the stash brings it back.
  if (req.stop !== undefined && req.stop.length === 0) stash['stop'] = [];
  if (req.candidateCount === 1) stash['candidateCount'] = 1;
}

export function encodeRequest(req: Request, ctx: EncodeContext): ResponsesRequest {
  const out: JsonObject = {};
  const stash: JsonObject = {};
  const local = new LossList();
  const rest = own(req.ext);
  if (req.model !== undefined) out['model'] = req.model;
  const instructions = instructionsText(req.messages[0]);
  const start = instructions === undefined ? 0 : 1;
  if (instructions !== undefined) out['instructions'] = instructions;
  const text = inputText(req, start);
  if (text !== undefined) out['input'] = text;
  else {
    // Outputs may answer calls stored server-side, which this body does not show.
    const serverState =
      typeof rest?.['previous_response_id'] === 'string' ||
      (rest?.['conversation'] ?? null) !== null ||
      req.messages.some((m) => m.parts.some((p) => p.type === 'provider-block' && p.origin === OR && p.block['type'] === 'item_reference'));
    const { items, trailing } = encodeItems(req.messages, ctx, 'input', start, undefined, serverState);
    if (items.length > 0) out['input'] = items;
    if (trailing.length > 0) stash['$trailing'] = trailing as unknown as JsonObject[];
  }
  if (req.tools !== undefined && req.tools.length > 0) {
    const tools: JsonObject[] = [];
    let filled = false;
    req.tools.forEach((t, i) => {
      const r = encodeTool(t, i, local);
      if (r.json) tools.push(r.json);
      filled ||= r.filled;
    });
    if (tools.length > 0) out['tools'] = tools;
    // Filled-in defaults and other formats' hints are no loss, but only the stash brings them back.
    if (ctx.preserve && (filled || req.tools.some((t) => hasForeignExt(t.ext, OR)))) stash['tools'] = req.tools as unknown as JsonObject[];
    flush(local, ctx, stash, 'tools', req.tools as unknown as JsonObject[]);
  }
  if (req.toolChoice !== undefined) out['tool_choice'] = encodeToolChoice(req.toolChoice);
  if (req.parallelToolCalls !== undefined) out['parallel_tool_calls'] = req.parallelToolCalls;
  if (req.maxTokens !== undefined) {
    out['max_output_tokens'] = Math.max(req.maxTokens, MIN_OUTPUT_TOKENS);
    if (req.maxTokens < MIN_OUTPUT_TOKENS) loss(local, 'max-tokens', ['maxTokens'], `max_output_tokens must be at least ${MIN_OUTPUT_TOKENS}: ${MIN_OUTPUT_TOKENS} is sent`, 'approximated');
    flush(local, ctx, stash, 'maxTokens', req.maxTokens);
  }
  if (req.temperature !== undefined) out['temperature'] = req.temperature;
  if (req.topP !== undefined) out['top_p'] = req.topP;
  unsupported(req, local, ctx, stash);
  if (req.responseFormat !== undefined) {
    out['text'] = wrap(rest, 'text', 'format', encodeFormat(req.responseFormat, local));
    flush(local, ctx, stash, 'responseFormat', req.responseFormat as unknown as JsonObject);
  }
  if (req.reasoning !== undefined) {
    const effort = encodeEffort(req.reasoning, local);
    if (effort !== undefined) out['reasoning'] = wrap(rest, 'reasoning', 'effort', effort);
    flush(local, ctx, stash, 'reasoning', req.reasoning as unknown as JsonObject);
  }
  if (req.user !== undefined) out[rest?.['$safety'] === true ? 'safety_identifier' : 'user'] = req.user;
  if (req.stream !== undefined) out['stream'] = req.stream;
  if (req.metadata !== undefined) out['metadata'] = req.metadata;
  restoreResidue(out, req.ext, OR);
  foreignTop(req.ext, ctx, stash);
  putTopStash(out, stash, ctx);
  return out as ResponsesRequest;
}

/**
 * Another format's top-level ext is reported and comes back through the stash, its private hints
 * too (they are not losses, but without them that format's way back is not exact).
 */
export function foreignTop(ext: Request['ext'], ctx: EncodeContext, stash: JsonObject): void {
  if (ext === undefined) return;
  let foreign: JsonObject | undefined;
  for (const origin in ext) if (origin !== OR) (foreign ??= {})[origin] = ext[origin] as JsonObject;
  if (foreign === undefined) return;
  const local = new LossList();
  reportForeignExt(ext, OR, [], local);
  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  stash['ext'] = foreign;
}
