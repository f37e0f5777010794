/**
 * A2A parts (v1.0 form) <-> canonical content parts (not tool calls or results: tool-data.ts).
 * text -> text; raw (base64) and url -> image / audio / video by media type, else document (its
 * filename as the document name); data -> data. Part metadata, a filename the canonical part has
 * no slot for and unknown keys are residue under `ext.a2a`.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import type { LossSink } from '../codec.js';
import { isBase64Text } from '../shared/base64.js';
import { keepResidue, reportForeignExt, residue, restoreResidue } from '../shared/residue.js';
import { A2A, PART_KEYS } from './a2a-api.js';
import { rawPath } from './versions.js';
import { childPath } from '../shared/child-path.js';

export function loss(losses: LossSink, code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
  losses.push({ code, path, message, action });
}

export function own(ext: { [origin: string]: JsonObject } | undefined): JsonObject | undefined {
  return ext?.[A2A];
}

type Media = 'image' | 'audio' | 'video' | 'document';

function mediaKind(mediaType: string | undefined): Media {
  const top = mediaType?.split('/')[0]?.toLowerCase();
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
}

/** The v1.0 part's residue: what no canonical field holds. */
function partResidue(p: JsonObject, keepFilename: boolean): JsonObject | undefined {
  // Set on the residue, a fresh object: `{ ...rest, key }` takes V8's slow path (~1 µs a part).
  let rest = residue(p, PART_KEYS);
  if (p['metadata'] !== undefined) (rest ??= {})['metadata'] = p['metadata'];
  if (keepFilename && p['filename'] !== undefined) (rest ??= {})['filename'] = p['filename'];
  return rest;
}

/**
 * One v1.0 part -> one canonical part. `raw` must be base64 text. The part is at `path`, or at
 * `[...path, index]` with an index, `[...path, key, index]` with a key too (made only for an error).
 */
export function decodePart(p: JsonObject, path: Path, index?: number, key?: string): Part {
  const mediaType = typeof p['mediaType'] === 'string' ? p['mediaType'] : undefined;
  if (typeof p['text'] === 'string') {
    const part: Part = { type: 'text', text: p['text'] };
    keepResidue(part, A2A, withMediaType(partResidue(p, true), mediaType));
    return part;
  }
  if (p['data'] !== undefined) {
    const part: Part = { type: 'data', data: p['data'] as JsonValue };
    keepResidue(part, A2A, withMediaType(partResidue(p, true), mediaType));
    return part;
  }
  let source: Source;
  if (typeof p['raw'] === 'string') {
    if (!isBase64Text(p['raw'])) {
      const at = index === undefined ? path : key === undefined ? childPath(path, index) : childPath(path, key, index);
      throw new ValidationError([{ code: 'invalid_base64', path: [...at, ...rawPath(p)], message: 'file bytes are not valid base64', expected: 'base64 text' }]);
    }
    // Base64 sources need a media type and it is never guessed: a file without one stays untyped.
    source = { kind: 'base64', mediaType: mediaType ?? 'application/octet-stream', data: p['raw'] };
  } else {
    const url: Source = { kind: 'url', url: p['url'] as string };
    if (mediaType !== undefined) url.mediaType = mediaType;
    source = url;
  }
  const kind = mediaKind(mediaType);
  let rest = partResidue(p, kind !== 'document');
  if (mediaType === undefined && source.kind === 'base64') (rest ??= {})['$noMediaType'] = true;
  if (kind === 'document') {
    const doc: Part = { type: 'document', source };
    if (typeof p['filename'] === 'string') doc.name = p['filename'];
    keepResidue(doc, A2A, rest);
    return doc;
  }
  const part: Part = { type: kind, source };
  keepResidue(part, A2A, rest);
  return part;
}

/** A text or data part's media type has no canonical slot: residue. */
function withMediaType(rest: JsonObject | undefined, mediaType: string | undefined): JsonObject | undefined {
  if (mediaType === undefined) return rest;
  const out = rest ?? {};
  out['mediaType'] = mediaType;
  return out;
}

const encoder = new TextEncoder();

function bytesToBase64(text: string): string {
  return Buffer.from(encoder.encode(text)).toString('base64');
}

function sourcePart(src: Source, path: Path, losses: LossSink, hints: JsonObject | undefined): JsonObject | undefined {
  switch (src.kind) {
    case 'base64':
      return hints?.['$noMediaType'] === true ? { raw: src.data } : { raw: src.data, mediaType: src.mediaType };
    case 'url':
      return { url: src.url, ...(src.mediaType !== undefined ? { mediaType: src.mediaType } : {}) };
    case 's3':
      loss(losses, 'unsupported-source', path, 'A2A parts take bytes or a URL: the S3 location is sent as its s3:// URL', 'approximated');
      return { url: src.uri, ...(src.mediaType !== undefined ? { mediaType: src.mediaType } : {}) };
    case 'text':
      loss(losses, 'document-as-file', path, 'the plain-text document is sent as a file of its UTF-8 bytes', 'approximated');
      return { raw: bytesToBase64(src.text), mediaType: src.mediaType ?? 'text/plain' };
    case 'file-id':
      loss(losses, 'unsupported-source', path, `a provider file id ('${src.fileId}') has no meaning to an A2A agent`);
      return undefined;
    case 'content':
      loss(losses, 'unsupported-source', path, 'a document made of content parts has no A2A form');
      return undefined;
  }
}

function searchText(part: Part & { type: 'search-result' }): string {
  const head = part.title ? `${part.title} (${part.source})` : part.source;
  const body = part.content.map((t) => t.text).join('\n\n');
  return body === '' ? head : `${head}\n${body}`;
}

/**
 * One canonical content part -> one v1.0 part, or undefined (with a loss) when A2A cannot hold
 * it. Tool calls and results are not content parts (the caller writes them as data parts).
 */
export function encodePart(part: Part, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.cache) loss(losses, 'cache-control', path, 'A2A has no prompt-cache breakpoints');
  reportForeignExt(part.ext, A2A, path, losses);
  const hints = own(part.ext);
  let out: JsonObject | undefined;
  switch (part.type) {
    case 'text':
      if (part.citations && part.citations.length > 0) loss(losses, 'citations', path, 'A2A text parts carry no citations');
      out = { text: part.text };
      break;
    case 'refusal':
      loss(losses, 'refusal-as-text', path, 'A2A has no refusal part: sent as text', 'approximated');
      out = { text: part.text };
      break;
    case 'data':
      out = { data: part.data };
      break;
    case 'search-result':
      loss(losses, 'search-result-as-text', path, 'a search result is sent as plain text (title, source, content)', 'approximated');
      out = { text: searchText(part) };
      break;
    case 'image':
    case 'audio':
    case 'video':
    case 'document': {
      out = sourcePart(part.source, path, losses, hints);
      if (out === undefined) return undefined;
      if (part.type === 'image' && part.detail !== undefined) loss(losses, 'image-detail', path, 'A2A has no image detail setting');
      if (part.type === 'document') {
        if (part.name !== undefined) out['filename'] = part.name;
        for (const k of ['title', 'context'] as const) if (part[k] !== undefined) loss(losses, `document-${k}`, path, `A2A file parts have no document ${k}`);
        if (part.citations !== undefined) loss(losses, 'document-citations', path, 'A2A file parts have no citation setting');
      }
      break;
    }
    case 'reasoning':
      loss(losses, 'foreign-reasoning', path, `${part.origin} reasoning has no place in A2A`);
      return undefined;
    case 'provider-block':
      loss(losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent in A2A`);
      return undefined;
    case 'tool-call':
    case 'tool-result':
      return undefined;
  }
  restoreResidue(out, part.ext, A2A);
  return out;
}

/** The text of a v1.0 part, when it is a text part. */
export function partText(p: JsonValue | undefined): string | undefined {
  return isJsonObject(p) && typeof p['text'] === 'string' ? p['text'] : undefined;
}
