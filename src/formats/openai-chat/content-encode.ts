/**
 * Canonical parts -> Chat Completions content. Each part is written in the target's own shape or
 * reported as a loss; own residue (`ext['openai-chat']`) is written back, nested objects included.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { DocumentPart, Part, TextPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { formatDataUrl } from '../shared/data-url.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { renderSearchResult } from '../shared/search-result-text.js';
import { OPENAI_CHAT } from './openai-chat-api.js';

/** What a message role may hold in `content`: system, developer and tool take text only. */
export type ContentRole = 'user' | 'text-only' | 'assistant';

/** The ext entries of other formats, or undefined when there are none. */
export function foreignExt(ext: Part['ext']): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const origin in ext) if (origin !== OPENAI_CHAT) (out ??= {})[origin] = ext[origin] as JsonObject;
  return out;
}

export function own(ext: Part['ext']): JsonObject | undefined {
  return ext?.[OPENAI_CHAT];
}

/** Writes own residue back: top-level keys, plus the nested object `key` merged into `out[key]`. */
export function restoreNested(out: JsonObject, ext: Part['ext'], key?: string): void {
  restoreResidue(out, ext, OPENAI_CHAT);
  const inner = key === undefined ? undefined : own(ext)?.[key];
  if (key !== undefined && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
    out[key] = { ...inner, ...(out[key] as JsonObject) };
  }
}

export function loss(losses: LossSink, code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
  losses.push({ code, path, message, action });
}

/** Part-level things no Chat Completions content part holds: cache hints and foreign ext. */
export function reportPartExtras(part: Part, path: Path, losses: LossSink): void {
  if (part.cache) loss(losses, 'cache-control', path, 'Chat Completions has no cache breakpoints per part (OpenAI caches prefixes automatically)');
  reportForeignExt(part.ext, OPENAI_CHAT, path, losses);
}

export function textPart(part: TextPart): JsonObject {
  const out: JsonObject = { type: 'text', text: part.text };
  restoreNested(out, part.ext);
  return out;
}

/** input_audio takes wav and mp3; other audio subtypes are written as named and reported. */
function audioFormat(mediaType: string): string | undefined {
  const type = mediaType.toLowerCase();
  if (type === 'audio/mpeg' || type === 'audio/mp3') return 'mp3';
  if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave' || type === 'audio/vnd.wave') return 'wav';
  return type.startsWith('audio/') ? type.slice(6) : undefined;
}

function documentPart(part: DocumentPart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = part.source;
  if (src.kind === 'text' || src.kind === 'content') {
    const text = src.kind === 'text' ? src.text : src.parts.map((p) => (p.type === 'text' ? p.text : '')).filter((t) => t !== '').join('\n\n');
    loss(losses, 'document-as-text', path, 'Chat Completions files take PDF bytes or file ids: the plain-text document is sent as text', 'approximated');
    return { type: 'text', text: part.title ? `${part.title}\n\n${text}` : text };
  }
  const file: JsonObject = {};
  if (src.kind === 'base64') file['file_data'] = formatDataUrl(src.mediaType, src.data);
  else if (src.kind === 'file-id') file['file_id'] = src.fileId;
  else {
    loss(losses, 'unsupported-source', path, `Chat Completions file parts cannot reference a document by ${src.kind}`);
    return undefined;
  }
  if (part.name !== undefined) file['filename'] = part.name;
  else if (part.title !== undefined) {
    file['filename'] = part.title;
    loss(losses, 'document-title', path, 'the document title is sent as its file name', 'approximated');
  }
  if (part.title !== undefined && part.name !== undefined) loss(losses, 'document-metadata', path, 'Chat Completions files have no title');
  if (part.context !== undefined) loss(losses, 'document-metadata', path, 'Chat Completions files have no context');
  if (part.citations !== undefined) loss(losses, 'document-metadata', path, 'Chat Completions cannot enable citations on a file');
  const out: JsonObject = { type: 'file', file };
  restoreNested(out, part.ext, 'file');
  return out;
}

/**
 * One non-tool part as a content part, or undefined (with a loss) when the role cannot hold it.
 * Text-like renderings (search results, data) become text parts.
 */
export function contentPart(part: Part, role: ContentRole, path: Path, losses: LossSink, citationsKept = false): JsonObject | undefined {
  reportPartExtras(part, path, losses);
  switch (part.type) {
    case 'text':
      // Responses carry url citations as annotations (response.ts reports the rest); requests have no slot.
      if (!citationsKept && part.citations && part.citations.length > 0) {
        loss(losses, 'citations', path, 'Chat Completions requests carry no citations on text');
      }
      return textPart(part);
    case 'search-result':
      loss(losses, 'search-result-as-text', path, 'a search result is sent as plain text (title, source, content)', 'approximated');
      return { type: 'text', text: renderSearchResult(part) };
    case 'data':
      loss(losses, 'data-as-text', path, 'structured data is sent as JSON text', 'approximated');
      return { type: 'text', text: JSON.stringify(part.data) };
    case 'refusal':
      if (role === 'assistant') {
        const out: JsonObject = { type: 'refusal', refusal: part.text };
        restoreNested(out, part.ext);
        return out;
      }
      loss(losses, 'refusal-as-text', path, 'only assistant messages hold refusals: sent as text', 'approximated');
      return { type: 'text', text: part.text };
    case 'provider-block':
      if (part.origin === OPENAI_CHAT) return part.block;
      loss(losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent in Chat Completions`);
      return undefined;
    default:
      break;
  }
  if (role !== 'user') {
    loss(losses, 'unsupported-part', path, `${role === 'assistant' ? 'assistant' : 'system, developer and tool'} messages cannot hold ${part.type} parts`);
    return undefined;
  }
  switch (part.type) {
    case 'image': {
      const src = part.source;
      let url: string;
      if (src.kind === 'base64') url = formatDataUrl(src.mediaType, src.data);
      else if (src.kind === 'url') url = src.url;
      else {
        loss(losses, 'unsupported-source', path, `Chat Completions images cannot reference a ${src.kind} source`);
        return undefined;
      }
      const image: JsonObject = { url };
      if (part.detail !== undefined) image['detail'] = part.detail;
      const out: JsonObject = { type: 'image_url', image_url: image };
      restoreNested(out, part.ext, 'image_url');
      return out;
    }
    case 'audio': {
      const src = part.source;
      const format = src.kind === 'base64' ? audioFormat(src.mediaType) : undefined;
      if (src.kind !== 'base64' || format === undefined) {
        loss(losses, 'unsupported-source', path, 'Chat Completions audio input must be inline base64 audio');
        return undefined;
      }
      if (format !== 'wav' && format !== 'mp3') loss(losses, 'audio-format', path, `input_audio takes wav or mp3; '${format}' is passed as is`, 'approximated');
      const out: JsonObject = { type: 'input_audio', input_audio: { data: src.data, format } };
      restoreNested(out, part.ext, 'input_audio');
      return out;
    }
    case 'document':
      return documentPart(part, path, losses);
    default:
      loss(losses, 'unsupported-part', path, `Chat Completions user content cannot hold ${part.type} parts`);
      return undefined;
  }
}

/** Whitespace-only text: dropped by encoders when it is not the message's only content. */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}
