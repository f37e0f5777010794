/**
 * `generationConfig` <-> the canonical sampling, output-format and reasoning fields. Fields with no
 * canonical slot (responseModalities, speechConfig, includeThoughts, mediaResolution ...) stay as
 * residue and are merged back under what the encoder writes.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ReasoningConfig, ReasoningEffort, Request, ResponseFormat } from '../../model/request.js';
import type { LossSink } from '../codec.js';
import { loss } from './content-encode.js';
import { lowerTypes, toGeminiSchema, upperTypes } from './json-schema.js';
import { rest } from './wire-util.js';

const NUMBERS = {
  candidateCount: 'candidateCount',
  maxOutputTokens: 'maxTokens',
  temperature: 'temperature',
  topP: 'topP',
  topK: 'topK',
  seed: 'seed',
  presencePenalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty',
} as const;
const LEVELS = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Maps what fits onto `req`; returns the residue, or undefined. `hints` (the request's own `$`
 * hints) learns how to write the mapped fields back.
 */
export function decodeGenerationConfig(gc: JsonObject, req: Request, hints: JsonObject): JsonObject | undefined {
  const used = new Set<string>();
  hints['$generationConfig'] = true;
  for (const key of Object.keys(NUMBERS) as (keyof typeof NUMBERS)[]) {
    const v = gc[key];
    if (typeof v !== 'number') continue;
    req[NUMBERS[key]] = v;
    used.add(key);
  }
  if (Array.isArray(gc['stopSequences'])) {
    req.stop = gc['stopSequences'] as string[];
    used.add('stopSequences');
  }
  const format = decodeFormat(gc, hints);
  if (format) {
    req.responseFormat = format.value;
    for (const k of format.used) used.add(k);
  }
  const out: JsonObject = rest(gc, used) ?? {};
  const tc = gc['thinkingConfig'];
  if (isJsonObject(tc)) {
    const { reasoning, residue } = decodeThinking(tc, hints);
    if (reasoning) req.reasoning = reasoning;
    if (residue) out['thinkingConfig'] = residue;
    else delete out['thinkingConfig'];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function decodeFormat(gc: JsonObject, hints: JsonObject): { value: ResponseFormat; used: string[] } | undefined {
  const mime = gc['responseMimeType'];
  const schema = gc['responseSchema'];
  const jsonSchema = gc['responseJsonSchema'];
  if (mime === 'text/plain' && schema === undefined && jsonSchema === undefined) return { value: { type: 'text' }, used: ['responseMimeType'] };
  if (mime !== 'application/json') return undefined;
  if (schema === undefined && jsonSchema === undefined) return { value: { type: 'json' }, used: ['responseMimeType'] };
  if (isJsonObject(schema) && jsonSchema === undefined) {
    const lower = lowerTypes(schema);
    if (lower) hints['$formatUpper'] = true;
    hints['$formatGemini'] = true; // Gemini's own Schema goes back as it came
    return { value: { type: 'json-schema', schema: lower ?? schema }, used: ['responseMimeType', 'responseSchema'] };
  }
  if (isJsonObject(jsonSchema) && schema === undefined) {
    hints['$formatJsonSchema'] = true;
    return { value: { type: 'json-schema', schema: jsonSchema }, used: ['responseMimeType', 'responseJsonSchema'] };
  }
  return undefined;
}

/**
 * thinkingBudget 0 turns thinking off, -1 lets the model decide (adaptive), N is a budget;
 * thinkingLevel is an effort. includeThoughts has no canonical slot and stays residue.
 */
function decodeThinking(tc: JsonObject, hints: JsonObject): { reasoning?: ReasoningConfig; residue?: JsonObject } {
  const r: ReasoningConfig = {};
  const used: string[] = [];
  const budget = tc['thinkingBudget'];
  if (typeof budget === 'number' && Number.isInteger(budget) && budget >= -1) {
    if (budget === 0) r.enabled = false;
    else if (budget === -1) r.mode = 'adaptive';
    else r.budgetTokens = budget;
    used.push('thinkingBudget');
  }
  const level = tc['thinkingLevel'];
  if (typeof level === 'string' && LEVELS.has(level.toLowerCase())) {
    r.effort = level.toLowerCase() as ReasoningEffort;
    if (level === r.effort) hints['$lowerLevel'] = true;
    used.push('thinkingLevel');
  }
  const residue = rest(tc, new Set(used));
  if (residue === undefined) hints['$thinkingConfig'] = true; // written back even when empty
  const out: { reasoning?: ReasoningConfig; residue?: JsonObject } = {};
  if (Object.keys(r).length > 0) out.reasoning = r;
  if (residue) out.residue = residue;
  return out;
}

/** The canonical fields -> generationConfig (residue merged in); undefined when there is nothing. */
export function encodeGenerationConfig(req: Request, own: JsonObject | undefined, losses: LossSink): JsonObject | undefined {
  const out: JsonObject = {};
  if (req.candidateCount !== undefined) out['candidateCount'] = req.candidateCount;
  if (req.stop !== undefined) out['stopSequences'] = req.stop;
  if (req.maxTokens !== undefined) out['maxOutputTokens'] = req.maxTokens;
  if (req.temperature !== undefined) out['temperature'] = req.temperature;
  if (req.topP !== undefined) out['topP'] = req.topP;
  if (req.topK !== undefined) out['topK'] = req.topK;
  if (req.seed !== undefined) out['seed'] = req.seed;
  if (req.presencePenalty !== undefined) out['presencePenalty'] = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) out['frequencyPenalty'] = req.frequencyPenalty;
  if (req.responseFormat !== undefined) encodeFormat(req.responseFormat, own, out, losses);
  const residue = isJsonObject(own?.['generationConfig']) ? own['generationConfig'] : undefined;
  const thinking = req.reasoning === undefined ? {} : encodeThinking(req.reasoning, own, losses);
  const tcRest = residue?.['thinkingConfig'];
  if (Object.keys(thinking).length > 0 || isJsonObject(tcRest) || own?.['$thinkingConfig'] === true) {
    out['thinkingConfig'] = { ...(isJsonObject(tcRest) ? tcRest : {}), ...thinking };
  }
  if (residue) for (const key in residue) if (!(key in out)) out[key] = residue[key] as JsonValue;
  if (Object.keys(out).length === 0 && own?.['$generationConfig'] !== true) return undefined;
  return out;
}

function encodeFormat(rf: ResponseFormat, own: JsonObject | undefined, out: JsonObject, losses: LossSink): void {
  if (rf.type === 'text') {
    out['responseMimeType'] = 'text/plain';
    return;
  }
  out['responseMimeType'] = 'application/json';
  if (rf.type === 'json') return;
  if (own?.['$formatJsonSchema'] === true) out['responseJsonSchema'] = rf.schema;
  else {
    const schema = own?.['$formatGemini'] === true ? rf.schema : toGeminiSchema(rf.schema, ['responseFormat', 'schema'], losses);
    out['responseSchema'] = own?.['$formatUpper'] === true ? upperTypes(schema) : schema;
  }
  for (const key of ['name', 'description', 'strict'] as const) {
    if (rf[key] !== undefined) loss(losses, 'response-format', ['responseFormat', key], `Gemini structured output has no '${key}'`);
  }
}

function encodeThinking(r: ReasoningConfig, own: JsonObject | undefined, losses: LossSink): JsonObject {
  const out: JsonObject = {};
  const path = ['reasoning'];
  if (r.enabled === false) {
    out['thinkingBudget'] = 0;
    if (r.effort !== undefined || r.budgetTokens !== undefined) loss(losses, 'reasoning-disabled', path, 'thinking is off: effort and budget are not sent');
    return out;
  }
  if (r.budgetTokens !== undefined) out['thinkingBudget'] = r.budgetTokens;
  else if (r.mode === 'adaptive') out['thinkingBudget'] = -1;
  if (r.mode === 'adaptive' && r.budgetTokens !== undefined) loss(losses, 'reasoning-mode', [...path, 'mode'], 'a thinking budget was given: adaptive thinking (-1) is not sent', 'approximated');
  if (r.effort !== undefined) {
    if (r.effort === 'none') {
      if (out['thinkingBudget'] === undefined) out['thinkingBudget'] = 0;
      loss(losses, 'reasoning-effort', [...path, 'effort'], "effort 'none' sent as thinkingBudget 0", 'approximated');
    } else {
      const level = LEVELS.has(r.effort) ? r.effort : 'high';
      if (level !== r.effort) loss(losses, 'reasoning-effort', [...path, 'effort'], `effort '${r.effort}' sent as thinkingLevel '${level}'`, 'approximated');
      // The SDK's enum spelling, unless the source wrote lower case.
      out['thinkingLevel'] = own?.['$lowerLevel'] === true ? level : level.toUpperCase();
    }
  }
  if (r.enabled === true && Object.keys(out).length === 0) loss(losses, 'reasoning-mode', path, 'thinking on without a budget or level: the model default applies', 'approximated');
  return out;
}
