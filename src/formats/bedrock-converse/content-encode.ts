/**
 * Canonical parts -> Bedrock content blocks. Accepts parts of any origin: what Bedrock cannot hold
 * is dropped or approximated and reported with the part's canonical path. A part's cache hint
 * becomes a `cachePoint` block right after it (where Bedrock allows one).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message, Role } from '../../model/message.js';
import type { DocumentPart, ImagePart, Part, ReasoningPart, SearchResultPart, TextPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import type { LossSink } from '../codec.js';
import { standardBase64 } from '../shared/base64.js';
import { parseDataUrl } from '../shared/data-url.js';
import { jsonTextEquals } from '../shared/json-text.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { assistantBefore, callName } from '../shared/tool-pairing.js';
import { encodeCitation } from './citations.js';
import { OWN_KEYS } from './content-decode.js';
import { formatOf, type MediaKind } from './media.js';
import { mapToolId, mapToolName, type DocumentNamer } from './names.js';
import { childPath } from '../shared/child-path.js';
import { encodeCachePoint, ID, lose, own, ownWithout, unionObject } from './wire-util.js';

export interface PartContext {
  namer: DocumentNamer;
  losses: LossSink;
  /**
   * A response may hold empty text (models send it); a request must not. Only the empty string is
   * blank to Bedrock: whitespace-only text is accepted (see validate.ts), so it is kept.
   */
  keepBlank: boolean;
  /**
   * The conversation and the index of the message being written, for its tool results: a result's
   * name that the call it answers gives is not lost, as the canonical model recovers it from the
   * call (looked up only for a result that has a name).
   */
  messages?: readonly Message[];
  index?: number;
}

const approx = (losses: LossSink, code: string, path: Path, message: string): void => void lose(losses, code, path, message, 'approximated');

const WRITTEN_KEYS = [...OWN_KEYS, 'citation'];

/** Writes the part's own residue (not the keys the encoder writes itself) and reports other origins' ext. */
function residueOf(out: JsonObject, part: { ext?: Part['ext'] }, path: Path, losses: LossSink): JsonObject {
  if (part.ext === undefined) return out;
  restoreResidue(out, ownWithout(part.ext, WRITTEN_KEYS), ID);
  reportForeignExt(part.ext, ID, path, losses);
  return out;
}

/** Wraps an inner object into its union member, with any keys that were found beside it. */
function block(member: string, inner: JsonValue, part: Part): JsonObject {
  const out = unionObject(member, inner);
  if (part.ext === undefined) return out;
  const extra = own(part.ext)?.['unionExtra'];
  if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) for (const k in extra) if (!(k in out)) out[k] = extra[k] as JsonValue;
  return out;
}

export function encodeParts(parts: readonly Part[], role: Role, path: Path, ctx: PartContext): JsonObject[] {
  const out: JsonObject[] = [];
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    const at = childPath(path, j);
    const b = encodePart(part, role, at, ctx);
    if (b === undefined) continue;
    out.push(b);
    if (part.cache) out.push(encodeCachePoint(part.cache, childPath(at, 'cache'), ctx.losses));
  }
  return out;
}

function encodePart(part: Part, role: Role, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  switch (part.type) {
    case 'text':
      return encodeText(part, path, ctx);
    case 'image':
    case 'video':
    case 'audio': {
      const inner = encodeMedia(part, path, ctx);
      if (inner === undefined) return undefined;
      if (part.type === 'image' && own(part.ext)?.['guardContent'] !== undefined) return guardImage(part, inner, path, losses);
      return block(part.type, inner, part);
    }
    case 'document': {
      const inner = encodeDocument(part, path, ctx);
      return inner === undefined ? undefined : block('document', inner, part);
    }
    case 'search-result':
      return block('searchResult', encodeSearchResult(part, path, ctx), part);
    case 'reasoning':
      if (role !== 'assistant') return lose(losses, 'misplaced-reasoning', path, `reasoning in a ${role} message has no place in Bedrock`);
      return encodeReasoning(part, path, losses);
    case 'tool-call':
      return encodeToolCall(part, role, path, losses);
    case 'tool-result':
      return encodeToolResult(part, role, path, ctx);
    case 'refusal':
      approx(losses, 'refusal-as-text', path, 'Bedrock has no refusal block; sent as text');
      return part.text === '' && !ctx.keepBlank ? undefined : block('text', part.text, part);
    case 'data':
      approx(losses, 'data-as-text', path, 'structured data outside a tool result is sent as JSON text');
      return { text: JSON.stringify(part.data) };
    case 'provider-block':
      if (part.origin !== ID) return lose(losses, 'foreign-provider-block', path, `${part.origin} block has no Bedrock equivalent`);
      return part.block;
  }
}

function encodeText(part: TextPart, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  const mine = own(part.ext);
  if (!ctx.keepBlank && part.text === '') return lose(losses, 'empty-text', path, 'Bedrock rejects empty text blocks');
  if (mine?.['guardContent'] !== undefined) {
    if (part.citations) lose(losses, 'unsupported-citation', childPath(path, 'citations'), 'guarded text carries no citations');
    const inner = residueOf({ text: part.text }, part, path, losses);
    return block('guardContent', withOuter({ text: inner }, mine['guardContent']), part);
  }
  if (part.citations !== undefined || mine?.['$citationsContent'] === true) {
    const out = residueOf({ content: [{ text: part.text }] }, part, path, losses);
    if (part.citations) out['citations'] = part.citations.map((c, k) => encodeCitation(c, childPath(path, 'citations', k), losses));
    return block('citationsContent', out, part);
  }
  reportForeignExt(part.ext, ID, path, losses);
  return block('text', part.text, part);
}

/** guardContent's own extra keys (kept as the residue value instead of `true`). */
function withOuter(inner: JsonObject, mark: JsonValue | undefined): JsonObject {
  if (mark === null || typeof mark !== 'object' || Array.isArray(mark)) return inner;
  return { ...mark, ...inner };
}

function guardImage(part: ImagePart, inner: JsonObject, path: Path, losses: LossSink): JsonObject | undefined {
  const source = inner['source'] as JsonObject;
  if (!('bytes' in source) || (inner['format'] !== 'png' && inner['format'] !== 'jpeg')) {
    return lose(losses, 'guard-image', path, 'guarded images are PNG or JPEG bytes');
  }
  return block('guardContent', withOuter({ image: inner }, own(part.ext)?.['guardContent']), part);
}

/** `{format, source}` for an image, video or audio part, or undefined (reported). */
function encodeMedia(part: Part & { type: MediaKind; source: Source }, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  const src = bytesOrS3(part.source, childPath(path, 'source'), losses);
  if (src === undefined) return undefined;
  const format = formatOf(part.type, src.mediaType ?? '', own(part.ext)?.['format']);
  if (format === undefined) {
    return lose(losses, 'unsupported-media-type', childPath(path, 'source'), `Bedrock ${part.type} blocks take ${part.type} formats it names; '${src.mediaType ?? 'no media type'}' is not one`);
  }
  if (part.type === 'image' && part.detail !== undefined) lose(losses, 'image-detail', childPath(path, 'detail'), 'Bedrock has no image detail setting');
  return residueOf({ format, source: src.wire }, part, path, losses);
}

/**
 * Base64 as a Smithy blob takes it: standard alphabet, padded. URL-safe or unpadded text (Gemini
 * and agent inputs allow it) is rewritten to the same bytes and reported; text that is not base64
 * at all is dropped and reported, since Bedrock would refuse the request.
 */
function blob(data: string, path: Path, losses: LossSink): string | undefined {
  const std = standardBase64(data);
  if (std === undefined) return lose(losses, 'invalid-base64', path, 'the data is not base64 text, which Bedrock bytes must be');
  if (std !== data) approx(losses, 'base64-normalized', path, 'base64 rewritten to the standard padded alphabet Bedrock accepts (same bytes)');
  return std;
}

/** A base64, data-URL or S3 source as Bedrock's `{bytes}` / `{s3Location}`, or undefined (reported). */
function bytesOrS3(source: Source, path: Path, losses: LossSink): { wire: JsonObject; mediaType?: string } | undefined {
  let out: { wire: JsonObject; mediaType?: string };
  switch (source.kind) {
    case 'base64': {
      const bytes = blob(source.data, path, losses);
      if (bytes === undefined) return undefined;
      out = { wire: { bytes }, mediaType: source.mediaType };
      break;
    }
    case 'url': {
      const data = parseDataUrl(source.url);
      if (data) {
        const bytes = blob(data.data, path, losses);
        if (bytes === undefined) return undefined;
        out = { wire: { bytes }, mediaType: data.mediaType };
        break;
      }
      return lose(losses, 'unsupported-source', path, 'Bedrock reads media from bytes or S3, not from a URL');
    }
    case 's3': {
      const loc: JsonObject = { uri: source.uri };
      if (source.bucketOwner !== undefined) loc['bucketOwner'] = source.bucketOwner;
      restoreResidue(loc, ownWithout(source.ext, ['unionExtra']), ID);
      out = { wire: { s3Location: loc } };
      if (source.mediaType !== undefined) out.mediaType = source.mediaType;
      break;
    }
    case 'file-id':
      return lose(losses, 'unsupported-source', path, 'Bedrock cannot read another provider\'s file ids');
    default:
      return lose(losses, 'unsupported-source', path, `Bedrock media blocks cannot hold a ${source.kind} source`);
  }
  sourceExtras(out.wire, source, path, losses);
  return out;
}

function sourceExtras(wire: JsonObject, source: Source, path: Path, losses: LossSink): void {
  const extra = own(source.ext)?.['unionExtra'];
  if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) for (const k in extra) if (!(k in wire)) wire[k] = extra[k] as JsonValue;
  reportForeignExt(source.ext, ID, path, losses);
}

function encodeDocument(part: DocumentPart, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  const mine = own(part.ext);
  const src = part.source;
  let wire: JsonObject;
  let mediaType: string | undefined;
  if (src.kind === 'text') {
    wire = { text: src.text };
    mediaType = src.mediaType;
    sourceExtras(wire, src, childPath(path, 'source'), losses);
  } else if (src.kind === 'content') {
    const texts: JsonObject[] = [];
    src.parts.forEach((p, k) => {
      if (p.type === 'text') texts.push(residueOf({ text: p.text }, p, childPath(path, 'source', 'parts', k), losses));
      else lose(losses, 'unsupported-part', childPath(path, 'source', 'parts', k), `a Bedrock document's content holds text only; ${p.type} dropped`);
    });
    wire = { content: texts };
    sourceExtras(wire, src, childPath(path, 'source'), losses);
  } else {
    const s = bytesOrS3(src, childPath(path, 'source'), losses);
    if (s === undefined) return undefined;
    wire = s.wire;
    mediaType = s.mediaType;
  }
  const out: JsonObject = {};
  const hinted = mine?.['format'];
  if (mediaType !== undefined && !(mine?.['$noFormat'] === true)) {
    const format = formatOf('document', mediaType, hinted);
    if (format === undefined) return lose(losses, 'unsupported-media-type', childPath(path, 'source'), `Bedrock documents have no format for '${mediaType}'`);
    out['format'] = format;
  } else if (typeof hinted === 'string') out['format'] = hinted;
  out['name'] = ctx.namer.name(part.name, part.title, path, losses);
  if (part.name !== undefined && part.title !== undefined) lose(losses, 'document-title', childPath(path, 'title'), 'Bedrock documents have a name but no title');
  out['source'] = wire;
  if (part.context !== undefined) out['context'] = part.context;
  if (part.citations !== undefined) out['citations'] = { enabled: part.citations };
  return residueOf(out, part, path, losses);
}

function encodeSearchResult(part: SearchResultPart, path: Path, ctx: PartContext): JsonObject {
  const { losses } = ctx;
  const content = part.content.map((t, k) => residueOf({ text: t.text }, t, childPath(path, 'content', k), losses));
  const out: JsonObject = { source: part.source, title: part.title ?? '', content };
  if (part.title === undefined) approx(losses, 'search-result-title', childPath(path, 'title'), 'Bedrock search results need a title; sent empty');
  if (part.citations !== undefined) out['citations'] = { enabled: part.citations };
  if (part.encryptedContent !== undefined) lose(losses, 'unsupported-field', childPath(path, 'encryptedContent'), 'a Bedrock search result has no encrypted content');
  if (part.pageAge !== undefined) lose(losses, 'unsupported-field', childPath(path, 'pageAge'), 'a Bedrock search result has no page age');
  return residueOf(out, part, path, losses);
}

/**
 * Reasoning goes back only to Bedrock, byte-exact. Signatures minted by Anthropic's own API are
 * not replayed to Claude on Bedrock even though the model family is the same: AWS documents that a
 * replayed thinking block must have been produced by the same AWS account (or its customer
 * group) and that a block minted elsewhere is removed or rejected (Bedrock user guide, "Preserved
 * thinking"). So the conservative DESIGN.md rule holds: only origin 'bedrock-converse' is sent.
 * Bedrock's own unsigned reasoning (DeepSeek, Kimi ...) is sent back as it came.
 */
function encodeReasoning(part: ReasoningPart, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.origin !== ID) return lose(losses, 'foreign-reasoning', path, `reasoning from ${part.origin} cannot be replayed to Bedrock`);
  let inner: JsonObject;
  const mine = own(part.ext);
  if (part.redactedData !== undefined) inner = residueOf({ redactedContent: part.redactedData }, part, path, losses);
  else {
    const text = residueOf({ text: part.text ?? '' }, { ext: part.ext === undefined ? undefined : { [ID]: withoutKey(mine, 'reasoningContent') } }, path, losses);
    if (part.signature !== undefined) text['signature'] = part.signature;
    inner = { reasoningText: text };
    const outer = mine?.['reasoningContent'];
    if (outer !== null && typeof outer === 'object' && !Array.isArray(outer)) inner = { ...outer, ...inner };
    reportForeignExt(part.ext, ID, path, losses);
  }
  if (part.encryptedContent !== undefined || part.summary !== undefined) lose(losses, 'unsupported-field', path, 'Bedrock reasoning has no encrypted content or summary');
  return block('reasoningContent', inner, part);
}

function withoutKey(obj: JsonObject | undefined, key: string): JsonObject {
  const copy: JsonObject = { ...obj };
  delete copy[key];
  return copy;
}

function encodeToolCall(part: ToolCallPart, role: Role, path: Path, losses: LossSink): JsonObject | undefined {
  const type = own(part.ext)?.['type'];
  if (part.providerExecuted && type !== 'server_tool_use') {
    return lose(losses, 'provider-tool-call', path, 'a tool call another provider ran itself cannot be sent to Bedrock');
  }
  if (role !== 'assistant') return lose(losses, 'misplaced-tool-call', path, `a tool call in a ${role} message has no place in Bedrock`);
  if (part.argumentsJson !== undefined && !jsonTextEquals(part.arguments, part.argumentsJson)) {
    approx(losses, 'arguments-text', childPath(path, 'argumentsJson'), 'tool arguments are sent as JSON; their exact text is not kept');
  }
  const out: JsonObject = { toolUseId: mapToolId(part.id, path, losses, 'id'), name: mapToolName(part.name, path, losses, 'name'), input: part.arguments };
  return block('toolUse', residueOf(out, part, path, losses), part);
}

function encodeToolResult(part: ToolResultPart, role: Role, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  const typed = typeof own(part.ext)?.['type'] === 'string';
  if (part.providerExecuted && !typed) return lose(losses, 'provider-tool-result', path, 'a result of a tool another provider ran itself cannot be sent to Bedrock');
  if (role === 'assistant' && !typed) return lose(losses, 'misplaced-tool-result', path, 'a tool result in an assistant message has no place in Bedrock');
  const content: JsonObject[] = [];
  for (let k = 0; k < part.content.length; k++) {
    const c = part.content[k] as Part;
    // Plain text (what most results hold) has nothing to report: no path is built for it.
    if (c.type === 'text' && c.ext === undefined && !c.cache && !c.citations) content.push({ text: c.text });
    else {
      const b = resultBlock(c, childPath(path, 'content', k), ctx);
      if (b) content.push(b);
    }
  }
  const out: JsonObject = { toolUseId: mapToolId(part.callId, path, losses, 'callId'), content };
  if (part.isError !== undefined) out['status'] = part.isError ? 'error' : 'success';
  if (part.name !== undefined && !nameFromCall(part, ctx)) lose(losses, 'tool-result-name', childPath(path, 'name'), 'Bedrock tool results do not name the tool, and no call before names this one');
  return block('toolResult', residueOf(out, part, path, losses), part);
}

/** Whether the call the result answers (in the assistant message before it) gives the result's name. */
function nameFromCall(part: ToolResultPart, ctx: PartContext): boolean {
  if (ctx.messages === undefined || ctx.index === undefined) return false;
  return callName(assistantBefore(ctx.messages, ctx.index), part.callId) === part.name;
}

/** One tool-result content block: json, text, image, document, video or searchResult. */
function resultBlock(p: Part, path: Path, ctx: PartContext): JsonObject | undefined {
  const { losses } = ctx;
  if (p.cache) lose(losses, 'cache-point', childPath(path, 'cache'), 'Bedrock has no cache point inside a tool result');
  switch (p.type) {
    case 'text':
      reportForeignExt(p.ext, ID, path, losses);
      if (p.citations) lose(losses, 'unsupported-citation', childPath(path, 'citations'), 'tool result text carries no citations');
      // Empty text is allowed inside a tool result (only message-level blank text is refused).
      return block('text', p.text, p);
    case 'data':
      reportForeignExt(p.ext, ID, path, losses);
      return block('json', p.data, p);
    case 'image':
    case 'video': {
      const inner = encodeMedia(p, path, ctx);
      return inner === undefined ? undefined : block(p.type, inner, p);
    }
    case 'document': {
      const inner = encodeDocument(p, path, ctx);
      return inner === undefined ? undefined : block('document', inner, p);
    }
    case 'search-result':
      return block('searchResult', encodeSearchResult(p, path, ctx), p);
    case 'refusal':
      approx(losses, 'refusal-as-text', path, 'Bedrock has no refusal block; sent as text');
      return { text: p.text };
    default:
      return lose(losses, 'unsupported-part', path, `a Bedrock tool result cannot hold ${p.type}`);
  }
}
