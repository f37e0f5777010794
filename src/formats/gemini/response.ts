/**
 * generateContent response <-> canonical Response: each candidate is a Choice. promptFeedback,
 * safetyRatings, citationMetadata, groundingMetadata, logprobs and the like have no canonical
 * slot and stay as residue on the response or choice, written back only to Gemini.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Choice, Response } from '../../model/response.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash, stashGroup, takeMessageStash, takeTopStash } from '../shared/stash.js';
import { CallIds, decodeCandidateSpan, decodeContent } from './content-decode.js';
import { encodePart, loss, type PartContext } from './content-encode.js';
import type { GeminiResponse } from './gemini-api.js';
import { decodeFinishReason, encodeFinishReason } from './stop-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { validateResponse } from './validate.js';
import { foreignExt, ID, own, reportExt, rest, TopStash } from './wire-util.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';

const RESPONSE_KEYS = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
const CANDIDATE_KEYS = new Set(['index', 'content', 'finishReason']);

export function decodeResponse(input: unknown, ctx: DecodeContext): Response {
  const body = validateResponse(input, ctx.limits);
  const ids = new CallIds();
  const list = body['candidates'];
  const res: Response = { choices: Array.isArray(list) ? list.map((c, k) => decodeCandidate(c as JsonObject, k, ids, ctx)) : [] };
  if (typeof body['responseId'] === 'string') res.id = body['responseId'];
  if (typeof body['modelVersion'] === 'string') res.model = body['modelVersion'];
  const usage = body['usageMetadata'];
  if (isJsonObject(usage)) res.usage = decodeUsage(usage);
  const r = rest(body, RESPONSE_KEYS) ?? {};
  if (list === undefined) r['$noCandidates'] = true;
  if (Object.keys(r).length > 0) keepResidue(res, ID, r);
  const stash = takeTopStash(body, ctx);
  if (stash) applyStash(res, stash);
  return res;
}

function decodeCandidate(c: JsonObject, k: number, ids: CallIds, ctx: DecodeContext): Choice {
  const content = c['content'];
  const r = rest(c, CANDIDATE_KEYS) ?? {};
  let message: Message;
  if (isJsonObject(content)) {
    const stash = takeMessageStash([content], 0, ctx, ['candidates', k, 'content'], decodeCandidateSpan);
    message = stash?.messages[0] ?? decodeContent(content, ids, false, 'model');
  } else {
    // A blocked candidate has no content at all.
    message = { role: 'assistant', parts: [] };
    r['$noContent'] = true;
  }
  const index = c['index'];
  const choice: Choice = { index: typeof index === 'number' ? index : k, message };
  if (typeof index !== 'number') r['$noIndex'] = true;
  const finish = c['finishReason'];
  if (typeof finish === 'string') {
    const called = message.parts.some((p) => p.type === 'tool-call' && !p.providerExecuted);
    choice.stopReason = decodeFinishReason(finish, called);
    if (choice.stopReason.unified === 'other') r['$rawFinish'] = true;
  }
  if (Object.keys(r).length > 0) keepResidue(choice, ID, r);
  return choice;
}

function applyStash(res: Response, fields: JsonObject): void {
  const stops = fields['stopReasons'];
  if (isJsonObject(stops)) {
    for (const choice of res.choices) {
      const s = stops[String(choice.index)];
      if (isJsonObject(s)) choice.stopReason = s as unknown as NonNullable<Choice['stopReason']>;
    }
  }
  const target = res as unknown as Record<string, unknown>;
  for (const key of ['usage', 'id', 'model', 'created'] as const) {
    if (!(key in fields)) continue;
    if (fields[key] === null) deleteKey(target as unknown as JsonObject, key);
    else target[key] = fields[key];
  }
  if (isJsonObject(fields['ext'])) res.ext = { ...(fields['ext'] as Response['ext']), ...res.ext };
  const extras = fields['choiceExt'];
  if (!isJsonObject(extras)) return;
  for (const choice of res.choices) {
    const e = extras[String(choice.index)];
    if (!isJsonObject(e)) continue;
    if (isJsonObject(e['choice'])) choice.ext = { ...(e['choice'] as Choice['ext']), ...choice.ext };
    if (isJsonObject(e['message'])) choice.message.ext = { ...(e['message'] as Choice['ext']), ...choice.message.ext };
  }
}

function encodeCandidate(c: Choice, i: number, ctx: EncodeContext, stops: TopStash): JsonObject {
  const path: Path = ['choices', i];
  const hints = own(c.ext);
  const out: JsonObject = {};
  if (hints?.['$noContent'] !== true || c.message.parts.length > 0) {
    const local = new LossList();
    const content = encodeMessage(c.message, childPath(path, 'message'), local);
    // Finished by stashGroup (no keep check: only what was lost is stashed).
    stashGroup([c.message], ctx, local, [content], false, decodeCandidateSpan);
    out['content'] = content;
  }
  if (c.stopReason) {
    const reason = c.stopReason;
    const losses = new LossList();
    const { value, exact } = encodeFinishReason(reason, hints?.['$rawFinish'] === true);
    // STOP reads back as tool-calls when the turn calls functions, as stop when it does not.
    const back = decodeFinishReason(value, callsClientTool(c.message)).unified;
    if (!exact || (back !== reason.unified && reason.unified !== 'other')) loss(losses, 'stop-reason', childPath(path, 'stopReason'), `stop reason '${reason.raw ?? reason.unified}' sent as '${value}'`, 'approximated');
    stops.record(String(c.index), reason, losses.items);
    out['finishReason'] = value;
  }
  if (hints?.['$noIndex'] !== true) out['index'] = c.index;
  restoreResidue(out, c.ext, ID);
  return out;
}

/** Whether the message calls a function the client runs (a loop: this runs for every candidate). */
function callsClientTool(m: Message): boolean {
  for (const p of m.parts) if (p.type === 'tool-call' && !p.providerExecuted) return true;
  return false;
}

/** TopStash.record's pushing of losses alone, for losses that put no field in the stash. */
function pushLosses(ctx: EncodeContext, losses: LossList): void {
  for (const l of losses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
}

function encodeMessage(m: Message, path: Path, losses: LossList): JsonObject {
  if (m.role !== 'assistant') loss(losses, 'response-role', childPath(path, 'role'), `a ${m.role} message in a response is sent as the model's`, 'approximated');
  if (m.name !== undefined) loss(losses, 'message-name', childPath(path, 'name'), 'Gemini contents have no participant name');
  reportExt(m.ext, path, losses);
  const ctx: PartContext = { names: new Map(), omitted: new Set() };
  const parts: JsonObject[] = [];
  for (let j = 0; j < m.parts.length; j++) {
    const w = encodePart(m.parts[j] as Part, 'model', childPath(path, 'parts', j), losses, ctx);
    if (w) parts.push(w);
  }
  const hints = own(m.ext);
  const out: JsonObject = {};
  if (!(hints?.['$noParts'] === true && parts.length === 0)) out['parts'] = parts;
  if (hints?.['$noRole'] !== true) out['role'] = 'model';
  restoreResidue(out, m.ext, ID);
  return out;
}

export function encodeResponse(res: Response, ctx: EncodeContext): GeminiResponse {
  const top = new TopStash(ctx);
  const stops = new TopStash(ctx);
  const hints = own(res.ext);
  const out: JsonObject = {};
  const choices = res.choices;
  if (choices.length > 0 || hints?.['$noCandidates'] !== true) {
    const candidates: JsonObject[] = [];
    for (let i = 0; i < choices.length; i++) candidates.push(encodeCandidate(choices[i] as Choice, i, ctx, stops));
    out['candidates'] = candidates;
  }
  // Other formats' choice and message ext (hints too) ride in the stash for an exact way back.
  // Loops and losses gathered in place: no closure per choice or field.
  let extras: JsonObject | undefined;
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i] as Choice;
    const choiceExt = foreignExt(c.ext);
    const messageExt = foreignExt(c.message.ext);
    if (choiceExt || messageExt) {
      const e: JsonObject = {};
      if (choiceExt) e['choice'] = choiceExt;
      if (messageExt) e['message'] = messageExt;
      (extras ??= {})[String(c.index)] = e;
    }
    if (c.ext !== undefined) {
      const losses = new LossList();
      reportForeignExt(c.ext, ID, ['choices', i], losses);
      pushLosses(ctx, losses);
    }
  }
  if (extras !== undefined) top.fields['choiceExt'] = extras;
  if (res.usage) {
    const losses = new LossList();
    out['usageMetadata'] = encodeUsage(res.usage, losses).value;
    top.record('usage', res.usage, losses.items);
  }
  if (res.model !== undefined) out['modelVersion'] = res.model;
  if (res.id !== undefined) out['responseId'] = res.id;
  if (res.created !== undefined) {
    const losses = new LossList();
    loss(losses, 'unsupported-field', ['created'], "Gemini responses carry no 'created' time (Vertex has createTime)");
    top.record('created', res.created, losses.items);
  }
  restoreResidue(out, res.ext, ID);
  const foreign = foreignExt(res.ext);
  if (res.ext !== undefined) {
    const losses = new LossList();
    reportForeignExt(res.ext, ID, [], losses);
    top.record('ext', foreign, losses.items);
  }
  if (foreign) top.fields['ext'] = foreign;
  if (Object.keys(stops.fields).length > 0) top.fields['stopReasons'] = stops.fields;
  putTopStash(out, top.fields, ctx);
  return out as unknown as GeminiResponse;
}

