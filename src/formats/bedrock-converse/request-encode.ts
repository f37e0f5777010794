/**
 * Canonical Request -> Bedrock Converse request body (the ConverseCommandInput shape: see
 * request-decode.ts on `modelId`). Fields Bedrock has no slot for are reported; under `preserve`
 * every canonical field that would not come back exactly is stashed at the top level.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { DEFAULT_LIMITS } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { putTopStash } from '../shared/stash.js';
import type { BedrockRequest } from './bedrock-converse-api.js';
import { encodeMessages } from './messages-encode.js';
import { DocumentNamer, mapToolName } from './names.js';
import { decodeRequest } from './request-decode.js';
import { decodeResponseFormat, decodeToolChoice, encodeFormat, encodeTools, plainToolChoice, toolsForHistory } from './tools.js';
import { ID, lose } from './wire-util.js';

/** Canonical fields with no Bedrock slot (additionalModelRequestFields is model-specific). */
const NO_SLOT = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'user', 'metadata', 'parallelToolCalls', 'reasoning'] as const;

export function encodeRequest(req: Request, ctx: EncodeContext): BedrockRequest {
  const own = req.ext?.[ID] ?? {};
  const out: JsonObject = {};
  const top: JsonObject = {};
  const losses = new LossList();

  if (req.model !== undefined) out['modelId'] = req.model;
  const namer = new DocumentNamer().reserve(req.messages);
  const encoded = encodeMessages(req.messages, namer, ctx);
  // No messages: the body had none (a prompt resource), or an explicit null, which residue restores.
  if (!(encoded.messages.length === 0 && (own['$noMessages'] === true || own['messages'] === null))) out['messages'] = encoded.messages;
  if (encoded.system !== undefined) out['system'] = encoded.system;
  Object.assign(top, encoded.stash);

  const ic: JsonObject = isJsonObject(own['inferenceConfig']) ? { ...own['inferenceConfig'] } : {};
  if (req.maxTokens !== undefined) ic['maxTokens'] = req.maxTokens;
  if (req.temperature !== undefined) {
    ic['temperature'] = Math.min(1, Math.max(0, req.temperature));
    if (ic['temperature'] !== req.temperature) approx(losses, 'temperature-range', ['temperature'], `Bedrock temperature is 0..1; ${req.temperature} sent as ${String(ic['temperature'])}`);
  }
  if (req.topP !== undefined) ic['topP'] = req.topP;
  if (req.stop !== undefined) {
    const stops = req.stop.filter((s) => s !== '');
    if (stops.length !== req.stop.length) approx(losses, 'empty-stop-sequence', ['stop'], 'Bedrock stop sequences are non-empty; empty ones left out');
    // An empty list is valid (the Smithy list has no minimum) and is written as it came.
    if (stops.length > 0 || req.stop.length === 0) ic['stopSequences'] = stops;
  }
  if (Object.keys(ic).length > 0 || isJsonObject(own['inferenceConfig'])) out['inferenceConfig'] = ic;

  encodeToolConfig(req, own, out, losses);
  encodeOutputConfig(req, own, out, losses);

  for (const key of NO_SLOT) if (req[key] !== undefined) lose(losses, 'unsupported-field', [key], `Bedrock Converse has no '${key}' (model-specific settings go in additionalModelRequestFields)`);
  if (req.stream === true) approx(losses, 'stream', ['stream'], 'Converse answers in one body; streaming is the ConverseStream operation');
  if (req.candidateCount !== undefined && req.candidateCount !== 1) lose(losses, 'candidate-count', ['candidateCount'], 'Bedrock returns one completion per request');

  restoreResidue(out, { [ID]: withoutOwnKeys(own) }, ID);
  reportForeignExt(req.ext, ID, [], losses);
  for (const l of losses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  if (ctx.preserve) Object.assign(top, topDifferences(req, out));
  putTopStash(out, top, ctx);
  return out as unknown as BedrockRequest;
}

/** Own residue keys the encoder has already used (an explicit null is written back as it was). */
function withoutOwnKeys(own: JsonObject): JsonObject {
  const copy: JsonObject = { ...own };
  for (const k of ['inferenceConfig', 'toolConfig', 'toolChoice', 'outputConfig']) if (copy[k] !== null) delete copy[k];
  return copy;
}

const approx = (losses: LossList, code: string, path: Path, message: string): void => void lose(losses, code, path, message, 'approximated');

function encodeToolConfig(req: Request, own: JsonObject, out: JsonObject, losses: LossList): void {
  const tools = req.tools === undefined ? [] : encodeTools(req.tools, losses);
  const tc: JsonObject = isJsonObject(own['toolConfig']) ? { ...own['toolConfig'] } : {};
  if (tools.length === 0) {
    const history = toolsForHistory(req.messages);
    if (history.length > 0) {
      approx(losses, 'tool-config-added', ['tools'], 'Bedrock needs toolConfig when messages hold tool calls or results; a minimal spec was added for each tool called');
      tools.push(...history);
    }
  }
  if (tools.length === 0) {
    if (req.toolChoice !== undefined) lose(losses, 'tool-choice', ['toolChoice'], 'Bedrock has no tool choice without tools');
    return;
  }
  tc['tools'] = tools;
  const choice = req.toolChoice;
  if (choice !== undefined) {
    const kept = own['toolChoice'];
    if (choice.type === 'none') approx(losses, 'tool-choice-none', ['toolChoice'], "Bedrock has no tool choice 'none'; left to the model (auto)");
    else if (isJsonObject(kept) && sameValue(decodeToolChoice(kept), choice)) tc['toolChoice'] = kept;
    else {
      const name = choice.type === 'tool' ? mapToolName(choice.name, ['toolChoice', 'name'], losses) : '';
      tc['toolChoice'] = plainToolChoice(choice, name) as JsonObject;
    }
  }
  out['toolConfig'] = tc;
}

function encodeOutputConfig(req: Request, own: JsonObject, out: JsonObject, losses: LossList): void {
  const kept = own['outputConfig'];
  const rf = req.responseFormat;
  if (rf === undefined || rf.type === 'text') {
    // Plain text is Bedrock's default. A kept outputConfig that maps to nothing comes back as it was.
    if (rf === undefined && isJsonObject(kept) && decodeResponseFormat(kept).format === undefined) out['outputConfig'] = kept;
    return;
  }
  // No "any JSON object" schema exists: structured outputs need additionalProperties false on every
  // object, so {type: object} would admit only {} or be refused (docs/decisions/0003, B4).
  if (rf.type === 'json') {
    lose(losses, 'json-object-format', ['responseFormat'], 'Bedrock has no "any JSON object" mode (every schema object must close its properties); no output format is sent');
    return;
  }
  if (rf.strict !== undefined) lose(losses, 'response-format', ['responseFormat', 'strict'], "Bedrock structured output has no 'strict' switch");
  const plain = { ...rf };
  delete plain.strict;
  out['outputConfig'] = isJsonObject(kept) && sameValue(decodeResponseFormat(kept).format, plain) ? kept : encodeFormat(plain);
}

/**
 * The canonical top-level fields (all but messages) that decoding the body would not give back
 * exactly: their values (null = absent) go in the preserve stash.
 */
function topDifferences(req: Request, out: JsonObject): JsonObject {
  const quiet = { limits: DEFAULT_LIMITS, losses: { push: () => undefined } } satisfies DecodeContext;
  let back: Record<string, unknown> = {};
  try {
    // Only the top-level fields are validated and decoded: each message group was checked on its
    // own when encoded (stashGroup), and a body whose messages are not valid Bedrock does not
    // decode at all, stash or not, so validating them here again (nearly all of this check's cost,
    // with every image's base64) changes no body that can come back.
    back = decodeRequest(withoutMessages(out), quiet) as unknown as Record<string, unknown>;
  } catch {
    // The top-level fields are not valid Bedrock (e.g. an unusable canonical value): stash every field.
  }
  const orig = req as unknown as Record<string, unknown>;
  const diff: JsonObject = {};
  for (const key of new Set([...Object.keys(orig), ...Object.keys(back)])) {
    if (key === 'messages') continue;
    if (!sameValue(orig[key], back[key])) diff[key] = (orig[key] ?? null) as JsonValue;
  }
  return diff;
}

/** The body with an empty message list (none stays none): what the top-level fields decode from. */
function withoutMessages(out: JsonObject): JsonObject {
  return Array.isArray(out['messages']) ? { ...out, messages: [] } : out;
}
