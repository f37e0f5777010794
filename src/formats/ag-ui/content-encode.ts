/**
 * Canonical parts -> AG-UI content parts (user and tool message content, TOOL_CALL_RESULT
 * content). AG-UI holds text, image, audio, video and document parts whose bytes are inline
 * (`data`), at a URL or a provider file handle (`file`). What it cannot hold is written as text
 * where a reader loses little (search results, data, refusals) or reported and dropped.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { AudioPart, DocumentPart, ImagePart, Part, VideoPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import type { LossSink } from '../codec.js';
import { renderSearchResult } from '../shared/search-result-text.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { AG_UI } from './ag-ui-api.js';
import { childPath } from '../shared/child-path.js';

export function own(ext: Part['ext']): JsonObject | undefined {
  return ext?.[AG_UI];
}

export function loss(losses: LossSink, code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
  losses.push({ code, path, message, action });
}

function hint(ext: Part['ext'], key: string): string | undefined {
  const v = own(ext)?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** A text part; `part` (when the text came from one) gives back its id and residue. */
export function textPart(text: string, part?: Part): JsonObject {
  const out: JsonObject = { type: 'text' };
  const id = part && hint(part.ext, '$id');
  if (id !== undefined) out['id'] = id;
  out['text'] = text;
  if (part) restoreResidue(out, part.ext, AG_UI);
  return out;
}

type MediaPart = ImagePart | AudioPart | VideoPart | DocumentPart;

function encodeSource(src: Source, path: Path, losses: LossSink): JsonObject | undefined {
  let out: JsonObject;
  switch (src.kind) {
    case 'base64':
      out = { type: 'data', value: src.data, mimeType: src.mediaType };
      break;
    case 'url':
      out = { type: 'url', value: src.url };
      if (src.mediaType !== undefined) out['mimeType'] = src.mediaType;
      break;
    case 'file-id':
      out = { type: 'file', value: src.fileId };
      if (src.mediaType !== undefined) out['mimeType'] = src.mediaType;
      break;
    case 's3':
      // AG-UI URLs are not constrained to a scheme; whoever fetches needs S3 access, as before.
      if (src.bucketOwner !== undefined) loss(losses, 'unsupported-field', childPath(path, 'source', 'bucketOwner'), 'AG-UI URL sources carry no bucket owner');
      loss(losses, 's3-as-url', childPath(path, 'source'), 'the S3 location is sent as a url source', 'approximated');
      out = { type: 'url', value: src.uri };
      if (src.mediaType !== undefined) out['mimeType'] = src.mediaType;
      break;
    default:
      return undefined;
  }
  reportForeignExt(src.ext, AG_UI, childPath(path, 'source'), losses);
  restoreResidue(out, src.ext, AG_UI);
  return out;
}

/** The legacy `binary` shape, for a part that came as one (the `$binary` hint). */
function binaryPart(part: MediaPart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = part.source;
  const mime = src.kind === 'base64' ? src.mediaType : src.kind === 'url' || src.kind === 'file-id' ? src.mediaType : undefined;
  if (mime === undefined) return undefined;
  const out: JsonObject = { type: 'binary', mimeType: mime };
  const id = src.kind === 'file-id' ? src.fileId : hint(part.ext, '$binaryId');
  if (id !== undefined) out['id'] = id;
  const url = src.kind === 'url' ? src.url : hint(part.ext, '$binaryUrl');
  if (url !== undefined) out['url'] = url;
  if (src.kind === 'base64') out['data'] = src.data;
  if (part.type === 'document' && part.name !== undefined) out['filename'] = part.name;
  reportForeignExt(src.ext, AG_UI, childPath(path, 'source'), losses);
  restoreResidue(out, part.ext, AG_UI);
  return out;
}

function mediaPart(part: MediaPart, path: Path, losses: LossSink): JsonObject | undefined {
  if (own(part.ext)?.['$binary'] === true) {
    const legacy = binaryPart(part, path, losses);
    if (legacy) return legacy;
  }
  const source = encodeSource(part.source, path, losses);
  if (!source) {
    loss(losses, 'unsupported-source', childPath(path, 'source'), `AG-UI ${part.type} parts cannot reference a ${part.source.kind} source`);
    return undefined;
  }
  const out: JsonObject = { type: part.type };
  const id = hint(part.ext, '$id');
  if (id !== undefined) out['id'] = id;
  out['source'] = source;
  restoreResidue(out, part.ext, AG_UI);
  if (part.type === 'document') {
    // A file name is metadata.filename (where the 1.0 client puts a legacy part's filename).
    if (part.name !== undefined) {
      const meta = out['metadata'];
      out['metadata'] = { ...(meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : {}), filename: part.name };
    }
    for (const field of ['title', 'context', 'citations'] as const) {
      if (part[field] !== undefined) loss(losses, 'document-metadata', childPath(path, field), `AG-UI documents have no ${field}`);
    }
  }
  if (part.type === 'image' && part.detail !== undefined) loss(losses, 'image-detail', childPath(path, 'detail'), 'AG-UI images have no detail level');
  return out;
}

function documentText(part: DocumentPart, path: Path, losses: LossSink): JsonObject {
  const src = part.source;
  const body = src.kind === 'text' ? src.text : src.kind === 'content' ? src.parts.map((p) => (p.type === 'text' ? p.text : '')).filter((t) => t !== '').join('\n\n') : '';
  loss(losses, 'document-as-text', path, 'AG-UI documents are files: the plain-text document is sent as a text part', 'approximated');
  return textPart(part.title ? `${part.title}\n\n${body}` : body);
}

/** One part as an AG-UI content part, or undefined (with a loss) when AG-UI cannot hold it. */
export function encodePart(part: Part, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'AG-UI has no cache breakpoints');
  reportForeignExt(part.ext, AG_UI, path, losses);
  switch (part.type) {
    case 'text':
      if (part.citations && part.citations.length > 0) loss(losses, 'citations', childPath(path, 'citations'), 'AG-UI text carries no citations');
      return textPart(part.text, part);
    case 'image':
    case 'audio':
    case 'video':
      return mediaPart(part, path, losses);
    case 'document':
      return part.source.kind === 'text' || part.source.kind === 'content' ? documentText(part, path, losses) : mediaPart(part, path, losses);
    case 'search-result':
      loss(losses, 'search-result-as-text', path, 'a search result is sent as plain text (title, source, content)', 'approximated');
      return textPart(renderSearchResult(part));
    case 'data':
      loss(losses, 'data-as-text', path, 'structured data is sent as JSON text', 'approximated');
      return textPart(JSON.stringify(part.data));
    case 'refusal':
      loss(losses, 'refusal-as-text', path, 'AG-UI has no refusal part: sent as text', 'approximated');
      return textPart(part.text);
    case 'reasoning':
      loss(losses, 'unsupported-part', path, 'AG-UI reasoning is a message of its own, not content of this message');
      return undefined;
    case 'provider-block':
      loss(losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent in AG-UI content`);
      return undefined;
    default:
      loss(losses, 'unsupported-part', path, `AG-UI content cannot hold ${part.type} parts here`);
      return undefined;
  }
}

/** Parts -> AG-UI content: a string when the source gave one (a lone text part), else parts. */
export function encodeContent(parts: readonly Part[], stringContent: boolean, path: Path, losses: LossSink): string | JsonObject[] {
  const only = parts[0];
  if (stringContent && parts.length <= 1 && (only === undefined || (only.type === 'text' && own(only.ext) === undefined && !(only.citations?.length) && !only.cache))) {
    if (only) reportForeignExt(only.ext, AG_UI, childPath(path, 'parts', 0), losses);
    return only?.type === 'text' ? only.text : '';
  }
  const out: JsonObject[] = [];
  parts.forEach((part, j) => {
    const p = encodePart(part, childPath(path, 'parts', j), losses);
    if (p) out.push(p);
  });
  return out;
}
