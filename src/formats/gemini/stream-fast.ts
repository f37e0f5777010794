/**
 * responseSchema (schema.ts) as a hand-written yes/no check, for the stream's chunks: one per
 * chunk, and the generic fast check (zod-fast-check.ts) pays a closure call per field and zod's
 * check functions for every integer. Each field is read in both spellings, by literal name, and
 * tested inline; "valid" only where the schema says so (test/formats/gemini/stream-fast.test.ts),
 * and "no" leaves the chunk to the schema, which gives the issues. plainChunk (below) goes further
 * for the common chunk: valid, part rules included, and without residue under its top.
 */
import { z } from 'zod';
import { isJsonObject as isObject } from '../../model/json.js';
import { optBoolean as bool, optString as str, plainObject as plain } from '../shared/fast-guards.js';

type Obj = Record<string, unknown>;

/** z.number().int(): a safe integer. */
function int(v: unknown): boolean {
  return v === undefined || Number.isSafeInteger(v);
}

/** z.number().int().nonnegative(). */
function count(v: unknown): boolean {
  return v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0);
}

function num(v: unknown): boolean {
  return v === undefined || (typeof v === 'number' && Number.isFinite(v));
}

/** z.record(z.string(), z.unknown()): a plain object without symbol keys. */
function record(v: unknown): boolean {
  return v === undefined || (z.util.isPlainObject(v) && Object.getOwnPropertySymbols(v).length === 0);
}

function records(v: unknown): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!record(v[i]) || v[i] === undefined) return false;
  return true;
}

function blob(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  return str(v['mimeType']) && str(v['mime_type']) && str(v['data']);
}

function fileData(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  return str(v['mimeType']) && str(v['mime_type']) && str(v['fileUri']) && str(v['file_uri']);
}

function functionCall(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  return str(v['id']) && str(v['name']) && record(v['args']);
}

function responseParts(v: unknown): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const p: unknown = v[i];
    if (!isObject(p) || !blob(p['inlineData']) || !blob(p['inline_data'])) return false;
  }
  return true;
}

function functionResponse(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  if (!str(v['id']) || !str(v['name']) || !record(v['response']) || !responseParts(v['parts'])) return false;
  return bool(v['willContinue']) && bool(v['will_continue']);
}

function executableCode(v: unknown): boolean {
  if (v === undefined) return true;
  return isObject(v) && str(v['language']) && str(v['code']);
}

function codeResult(v: unknown): boolean {
  if (v === undefined) return true;
  return isObject(v) && str(v['outcome']) && str(v['output']);
}

function part(p: unknown): boolean {
  if (!isObject(p)) return false;
  if (!str(p['text']) || !bool(p['thought']) || !str(p['thoughtSignature']) || !str(p['thought_signature'])) return false;
  if (!functionCall(p['functionCall']) || !functionCall(p['function_call'])) return false;
  if (!blob(p['inlineData']) || !blob(p['inline_data']) || !fileData(p['fileData']) || !fileData(p['file_data'])) return false;
  if (!functionResponse(p['functionResponse']) || !functionResponse(p['function_response'])) return false;
  if (!executableCode(p['executableCode']) || !executableCode(p['executable_code'])) return false;
  if (!codeResult(p['codeExecutionResult']) || !codeResult(p['code_execution_result'])) return false;
  return record(p['videoMetadata']) && record(p['video_metadata']) && record(p['partMetadata']) && record(p['part_metadata']);
}

function content(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  const role = v['role'];
  if (role !== undefined && role !== 'user' && role !== 'model') return false;
  const parts = v['parts'];
  if (parts === undefined) return true;
  if (!Array.isArray(parts)) return false;
  for (let i = 0; i < parts.length; i++) if (!part(parts[i])) return false;
  return true;
}

function candidate(c: unknown): boolean {
  if (!isObject(c)) return false;
  if (!int(c['index']) || !content(c['content']) || !str(c['finishReason']) || !str(c['finish_reason'])) return false;
  if (!str(c['finishMessage']) || !str(c['finish_message']) || !num(c['avgLogprobs']) || !num(c['avg_logprobs'])) return false;
  if (!records(c['safetyRatings']) || !records(c['safety_ratings'])) return false;
  return record(c['citationMetadata']) && record(c['citation_metadata']) && record(c['groundingMetadata']) && record(c['grounding_metadata']);
}

function feedback(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  return str(v['blockReason']) && str(v['block_reason']) && records(v['safetyRatings']) && records(v['safety_ratings']);
}

function usage(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  return (
    count(v['promptTokenCount']) && count(v['prompt_token_count']) && count(v['cachedContentTokenCount']) && count(v['cached_content_token_count']) &&
    count(v['candidatesTokenCount']) && count(v['candidates_token_count']) && count(v['toolUsePromptTokenCount']) && count(v['tool_use_prompt_token_count']) &&
    count(v['thoughtsTokenCount']) && count(v['thoughts_token_count']) && count(v['totalTokenCount']) && count(v['total_token_count'])
  );
}

/** Whether a chunk (an object) is valid against responseSchema. */
export function chunkOk(chunk: Obj): boolean {
  const list = chunk['candidates'];
  if (list !== undefined) {
    if (!Array.isArray(list)) return false;
    for (let k = 0; k < list.length; k++) if (!candidate(list[k])) return false;
  }
  if (!feedback(chunk['promptFeedback']) || !feedback(chunk['prompt_feedback']) || !usage(chunk['usageMetadata']) || !usage(chunk['usage_metadata'])) return false;
  return str(chunk['modelVersion']) && str(chunk['model_version']) && str(chunk['responseId']) && str(chunk['response_id']) && str(chunk['createTime']) && str(chunk['create_time']);
}

/**
 * The chunk nearly every stream is made of, on its own keys (JSON.parse's objects: a walk sees
 * every field): candidates of index, finishReason and content; content of role and parts; parts of
 * a string text (with thought: true, a string thoughtSignature) or of a functionCall of name, id,
 * partialArgs and willContinue (the last two are the decoder's to check); at the top responseId,
 * modelVersion, createTime and a valid usageMetadata. Such a chunk is valid (schema and part
 * rules) and has no residue but a createTime: the decoder skips those checks for it. Else "no".
 */
export function plainChunk(chunk: Obj): boolean {
  if (!plain(chunk)) return false;
  for (const key in chunk) {
    const v = chunk[key];
    if (key === 'candidates') {
      if (!Array.isArray(v)) return false;
      for (let k = 0; k < v.length; k++) if (!plainCandidate(v[k])) return false;
    } else if (key === 'responseId' || key === 'modelVersion' || key === 'createTime') {
      if (typeof v !== 'string') return false;
    } else if (key !== 'usageMetadata' || !isObject(v) || !usage(v)) return false;
  }
  return true;
}

function plainCandidate(c: unknown): boolean {
  if (!plain(c)) return false;
  for (const key in c) {
    const v = c[key];
    if (key === 'content') {
      if (!plainContent(v)) return false;
    } else if (key === 'index') {
      if (!Number.isSafeInteger(v)) return false;
    } else if (key !== 'finishReason' || typeof v !== 'string') return false;
  }
  return true;
}

function plainContent(v: unknown): boolean {
  if (!plain(v)) return false;
  for (const key in v) {
    const x = v[key];
    if (key === 'parts') {
      if (!Array.isArray(x)) return false;
      for (let j = 0; j < x.length; j++) if (!plainTextPart(x[j]) && !plainCallPart(x[j])) return false;
    } else if (key !== 'role' || (x !== 'model' && x !== 'user')) return false;
  }
  return true;
}

/**
 * A part of a string `text` and nothing but `thought: true` and a string `thoughtSignature`:
 * nearly every streamed part. (A part without text, `{thought: true}`, is a part kind of its own.)
 */
export function plainTextPart(p: unknown): boolean {
  if (!plain(p) || typeof p['text'] !== 'string') return false;
  for (const key in p) {
    const v = p[key];
    if (key === 'text' || key === 'thoughtSignature') {
      if (typeof v !== 'string') return false;
    } else if (key !== 'thought' || v !== true) return false;
  }
  return true;
}

/** A functionCall part: the call and a string thoughtSignature at most. */
function plainCallPart(p: unknown): boolean {
  if (!plain(p) || !plainCall(p['functionCall'])) return false;
  for (const key in p) if (key !== 'functionCall' && (key !== 'thoughtSignature' || typeof p[key] !== 'string')) return false;
  return true;
}

/** name and id strings; partialArgs and willContinue are no part of the schema (the decoder checks them). */
function plainCall(fc: unknown): boolean {
  if (!plain(fc)) return false;
  for (const key in fc) {
    if (key === 'name' || key === 'id') {
      if (typeof fc[key] !== 'string') return false;
    } else if (key !== 'partialArgs' && key !== 'willContinue') return false;
  }
  return true;
}

