/**
 * The request's non-message fields, canonical -> Anthropic: sampling, tools, tool choice,
 * reasoning, structured output, and the fields Anthropic has no slot for (reported and stashed).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { EncodeContext } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { mapName } from './tool-names.js';
import { encodeCache, ID } from './wire-util.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';

type Lossy = (code: string, path: (string | number)[], message: string, approximated?: boolean) => void;

export function encodeExtras(req: Request, out: JsonObject, top: JsonObject, ctx: EncodeContext): void {
  const own = req.ext?.[ID] ?? {};
  const lost: Lossy = (code, path, message, approximated = false) =>
    ctx.losses.push({ code, path, message, action: ctx.preserve ? 'stashed' : approximated ? 'approximated' : 'dropped' });

  if (req.user !== undefined) out['metadata'] = { ...(isJsonObject(own['metadata']) ? own['metadata'] : {}), user_id: req.user };
  if (req.stop !== undefined) out['stop_sequences'] = req.stop;
  encodeSampling(req, own, out, top, lost);
  if (req.stream !== undefined) out['stream'] = req.stream;

  for (const key of ['seed', 'presencePenalty', 'frequencyPenalty', 'metadata'] as const) {
    if (req[key] === undefined) continue;
    lost('unsupported-field', [key], `Anthropic has no '${key}'`);
    top[key] = req[key] as JsonValue;
  }
  if (req.candidateCount !== undefined) {
    // One completion is all Anthropic makes; asking for exactly one loses nothing.
    if (req.candidateCount !== 1) lost('candidate-count', ['candidateCount'], 'Anthropic returns one completion per request');
    top['candidateCount'] = req.candidateCount;
  }

  if (req.tools !== undefined) encodeTools(req, out, top, ctx, lost);
  encodeToolChoice(req, own, out, top, lost);
  encodeReasoning(req, own, out, top, lost);
  encodeFormat(req, own, out, top, lost);

  // Sub-object residue without its `type` is only valid merged into what the encoder wrote.
  if (req.ext?.[ID] === undefined) return; // no residue to write back
  const rest: JsonObject = {};
  for (const key in own) {
    const v = own[key];
    if (key in out || (isJsonObject(v) && !('type' in v) && (key === 'thinking' || key === 'tool_choice' || key === 'output_format'))) continue;
    rest[key] = v as JsonValue;
  }
  restoreResidue(out, { [ID]: rest }, ID);
}

const SAMPLING = [
  ['temperature', 'temperature'],
  ['topP', 'top_p'],
  ['topK', 'top_k'],
] as const;

/**
 * The current API version (2026-10-21, the official SDK's default) takes no temperature, top_p or
 * top_k: any of them is a 400, and newer models refuse them under every version. They are written
 * back only to a body that came with them (`$sampling`: an older-version Anthropic request).
 */
function encodeSampling(req: Request, own: JsonObject, out: JsonObject, top: JsonObject, lost: Lossy): void {
  for (const [key, wire] of SAMPLING) {
    const value = req[key];
    if (value === undefined) continue;
    if (own['$sampling'] === true) out[wire] = value;
    else {
      lost('unsupported-field', [key], `Anthropic's current API takes no ${wire} (sampling parameters are refused); dropped`);
      top[key] = value;
    }
  }
}

function encodeTools(req: Request, out: JsonObject, top: JsonObject, ctx: EncodeContext, lost: Lossy): void {
  const tools: JsonObject[] = [];
  const before = ctx.losses;
  let lossy = false;
  const sink = { push: (l: Parameters<typeof before.push>[0]) => ((lossy = true), before.push(ctx.preserve ? { ...l, action: 'stashed' } : l)) };
  (req.tools ?? []).forEach((t, i) => {
    const path = ['tools', i];
    if (t.type === 'provider') {
      if (t.origin !== ID) {
        lost('provider-tool', path, `${t.origin} built-in tool${t.name ? ` '${t.name}'` : ''} has no Anthropic equivalent`);
        lossy = true;
        return;
      }
      const w: JsonObject = { ...t.config };
      if (t.cache) w['cache_control'] = encodeCache(t.cache);
      reportForeignExt(t.ext, ID, path, sink);
      if (hasForeignExt(t.ext, ID)) lossy = true;
      tools.push(w);
      return;
    }
    const w: JsonObject = { name: mapName(t.name, childPath(path, 'name'), sink) };
    if (t.ext?.[ID]?.['$custom'] === true) w['type'] = 'custom';
    if (t.description !== undefined) w['description'] = t.description;
    // No parameters: Anthropic needs a schema; an empty object schema means the same (no loss).
    if (t.parameters === undefined) lossy = true;
    w['input_schema'] = t.parameters ?? { type: 'object', properties: {} };
    if (t.strict !== undefined) w['strict'] = t.strict;
    if (t.cache) w['cache_control'] = encodeCache(t.cache);
    restoreResidue(w, t.ext, ID);
    reportForeignExt(t.ext, ID, path, sink);
    // Another format's hints or empty residue are no loss, but only the stash brings them back.
    if (hasForeignExt(t.ext, ID)) lossy = true;
    tools.push(w);
  });
  out['tools'] = tools;
  // Stashed whenever the wire form differs, so the way back is exact.
  if (lossy) top['tools'] = req.tools as unknown as JsonValue;
}

function encodeToolChoice(req: Request, own: JsonObject, out: JsonObject, top: JsonObject, lost: Lossy): void {
  const tc = req.toolChoice;
  const parallel = req.parallelToolCalls;
  if (tc === undefined && parallel === undefined) return;
  const w: JsonObject = { ...(isJsonObject(own['tool_choice']) && !('type' in own['tool_choice']) ? own['tool_choice'] : {}) };
  if (tc === undefined) {
    // Anthropic says "no parallel calls" only inside tool_choice; auto is its default.
    w['type'] = 'auto';
    top['toolChoice'] = null;
  } else if (tc.type === 'required') w['type'] = 'any';
  else if (tc.type === 'tool') {
    w['type'] = 'tool';
    w['name'] = mapName(tc.name, ['toolChoice', 'name'], { push: (l) => lost(l.code, l.path, l.message, true) });
    if (w['name'] !== tc.name) top['toolChoice'] = tc;
  } else w['type'] = tc.type;
  if (parallel !== undefined) {
    if (w['type'] === 'none') {
      lost('parallel-tool-calls', ['parallelToolCalls'], "tool_choice 'none' cannot say whether calls may run in parallel");
      top['parallelToolCalls'] = parallel;
    } else w['disable_parallel_tool_use'] = !parallel;
  }
  out['tool_choice'] = w;
}

const EFFORTS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

function encodeReasoning(req: Request, own: JsonObject, out: JsonObject, top: JsonObject, lost: Lossy): void {
  const r = req.reasoning;
  if (r === undefined) return;
  const approx: Lossy = (code, path, message) => {
    lost(code, path, message, true);
    top['reasoning'] = r as JsonObject;
  };
  const extra = isJsonObject(own['thinking']) && !('type' in own['thinking']) ? own['thinking'] : {};
  if (r.enabled === false || r.effort === 'none') {
    out['thinking'] = { ...extra, type: 'disabled' };
    if (r.enabled !== false) approx('reasoning-effort', ['reasoning', 'effort'], "effort 'none' sent as thinking disabled");
  } else if (r.mode === 'adaptive') out['thinking'] = { ...extra, type: 'adaptive' };
  else if (r.budgetTokens !== undefined) out['thinking'] = { ...extra, type: 'enabled', budget_tokens: r.budgetTokens };
  else if (r.effort !== undefined && own['$effortOnly'] !== true) {
    // An effort asks for reasoning; Claude reasons only with thinking on, and adaptive thinking is
    // how the effort docs pair them (a budget would be invented, and is retired on newer models).
    // Anthropic's own effort-without-thinking comes back as it was ($effortOnly).
    out['thinking'] = { ...extra, type: 'adaptive' };
    top['reasoning'] = r as JsonObject; // decodes as mode 'adaptive': the stash keeps the form
  } else if (r.enabled === true) {
    out['thinking'] = { ...extra, type: 'enabled', budget_tokens: 1024 };
    approx('default-thinking-budget', ['reasoning', 'budgetTokens'], 'Anthropic needs a thinking budget; 1024 (the minimum) used');
  }
  if (r.effort !== undefined && r.effort !== 'none') {
    const effort = EFFORTS.has(r.effort) ? r.effort : 'low';
    if (effort !== r.effort) approx('reasoning-effort', ['reasoning', 'effort'], `effort '${r.effort}' sent as '${effort}'`);
    out['output_config'] = { ...(isJsonObject(own['output_config']) ? own['output_config'] : {}), effort };
  }
}

function encodeFormat(req: Request, own: JsonObject, out: JsonObject, top: JsonObject, lost: Lossy): void {
  const rf = req.responseFormat;
  if (rf === undefined) return;
  if (rf.type === 'text') {
    top['responseFormat'] = rf; // plain text is Anthropic's default: nothing is lost
    return;
  }
  if (rf.type === 'json') {
    // Structured outputs need `additionalProperties: false` on every object, so no schema means
    // "any JSON object": {type: object} would admit only {} (or be refused).
    lost('json-object-format', ['responseFormat'], 'Anthropic structured outputs have no "any JSON object" mode; no output format is sent');
    top['responseFormat'] = rf;
    return;
  }
  let format: JsonObject = { type: 'json_schema', schema: rf.schema };
  for (const key of ['name', 'description', 'strict'] as const) {
    if (rf[key] === undefined) continue;
    lost('response-format', ['responseFormat', key], `Anthropic structured output has no '${key}'`);
    top['responseFormat'] = rf;
  }
  if (own['$outputFormat'] === true) {
    out['output_format'] = { ...(isJsonObject(own['output_format']) ? own['output_format'] : {}), ...format };
    return;
  }
  if (isJsonObject(own['$formatResidue'])) format = { ...own['$formatResidue'], ...format };
  const oc = isJsonObject(out['output_config']) ? out['output_config'] : isJsonObject(own['output_config']) ? { ...own['output_config'] } : {};
  oc['format'] = format;
  out['output_config'] = oc;
}

/**
 * Applies the top-level stash written by encodeRequest under `preserve`: canonical fields to set
 * (`null` = the field was absent), the exact leading system messages, trailing messages that had
 * no wire message, and other formats' ext.
 */
export function applyTopStash(req: Request, fields: JsonObject): void {
  const target = req as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (key === '$system') {
      const lead = req.messages[0]?.role === 'system' ? 1 : 0;
      req.messages.splice(0, lead, ...((value as unknown as Message[]) ?? []));
    } else if (key === '$trailing') req.messages.push(...(value as unknown as Message[]));
    else if (key === 'ext' && isJsonObject(value)) req.ext = { ...(value as Request['ext']), ...req.ext };
    else if (value === null) deleteKey(target as unknown as JsonObject, key);
    else target[key] = value;
  }
}
