/**
 * Gemini Content / Part -> canonical Message / Part. Reads a camelCase view of each wire object
 * (snake_case spellings are remembered as `$snake` hints) and keeps every unmapped field —
 * including `thoughtSignature` on non-thought parts, byte-exact — as residue under ext.gemini.
 */
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Base64Source, UrlSource } from '../../model/source.js';
import { keepResidue } from '../shared/residue.js';
import { CallIds } from './call-ids.js';
import { camelView, fieldSet, ID, rest, withSnake, type View } from './wire-util.js';

export { CallIds };

const PART_FIELDS = fieldSet([
  'text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult',
  'thought', 'thoughtSignature', 'videoMetadata', 'partMetadata', 'mediaResolution',
]);
const CONTENT_FIELDS = new Set(['role', 'parts']);
const BLOB_FIELDS = fieldSet(['mimeType', 'data']);
const FILE_FIELDS = fieldSet(['mimeType', 'fileUri']);
const CALL_FIELDS = fieldSet(['id', 'name', 'args']);
const RESPONSE_FIELDS = fieldSet(['id', 'name', 'response', 'parts', 'willContinue', 'scheduling']);
const RESPONSE_MAPPED = new Set(['id', 'name', 'response', 'parts']);
const TEXT_KEYS = new Set(['text']);
const THOUGHT_KEYS = new Set(['text', 'thought', 'thoughtSignature']);
// Each data member and the fields mapped from it: built once, not per part.
const INLINE_DATA = new Set(['inlineData']);
const FILE_DATA = new Set(['fileData']);
const FUNCTION_CALL = new Set(['functionCall']);
const FUNCTION_RESPONSE = new Set(['functionResponse']);
const BLOB_MAPPED = new Set(['mimeType', 'data']);
const FILE_MAPPED = new Set(['mimeType', 'fileUri']);
const CALL_MAPPED = new Set(['id', 'name', 'args']);
const MEDIA_FIELDS = fieldSet(['inlineData']);

/** Media part type for a MIME type: the wire gives no other hint. */
export function mediaKind(mimeType: string | undefined): 'image' | 'audio' | 'video' | 'document' {
  const top = mimeType?.slice(0, mimeType.indexOf('/')) ?? '';
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
}

function mediaPart(mimeType: string | undefined, source: Base64Source | UrlSource): Part {
  return { type: mediaKind(mimeType), source };
}

/** Residue of a part plus the nested residue of its data member and the member's `$snake`. */
function partResidue(view: View, known: ReadonlySet<string>, member?: string, inner?: View, innerKnown?: ReadonlySet<string>): JsonObject | undefined {
  let res = withSnake(rest(view.obj, known), view);
  if (member !== undefined && inner !== undefined && innerKnown !== undefined) {
    const r = rest(inner.obj, innerKnown);
    if (r) (res ??= {})[member] = r;
    if (inner.snake) (res ??= {})['$innerSnake'] = inner.snake;
  }
  return res;
}

export function decodePart(raw: JsonObject, ids: CallIds): Part {
  const view = camelView(raw, PART_FIELDS);
  const p = view.obj;
  let part: Part;
  let res: JsonObject | undefined;
  if (typeof p['text'] === 'string') {
    if (p['thought'] === true) {
      const r: ReasoningPart = { type: 'reasoning', origin: ID, text: p['text'] };
      if (typeof p['thoughtSignature'] === 'string') r.signature = p['thoughtSignature'];
      part = r;
      res = partResidue(view, THOUGHT_KEYS);
    } else {
      part = { type: 'text', text: p['text'] };
      res = partResidue(view, TEXT_KEYS);
    }
  } else if (p['inlineData'] !== undefined) {
    const inner = camelView(p['inlineData'] as JsonObject, BLOB_FIELDS);
    const mediaType = inner.obj['mimeType'] as string;
    part = mediaPart(mediaType, { kind: 'base64', mediaType, data: inner.obj['data'] as string });
    res = partResidue(view, INLINE_DATA, 'inlineData', inner, BLOB_MAPPED);
  } else if (p['fileData'] !== undefined) {
    const inner = camelView(p['fileData'] as JsonObject, FILE_FIELDS);
    const mediaType = inner.obj['mimeType'];
    const source: UrlSource = { kind: 'url', url: inner.obj['fileUri'] as string };
    if (typeof mediaType === 'string') source.mediaType = mediaType;
    part = mediaPart(source.mediaType, source);
    res = partResidue(view, FILE_DATA, 'fileData', inner, FILE_MAPPED);
  } else if (p['functionCall'] !== undefined) {
    const inner = camelView(p['functionCall'] as JsonObject, CALL_FIELDS);
    const c = inner.obj;
    const name = c['name'] as string;
    const args = (c['args'] as JsonObject | undefined) ?? {};
    const id = typeof c['id'] === 'string' ? c['id'] : ids.mint(name, args);
    ids.call(id, name);
    const call: ToolCallPart = { type: 'tool-call', id, name, arguments: args };
    part = call;
    res = partResidue(view, FUNCTION_CALL, 'functionCall', inner, CALL_MAPPED);
    if (typeof c['id'] !== 'string') (res ??= {})['$noId'] = true;
    if (c['args'] === undefined) (res ??= {})['$noArgs'] = true;
  } else if (p['functionResponse'] !== undefined) {
    const inner = camelView(p['functionResponse'] as JsonObject, RESPONSE_FIELDS);
    part = decodeFunctionResponse(inner.obj, ids);
    res = partResidue(view, FUNCTION_RESPONSE, 'functionResponse', inner, RESPONSE_MAPPED);
    if (typeof inner.obj['id'] !== 'string') (res ??= {})['$noId'] = true;
  } else {
    // executableCode / codeExecutionResult (Gemini's own code-execution trace), or a part kind
    // newer than this codec: kept whole for Gemini.
    return { type: 'provider-block', origin: ID, block: raw };
  }
  keepResidue(part, ID, res);
  return part;
}

/**
 * `response` is a Struct. Google's convention: `output` holds the result, `error` the failure,
 * otherwise the whole object is the output. A lone string output/error becomes text; anything
 * else stays structured data. `parts` (multimodal results) become media parts after it.
 */
function decodeFunctionResponse(r: JsonObject, ids: CallIds): ToolResultPart {
  const name = r['name'] as string;
  const callId = ids.answer(typeof r['id'] === 'string' ? r['id'] : undefined, name);
  const response = r['response'] as JsonObject;
  const content: Part[] = [];
  const result: ToolResultPart = { type: 'tool-result', callId, name, content };
  const keys = Object.keys(response);
  const only = keys.length === 1 ? keys[0] : undefined;
  const value = only === undefined ? undefined : response[only];
  if ((only === 'output' || only === 'error') && typeof value === 'string') {
    content.push({ type: 'text', text: value });
    result.stringContent = true;
    if (only === 'error') result.isError = true;
  } else if (keys.length > 0) content.push({ type: 'data', data: response });
  const media = r['parts'];
  if (Array.isArray(media)) for (const m of media) content.push(decodeResponseMedia(m as JsonObject));
  return result;
}

function decodeResponseMedia(raw: JsonObject): Part {
  const view = camelView(raw, MEDIA_FIELDS);
  const blob = camelView(view.obj['inlineData'] as JsonObject, BLOB_FIELDS);
  const mediaType = blob.obj['mimeType'] as string;
  const part = mediaPart(mediaType, { kind: 'base64', mediaType, data: blob.obj['data'] as string });
  keepResidue(part, ID, partResidue(view, INLINE_DATA, 'inlineData', blob, BLOB_MAPPED));
  return part;
}

/** Contents decoded alone, with call ids of their own: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  const ids = new CallIds();
  return wire.map((w) => decodeContent(w, ids));
}

/** A response candidate's content decoded alone (a role-less content is the model's). */
export function decodeCandidateSpan(wire: readonly JsonObject[]): Message[] {
  const ids = new CallIds();
  return wire.map((w) => decodeContent(w, ids, false, 'model'));
}

/** One Content -> one Message. Function calls answered inside a model turn ran on Google's side. */
export function decodeContent(raw: JsonObject, ids: CallIds, system = false, fallback: 'user' | 'model' = 'user'): Message {
  const role = raw['role'];
  const list = raw['parts'];
  const parts = Array.isArray(list) ? list.map((p) => decodePart(p as JsonObject, ids)) : [];
  const msg: Message = { role: system ? 'system' : (role ?? fallback) === 'model' ? 'assistant' : 'user', parts };
  // Gemini has no string form; one plain text part reads as one (OpenAI and Anthropic write a
  // string back), and the Gemini encoder reports a single text part that was not a string.
  if (isPlainText(parts)) msg.stringContent = true;
  let res = rest(raw, CONTENT_FIELDS);
  if (system && typeof role === 'string') (res ??= {})['$role'] = role;
  else if (role === undefined) (res ??= {})['$noRole'] = true;
  if (list === undefined) (res ??= {})['$noParts'] = true;
  else if (parts.length === 0) (res ??= {})['$emptyParts'] = true; // written back, not dropped as empty
  keepResidue(msg, ID, res);
  if (msg.role === 'assistant') markServerCalls(parts);
  return msg;
}

/**
 * Server-side tools (MCP) return the call and its response in the same model turn: Google ran
 * them. The `$server` hint lets the Gemini encoder write them back; elsewhere they are losses.
 */
function markServerCalls(parts: Part[]): void {
  let answered: Set<string> | undefined;
  for (const p of parts) if (p.type === 'tool-result') (answered ??= new Set()).add(p.callId);
  if (answered === undefined) return;
  for (const p of parts) {
    if ((p.type === 'tool-call' && answered.has(p.id)) || p.type === 'tool-result') {
      p.providerExecuted = true;
      p.ext = { ...p.ext, [ID]: { ...p.ext?.[ID], $server: true } };
    }
  }
}

/** Exactly one text part with nothing else on it. */
export function isPlainText(parts: readonly Part[]): boolean {
  const only = parts[0];
  return parts.length === 1 && only?.type === 'text' && only.ext === undefined && only.citations === undefined && only.cache === undefined;
}
