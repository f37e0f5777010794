/** Anthropic Messages non-streaming response <-> canonical Response. */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Choice, Response } from '../../model/response.js';
import type { DecodeContext, EncodeContext, KindCodec } from '../codec.js';
import { hasForeignExt, messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { stashHash, stashHashMatches } from '../shared/stash-hash.js';
import { putTopStash, takeTopStash } from '../shared/stash.js';
import type { AnthropicResponse } from './anthropic-messages-api.js';
import { decodeBlocks } from './content-decode.js';
import { encodeParts } from './content-encode.js';
import { decodeStopReason, encodeStopReason } from './stop-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { validateResponse } from './validate.js';
import { foreignExt, ID, rest } from './wire-util.js';
import { deleteKey } from '../shared/delete-keys.js';

const KNOWN = new Set(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage']);

export function decodeResponse(body: unknown, ctx: DecodeContext): Response {
  const b = validateResponse(body, ctx.limits);
  const choice: Choice = { index: 0, message: { role: 'assistant', parts: decodeBlocks(b['content'] as JsonValue[]) } };
  const stop = b['stop_reason'];
  const sequence = b['stop_sequence'];
  if (typeof stop === 'string') choice.stopReason = decodeStopReason(stop, sequence as string | null | undefined);
  const out: Response = { id: b['id'] as string, model: b['model'] as string, choices: [choice] };
  out.usage = decodeUsage(b['usage'] as JsonObject);

  const res = rest(b, KNOWN) ?? {};
  // The encoder writes stop_sequence itself (null unless a sequence matched).
  if (sequence === null) deleteKey(res as unknown as JsonObject, 'stop_sequence');
  else if (sequence === undefined) res['$noStopSequence'] = true;
  else if (choice.stopReason?.sequence !== sequence) res['stop_sequence'] = sequence;
  if (stop === null) deleteKey(res as unknown as JsonObject, 'stop_reason');
  // A stop reason newer than this codec: write it back as it came, only to Anthropic.
  if (choice.stopReason?.unified === 'other') res['$stopRaw'] = true;
  if (Object.keys(res).length > 0) keepResidue(out, ID, res);

  const stash = takeTopStash(b, ctx);
  if (stash) applyStash(out, stash, b, ctx);
  return out;
}

/** Restores what a lossy encode stashed, unless the visible content changed since. */
function applyStash(out: Response, fields: JsonObject, b: JsonObject, ctx: DecodeContext): void {
  const { $choices: choices, $hash: hash, ext, ...rest } = fields;
  if (Array.isArray(choices)) {
    if (stashHashMatches(b['content'], hash)) out.choices = choices as unknown as Choice[];
    else ctx.losses.push({ code: 'stale-stash', path: ['x-interlingua'], message: 'content changed since it was stashed; stash ignored, visible content used', action: 'dropped' });
  }
  if (isJsonObject(ext)) out.ext = { ...(ext as Response['ext']), ...out.ext };
  const target = out as unknown as Record<string, unknown>;
  for (const key in rest) {
    if (rest[key] === null) deleteKey(target as unknown as JsonObject, key); // null: the field was absent
    else target[key] = rest[key];
  }
}

export function encodeResponse(value: Response, ctx: EncodeContext): AnthropicResponse {
  const local = new LossList();
  const top: JsonObject = {};
  const choice = value.choices[0];
  const parts = choice?.message.parts ?? [];
  const content = encodeParts(parts, 'assistant', ['choices', 0, 'message', 'parts'], local, true);
  if (choice) {
    reportForeignExt(choice.message.ext, ID, ['choices', 0, 'message'], local);
    reportForeignExt(choice.ext, ID, ['choices', 0], local);
    if (choice.message.name !== undefined) local.push({ code: 'message-name', path: ['choices', 0, 'message', 'name'], message: 'Anthropic messages have no participant name', action: 'dropped' });
  }
  if (value.choices.length > 1) {
    local.push({ code: 'extra-choices', path: ['choices'], message: `Anthropic holds one message; ${value.choices.length - 1} more choice(s) dropped`, action: 'dropped' });
  }

  const own = value.ext?.[ID];
  // Anthropic ids are required; a missing one gets a stable made-up id (and comes back absent): the
  // content's stash fingerprint, which the stash below reuses.
  const contentHash = value.id === undefined ? stashHash(content) : undefined;
  const out: JsonObject = { id: value.id ?? `msg_${contentHash}`, type: 'message', role: 'assistant' };
  if (value.id === undefined) top['id'] = null;
  if (value.model !== undefined) out['model'] = value.model;
  else {
    out['model'] = 'unknown';
    top['model'] = null;
    local.push({ code: 'missing-model', path: ['model'], message: "Anthropic responses name their model; 'unknown' written", action: 'approximated' });
  }
  out['content'] = content;
  const reason = choice?.stopReason;
  let rawStop = false;
  if (reason) {
    const { value: stop, exact } = encodeStopReason(reason, own?.['$stopRaw'] === true);
    // Another format's raw value (OpenAI function_call -> tool_use) may not come back from the
    // unified one: no loss of meaning, but only the stash keeps it.
    if (reason.raw !== undefined && reason.raw !== stop) rawStop = true;
    if (!exact) local.push({ code: 'stop-reason', path: ['choices', 0, 'stopReason'], message: `stop reason '${reason.raw ?? reason.unified}' sent as '${stop}'`, action: 'approximated' });
    out['stop_reason'] = stop;
    if (!(own?.['$noStopSequence'] === true)) out['stop_sequence'] = stop === 'stop_sequence' ? (reason.sequence ?? null) : null;
  } else {
    out['stop_reason'] = null;
    if (!(own?.['$noStopSequence'] === true)) out['stop_sequence'] = null;
  }
  if (value.usage) {
    const { usage, lossy } = encodeUsage(value.usage, local);
    out['usage'] = usage;
    if (lossy) top['usage'] = value.usage as unknown as JsonValue;
  } else {
    out['usage'] = { input_tokens: 0, output_tokens: 0 };
    local.push({ code: 'missing-usage', path: ['usage'], message: 'Anthropic responses carry usage; zeros written', action: 'approximated' });
  }
  if (value.created !== undefined) {
    local.push({ code: 'unsupported-field', path: ['created'], message: "Anthropic has no 'created'", action: 'dropped' });
    top['created'] = value.created;
  }
  if (value.usage === undefined) top['usage'] = null;
  restoreResidue(out, value.ext, ID);
  reportForeignExt(value.ext, ID, [], local);
  // Other formats' ext (even hint-only) rides in the stash, so A -> Anthropic -> A is exact.
  const foreign = foreignExt(value.ext);
  if (foreign) top['ext'] = foreign;

  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  // Another format's hints and explicit nulls on a choice are no loss, but only the stash keeps them.
  const foreignChoice = ctx.preserve && (rawStop || value.choices.some((c) => hasForeignExt(c.ext, ID) || messageHasForeignExt(c.message, ID)));
  // The stash is written only under preserve: hashing the content otherwise is wasted work.
  if (ctx.preserve && (local.length > 0 || foreignChoice)) {
    top['$choices'] = value.choices as unknown as JsonValue;
    top['$hash'] = contentHash ?? stashHash(content);
  }
  putTopStash(out, top, ctx);
  return out as unknown as AnthropicResponse;
}

export const responseCodec: KindCodec<Response> = {
  decode: decodeResponse,
  encode: (value, ctx) => encodeResponse(value, ctx),
};
