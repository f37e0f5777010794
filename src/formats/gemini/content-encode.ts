/**
 * Canonical parts -> Gemini parts. Accepts parts of any origin: what Gemini cannot hold is dropped
 * or approximated and reported with the part's canonical path. Gemini's own residue (including a
 * part's thoughtSignature) is written back byte-exact; nothing of another origin's ext is sent.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { LossAction, Path } from '../../model/loss.js';
import type { AudioPart, DocumentPart, ImagePart, Part, ReasoningPart, ToolCallPart, ToolResultPart, VideoPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import type { LossSink } from '../codec.js';
import { parseDataUrl } from '../shared/data-url.js';
import { jsonTextEquals } from '../shared/json-text.js';
import { restoreResidue } from '../shared/residue.js';
import { isMintedId } from './call-ids.js';
import { mediaKind } from './content-decode.js';
import { mapName } from './tool-names.js';
import { childPath } from '../shared/child-path.js';
import { applySnake, ID, own, reportExt } from './wire-util.js';

export type WireRole = 'user' | 'model';

/** Tool names by call id: a Map, or CallNames. */
export interface NameLookup {
  set(id: string, name: string): unknown;
  get(id: string): string | undefined;
}

/** What part encoding needs from the conversation: tool names by call id, seen so far. */
export interface PartContext {
  names: NameLookup;
  /** Call ids left out of the wire (minted by the decoder): their responses leave them out too. */
  omitted: Set<string>;
}

/**
 * A NameLookup for a whole conversation (a Map's answers: the last name set for an id). A result
 * nearly always answers one of the last few calls, so the calls are kept in order and searched from
 * the end; only a search that goes further indexes them in a Map, once. (Hashing every call id
 * into a Map cost more than the searches.)
 */
export class CallNames implements NameLookup {
  private readonly ids: string[] = [];
  private readonly names: string[] = [];
  private readonly index = new Map<string, string>();
  private indexed = 0;

  set(id: string, name: string): void {
    this.ids.push(id);
    this.names.push(name);
  }

  get(id: string): string | undefined {
    const { ids } = this;
    const stop = Math.max(this.indexed, ids.length - 8);
    for (let k = ids.length - 1; k >= stop; k--) if (ids[k] === id) return this.names[k];
    // Not among the last calls: the latest earlier one, from the index (brought up to date).
    for (; this.indexed < stop; this.indexed++) this.index.set(ids[this.indexed] as string, this.names[this.indexed] as string);
    return this.index.get(id);
  }
}

export function loss(losses: LossSink, code: string, path: Path, message: string, action: LossAction = 'dropped'): undefined {
  losses.push({ code, path, message, action });
  return undefined;
}

/** Writes the part's own residue (and its data member's nested residue) and reports foreign ext. */
function finish(out: JsonObject, part: Part, path: Path, losses: LossSink, member?: string): JsonObject {
  if (part.cache) loss(losses, 'cache-hint', childPath(path, 'cache'), 'Gemini has no cache breakpoints (it uses cachedContent)');
  if (part.ext === undefined) return out; // no residue to write, no other format's ext to report
  const mine = own(part.ext);
  if (mine) {
    if (member !== undefined) {
      const inner = out[member];
      const nested = mine[member];
      if (isJsonObject(inner)) {
        if (isJsonObject(nested)) for (const k in nested) if (!(k in inner)) inner[k] = nested[k] as JsonValue;
        applySnake(inner, mine['$innerSnake']);
      }
    }
    restoreResidue(out, part.ext, ID);
    applySnake(out, mine['$snake']);
  }
  reportExt(part.ext, path, losses);
  return out;
}

export function encodePart(part: Part, role: WireRole, path: Path, losses: LossSink, ctx: PartContext): JsonObject | undefined {
  switch (part.type) {
    case 'text':
      if (part.citations) loss(losses, 'citations', childPath(path, 'citations'), 'Gemini input text carries no citations');
      // Gemini accepts empty text (recorded exchanges send `{ text: "" }` model turns): kept.
      return finish({ text: part.text }, part, path, losses);
    case 'reasoning':
      return encodeReasoning(part, path, losses);
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
      return encodeMedia(part, path, losses);
    case 'tool-call':
      return encodeToolCall(part, role, path, losses, ctx);
    case 'tool-result':
      return encodeToolResult(part, role, path, losses, ctx);
    case 'refusal':
      loss(losses, 'refusal-as-text', path, 'Gemini has no refusal part; sent as text', 'approximated');
      return finish({ text: part.text }, part, path, losses);
    case 'data':
      loss(losses, 'data-as-text', path, 'structured data part sent as JSON text', 'approximated');
      return finish({ text: JSON.stringify(part.data) }, part, path, losses);
    case 'provider-block':
      if (part.origin !== ID) return loss(losses, 'foreign-provider-block', path, `${part.origin} block has no Gemini equivalent`);
      return part.block;
    case 'search-result':
      return loss(losses, 'unsupported-part', path, 'Gemini has no search result part');
  }
}

/** Thoughts go back only to Gemini, with their signature byte-exact; others are dropped. */
function encodeReasoning(part: ReasoningPart, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.origin !== ID) return loss(losses, 'foreign-reasoning', path, `reasoning from ${part.origin} cannot be replayed to Gemini`);
  const out: JsonObject = { text: part.text ?? '', thought: true };
  if (part.signature !== undefined) out['thoughtSignature'] = part.signature;
  return finish(out, part, path, losses);
}

interface EncodedSource {
  out: JsonObject;
  member: 'inlineData' | 'fileData';
}

/** Spellings Gemini does not list, written as the type they name (its image types: png, jpeg, webp, heic, heif). */
const SPELLINGS: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg' };

function spelled(mediaType: string, path: Path, losses: LossSink): string {
  const canonical = SPELLINGS[mediaType];
  if (canonical === undefined) return mediaType;
  loss(losses, 'media-type', path, `media type '${mediaType}' sent as '${canonical}'`, 'approximated');
  return canonical;
}

function encodeSource(source: Source, path: Path, losses: LossSink): EncodedSource | undefined {
  let enc: EncodedSource;
  switch (source.kind) {
    case 'base64':
      enc = { member: 'inlineData', out: { inlineData: { mimeType: spelled(source.mediaType, path, losses), data: source.data } } };
      break;
    case 'url': {
      const data = parseDataUrl(source.url);
      if (data) enc = { member: 'inlineData', out: { inlineData: { mimeType: spelled(data.mediaType, path, losses), data: data.data } } };
      else {
        // mimeType is optional in FileData; it is never guessed.
        const fd: JsonObject = source.mediaType === undefined ? {} : { mimeType: spelled(source.mediaType, path, losses) };
        fd['fileUri'] = source.url;
        enc = { member: 'fileData', out: { fileData: fd } };
      }
      break;
    }
    case 'file-id': {
      // Only a Gemini Files API name or a Cloud Storage URI means anything to Gemini.
      if (!/^(files\/|https:\/\/generativelanguage\.googleapis\.com\/|gs:\/\/)/.test(source.fileId)) {
        return loss(losses, 'foreign-file', path, `file id '${source.fileId}' belongs to another provider`);
      }
      const fd: JsonObject = source.mediaType === undefined ? { fileUri: source.fileId } : { mimeType: spelled(source.mediaType, path, losses), fileUri: source.fileId };
      enc = { member: 'fileData', out: { fileData: fd } };
      break;
    }
    case 'text':
      loss(losses, 'document-text', path, 'a plain-text document is sent as inline text/plain bytes', 'approximated');
      enc = {
        member: 'inlineData',
        out: { inlineData: { mimeType: source.mediaType ?? 'text/plain', data: Buffer.from(source.text, 'utf8').toString('base64') } },
      };
      break;
    case 's3':
    case 'content':
      return loss(losses, 'unsupported-source', path, `Gemini cannot read a ${source.kind} source`);
  }
  if (source.ext) reportExt(source.ext, path, losses);
  return enc;
}

function encodeMedia(part: ImagePart | AudioPart | VideoPart | DocumentPart, path: Path, losses: LossSink): JsonObject | undefined {
  const enc = encodeSource(part.source, childPath(path, 'source'), losses);
  if (!enc) return undefined;
  if (part.type === 'image' && part.detail !== undefined) loss(losses, 'image-detail', childPath(path, 'detail'), 'Gemini has no per-image detail setting');
  if (part.type === 'document') {
    for (const k of ['name', 'title', 'context', 'citations'] as const) {
      if (part[k] !== undefined) loss(losses, 'document-metadata', childPath(path, k), `Gemini documents have no ${k}`);
    }
  }
  const kind = mediaKind(mimeOf(enc));
  if (kind !== part.type) {
    loss(losses, 'media-kind', childPath(path, 'type'), `Gemini tells media apart by MIME type only; this ${part.type} reads back as ${kind}`, 'approximated');
  }
  return finish(enc.out, part, path, losses, enc.member);
}

function mimeOf(enc: EncodedSource): string | undefined {
  const inner = enc.out[enc.member];
  const mt = isJsonObject(inner) ? inner['mimeType'] : undefined;
  return typeof mt === 'string' ? mt : undefined;
}

function encodeToolCall(part: ToolCallPart, role: WireRole, path: Path, losses: LossSink, ctx: PartContext): JsonObject | undefined {
  const mine = own(part.ext);
  if (part.providerExecuted && mine?.['$server'] !== true) {
    return loss(losses, 'provider-tool-call', path, 'a tool call another provider ran itself cannot be sent to Gemini');
  }
  if (role !== 'model') return loss(losses, 'misplaced-tool-call', path, 'Gemini function calls belong in model turns');
  ctx.names.set(part.id, part.name);
  const call: JsonObject = {};
  if (mine?.['$noId'] === true || isMintedId(part.id, part.name, part.arguments)) ctx.omitted.add(part.id);
  else call['id'] = part.id;
  call['name'] = mapName(part.name, path, 'name', losses);
  let args = part.arguments;
  if (!isJsonObject(args)) {
    loss(losses, 'tool-arguments-not-object', childPath(path, 'arguments'), 'Gemini function args must be an object; wrapped as {"value": ...}', 'approximated');
    args = { value: args };
  } else if (part.argumentsJson !== undefined && !jsonTextEquals(args, part.argumentsJson)) {
    loss(losses, 'arguments-text', childPath(path, 'argumentsJson'), 'function args are sent as an object; their exact text is not kept', 'approximated');
  }
  if (!(mine?.['$noArgs'] === true && Object.keys(args).length === 0)) call['args'] = args;
  return finish({ functionCall: call }, part, path, losses, 'functionCall');
}

/**
 * A function response's `response` must be an object. Per Google's convention text output goes
 * under `output` (`error` when the call failed); a structured result is the object itself.
 */
function encodeToolResult(part: ToolResultPart, role: WireRole, path: Path, losses: LossSink, ctx: PartContext): JsonObject | undefined {
  const mine = own(part.ext);
  if (part.providerExecuted && mine?.['$server'] !== true) {
    return loss(losses, 'provider-tool-result', path, 'a result of a tool another provider ran itself cannot be sent to Gemini');
  }
  if (role === 'model' && !part.providerExecuted) return loss(losses, 'misplaced-tool-result', path, 'Gemini function responses belong in user turns');
  let name = part.name ?? ctx.names.get(part.callId);
  if (name === undefined) {
    loss(losses, 'tool-result-name', childPath(path, 'name'), 'no earlier call names this result; its call id is used as the function name', 'approximated');
    name = part.callId;
  }
  const texts: string[] = [];
  // Made only when a result holds data or media (most hold text alone).
  let data: JsonValue[] | undefined;
  let media: JsonObject[] | undefined;
  for (let k = 0; k < part.content.length; k++) {
    const c = part.content[k] as Part;
    // A content item's path is built only for what reports at it.
    if (c.type === 'text' || c.type === 'data') {
      if (c.type === 'text') texts.push(c.text);
      else (data ??= []).push(c.data);
      if (c.ext !== undefined) reportExt(c.ext, childPath(path, 'content', k), losses);
    } else if ((c.type === 'image' || c.type === 'audio' || c.type === 'video' || c.type === 'document') && c.source.kind === 'base64') {
      const p = childPath(path, 'content', k);
      const blob: JsonObject = { inlineData: { mimeType: spelled(c.source.mediaType, childPath(p, 'source'), losses), data: c.source.data } };
      (media ??= []).push(finish(blob, c, p, losses, 'inlineData'));
    } else loss(losses, 'tool-result-content', childPath(path, 'content', k), `a ${c.type} part cannot be part of a Gemini function response`);
  }
  const response = responseObject(part, texts, data ?? NO_DATA, path, losses);
  if (part.isError === false) loss(losses, 'tool-result-error', childPath(path, 'isError'), 'an explicit "not an error" has no Gemini form', 'approximated');
  const withId = mine?.['$noId'] !== true && (ctx.omitted.size === 0 || !ctx.omitted.has(part.callId));
  const wireName = mapName(name, path, 'name', losses);
  const fr: JsonObject = withId ? { id: part.callId, name: wireName, response } : { name: wireName, response };
  if (media !== undefined) fr['parts'] = media;
  return finish({ functionResponse: fr }, part, path, losses, 'functionResponse');
}

const NO_DATA: readonly JsonValue[] = [];

function responseObject(part: ToolResultPart, texts: string[], data: readonly JsonValue[], path: Path, losses: LossSink): JsonObject {
  const key = part.isError ? 'error' : 'output';
  if (texts.length === 0) {
    const first = data[0];
    if (data.length > 1) loss(losses, 'tool-result-content', childPath(path, 'content'), 'only the first structured result is sent');
    if (first === undefined) {
      if (part.isError) loss(losses, 'tool-result-error', childPath(path, 'isError'), 'an empty error result is sent as an empty response', 'approximated');
      return {};
    }
    if (isJsonObject(first)) {
      if (part.isError && !('error' in first)) loss(losses, 'tool-result-error', childPath(path, 'isError'), 'Gemini marks errors with an "error" key; the flag is not sent', 'approximated');
      return first;
    }
    loss(losses, 'tool-result-wrapped', childPath(path, 'content'), `a non-object result is wrapped as {"${key}": ...}`, 'approximated');
    return { [key]: first };
  }
  if (data.length > 0) loss(losses, 'tool-result-content', childPath(path, 'content'), 'structured data beside text is not sent');
  if (texts.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), 'text parts of a tool result joined with newlines', 'approximated');
  else if (!part.stringContent) loss(losses, 'tool-result-form', childPath(path, 'content'), 'tool result content blocks sent as one string', 'approximated');
  const text = texts.length === 1 ? (texts[0] as string) : texts.join('\n');
  return part.isError ? { error: text } : { output: text };
}
