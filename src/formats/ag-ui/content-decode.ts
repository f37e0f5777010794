/**
 * AG-UI content parts -> canonical parts. Shapes were checked by validate.ts. A document's
 * `metadata.filename` is its file name (the 1.0 client's own upgrade of a legacy `binary` part puts
 * it there). Legacy `binary` parts decode like the 1.0 client upgrades them (mime prefix picks the
 * kind; data, else url, else id as a provider file) with a `$binary` hint so they are written back
 * as they came. Part ids are hints (`$id`): nothing reads them yet (AG-UI's own words).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { keepResidue, residue } from '../shared/residue.js';
import { AG_UI, MEDIA_PART_KEYS, SOURCE_KEYS, TEXT_PART_KEYS } from './ag-ui-api.js';

/** Adds a key to a residue object, creating it when needed. */
export function withHint(rest: JsonObject | undefined, key: string, value: JsonValue): JsonObject {
  const out = rest ?? {};
  out[key] = value;
  return out;
}

type MediaType = 'image' | 'audio' | 'video' | 'document';

function decodeSource(src: JsonObject): Source {
  const value = src['value'] as string;
  const mime = src['mimeType'];
  let out: Source;
  if (src['type'] === 'data') out = { kind: 'base64', mediaType: mime as string, data: value };
  else if (src['type'] === 'url') out = typeof mime === 'string' ? { kind: 'url', url: value, mediaType: mime } : { kind: 'url', url: value };
  else out = typeof mime === 'string' ? { kind: 'file-id', fileId: value, mediaType: mime } : { kind: 'file-id', fileId: value };
  // `provider` (who issued a file handle) and anything newer stay with the source.
  keepResidue(out, AG_UI, residue(src, SOURCE_KEYS));
  return out;
}

function mediaPart(type: MediaType, source: Source): Part {
  return { type, source } as Part;
}

function decodeMedia(p: JsonObject): Part {
  const type = p['type'] as MediaType;
  const part = mediaPart(type, decodeSource(p['source'] as JsonObject));
  let rest = residue(p, MEDIA_PART_KEYS);
  if (typeof p['id'] === 'string') rest = withHint(rest, '$id', p['id']);
  const meta = rest?.['metadata'];
  if (part.type === 'document' && isJsonObject(meta) && typeof meta['filename'] === 'string') {
    part.name = meta['filename'];
    const { filename: _f, ...others } = meta;
    if (Object.keys(others).length > 0) rest = withHint(rest, 'metadata', others);
    else delete (rest as JsonObject)['metadata'];
  }
  keepResidue(part, AG_UI, rest && Object.keys(rest).length > 0 ? rest : undefined);
  return part;
}

/** The kind a legacy binary part becomes, from its mime type (the 1.0 client's rule). */
export function binaryKind(mimeType: string): MediaType {
  const m = mimeType.toLowerCase();
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('audio/')) return 'audio';
  if (m.startsWith('video/')) return 'video';
  return 'document';
}

function decodeBinary(p: JsonObject): Part {
  const mime = p['mimeType'] as string;
  const type = binaryKind(mime);
  const data = p['data'];
  const url = p['url'];
  const id = p['id'];
  const source: Source =
    typeof data === 'string' ? { kind: 'base64', mediaType: mime, data } : typeof url === 'string' ? { kind: 'url', url, mediaType: mime } : { kind: 'file-id', fileId: id as string, mediaType: mime };
  const part = mediaPart(type, source);
  let rest = withHint(residue(p, new Set(['type', 'mimeType', 'data', 'url', 'id', 'filename'])), '$binary', true);
  // Fields the source did not use come back as they were (an id beside the data, a url beside it).
  if (typeof id === 'string' && source.kind !== 'file-id') rest = withHint(rest, '$binaryId', id);
  if (typeof url === 'string' && source.kind === 'base64') rest = withHint(rest, '$binaryUrl', url);
  const filename = p['filename'];
  if (typeof filename === 'string') {
    if (part.type === 'document') part.name = filename;
    else rest = withHint(rest, 'filename', filename);
  }
  keepResidue(part, AG_UI, rest);
  return part;
}

export function decodePart(p: JsonObject): Part {
  const type = p['type'];
  if (type === 'text') {
    const part: Part = { type: 'text', text: p['text'] as string };
    let rest = residue(p, TEXT_PART_KEYS);
    if (typeof p['id'] === 'string') rest = withHint(rest, '$id', p['id']);
    keepResidue(part, AG_UI, rest);
    return part;
  }
  return type === 'binary' ? decodeBinary(p) : decodeMedia(p);
}

/** `content` of a user or tool message: a string is one text part (and `string: true`). */
export function decodeContent(content: JsonValue): { parts: Part[]; string: boolean } {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], string: true };
  return { parts: (content as JsonObject[]).map(decodePart), string: false };
}
