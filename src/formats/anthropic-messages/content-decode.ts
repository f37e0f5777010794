/**
 * Anthropic content blocks -> canonical parts, one part per block so paths line up. Runs after
 * validation, on the original objects: everything not mapped goes to the part's residue.
 */
import type { Citation } from '../../model/citation.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { DataPart, Part, SearchResultPart, TextPart, ToolResultPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { keepResidue } from '../shared/residue.js';
import { SERVER_RESULT_TYPES } from './anthropic-messages-api.js';
import { decodeCache, ID, rest, restWithCache, withHints } from './wire-util.js';

const MESSAGE_KEYS = new Set(['role', 'content']);
const keys = (...k: string[]): ReadonlySet<string> => new Set(['type', ...k]);
const TEXT = keys('text', 'citations', 'cache_control');
const IMAGE = keys('source', 'cache_control');
const DOCUMENT = keys('source', 'title', 'context', 'citations', 'cache_control');
const SEARCH_RESULT = keys('source', 'title', 'content', 'citations', 'cache_control');
const THINKING = keys('thinking', 'signature');
const REDACTED = keys('data');
const CALL = keys('id', 'name', 'input', 'cache_control');
const RESULT = keys('tool_use_id', 'content', 'is_error', 'cache_control');
const SERVER_RESULT = keys('tool_use_id', 'content', 'cache_control');
const WEB_RESULT = keys('url', 'title', 'encrypted_content', 'page_age');
const SOURCE_B64 = keys('media_type', 'data');
const SOURCE_TEXT = keys('media_type', 'data');
const SOURCE_URL = keys('url');
const SOURCE_FILE = keys('file_id');
const SOURCE_CONTENT = keys('content');
const CITE_DOC = keys('cited_text', 'document_index', 'document_title', 'file_id');
const CITE_CHAR = new Set([...CITE_DOC, 'start_char_index', 'end_char_index']);
const CITE_PAGE = new Set([...CITE_DOC, 'start_page_number', 'end_page_number']);
const CITE_BLOCK = new Set([...CITE_DOC, 'start_block_index', 'end_block_index']);
const CITE_WEB = keys('cited_text', 'url', 'title', 'encrypted_index');
const CITE_SEARCH = keys('cited_text', 'source', 'title', 'search_result_index', 'start_block_index', 'end_block_index');

const SERVER_RESULTS: ReadonlySet<string> = new Set(SERVER_RESULT_TYPES);

/** Wire blocks here have passed validation, so their required fields are there. */
type Block = JsonObject;

export function decodeBlocks(blocks: JsonValue[]): Part[] {
  const out: Part[] = new Array<Part>(blocks.length);
  for (let i = 0; i < blocks.length; i++) out[i] = decodeBlock(blocks[i] as Block);
  return out;
}

/** A string content or a list of blocks. */
export function decodeContent(content: JsonValue): { parts: Part[]; stringContent: boolean } {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], stringContent: true };
  return { parts: decodeBlocks(content as JsonValue[]), stringContent: false };
}

export function decodeBlock(b: Block): Part {
  switch (b['type']) {
    case 'text':
      return decodeText(b);
    case 'image': {
      const part: Part = { type: 'image', source: decodeSource(b['source'] as Block) };
      return finish(part, b, IMAGE);
    }
    case 'document':
      return decodeDocument(b);
    case 'search_result':
      return decodeSearchResult(b);
    case 'thinking': {
      const part: Part = { type: 'reasoning', origin: ID, text: b['thinking'] as string, signature: b['signature'] as string };
      return finish(part, b, THINKING);
    }
    case 'redacted_thinking':
      return finish({ type: 'reasoning', origin: ID, redactedData: b['data'] as string }, b, REDACTED);
    case 'tool_use':
      return finish({ type: 'tool-call', id: b['id'] as string, name: b['name'] as string, arguments: b['input'] as JsonObject }, b, CALL);
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const part: Part = { type: 'tool-call', id: b['id'] as string, name: b['name'] as string, arguments: b['input'] as JsonObject, providerExecuted: true };
      return finish(part, b, CALL, { $type: b['type'] as string });
    }
    case 'tool_result':
    case 'mcp_tool_result':
      return decodeToolResult(b);
    case 'web_search_tool_result':
      return decodeWebSearchResult(b);
    default:
      if (SERVER_RESULTS.has(b['type'] as string)) {
        const data: DataPart = { type: 'data', data: b['content'] as JsonValue };
        const part: ToolResultPart = { type: 'tool-result', callId: b['tool_use_id'] as string, content: [data], providerExecuted: true };
        return finish(part, b, SERVER_RESULT, { $type: b['type'] as string });
      }
      // compaction, container_upload, fallback ...: no canonical meaning, kept whole.
      return { type: 'provider-block', origin: ID, block: b };
  }
}

/** Sets the cache hint and keeps the residue (plus any hints) on the part. */
function finish<P extends Part>(part: P, b: Block, known: ReadonlySet<string>, hints?: JsonObject): P {
  const cache = decodeCache(b['cache_control']);
  if (cache) part.cache = cache;
  const res = restWithCache(b, known, cache);
  keepResidue(part, ID, hints && Object.keys(hints).length > 0 ? withHints(res, hints) : res);
  return part;
}

function decodeText(b: Block): TextPart {
  const part: TextPart = { type: 'text', text: b['text'] as string };
  const citations = b['citations'];
  if (Array.isArray(citations)) part.citations = citations.map((c) => decodeCitation(c as Block));
  return finish(part, b, TEXT);
}

function decodeCitation(c: Block): Citation {
  let out: Citation;
  let known: ReadonlySet<string>;
  switch (c['type']) {
    case 'web_search_result_location':
      out = { type: 'url', url: c['url'] as string, citedText: c['cited_text'] as string };
      if (typeof c['title'] === 'string') out.title = c['title'];
      if (typeof c['encrypted_index'] === 'string') out.encryptedIndex = c['encrypted_index'];
      known = CITE_WEB;
      break;
    case 'search_result_location':
      out = {
        type: 'search-result',
        source: c['source'] as string,
        citedText: c['cited_text'] as string,
        searchResultIndex: c['search_result_index'] as number,
        startBlockIndex: c['start_block_index'] as number,
        endBlockIndex: c['end_block_index'] as number,
      };
      if (typeof c['title'] === 'string') out.title = c['title'];
      known = CITE_SEARCH;
      break;
    default: {
      const [unit, start, end, set] =
        c['type'] === 'char_location'
          ? (['char', 'start_char_index', 'end_char_index', CITE_CHAR] as const)
          : c['type'] === 'page_location'
            ? (['page', 'start_page_number', 'end_page_number', CITE_PAGE] as const)
            : (['block', 'start_block_index', 'end_block_index', CITE_BLOCK] as const);
      out = {
        type: 'document',
        citedText: c['cited_text'] as string,
        documentIndex: c['document_index'] as number,
        location: { unit, start: c[start] as number, end: c[end] as number },
      };
      if (typeof c['document_title'] === 'string') out.documentTitle = c['document_title'];
      if (typeof c['file_id'] === 'string') out.fileId = c['file_id'];
      known = set;
    }
  }
  keepResidue(out, ID, rest(c, known));
  return out;
}

const PDF = 'application/pdf';

function decodeSource(s: Block): Source {
  let out: Source;
  let known: ReadonlySet<string>;
  switch (s['type']) {
    case 'base64':
      out = { kind: 'base64', mediaType: s['media_type'] as string, data: s['data'] as string };
      known = SOURCE_B64;
      break;
    case 'url':
      out = { kind: 'url', url: s['url'] as string };
      known = SOURCE_URL;
      break;
    case 'file':
      out = { kind: 'file-id', fileId: s['file_id'] as string };
      known = SOURCE_FILE;
      break;
    case 'text':
      out = { kind: 'text', text: s['data'] as string, mediaType: s['media_type'] as string };
      known = SOURCE_TEXT;
      break;
    default: {
      const { parts, stringContent } = decodeContent(s['content'] as JsonValue);
      out = { kind: 'content', parts };
      const res = rest(s, SOURCE_CONTENT);
      keepResidue(out, ID, stringContent ? withHints(res, { $string: true }) : res);
      return out;
    }
  }
  keepResidue(out, ID, rest(s, known));
  return out;
}

/** `citations: {enabled}` becomes a boolean; any other shape stays residue. */
function citationsFlag(b: Block): { flag?: boolean; keep: boolean } {
  const c = b['citations'];
  if (c === undefined || c === null) return { keep: false };
  if (typeof c === 'object' && !Array.isArray(c) && typeof c['enabled'] === 'boolean' && Object.keys(c).length === 1) {
    return { flag: c['enabled'], keep: false };
  }
  return { keep: true };
}

function decodeDocument(b: Block): Part {
  const source = decodeSource(b['source'] as Block);
  // A document's URL source is Anthropic's URLPDFSource: the URL names a PDF.
  if (source.kind === 'url') source.mediaType = PDF;
  const part: Part = { type: 'document', source };
  if (typeof b['title'] === 'string') part.title = b['title'];
  if (typeof b['context'] === 'string') part.context = b['context'];
  const { flag, keep } = citationsFlag(b);
  if (flag !== undefined) part.citations = flag;
  const done = finish(part, b, DOCUMENT);
  if (keep) keepResidue(done, ID, { ...done.ext?.[ID], citations: b['citations'] as JsonValue });
  return done;
}

function decodeSearchResult(b: Block): SearchResultPart {
  const content = (b['content'] as Block[]).map(decodeText);
  const part: SearchResultPart = { type: 'search-result', source: b['source'] as string, title: b['title'] as string, content };
  const { flag, keep } = citationsFlag(b);
  if (flag !== undefined) part.citations = flag;
  const done = finish(part, b, SEARCH_RESULT);
  if (keep) keepResidue(done, ID, { ...done.ext?.[ID], citations: b['citations'] as JsonValue });
  return done;
}

function decodeToolResult(b: Block): ToolResultPart {
  const part: ToolResultPart = { type: 'tool-result', callId: b['tool_use_id'] as string, content: [] };
  const content = b['content'];
  if (content !== undefined && content !== null) {
    const decoded = decodeContent(content);
    part.content = decoded.parts;
    if (decoded.stringContent) part.stringContent = true;
  }
  if (typeof b['is_error'] === 'boolean') part.isError = b['is_error'];
  const hints: JsonObject = {};
  if (content === undefined) hints['$noContent'] = true;
  if (b['type'] === 'mcp_tool_result') {
    part.providerExecuted = true;
    hints['$type'] = 'mcp_tool_result';
  }
  return finish(part, b, RESULT, hints);
}

/** Web search results become search-result parts (url, title, encrypted content, page age). */
function decodeWebSearchResult(b: Block): ToolResultPart {
  const content = b['content'];
  let parts: Part[];
  if (Array.isArray(content)) {
    parts = content.map((r) => {
      const w = r as Block;
      const part: SearchResultPart = {
        type: 'search-result',
        source: w['url'] as string,
        title: w['title'] as string,
        content: [],
        encryptedContent: w['encrypted_content'] as string,
      };
      if (typeof w['page_age'] === 'string') part.pageAge = w['page_age'];
      keepResidue(part, ID, rest(w, WEB_RESULT));
      return part;
    });
  } else {
    parts = [{ type: 'data', data: content as JsonValue }];
  }
  const part: ToolResultPart = { type: 'tool-result', callId: b['tool_use_id'] as string, content: parts, providerExecuted: true };
  return finish(part, b, SERVER_RESULT, { $type: 'web_search_tool_result' });
}

/** One wire message -> one canonical message. */
export function decodeMessage(m: JsonObject): Message {
  const { parts, stringContent } = decodeContent(m['content'] as JsonValue);
  const role = m['role'] as 'user' | 'assistant' | 'system';
  const msg: Message = { role, parts };
  if (stringContent) msg.stringContent = true;
  const r = rest(m, MESSAGE_KEYS);
  // A system message inside `messages` goes back there, not to the top-level system.
  keepResidue(msg, ID, role === 'system' ? withHints(r, { $inMessages: true }) : r);
  return msg;
}

/** Messages decoded alone: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  return wire.map(decodeMessage);
}
