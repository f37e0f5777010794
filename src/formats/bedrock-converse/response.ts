/** Bedrock Converse non-streaming response <-> canonical Response. */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Choice, Response } from '../../model/response.js';
import type { DecodeContext, EncodeContext, KindCodec } from '../codec.js';
import { DEFAULT_LIMITS } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { putTopStash, takeTopStash } from '../shared/stash.js';
import type { BedrockResponse } from './bedrock-converse-api.js';
import { encodeParts } from './content-encode.js';
import { decodeMessage } from './message-decode.js';
import { DocumentNamer } from './names.js';
import { decodeStopReason, encodeStopReason } from './stop-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { validateResponse } from './validate.js';
import { ID, lose, rest, restBeside } from './wire-util.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';

/** metrics, trace, additionalModelResponseFields, performanceConfig, serviceTier stay residue. */
const KNOWN = new Set(['output', 'stopReason', 'usage']);

export function decodeResponse(body: unknown, ctx: DecodeContext): Response {
  const b = validateResponse(body, ctx.limits);
  const output = b['output'] as JsonObject;
  const choice: Choice = { index: 0, message: decodeMessage(output['message'] as JsonObject) };
  const raw = b['stopReason'] as string;
  choice.stopReason = decodeStopReason(raw);
  const out: Response = { choices: [choice] };
  const res = rest(b, KNOWN) ?? {};
  const usage = b['usage'];
  if (isJsonObject(usage)) out.usage = decodeUsage(usage);
  else if (usage === undefined) res['$noUsage'] = true;
  if (b['metrics'] === undefined) res['$noMetrics'] = true;
  const outer = restBeside(output, 'message');
  if (outer) res['outputExtra'] = outer;
  // A stop reason newer than this codec: written back as it came, only to Bedrock.
  if (choice.stopReason.unified === 'other') res['$stopRaw'] = true;
  if (Object.keys(res).length > 0) keepResidue(out, ID, res);

  const stash = takeTopStash(b, ctx);
  if (stash) {
    const target = out as unknown as Record<string, unknown>;
    for (const key in stash) {
      if (stash[key] === null) deleteKey(target as unknown as JsonObject, key);
      else target[key] = stash[key];
    }
  }
  return out;
}

export function encodeResponse(value: Response, ctx: EncodeContext): BedrockResponse {
  const local = new LossList();
  const own = value.ext?.[ID] ?? {};
  const choice = value.choices[0];
  const path = ['choices', 0, 'message'];
  const content = encodeParts(choice?.message.parts ?? [], 'assistant', childPath(path, 'parts'), { namer: new DocumentNamer().reserve(choice ? [choice.message] : []), losses: local, keepBlank: true });
  const message: JsonObject = { role: 'assistant', content };
  if (choice) {
    restoreResidue(message, choice.message.ext, ID);
    reportForeignExt(choice.message.ext, ID, path, local);
    reportForeignExt(choice.ext, ID, ['choices', 0], local);
    if (choice.message.name !== undefined) lose(local, 'message-name', childPath(path, 'name'), 'Bedrock messages have no participant name');
  }
  if (value.choices.length > 1) lose(local, 'extra-choices', ['choices'], `Bedrock holds one message; ${value.choices.length - 1} more choice(s) dropped`);

  const output: JsonObject = { message };
  if (isJsonObject(own['outputExtra'])) Object.assign(output, own['outputExtra'], { message });
  const out: JsonObject = { output };
  const reason = choice?.stopReason;
  if (reason) {
    const { value: stop, exact } = encodeStopReason(reason, own['$stopRaw'] === true);
    if (!exact) lose(local, 'stop-reason', ['choices', 0, 'stopReason'], `stop reason '${reason.raw ?? reason.unified}' sent as '${stop}'`, 'approximated');
    if (reason.sequence !== undefined) lose(local, 'stop-sequence', ['choices', 0, 'stopReason', 'sequence'], 'Bedrock does not say which stop sequence matched');
    out['stopReason'] = stop;
  } else {
    out['stopReason'] = 'end_turn';
    lose(local, 'missing-stop-reason', ['choices', 0, 'stopReason'], "Bedrock responses carry a stop reason; 'end_turn' written", 'approximated');
  }
  if (value.usage) out['usage'] = encodeUsage(value.usage, local);
  else if (own['$noUsage'] !== true && own['usage'] !== null) {
    out['usage'] = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    lose(local, 'missing-usage', ['usage'], 'Bedrock responses carry usage; zeros written', 'approximated');
  }
  if (!('metrics' in own) && own['$noMetrics'] !== true) {
    out['metrics'] = { latencyMs: 0 };
    lose(local, 'missing-metrics', ['metrics'], 'Bedrock responses carry metrics.latencyMs; 0 written', 'approximated');
  }
  for (const key of ['id', 'model', 'created'] as const) {
    if (value[key] !== undefined) lose(local, 'unsupported-field', [key], `Bedrock Converse responses have no '${key}'`);
  }
  // Only this format's own residue has anything to write back (another origin's response has none).
  if (value.ext?.[ID] !== undefined) {
    const { outputExtra: _o, ...ownRest } = own;
    restoreResidue(out, { [ID]: ownRest }, ID);
  }
  reportForeignExt(value.ext, ID, [], local);

  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  if (ctx.preserve) putTopStash(out, differences(value, out), ctx);
  return out as unknown as BedrockResponse;
}

/** The canonical fields decoding `out` would not give back exactly (null = absent). */
function differences(value: Response, out: JsonObject): JsonObject {
  let back: Record<string, unknown> = {};
  try {
    back = decodeResponse(out, { limits: DEFAULT_LIMITS, losses: { push: () => undefined } }) as unknown as Record<string, unknown>;
  } catch {
    // Not a valid Bedrock body (an unusable canonical value): stash every field.
  }
  const orig = value as unknown as Record<string, unknown>;
  const diff: JsonObject = {};
  for (const key of new Set([...Object.keys(orig), ...Object.keys(back)])) {
    if (!sameValue(orig[key], back[key])) diff[key] = (orig[key] ?? null) as JsonValue;
  }
  return diff;
}

export const responseCodec: KindCodec<Response> = {
  decode: decodeResponse,
  encode: (value, ctx) => encodeResponse(value, ctx),
};
