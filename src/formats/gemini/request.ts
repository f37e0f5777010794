/**
 * generateContent request <-> canonical Request. The model is in the URL; a `model` member in the
 * body (some gateways send one) is accepted and kept. safetySettings, cachedContent, labels and
 * every field with no canonical slot stay as residue, written back only to Gemini.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash, takeMessageStash, takeTopStash } from '../shared/stash.js';
import { CallIds, decodeContent, decodeSpan } from './content-decode.js';
import { loss } from './content-encode.js';
import type { GeminiRequest } from './gemini-api.js';
import { decodeGenerationConfig, encodeGenerationConfig } from './generation-config.js';
import { encodeContents } from './messages-encode.js';
import { decodeToolConfig, decodeTools, encodeToolConfig, encodeTools } from './tools.js';
import { validateRequest } from './validate.js';
import { foreignExt, ID, TopStash } from './wire-util.js';
import { deleteKey } from '../shared/delete-keys.js';

const MAPPED = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);

export function decodeRequest(input: unknown, ctx: DecodeContext): Request {
  const body = validateRequest(input, ctx.limits);
  const ids = new CallIds();
  const messages: Message[] = [];
  const res: JsonObject = {};
  const sys = body['systemInstruction'];
  if (isJsonObject(sys)) messages.push(decodeContent(sys, ids, true));
  decodeContents(body['contents'] as JsonValue[], ids, ctx, messages);
  const req: Request = { messages };
  for (const key in body) {
    if (!MAPPED.has(key) && key !== 'x-interlingua' && body[key] !== undefined) res[key] = body[key] as JsonValue;
  }
  const model = body['model'];
  if (typeof model === 'string') req.model = model;
  else if (model !== undefined) res['model'] = model;
  const tools = body['tools'];
  if (Array.isArray(tools) && tools.length > 0) req.tools = decodeTools(tools);
  else if (isJsonObject(tools)) {
    req.tools = decodeTools([tools]);
    res['$toolsObject'] = true;
  } else if (tools !== undefined) res['tools'] = tools;
  const tc = body['toolConfig'];
  if (isJsonObject(tc)) {
    const { choice, residue } = decodeToolConfig(tc);
    if (choice) req.toolChoice = choice;
    if (residue) res['toolConfig'] = residue;
    else if (!choice) res['toolConfig'] = tc;
  } else if (tc !== undefined) res['toolConfig'] = tc;
  const gc = body['generationConfig'];
  if (isJsonObject(gc)) {
    const residue = decodeGenerationConfig(gc, req, res);
    if (residue) res['generationConfig'] = residue;
  } else if (gc !== undefined) res['generationConfig'] = gc;
  if (Object.keys(res).length > 0) keepResidue(req, ID, res);
  const stash = takeTopStash(body, ctx);
  if (stash) applyTopStash(req, stash);
  return req;
}

/** takeMessageStash's base path: read only. */
const CONTENTS_PATH: Path = ['contents'];

function decodeContents(list: JsonValue[], ids: CallIds, ctx: DecodeContext, out: Message[]): void {
  for (let i = 0; i < list.length; ) {
    const stashed = takeMessageStash(list, i, ctx, CONTENTS_PATH, decodeSpan);
    if (stashed) {
      out.push(...stashed.messages);
      // The stashed calls still answer later function responses.
      for (const m of stashed.messages) for (const p of m.parts) if (p.type === 'tool-call') ids.call(p.id, p.name);
      i += stashed.span;
      continue;
    }
    out.push(decodeContent(list[i] as JsonObject, ids));
    i++;
  }
}

/**
 * The top-level stash written under `preserve`: canonical fields to set (`null` = absent), the
 * exact leading system messages, messages that had no Content left, and other formats' ext.
 */
function applyTopStash(req: Request, fields: JsonObject): void {
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

export function encodeRequest(req: Request, ctx: EncodeContext): GeminiRequest {
  const out: JsonObject = {};
  const top = new TopStash(ctx);
  const own = req.ext?.[ID];
  if (req.model !== undefined) out['model'] = req.model;
  const encoded = encodeContents(req.messages, req.model, ctx);
  out['contents'] = encoded.contents;
  if (encoded.systemInstruction) out['systemInstruction'] = encoded.systemInstruction;
  Object.assign(top.fields, encoded.stash);
  // Each field's losses are gathered in a list of its own and recorded by `top` (see TopStash.field).
  if (req.tools !== undefined && req.tools.length > 0) {
    const local = new LossList();
    const tools = encodeTools(req.tools, local);
    top.record('tools', req.tools, local.items);
    const single = own?.['$toolsObject'] === true && tools?.length === 1 ? tools[0] : undefined;
    if (tools) out['tools'] = single ?? tools;
  }
  const tcLosses = new LossList();
  const tc = encodeToolConfig(req.toolChoice, own?.['toolConfig'], tcLosses);
  top.record('toolChoice', req.toolChoice, tcLosses.items);
  if (tc) out['toolConfig'] = tc;
  const gcLosses = new LossList();
  const gc = encodeGenerationConfig(req, own, gcLosses);
  for (const l of gcLosses.items) {
    // Each generationConfig loss names its canonical field first: stash that field.
    const key = String(l.path[0]);
    top.record(key, (req as unknown as Record<string, unknown>)[key], [l]);
  }
  if (gc) out['generationConfig'] = gc;
  for (const key of ['parallelToolCalls', 'user', 'stream', 'metadata'] as const) {
    if (req[key] === undefined) continue;
    top.field(key, req[key], (losses) => loss(losses, 'unsupported-field', [key], unsupported[key]));
  }
  if (own) {
    // Sub-object residue was merged by the encoders above; the rest goes back as it came.
    const restOwn: JsonObject = {};
    for (const key in own) if (key !== 'toolConfig' && key !== 'generationConfig') restOwn[key] = own[key] as JsonValue;
    restoreResidue(out, { [ID]: restOwn }, ID);
  }
  const foreign = foreignExt(req.ext);
  if (foreign) {
    const local = new LossList();
    reportForeignExt(req.ext, ID, [], local);
    top.record('ext', foreign, local.items);
  }
  // Other formats' ext (even hint-only) rides in the stash, so A -> Gemini -> A is exact.
  if (foreign) top.fields['ext'] = foreign;
  putTopStash(out, top.fields, ctx);
  return out as unknown as GeminiRequest;
}

const unsupported = {
  parallelToolCalls: 'Gemini has no switch for parallel function calls',
  user: 'Gemini has no end-user id',
  stream: 'Gemini streams by endpoint (streamGenerateContent), not by a body field',
  metadata: 'Gemini has no request metadata (Vertex labels are not the same)',
} as const;
