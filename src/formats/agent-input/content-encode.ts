/**
 * Canonical parts -> agent input content blocks. Agent input holds text, image, video and
 * document blocks only; everything else is written as text where a reader loses little
 * (search results, data, refusals) or reported and dropped.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { DocumentPart, ImagePart, Part, VideoPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { childPath } from '../shared/child-path.js';
import { renderSearchResult } from '../shared/search-result-text.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { AGENT_INPUT, DEFAULT_MEDIA_KEY, type MediaKind } from './agent-input-api.js';
import { formatOf, mediaTypeOf } from './media-formats.js';

export function own(ext: Part['ext']): JsonObject | undefined {
  return ext?.[AGENT_INPUT];
}

export function loss(losses: LossSink, code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
  losses.push({ code, path, message, action });
}

function hint(ext: Part['ext'], key: string): string | undefined {
  const v = own(ext)?.[key];
  return typeof v === 'string' ? v : undefined;
}

function text(value: string, part?: Part): JsonObject {
  const out: JsonObject = { type: (part && hint(part.ext, '$type')) ?? 'text', text: value };
  if (part) restoreResidue(out, part.ext, AGENT_INPUT);
  return out;
}

type MediaPart = ImagePart | VideoPart | DocumentPart;

/** Where the bytes are, as agent input's `{ type, data }`, plus the media type if the source says. */
function wireSource(part: MediaPart, path: Path, losses: LossSink): { type: 'base64' | 'url'; data: string; mediaType: string | undefined } | undefined {
  const src = part.source;
  if (src.kind === 'base64') return { type: 'base64', data: src.data, mediaType: src.mediaType };
  if (src.kind === 'url') return { type: 'url', data: src.url, mediaType: src.mediaType };
  if (src.kind === 's3') {
    if (src.bucketOwner !== undefined) loss(losses, 'unsupported-field', childPath(path, 'source', 'bucketOwner'), 'agent input S3 URLs carry no bucket owner');
    return { type: 'url', data: src.uri, mediaType: src.mediaType };
  }
  loss(losses, 'unsupported-source', childPath(path, 'source'), `agent input ${part.type} blocks cannot reference a ${src.kind} source`);
  return undefined;
}

function mediaBlock(kind: MediaKind, part: MediaPart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = wireSource(part, path, losses);
  if (!src) return undefined;
  if (src.mediaType === undefined) {
    // `format` is required and ml-commons forwards it to the model: never guessed from a URL.
    loss(losses, 'unknown-media-type', childPath(path, 'source'), `agent input ${kind} blocks need a format, and this source has no media type`);
    return undefined;
  }
  const found = formatOf(kind, src.mediaType);
  if (!found) {
    loss(losses, 'unsupported-media-type', childPath(path, 'source', 'mediaType'), `agent input has no ${kind} format for '${src.mediaType}'`);
    return undefined;
  }
  if (!found.exact) loss(losses, 'media-type', childPath(path, 'source', 'mediaType'), `'${src.mediaType}' is sent as format '${found.format}'`, 'approximated');
  // Hints from this format's own decode: the exact spellings of the source.
  const spelled = hint(part.ext, '$format');
  const format = spelled !== undefined && mediaTypeOf(kind, spelled) === mediaTypeOf(kind, found.format) ? spelled : found.format;
  const sourceType = hint(part.ext, '$sourceType');
  const key = hint(part.ext, '$key') ?? (DEFAULT_MEDIA_KEY === 'source' ? 'source' : kind);
  const inner = own(part.ext)?.[key];
  const media: JsonObject = { ...(inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {}) };
  media['type'] = sourceType !== undefined && sourceType.toLowerCase() === src.type ? sourceType : src.type;
  media['format'] = format;
  media['data'] = src.data;
  const out: JsonObject = { type: hint(part.ext, '$type') ?? kind, [key]: media };
  restoreResidue(out, part.ext, AGENT_INPUT);
  return out;
}

function documentBlock(part: DocumentPart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = part.source;
  if (src.kind === 'text' || src.kind === 'content') {
    const body = src.kind === 'text' ? src.text : src.parts.map((p) => (p.type === 'text' ? p.text : '')).filter((t) => t !== '').join('\n\n');
    loss(losses, 'document-as-text', path, 'agent input documents are files: the plain-text document is sent as a text block', 'approximated');
    return text(part.title ? `${part.title}\n\n${body}` : body);
  }
  for (const field of ['name', 'title', 'context', 'citations'] as const) {
    if (part[field] !== undefined) loss(losses, 'document-metadata', childPath(path, field), `agent input documents have no ${field}`);
  }
  return mediaBlock('document', part, path, losses);
}

/**
 * One part (`parts[j]` of the message or result at `base`) as a content block, or undefined (with
 * a loss) when agent input cannot hold it. The part's path is made only when something is reported.
 */
export function encodeBlock(part: Part, base: Path, j: number, losses: LossSink): JsonObject | undefined {
  // Plain text, the usual part: nothing to report, no hints or residue to write.
  if (part.type === 'text' && part.ext === undefined && !part.cache && (part.citations === undefined || part.citations.length === 0)) {
    return { type: 'text', text: part.text };
  }
  const path = childPath(base, 'parts', j);
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'agent input has no cache breakpoints');
  reportForeignExt(part.ext, AGENT_INPUT, path, losses);
  switch (part.type) {
    case 'text':
      if (part.citations && part.citations.length > 0) loss(losses, 'citations', childPath(path, 'citations'), 'agent input text carries no citations');
      return text(part.text, part);
    case 'image':
      if (part.detail !== undefined) loss(losses, 'image-detail', childPath(path, 'detail'), 'agent input images have no detail level');
      return mediaBlock('image', part, path, losses);
    case 'video':
      return mediaBlock('video', part, path, losses);
    case 'document':
      return documentBlock(part, path, losses);
    case 'search-result':
      loss(losses, 'search-result-as-text', path, 'a search result is sent as plain text (title, source, content)', 'approximated');
      return text(renderSearchResult(part));
    case 'data':
      loss(losses, 'data-as-text', path, 'structured data is sent as JSON text', 'approximated');
      return text(JSON.stringify(part.data));
    case 'refusal':
      loss(losses, 'refusal-as-text', path, 'agent input has no refusal block: sent as text', 'approximated');
      return text(part.text);
    case 'reasoning':
      loss(losses, 'foreign-reasoning', path, `${part.origin} reasoning has no place in agent input`);
      return undefined;
    case 'provider-block':
      loss(losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent in agent input`);
      return undefined;
    default:
      loss(losses, 'unsupported-part', path, `agent input content cannot hold ${part.type} parts here`);
      return undefined;
  }
}

/**
 * The parts at `base` (those `include` accepts, or all) -> blocks, dropping text that is empty or
 * whitespace-only (ml-commons rejects it: "Text content block cannot have null or empty text").
 */
export function encodeBlocks(parts: readonly Part[], base: Path, losses: LossSink, include?: (part: Part) => boolean): JsonObject[] {
  const out: JsonObject[] = [];
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    if (include !== undefined && !include(part)) continue;
    if (part.type === 'text' && part.text.trim() === '') {
      loss(losses, 'empty-text', childPath(base, 'parts', j), 'empty or whitespace-only text part dropped');
      continue;
    }
    const block = encodeBlock(part, base, j, losses);
    if (block) out.push(block);
  }
  return out;
}
