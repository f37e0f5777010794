/**
 * Canonical parts -> Anthropic content blocks. Accepts parts of any origin: what Anthropic cannot
 * hold is dropped or approximated and reported to `losses` with the part's canonical path.
 */
import type { Citation } from '../../model/citation.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { LossAction, Path } from '../../model/loss.js';
import type { Role } from '../../model/message.js';
import type { DocumentPart, ImagePart, Part, ReasoningPart, SearchResultPart, TextPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import type { LossSink } from '../codec.js';
import { parseDataUrl } from '../shared/data-url.js';
import { isJsonText, jsonTextEquals } from '../shared/json-text.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { mapIdAt, mapNameAt } from './tool-names.js';
import { encodeCache, ID, own } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

function loss(losses: LossSink, code: string, path: Path, message: string, action: LossAction = 'dropped'): undefined {
  losses.push({ code, path, message, action });
  return undefined;
}

/** Writes the part's own residue and cache hint, and reports another origin's ext. */
function finish(out: JsonObject, part: Part, path: Path, losses: LossSink): JsonObject {
  if (part.cache) out['cache_control'] = encodeCache(part.cache);
  if (part.ext) {
    restoreResidue(out, part.ext, ID);
    reportForeignExt(part.ext, ID, path, losses);
  }
  return out;
}

/**
 * `keepBlank`: a response may hold whitespace-only text blocks (Anthropic sends them); only a
 * request must not.
 */
export function encodeParts(parts: readonly Part[], role: Role, path: Path, losses: LossSink, keepBlank = false): JsonObject[] {
  return encodePartsInto([], parts, role, path, losses, keepBlank);
}

/** encodeParts appending to `out` (a turn gathering several messages' blocks needs no copies); returns `out`. */
export function encodePartsInto(out: JsonObject[], parts: readonly Part[], role: Role, path: Path, losses: LossSink, keepBlank = false): JsonObject[] {
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    let block: JsonObject | undefined;
    // The usual text part is written directly, with no path (it reports nothing).
    if (part.type === 'text' && isPlain(part) && (keepBlank || part.text.trim() !== '')) block = { type: 'text', text: part.text };
    else block = keepBlank && part.type === 'text' ? encodeText(part, childPath(path, j), losses, true) : encodePart(part, role, childPath(path, j), losses);
    if (block) out.push(block);
  }
  return out;
}

/** A text part with nothing but its text: encodeText writes `{type, text}` for it and reports nothing unless it is blank. */
function isPlain(part: TextPart): boolean {
  return part.citations === undefined && part.cache === undefined && part.ext === undefined;
}

export function encodePart(part: Part, role: Role, path: Path, losses: LossSink): JsonObject | undefined {
  switch (part.type) {
    case 'text':
      return encodeText(part, path, losses);
    case 'image':
      return encodeImage(part, path, losses);
    case 'document':
      return encodeDocument(part, path, losses);
    case 'search-result':
      return encodeSearchResult(part, path, losses);
    case 'reasoning':
      if (role !== 'assistant') return loss(losses, 'misplaced-reasoning', path, `reasoning in a ${role} message has no place in Anthropic`);
      return encodeReasoning(part, path, losses);
    case 'tool-call':
      return encodeToolCall(part, role, path, losses);
    case 'tool-result':
      return encodeToolResult(part, role, path, losses);
    case 'refusal':
      losses.push({ code: 'refusal-as-text', path, message: 'Anthropic has no refusal block; sent as text', action: 'approximated' });
      return part.text.trim() === '' ? undefined : finish({ type: 'text', text: part.text }, part, path, losses);
    case 'data':
      losses.push({ code: 'data-as-text', path, message: 'structured data part sent as JSON text', action: 'approximated' });
      return finish({ type: 'text', text: JSON.stringify(part.data) }, part, path, losses);
    case 'provider-block':
      if (part.origin !== ID) return loss(losses, 'foreign-provider-block', path, `${part.origin} block has no Anthropic equivalent`);
      return part.block;
    case 'audio':
    case 'video':
      return loss(losses, 'unsupported-part', path, `Anthropic messages cannot hold ${part.type}`);
  }
}

export function encodeText(part: TextPart, path: Path, losses: LossSink, keepBlank = false): JsonObject | undefined {
  if (!keepBlank && part.text.trim() === '') return loss(losses, 'empty-text', path, 'Anthropic rejects empty text blocks');
  const out: JsonObject = { type: 'text', text: part.text };
  if (part.citations) out['citations'] = encodeCitations(part.citations, childPath(path, 'citations'), losses);
  return finish(out, part, path, losses);
}

function encodeCitations(citations: Citation[], path: Path, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  citations.forEach((c, k) => {
    const p = childPath(path, k);
    let w: JsonObject | undefined;
    if (c.type === 'url' && c.encryptedIndex !== undefined) {
      w = { type: 'web_search_result_location', cited_text: c.citedText ?? '', url: c.url, title: c.title ?? null, encrypted_index: c.encryptedIndex };
    } else if (c.type === 'search-result' && c.searchResultIndex !== undefined && c.startBlockIndex !== undefined && c.endBlockIndex !== undefined) {
      w = {
        type: 'search_result_location',
        cited_text: c.citedText ?? '',
        source: c.source,
        title: c.title ?? null,
        search_result_index: c.searchResultIndex,
        start_block_index: c.startBlockIndex,
        end_block_index: c.endBlockIndex,
      };
    } else if (c.type === 'document' && c.location && c.documentIndex !== undefined) {
      const { unit, start, end } = c.location;
      const [type, s, e] =
        unit === 'char'
          ? ['char_location', 'start_char_index', 'end_char_index']
          : unit === 'page'
            ? ['page_location', 'start_page_number', 'end_page_number']
            : ['content_block_location', 'start_block_index', 'end_block_index'];
      w = { type, cited_text: c.citedText ?? '', document_index: c.documentIndex, document_title: c.documentTitle ?? null, [s]: start, [e]: end };
      if (c.fileId !== undefined) w['file_id'] = c.fileId;
    }
    if (!w) {
      loss(losses, 'unsupported-citation', p, `a ${c.type} citation without Anthropic's location fields cannot be sent`);
      return;
    }
    if (c.ext) {
      restoreResidue(w, c.ext, ID);
      reportForeignExt(c.ext, ID, p, losses);
    }
    out.push(w);
  });
  return out;
}

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Inline bytes as Anthropic takes them: images in four media types ('image/jpg', a common alias,
 * becomes 'image/jpeg'); documents as PDF, or as a plain-text source when the bytes are UTF-8 text.
 * Anything else is refused by the API, so it is left out (reported).
 */
function encodeBytes(mediaType: string, data: string, path: Path, losses: LossSink, forDocument: boolean): JsonObject | undefined {
  if (!forDocument) {
    if (IMAGE_TYPES.has(mediaType)) return { type: 'base64', media_type: mediaType, data };
    if (mediaType !== 'image/jpg') return loss(losses, 'unsupported-media-type', path, `Anthropic images are JPEG, PNG, GIF or WebP, not ${mediaType}`);
    loss(losses, 'media-type', path, "media type 'image/jpg' sent as 'image/jpeg'", 'approximated');
    return { type: 'base64', media_type: 'image/jpeg', data };
  }
  if (mediaType === 'application/pdf') return { type: 'base64', media_type: mediaType, data };
  if (mediaType.startsWith('text/')) {
    const bytes = Buffer.from(data, 'base64');
    const text = bytes.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(bytes)) {
      loss(losses, 'document-source', path, `a base64 ${mediaType} document is sent as a plain-text source`, 'approximated');
      return { type: 'text', media_type: 'text/plain', data: text };
    }
  }
  return loss(losses, 'unsupported-media-type', path, `Anthropic documents are PDF or plain text, not ${mediaType}`);
}

function encodeSource(source: Source, path: Path, losses: LossSink, forDocument: boolean): JsonObject | undefined {
  let out: JsonObject;
  switch (source.kind) {
    case 'base64': {
      const bytes = encodeBytes(source.mediaType, source.data, path, losses, forDocument);
      if (!bytes) return undefined;
      out = bytes;
      break;
    }
    case 'url': {
      const data = parseDataUrl(source.url);
      const bytes = data ? encodeBytes(data.mediaType, data.data, path, losses, forDocument) : { type: 'url', url: source.url };
      if (!bytes) return undefined;
      // A URL source has no media type: a document URL is a PDF (URLPDFSource), an image's type is
      // what the server says. Any other media type given is not sent.
      if (!data && source.mediaType !== undefined && !(forDocument && source.mediaType === 'application/pdf')) {
        const reads = forDocument ? 'reads a document URL as a PDF' : 'takes an image URL\'s type from the server';
        loss(losses, 'media-type', path, `Anthropic ${reads}; the media type ${source.mediaType} is not sent`, 'approximated');
      }
      out = bytes;
      break;
    }
    case 'file-id':
      out = { type: 'file', file_id: source.fileId };
      break;
    case 'text':
      if (!forDocument) return loss(losses, 'unsupported-source', path, 'an image cannot have a text source');
      // The plain-text source has one media type; markdown, CSV ... are text all the same.
      if (source.mediaType !== undefined && source.mediaType !== 'text/plain') {
        loss(losses, 'media-type', path, `a ${source.mediaType} text document is sent as text/plain`, 'approximated');
      }
      out = { type: 'text', media_type: 'text/plain', data: source.text };
      break;
    case 'content': {
      if (!forDocument) return loss(losses, 'unsupported-source', path, 'an image cannot have a content source');
      const first = source.parts[0];
      const asString = own(source.ext)?.['$string'] === true && source.parts.length === 1 && first?.type === 'text';
      out = { type: 'content', content: asString ? first.text : encodeParts(source.parts, 'user', childPath(path, 'parts'), losses) };
      break;
    }
    case 's3':
      return loss(losses, 'unsupported-source', path, 'Anthropic cannot read S3 locations');
  }
  if (source.ext) {
    restoreResidue(out, source.ext, ID);
    reportForeignExt(source.ext, ID, path, losses);
  }
  return out;
}

function encodeImage(part: ImagePart, path: Path, losses: LossSink): JsonObject | undefined {
  const source = encodeSource(part.source, childPath(path, 'source'), losses, false);
  if (!source) return undefined;
  if (part.detail !== undefined) loss(losses, 'image-detail', childPath(path, 'detail'), 'Anthropic has no image detail setting');
  return finish({ type: 'image', source }, part, path, losses);
}

function encodeDocument(part: DocumentPart, path: Path, losses: LossSink): JsonObject | undefined {
  const source = encodeSource(part.source, childPath(path, 'source'), losses, true);
  if (!source) return undefined;
  const out: JsonObject = { type: 'document', source };
  if (part.title !== undefined) out['title'] = part.title;
  if (part.context !== undefined) out['context'] = part.context;
  if (part.citations !== undefined) out['citations'] = { enabled: part.citations };
  if (part.name !== undefined) {
    if (part.title === undefined) {
      out['title'] = part.name;
      loss(losses, 'document-name', childPath(path, 'name'), 'Anthropic documents have no file name; sent as title', 'approximated');
    } else loss(losses, 'document-name', childPath(path, 'name'), 'Anthropic documents have no file name');
  }
  return finish(out, part, path, losses);
}

function encodeSearchResult(part: SearchResultPart, path: Path, losses: LossSink): JsonObject {
  const content: JsonObject[] = [];
  part.content.forEach((t, k) => {
    const b = encodeText(t, childPath(path, 'content', k), losses);
    if (b) content.push(b);
  });
  const out: JsonObject = { type: 'search_result', source: part.source, title: part.title ?? '', content };
  if (part.title === undefined) loss(losses, 'search-result-title', childPath(path, 'title'), 'Anthropic search results need a title; sent empty', 'approximated');
  if (part.citations !== undefined) out['citations'] = { enabled: part.citations };
  if (part.encryptedContent !== undefined) loss(losses, 'unsupported-field', childPath(path, 'encryptedContent'), 'a search_result block has no encrypted content');
  if (part.pageAge !== undefined) loss(losses, 'unsupported-field', childPath(path, 'pageAge'), 'a search_result block has no page age');
  return finish(out, part, path, losses);
}

/** Thinking goes back only to Anthropic, byte-exact, and never without its signature. */
function encodeReasoning(part: ReasoningPart, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.origin !== ID) return loss(losses, 'foreign-reasoning', path, `reasoning from ${part.origin} cannot be replayed to Anthropic`);
  let out: JsonObject;
  if (part.redactedData !== undefined) out = { type: 'redacted_thinking', data: part.redactedData };
  else if (part.signature !== undefined) out = { type: 'thinking', thinking: part.text ?? '', signature: part.signature };
  else return loss(losses, 'unsigned-reasoning', path, 'Anthropic verifies thinking signatures; unsigned reasoning is not sent');
  return finish(out, part, path, losses);
}

function encodeToolCall(part: ToolCallPart, role: Role, path: Path, losses: LossSink): JsonObject | undefined {
  const hint = own(part.ext)?.['$type'];
  if (part.providerExecuted) {
    if (typeof hint !== 'string') return loss(losses, 'provider-tool-call', path, 'a tool call another provider ran itself cannot be sent to Anthropic');
    return finish({ type: hint, id: part.id, name: part.name, input: part.arguments }, part, path, losses);
  }
  if (role !== 'assistant') return loss(losses, 'misplaced-tool-call', path, `a tool call in a ${role} message has no place in Anthropic`);
  let input = part.arguments;
  if (!isJsonObject(input)) {
    loss(losses, 'tool-arguments-not-object', childPath(path, 'arguments'), 'Anthropic tool input must be an object; wrapped as {"value": ...}', 'approximated');
    input = { value: input };
  } else if (part.argumentsJson !== undefined && !jsonTextEquals(input, part.argumentsJson)) {
    if (!isJsonText(part.argumentsJson)) {
      // A model's call cut off mid-arguments (OpenAI responses may hold one): the input is what it decoded to.
      loss(losses, 'invalid-arguments', childPath(path, 'argumentsJson'), `tool arguments are not valid JSON; input ${JSON.stringify(input)} sent instead`, 'approximated');
    } else {
      // Only the text form differs (spacing, key order): the way back would re-serialize it.
      loss(losses, 'arguments-text', childPath(path, 'argumentsJson'), 'tool arguments are sent as an object; their exact text is not kept', 'approximated');
    }
  }
  const out: JsonObject = { type: 'tool_use', id: mapIdAt(part.id, path, 'id', losses), name: mapNameAt(part.name, path, 'name', losses), input };
  return finish(out, part, path, losses);
}

function encodeToolResult(part: ToolResultPart, role: Role, path: Path, losses: LossSink): JsonObject | undefined {
  const hints = own(part.ext);
  const type = hints?.['$type'];
  if (part.providerExecuted && type !== 'mcp_tool_result') {
    if (typeof type !== 'string') return loss(losses, 'provider-tool-result', path, 'a result of a tool another provider ran itself cannot be sent to Anthropic');
    return finish({ type, tool_use_id: part.callId, content: serverResultContent(part, type, path, losses) }, part, path, losses);
  }
  if (role === 'assistant' && !part.providerExecuted) {
    return loss(losses, 'misplaced-tool-result', path, 'a tool result in an assistant message has no place in Anthropic');
  }
  const out: JsonObject = { type: type === 'mcp_tool_result' ? 'mcp_tool_result' : 'tool_result', tool_use_id: mapIdAt(part.callId, path, 'callId', losses) };
  const first = part.content[0];
  if (part.stringContent && part.content.length === 1 && first?.type === 'text') out['content'] = first.text;
  else if (!(hints?.['$noContent'] === true && part.content.length === 0)) {
    out['content'] = encodeParts(part.content, 'user', childPath(path, 'content'), losses);
  }
  if (part.isError !== undefined) out['is_error'] = part.isError;
  return finish(out, part, path, losses);
}

/** Server tool results: web search results from search-result parts, others from one data part. */
function serverResultContent(part: ToolResultPart, type: string, path: Path, losses: LossSink): JsonValue {
  const first = part.content[0];
  if (part.content.length === 1 && first?.type === 'data') return first.data;
  if (type === 'web_search_tool_result') {
    const results: JsonObject[] = [];
    part.content.forEach((p, k) => {
      if (p.type !== 'search-result' || p.encryptedContent === undefined) {
        loss(losses, 'unsupported-part', childPath(path, 'content', k), 'a web search result needs a search result with encrypted content');
        return;
      }
      const w: JsonObject = { type: 'web_search_result', url: p.source, title: p.title ?? '', encrypted_content: p.encryptedContent };
      if (p.pageAge !== undefined) w['page_age'] = p.pageAge;
      if (p.ext) {
        restoreResidue(w, p.ext, ID);
        reportForeignExt(p.ext, ID, childPath(path, 'content', k), losses);
      }
      results.push(w);
    });
    return results;
  }
  loss(losses, 'unsupported-part', childPath(path, 'content'), `a ${type} block holds one JSON content value`);
  return null;
}
