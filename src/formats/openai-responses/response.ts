/**
 * Responses non-streaming response (the `response` object) <-> canonical Response. All `output`
 * items form the one assistant message of `choices[0]`, in order; `status` and
 * `incomplete_details` give the stop reason. The response also echoes the request (instructions,
 * tools, temperature ...): those fields are residue. Where the spec requires an echo the canonical
 * model cannot know, a neutral value is written (null where allowed, else the API default), and
 * the decoder treats that exact value as implied, so it does not come back as residue.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Choice, Response } from '../../model/response.js';
import type { StopReason } from '../../model/stop-reason.js';
import type { Usage } from '../../model/usage.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { randomHex32 } from '../shared/random-hex.js';
import { keepResidue, reportForeignExt, residue, restoreResidue } from '../shared/residue.js';
import { putTopStash, takeTopStash } from '../shared/stash.js';
import { loss, own } from './content-encode.js';
import { decodeItems } from './items-decode.js';
import { encodeItems } from './items-encode.js';
import { OPENAI_RESPONSES, type ResponsesResponse } from './openai-responses-api.js';
import { foreignTop } from './request-encode.js';
import { decodeStatus, encodeStatus, endsInClientCall, incompleteFor, STATUSES } from './stop-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { validateResponse } from './validate.js';
import { deleteKey } from '../shared/delete-keys.js';

const OR = OPENAI_RESPONSES;
const KNOWN = new Set(['id', 'created_at', 'model', 'output', 'status', 'usage', 'incomplete_details']);

/** Echo fields the spec requires, with the value written when nothing better is known. */
const FILLERS: readonly [string, JsonValue][] = [
  ['object', 'response'],
  ['error', null],
  ['instructions', null],
  ['tools', []],
  ['tool_choice', 'auto'],
  ['parallel_tool_calls', true],
  ['metadata', null],
  ['temperature', null],
  ['top_p', null],
];

const FILLER_VALUES: ReadonlyMap<string, JsonValue> = new Map(FILLERS);

/**
 * isDeepStrictEqual(value, filler) for FILLERS' values (strings, null, true and an empty list),
 * without its general walk: this runs for nine fields of every response read.
 */
function isFiller(value: JsonValue | undefined, filler: JsonValue): boolean {
  return Array.isArray(filler) ? Array.isArray(value) && value.length === 0 && filler.length === 0 && Object.keys(value).length === 0 : value === filler;
}

/**
 * An echo field that only says what the encoder fills in anyway: left out of the residue as it is
 * collected (deleting it afterwards would turn the object into a slow dictionary).
 */
function isEchoFiller(key: string, value: JsonValue): boolean {
  const filler = FILLER_VALUES.get(key);
  return filler !== undefined && isFiller(value, filler);
}

export function decodeResponse(input: unknown, ctx: DecodeContext): Response {
  const { body, args } = validateResponse(input, ctx.limits);
  const output = body['output'] as JsonObject[];
  const [message] = decodeItems(output, args, ctx, ['output'], true);
  const choice: Choice = { index: 0, message: message ?? { role: 'assistant', parts: [] } };
  const res: Response = { id: body['id'] as string, choices: [choice] };
  const absent: string[] = [];
  for (let k = 0; k < FILLERS.length; k++) {
    const key = (FILLERS[k] as [string, JsonValue])[0];
    if (!(key in body)) absent.push(key);
  }
  let rest = residue(body, KNOWN, isEchoFiller);
  const status = body['status'];
  if (typeof status === 'string') {
    choice.stopReason = decodeStatus(status, body['incomplete_details'], output);
    if (!STATUSES.has(status)) (rest ??= {})['$rawStatus'] = true;
  } else if (status === undefined) absent.push('status');
  else (rest ??= {})['status'] = status;
  const incomplete = body['incomplete_details'];
  if (incomplete === undefined) absent.push('incomplete_details');
  else if (!isDeepStrictEqual(incomplete, incompleteFor(choice.stopReason))) (rest ??= {})['incomplete_details'] = incomplete;
  if (typeof body['created_at'] === 'number') res.created = body['created_at'];
  else if (body['created_at'] === undefined) absent.push('created_at');
  else (rest ??= {})['created_at'] = body['created_at'];
  if (typeof body['model'] === 'string') res.model = body['model'];
  else if (body['model'] === undefined) absent.push('model');
  else (rest ??= {})['model'] = body['model'];
  const usage = body['usage'];
  if (isJsonObject(usage)) res.usage = decodeUsage(usage);
  else if (usage !== undefined) (rest ??= {})['usage'] = usage;
  if (absent.length > 0) (rest ??= {})['$absent'] = absent;
  if (rest !== undefined && Object.keys(rest).length > 0) keepResidue(res, OR, rest);
  applyStash(res, body, ctx);
  return res;
}

function applyStash(res: Response, body: JsonObject, ctx: DecodeContext): void {
  const fields = takeTopStash(body, ctx);
  if (!fields) return;
  const choice = res.choices[0] as Choice;
  if (Array.isArray(fields['$trailing'])) choice.message = (fields['$trailing'] as unknown as Message[])[0] ?? choice.message;
  if (isJsonObject(fields['stopReason'])) choice.stopReason = fields['stopReason'] as unknown as StopReason;
  if (isJsonObject(fields['choiceExt'])) choice.ext = { ...(fields['choiceExt'] as Choice['ext']), ...choice.ext };
  if (Array.isArray(fields['choices'])) {
    if (fields['choices'].length === 0) res.choices = [];
    else res.choices.push(...(fields['choices'] as unknown as Choice[]));
  }
  if (isJsonObject(fields['usage'])) res.usage = fields['usage'] as unknown as Usage;
  if (isJsonObject(fields['ext'])) res.ext = { ...(fields['ext'] as Response['ext']), ...res.ext };
  // Fields the spec requires that an earlier encode had to invent.
  for (const key of ['id', 'created', 'model'] as const) if (fields[key] === null) deleteKey(res as unknown as JsonObject, key);
}

const NOTHING_ABSENT: ReadonlySet<string> = new Set();

/** A required field that neither the response nor its residue wrote, and that the source did not leave out. */
function unfilled(out: JsonObject, absent: ReadonlySet<string>, key: string): boolean {
  return !(key in out) && !absent.has(key);
}

function flush(local: LossList, ctx: EncodeContext, stash: JsonObject, key: string, value: JsonObject[string]): void {
  if (local.length === 0) return;
  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  stash[key] = value;
  local.items.length = 0;
}

/**
 * A canonical response without `id` gets a fresh `resp_` id, one without `created` the current
 * time and one without `model` an empty name: all are required and carry no information to lose
 * (the stash notes they were invented).
 */
export function encodeResponse(res: Response, ctx: EncodeContext): ResponsesResponse {
  const stash: JsonObject = {};
  const local = new LossList();
  const rest = own(res.ext);
  const absent: ReadonlySet<string> = Array.isArray(rest?.['$absent']) ? new Set(rest['$absent'] as string[]) : NOTHING_ABSENT;
  // No rest destructuring: it runs the iterator and builds a list for every response.
  const choice = res.choices[0];
  const out: JsonObject = { id: res.id ?? `resp_${randomHex32()}` };
  if (res.id === undefined) stash['id'] = null;
  if (!absent.has('object')) out['object'] = 'response';
  if (res.created !== undefined) out['created_at'] = res.created;
  if (res.model !== undefined) out['model'] = res.model;
  // No choice at all (a blocked prompt) reads back as one empty output: only the stash says so.
  if (choice === undefined) stash['choices'] = [];
  const cut = incompleteFor(choice?.stopReason) !== null;
  const { items, trailing } = encodeItems(choice ? [choice.message] : [], ctx, 'output', 0, messagePath, false, cut);
  out['output'] = items;
  if (trailing.length > 0) stash['$trailing'] = trailing as unknown as JsonObject[];
  if (choice) {
    reportForeignExt(choice.ext, OR, ['choices', 0], local);
    if (hasForeignExt(choice.ext, OR)) stash['choiceExt'] = choice.ext as JsonObject;
    flush(local, ctx, stash, 'choiceExt', (choice.ext ?? {}) as JsonObject);
  }
  const reason = choice?.stopReason;
  if (reason) {
    const status = encodeStatus(reason, endsInClientCall(items), rest?.['$rawStatus'] === true, ['choices', 0, 'stopReason'], local);
    out['status'] = status;
    // Another format's raw value (end_turn, max_tokens ...) is no loss of meaning, but only the stash keeps it.
    if (ctx.preserve && reason.raw !== status) stash['stopReason'] = reason as unknown as JsonObject;
    flush(local, ctx, stash, 'stopReason', reason as unknown as JsonObject);
  }
  if (res.choices.length > 1) {
    const extra = res.choices.slice(1);
    loss(local, 'extra-choices', ['choices'], `a response holds one output: ${extra.length} more choice(s) dropped`);
    flush(local, ctx, stash, 'choices', extra as unknown as JsonObject[]);
  }
  if (res.usage) {
    out['usage'] = encodeUsage(res.usage, ['usage'], local);
    // Another origin's numbers (its raw usage, counts filled in) come back only through the stash.
    if (ctx.preserve && !isDeepStrictEqual(res.usage.raw, out['usage'])) stash['usage'] = res.usage as unknown as JsonObject;
    flush(local, ctx, stash, 'usage', res.usage as unknown as JsonObject);
  }
  if (rest === undefined) fillRequired(out, res, reason, stash);
  else fillAround(out, res, absent, reason, stash);
  foreignTop(res.ext, ctx, stash);
  putTopStash(out, stash, ctx);
  return out as unknown as ResponsesResponse;
}

/** The path of the one message encodeItems writes (no closure per response). */
const messagePath = (): Path => ['choices', 0, 'message'];

/**
 * fillAround for a response with no residue and no absent fields of this format (every other
 * origin's): what `out` holds is then known, so each required field is written without asking.
 * Same keys, values and order as fillAround gives it.
 */
function fillRequired(out: JsonObject, res: Response, reason: StopReason | undefined, stash: JsonObject): void {
  if (!reason) out['status'] = 'completed';
  out['incomplete_details'] = incompleteFor(reason);
  if (res.model === undefined) {
    stash['model'] = null;
    out['model'] = '';
  }
  if (res.created === undefined) {
    stash['created'] = null;
    out['created_at'] = Math.floor(Date.now() / 1000);
  }
  // FILLERS after 'object', which the encoder wrote first; a fresh empty list each time.
  out['error'] = null;
  out['instructions'] = null;
  out['tools'] = [];
  out['tool_choice'] = 'auto';
  out['parallel_tool_calls'] = true;
  out['metadata'] = null;
  out['temperature'] = null;
  out['top_p'] = null;
}

/** This format's residue written back, then what the spec requires and neither the canonical response nor its residue gave. */
function fillAround(out: JsonObject, res: Response, absent: ReadonlySet<string>, reason: StopReason | undefined, stash: JsonObject): void {
  restoreResidue(out, res.ext, OR);
  if (unfilled(out, absent, 'status')) out['status'] = 'completed';
  if (unfilled(out, absent, 'incomplete_details')) out['incomplete_details'] = incompleteFor(reason);
  if (unfilled(out, absent, 'model')) {
    stash['model'] = null;
    out['model'] = '';
  }
  if (unfilled(out, absent, 'created_at')) {
    stash['created'] = null;
    out['created_at'] = Math.floor(Date.now() / 1000);
  }
  // A fresh empty list each time: the caller owns the body it gets.
  for (const [key, filler] of FILLERS) if (unfilled(out, absent, key)) out[key] = Array.isArray(filler) ? [] : filler;
}
