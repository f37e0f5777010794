/**
 * Bedrock content blocks -> canonical parts. Runs after validation, on the original objects, in
 * one pass. A `cachePoint` block becomes the `cache` hint of the part before it (Anthropic's
 * cache_control sits on the block it follows, so the two convert into each other); a cachePoint
 * with no part before it, or after a part that already has one, is kept whole as a provider block.
 *
 * Everything not mapped goes to the part's residue. A few residue keys are written back by the
 * encoder itself rather than copied (see OWN_KEYS): they are ordinary (non-`$`) keys on purpose, so
 * that another format's encoder reports them as losses and `preserve` can bring them back.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { DocumentPart, Part, SearchResultPart, TextPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { keepResidue } from '../shared/residue.js';
import { decodeCitation } from './citations.js';
import { isDefaultFormat, mediaTypeOf, type MediaKind } from './media.js';
import { decodeCachePoint, ID, memberOf, rest, restBeside, withHints } from './wire-util.js';

/**
 * Residue keys the encoder interprets: `guardContent` (the part was guarded content), `unionExtra`
 * (keys found beside the union member, in lenient responses), `format` (a media format its media
 * type does not name by default, e.g. video `mpg`).
 */
export const OWN_KEYS = ['guardContent', 'unionExtra', 'format'] as const;

export const BLOCK_MEMBERS: ReadonlySet<string> = new Set([
  'text', 'image', 'document', 'video', 'audio', 'toolUse', 'toolResult', 'guardContent', 'cachePoint',
  'reasoningContent', 'citationsContent', 'searchResult',
]);
export const RESULT_MEMBERS: ReadonlySet<string> = new Set(['json', 'text', 'image', 'document', 'video', 'searchResult']);
const SOURCE_MEMBERS: ReadonlySet<string> = new Set(['bytes', 's3Location', 'text', 'content']);
const keys = (...k: string[]): ReadonlySet<string> => new Set(k);
const MEDIA = keys('format', 'source');
const DOCUMENT = keys('format', 'name', 'source', 'context', 'citations');
const TOOL_USE = keys('toolUseId', 'name', 'input');
const TOOL_RESULT = keys('toolUseId', 'content', 'status');
const REASONING_TEXT = keys('text', 'signature');
const TEXT_ONLY = keys('text');
const CITATIONS_CONTENT = keys('content', 'citations');
const SEARCH_RESULT = keys('source', 'title', 'content', 'citations');
const S3 = keys('uri', 'bucketOwner');
const CACHE_POINT = keys('type', 'ttl');
const GUARD_MEMBERS = keys('text', 'image');

/** Decodes a message's (or system's) blocks, folding cache points into the part before them. */
export function decodeBlocks(blocks: readonly JsonValue[]): Part[] {
  const out: Part[] = [];
  for (const raw of blocks) {
    const b = raw as JsonObject;
    const member = memberOf(b, BLOCK_MEMBERS);
    if (member === 'cachePoint') {
      const prev = out[out.length - 1];
      const point = b['cachePoint'];
      const plain = Object.keys(b).length === 1 && isJsonObject(point) && rest(point, CACHE_POINT) === undefined;
      if (prev && prev.cache === undefined && plain) {
        prev.cache = decodeCachePoint(point);
        continue;
      }
      out.push({ type: 'provider-block', origin: ID, block: b });
      continue;
    }
    out.push(decodeBlock(b, member as string));
  }
  return out;
}

/** Keys beside the union member (lenient responses only) come back through `unionExtra`. */
function extraOf(b: JsonObject, member: string): JsonObject | undefined {
  const extra = restBeside(b, member);
  return extra === undefined ? undefined : { unionExtra: extra };
}

function decodeBlock(b: JsonObject, member: string): Part {
  const value = b[member] as JsonValue;
  const wrap = extraOf(b, member);
  switch (member) {
    case 'text':
      return finish({ type: 'text', text: value as string }, undefined, wrap);
    case 'citationsContent':
      return decodeCitationsContent(b, value as JsonObject, wrap);
    case 'guardContent':
      return decodeGuard(value as JsonObject, wrap);
    case 'reasoningContent': {
      const r = value as JsonObject;
      if (typeof r['redactedContent'] === 'string') {
        return finish({ type: 'reasoning', origin: ID, redactedData: r['redactedContent'] }, restBeside(r, 'redactedContent'), wrap);
      }
      const t = r['reasoningText'] as JsonObject;
      const part: Part = { type: 'reasoning', origin: ID, text: t['text'] as string };
      if (typeof t['signature'] === 'string') part.signature = t['signature'];
      const res = rest(t, REASONING_TEXT);
      const outer = restBeside(r, 'reasoningText');
      return finish(part, outer ? { ...res, reasoningContent: outer } : res, wrap);
    }
    case 'toolUse':
      return decodeToolUse(value as JsonObject, wrap);
    case 'toolResult':
      return decodeToolResult(value as JsonObject, wrap);
    default:
      return finish(decodeInner(member, value as JsonObject), undefined, wrap);
  }
}

/** Members that may also appear inside tool results: image, document, video, audio, searchResult. */
function decodeInner(member: string, v: JsonObject): Part {
  switch (member) {
    case 'document':
      return decodeDocument(v);
    case 'searchResult':
      return decodeSearchResult(v);
    default: {
      const kind = member as 'image' | 'video' | 'audio';
      const format = v['format'] as string;
      const part = { type: kind, source: decodeSource(kind, format, v['source'] as JsonObject) } as Part;
      return finish(part, rest(v, MEDIA), isDefaultFormat(kind, format) ? undefined : { format });
    }
  }
}

/** Adds residue and extra keys to what the part already keeps. */
function finish<P extends Part>(part: P, res: JsonObject | undefined, extra: JsonObject | undefined): P {
  const add = withHints(res, extra);
  if (add !== undefined) keepResidue(part, ID, part.ext?.[ID] ? { ...part.ext[ID], ...add } : add);
  return part;
}

function decodeSource(kind: MediaKind, format: string | undefined, s: JsonObject): Source {
  const member = memberOf(s, SOURCE_MEMBERS);
  // Bedrock's documented default document format is txt (Smithy @default on DocumentBlock.format).
  const mediaType = mediaTypeOf(kind, format ?? 'txt');
  let out: Source;
  if (member === 'bytes') out = { kind: 'base64', mediaType, data: s['bytes'] as string };
  else if (member === 's3Location') {
    const loc = s['s3Location'] as JsonObject;
    out = { kind: 's3', uri: loc['uri'] as string };
    if (typeof loc['bucketOwner'] === 'string') out.bucketOwner = loc['bucketOwner'];
    if (format !== undefined) out.mediaType = mediaType;
    keepResidue(out, ID, rest(loc, S3));
  } else if (member === 'text') {
    out = { kind: 'text', text: s['text'] as string };
    if (format !== undefined) out.mediaType = mediaType;
  } else {
    const parts = (s['content'] as JsonObject[]).map((c): TextPart => finish({ type: 'text', text: c['text'] as string }, rest(c, TEXT_ONLY), undefined));
    out = { kind: 'content', parts };
  }
  const res = member === undefined ? undefined : restBeside(s, member);
  if (res) keepResidue(out, ID, { ...out.ext?.[ID], unionExtra: res });
  return out;
}

function decodeDocument(v: JsonObject): DocumentPart {
  const format = typeof v['format'] === 'string' ? v['format'] : undefined;
  const source = decodeSource('document', format, v['source'] as JsonObject);
  const part: DocumentPart = { type: 'document', source, name: v['name'] as string };
  if (typeof v['context'] === 'string') part.context = v['context'];
  const res = rest(v, DOCUMENT) ?? {};
  const citations = v['citations'];
  if (isJsonObject(citations) && typeof citations['enabled'] === 'boolean' && Object.keys(citations).length === 1) part.citations = citations['enabled'];
  else if (citations !== undefined && citations !== null) res['citations'] = citations;
  // How to write `format` back: absent, or a format that the source's media type does not name.
  if (format === undefined) {
    if (source.kind === 'base64' || source.kind === 's3') res['$noFormat'] = true;
  } else if (source.kind === 'content' || !isDefaultFormat('document', format)) res['format'] = format;
  return finish(part, Object.keys(res).length > 0 ? res : undefined, undefined);
}

function decodeSearchResult(v: JsonObject): SearchResultPart {
  const content = (v['content'] as JsonObject[]).map((c): TextPart => finish({ type: 'text', text: c['text'] as string }, rest(c, TEXT_ONLY), undefined));
  const part: SearchResultPart = { type: 'search-result', source: v['source'] as string, title: v['title'] as string, content };
  const res = rest(v, SEARCH_RESULT) ?? {};
  const citations = v['citations'];
  if (isJsonObject(citations) && typeof citations['enabled'] === 'boolean' && Object.keys(citations).length === 1) part.citations = citations['enabled'];
  else if (citations !== undefined && citations !== null) res['citations'] = citations;
  return finish(part, Object.keys(res).length > 0 ? res : undefined, undefined);
}

/** Generated text with its citations; anything but exactly one text stays a provider block. */
function decodeCitationsContent(b: JsonObject, v: JsonObject, wrap: JsonObject | undefined): Part {
  const content = v['content'];
  const only = Array.isArray(content) && content.length === 1 && isJsonObject(content[0]) ? content[0] : undefined;
  if (only === undefined || typeof only['text'] !== 'string' || Object.keys(only).length !== 1) return { type: 'provider-block', origin: ID, block: b };
  const part: TextPart = { type: 'text', text: only['text'] };
  const citations = v['citations'];
  if (Array.isArray(citations)) part.citations = citations.map((c) => decodeCitation(c as JsonObject));
  // Without a citations list, only the hint says the text was a citationsContent block.
  const hint = Array.isArray(citations) ? undefined : { $citationsContent: true };
  return finish(part, rest(v, CITATIONS_CONTENT), { ...wrap, ...hint });
}

/** Guarded text / image: the same part as unguarded content, marked `guardContent: true`. */
function decodeGuard(v: JsonObject, wrap: JsonObject | undefined): Part {
  const text = v['text'];
  const outer = rest(v, GUARD_MEMBERS);
  const mark: JsonObject = { ...wrap, guardContent: outer ?? true };
  if (isJsonObject(text)) return finish({ type: 'text', text: text['text'] as string }, rest(text, TEXT_ONLY), mark);
  const image = v['image'] as JsonObject;
  const format = image['format'] as string;
  const part: Part = { type: 'image', source: decodeSource('image', format, image['source'] as JsonObject) };
  return finish(part, rest(image, MEDIA), mark);
}

function decodeToolUse(v: JsonObject, wrap: JsonObject | undefined): ToolCallPart {
  const part: ToolCallPart = { type: 'tool-call', id: v['toolUseId'] as string, name: v['name'] as string, arguments: v['input'] as JsonValue };
  // `type` (server_tool_use, or tool_use on some models) stays residue and is written back as is.
  if (v['type'] === 'server_tool_use') part.providerExecuted = true;
  return finish(part, rest(v, TOOL_USE), wrap);
}

export function decodeToolResult(v: JsonObject, wrap: JsonObject | undefined): ToolResultPart {
  const content = (v['content'] as JsonObject[]).map((c): Part => {
    const member = memberOf(c, RESULT_MEMBERS) as string;
    const inner = c[member] as JsonValue;
    const extra = extraOf(c, member);
    if (member === 'json') return finish({ type: 'data', data: inner }, undefined, extra);
    if (member === 'text') return finish({ type: 'text', text: inner as string }, undefined, extra);
    return finish(decodeInner(member, inner as JsonObject), undefined, extra);
  });
  const part: ToolResultPart = { type: 'tool-result', callId: v['toolUseId'] as string, content };
  const status = v['status'];
  if (status === 'error') part.isError = true;
  else if (status === 'success') part.isError = false;
  // A typed result (e.g. nova_code_interpreter_result) answers a server tool Bedrock ran itself.
  if (typeof v['type'] === 'string') part.providerExecuted = true;
  return finish(part, rest(v, TOOL_RESULT), wrap);
}
