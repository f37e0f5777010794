/**
 * Canonical Request -> Chat Completions request. Top-level fields with no Chat Completions slot
 * are reported and, under `preserve`, go to the body-level stash so the way back is exact.
 */
import type { JsonObject } from '../../model/json.js';
import type { ReasoningConfig, ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { Tool, ToolChoice } from '../../model/tool.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { effortForBudget } from '../shared/reasoning-effort.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash } from '../shared/stash.js';
import { loss, own, restoreNested } from './content-encode.js';
import { encodeMessages } from './message-encode.js';
import { foreignExt } from './content-encode.js';
import { OPENAI_CHAT, type ChatRequest } from './openai-chat-api.js';

/** OpenAI accepts at most four stop sequences. */
const MAX_STOP = 4;

function encodeTool(tool: Tool, i: number, losses: LossSink): JsonObject | undefined {
  const path = ['tools', i];
  reportForeignExt(tool.ext, OPENAI_CHAT, path, losses);
  if (tool.cache) loss(losses, 'cache-control', path, 'Chat Completions has no cache breakpoints on tools');
  if (tool.type === 'provider') {
    if (tool.origin === OPENAI_CHAT) return tool.config;
    loss(losses, 'provider-tool', path, `${tool.origin} tool '${tool.name ?? String(tool.config['type'])}' has no Chat Completions equivalent`);
    return undefined;
  }
  const fn: JsonObject = { name: tool.name };
  if (tool.description !== undefined) fn['description'] = tool.description;
  if (tool.parameters !== undefined) fn['parameters'] = tool.parameters;
  if (tool.strict !== undefined) fn['strict'] = tool.strict;
  const out: JsonObject = { type: 'function', function: fn };
  restoreNested(out, tool.ext, 'function');
  return out;
}

function encodeToolChoice(choice: ToolChoice): JsonObject[string] {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function encodeResponseFormat(format: ResponseFormat, losses: LossSink): JsonObject {
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json') return { type: 'json_object' };
  const js: JsonObject = { name: format.name ?? 'response', schema: format.schema };
  if (format.name === undefined) loss(losses, 'schema-name', ['responseFormat', 'name'], "json_schema needs a name: 'response' is used", 'approximated');
  if (format.description !== undefined) js['description'] = format.description;
  if (format.strict !== undefined) js['strict'] = format.strict;
  return { type: 'json_schema', json_schema: js };
}

function encodeReasoning(r: ReasoningConfig, losses: LossSink): ReasoningEffort | undefined {
  const path = ['reasoning'];
  if (r.enabled === false) {
    loss(losses, 'reasoning-disabled', path, 'Chat Completions cannot turn reasoning off for every model: reasoning_effort left unset');
    return undefined;
  }
  if (r.mode === 'adaptive') loss(losses, 'reasoning-mode', [...path, 'mode'], 'adaptive reasoning has no Chat Completions switch; the model default applies', 'approximated');
  if (r.effort !== undefined) {
    if (r.budgetTokens !== undefined) loss(losses, 'reasoning-budget', [...path, 'budgetTokens'], 'Chat Completions takes an effort, not a token budget');
    return r.effort;
  }
  if (r.budgetTokens !== undefined) {
    const effort = effortForBudget(r.budgetTokens);
    loss(losses, 'reasoning-budget', [...path, 'budgetTokens'], `a budget of ${r.budgetTokens} tokens is sent as reasoning_effort '${effort}'`, 'approximated');
    return effort;
  }
  if (r.enabled === true && r.mode === undefined) loss(losses, 'reasoning-mode', path, 'reasoning on without an effort: the model default applies', 'approximated');
  return undefined;
}

/** Moves losses gathered for one top-level field to ctx, marking them stashed under preserve. */
function flush(local: LossList, ctx: EncodeContext, stash: JsonObject, key: string, value: JsonObject[string]): void {
  if (local.length === 0) return;
  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  stash[key] = value;
  local.items.length = 0;
}

export function encodeRequest(req: Request, ctx: EncodeContext): ChatRequest {
  const out: JsonObject = {};
  const stash: JsonObject = {};
  const local = new LossList();
  const hints = own(req.ext);
  if (req.model !== undefined) out['model'] = req.model;
  else {
    // Chat Completions requires a model. Guessing one would pick the caller's model (and bill) for
    // them; an empty name keeps the body well-formed, and the API names the problem when sent.
    out['model'] = '';
    loss(local, 'missing-model', ['model'], "Chat Completions requires a model; none was given, '' written", 'approximated');
    flush(local, ctx, stash, 'model', null);
  }
  out['messages'] = encodeMessages(req.messages, ctx);
  if (req.tools !== undefined && req.tools.length > 0) {
    const tools: JsonObject[] = [];
    req.tools.forEach((t, i) => {
      const w = encodeTool(t, i, local);
      if (w) tools.push(w);
    });
    if (tools.length > 0) out['tools'] = tools;
    // Another format's hints on a tool (Anthropic `type: "custom"`) are no loss, but need the stash.
    if (req.tools.some((t) => hasForeignExt(t.ext, OPENAI_CHAT))) stash['tools'] = req.tools as unknown as JsonObject[];
    flush(local, ctx, stash, 'tools', req.tools as unknown as JsonObject[]);
  }
  if (req.toolChoice !== undefined) out['tool_choice'] = encodeToolChoice(req.toolChoice);
  if (req.parallelToolCalls !== undefined) out['parallel_tool_calls'] = req.parallelToolCalls;
  if (req.maxTokens !== undefined) out[hints?.['$maxTokens'] === true ? 'max_tokens' : 'max_completion_tokens'] = req.maxTokens;
  if (req.temperature !== undefined) out['temperature'] = req.temperature;
  if (req.topP !== undefined) out['top_p'] = req.topP;
  if (req.topK !== undefined) {
    if (hints?.['$topK'] === true) out['top_k'] = req.topK;
    else loss(local, 'top-k', ['topK'], 'Chat Completions has no top_k');
    flush(local, ctx, stash, 'topK', req.topK);
  }
  if (req.stop !== undefined && req.stop.length > 0) {
    const stop = req.stop.length > MAX_STOP ? req.stop.slice(0, MAX_STOP) : req.stop;
    if (stop !== req.stop) loss(local, 'stop-limit', ['stop'], `Chat Completions takes at most ${MAX_STOP} stop sequences; the rest are dropped`);
    out['stop'] = hints?.['$stopString'] === true && stop.length === 1 ? (stop[0] as string) : stop;
    flush(local, ctx, stash, 'stop', req.stop);
  }
  if (req.seed !== undefined) out['seed'] = req.seed;
  if (req.presencePenalty !== undefined) out['presence_penalty'] = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) out['frequency_penalty'] = req.frequencyPenalty;
  if (req.responseFormat !== undefined) {
    out['response_format'] = encodeResponseFormat(req.responseFormat, local);
    flush(local, ctx, stash, 'responseFormat', req.responseFormat as unknown as JsonObject);
  }
  if (req.reasoning !== undefined) {
    const effort = encodeReasoning(req.reasoning, local);
    if (effort !== undefined) out['reasoning_effort'] = effort;
    flush(local, ctx, stash, 'reasoning', req.reasoning as unknown as JsonObject);
  }
  if (req.user !== undefined) out['user'] = req.user;
  if (req.candidateCount !== undefined) out['n'] = req.candidateCount;
  if (req.stream !== undefined) out['stream'] = req.stream;
  if (req.metadata !== undefined) out['metadata'] = req.metadata;
  restoreResidue(out, req.ext, OPENAI_CHAT);
  // Another format's ext comes back through the stash, its private hints too (they are not
  // losses, but without them that format's way back is not exact).
  const foreign = foreignExt(req.ext);
  if (reportForeignExt(req.ext, OPENAI_CHAT, [], local)) flush(local, ctx, stash, 'ext', foreign ?? {});
  else if (foreign !== undefined) stash['ext'] = foreign;
  putTopStash(out, stash, ctx);
  return out as ChatRequest;
}
