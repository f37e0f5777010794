/** Bedrock Converse request body -> canonical Request. */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext } from '../codec.js';
import { keepResidue } from '../shared/residue.js';
import { takeMessageStash, takeTopStash } from '../shared/stash.js';
import { decodeBlocks } from './content-decode.js';
import { decodeMessage, decodeSpan } from './message-decode.js';
import { decodeResponseFormat, decodeToolChoice, decodeTools, plainToolChoice } from './tools.js';
import { validateRequest } from './validate.js';
import { ID, rest } from './wire-util.js';
import { deleteKey } from '../shared/delete-keys.js';

/**
 * `modelId` is a path label (POST /model/{modelId}/converse), not a body member. The body may still
 * carry it: that is the shape of the SDK's ConverseCommandInput, and of a request stored together
 * with its model. The decoder reads it into `model` when present, and the encoder writes `model`
 * back as `modelId`, so a caller sending raw HTTP moves it to the path (the gateway does).
 */
const KNOWN = new Set(['modelId', 'messages', 'system', 'inferenceConfig', 'toolConfig', 'outputConfig']);
const INFERENCE_KEYS = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences']);
const TOOL_CONFIG_KEYS = new Set(['tools', 'toolChoice']);

export function decodeRequest(body: unknown, ctx: DecodeContext): Request {
  const b = validateRequest(body, ctx.limits);
  const messages: Message[] = [];
  const res: JsonObject = rest(b, KNOWN) ?? {};
  const system = b['system'];
  const hasSystem = Array.isArray(system) && system.length > 0;
  if (hasSystem) messages.push({ role: 'system', parts: decodeBlocks(system) });
  else if (Array.isArray(system)) res['system'] = system;
  const list = b['messages'];
  if (Array.isArray(list)) decodeMessages(list, ctx, messages);
  else if (list === undefined) res['$noMessages'] = true;

  const req: Request = { messages };
  if (typeof b['modelId'] === 'string') req.model = b['modelId'];
  decodeInference(b['inferenceConfig'], req, res);
  decodeToolConfig(b['toolConfig'], req, res);
  const oc = b['outputConfig'];
  if (isJsonObject(oc)) {
    const { format, keep } = decodeResponseFormat(oc);
    if (format) req.responseFormat = format;
    if (keep) res['outputConfig'] = oc;
  }
  if (Object.keys(res).length > 0) keepResidue(req, ID, res);

  const stash = takeTopStash(b, ctx);
  if (stash) applyTopStash(req, stash, hasSystem);
  return req;
}

/** takeMessageStash's base path: read only. */
const MESSAGES_PATH: Path = ['messages'];

function decodeMessages(list: JsonValue[], ctx: DecodeContext, out: Message[]): void {
  for (let i = 0; i < list.length; ) {
    const stashed = takeMessageStash(list, i, ctx, MESSAGES_PATH, decodeSpan);
    if (stashed) {
      out.push(...stashed.messages);
      i += stashed.span;
      continue;
    }
    out.push(decodeMessage(list[i] as JsonObject));
    i++;
  }
}

function decodeInference(ic: JsonValue | undefined, req: Request, res: JsonObject): void {
  if (!isJsonObject(ic)) return;
  if (typeof ic['maxTokens'] === 'number') req.maxTokens = ic['maxTokens'];
  if (typeof ic['temperature'] === 'number') req.temperature = ic['temperature'];
  if (typeof ic['topP'] === 'number') req.topP = ic['topP'];
  if (Array.isArray(ic['stopSequences'])) req.stop = ic['stopSequences'] as string[];
  const r = rest(ic, INFERENCE_KEYS);
  // An inferenceConfig that maps to nothing (e.g. `{}`) must still come back.
  if (r || Object.keys(ic).length === 0) res['inferenceConfig'] = r ?? {};
}

function decodeToolConfig(tc: JsonValue | undefined, req: Request, res: JsonObject): void {
  if (!isJsonObject(tc)) return;
  req.tools = decodeTools(tc['tools'] as JsonValue[]);
  const choice = tc['toolChoice'];
  const r = rest(tc, TOOL_CONFIG_KEYS) ?? {};
  if (isJsonObject(choice)) {
    req.toolChoice = decodeToolChoice(choice);
    const name = req.toolChoice.type === 'tool' ? req.toolChoice.name : '';
    if (JSON.stringify(plainToolChoice(req.toolChoice, name)) !== JSON.stringify(choice)) res['toolChoice'] = choice;
  }
  if (Object.keys(r).length > 0) res['toolConfig'] = r;
}

/**
 * Applies the top-level stash written by the encoder under `preserve`: canonical fields to set
 * (`null` = the field was absent), the exact leading system messages (`$system`, in place of the
 * one decoded from `system`), and messages that had no wire message left (`$trailing`).
 */
export function applyTopStash(req: Request, fields: JsonObject, hasSystem: boolean): void {
  const target = req as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (key === '$system') req.messages.splice(0, hasSystem ? 1 : 0, ...((value as unknown as Message[]) ?? []));
    else if (key === '$trailing') req.messages.push(...((value as unknown as Message[]) ?? []));
    else if (value === null) deleteKey(target as unknown as JsonObject, key);
    else target[key] = value;
  }
}
