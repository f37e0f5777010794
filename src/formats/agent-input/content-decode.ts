/**
 * Agent input content blocks -> canonical parts. Shapes were checked by validate.ts. Spellings the
 * canonical model normalises (upper-case types, `source` vs the type-named key, `mpg` for
 * video/mpeg) are kept as `$` hints so the encoder writes the same bytes back.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { keepResidue, residue } from '../shared/residue.js';
import { AGENT_INPUT, DEFAULT_MEDIA_KEY, SOURCE_KEYS, TEXT_BLOCK_KEYS, type MediaKind } from './agent-input-api.js';
import { formatOf, mediaTypeOf } from './media-formats.js';
import { mediaKey } from './validate.js';

/** Adds a `$` hint to a residue object, creating it when needed. */
export function withHint(rest: JsonObject | undefined, key: string, value: JsonValue): JsonObject {
  const out = rest ?? {};
  out[key] = value;
  return out;
}

function decodeSource(media: JsonObject, kind: MediaKind): { source: Source; hints: JsonObject } {
  const format = media['format'] as string;
  const mediaType = mediaTypeOf(kind, format) as string;
  const data = media['data'] as string;
  const type = media['type'] as string;
  const hints: JsonObject = {};
  if (type !== type.toLowerCase()) hints['$sourceType'] = type;
  if (formatOf(kind, mediaType)?.format !== format) hints['$format'] = format;
  if (type.toLowerCase() === 'base64') return { source: { kind: 'base64', mediaType, data }, hints };
  // ml-commons' Bedrock provider reads `s3://` URLs as S3 locations; keep that meaning canonical.
  if (data.startsWith('s3://')) return { source: { kind: 's3', uri: data, mediaType }, hints };
  return { source: { kind: 'url', url: data, mediaType }, hints };
}

/** One validated block -> one part. */
export function decodeBlock(block: JsonObject): Part {
  const type = block['type'] as string;
  const kind = type.toLowerCase();
  if (kind === 'text') {
    const part: Part = { type: 'text', text: block['text'] as string };
    let rest = residue(block, TEXT_BLOCK_KEYS);
    if (type !== kind) rest = withHint(rest, '$type', type);
    keepResidue(part, AGENT_INPUT, rest);
    return part;
  }
  const media = kind as MediaKind;
  const key = mediaKey(block, media) as string;
  const obj = block[key] as JsonObject;
  const { source, hints } = decodeSource(obj, media);
  const part: Part = media === 'image' ? { type: 'image', source } : media === 'video' ? { type: 'video', source } : { type: 'document', source };
  let rest = residue(block, new Set(['type', key]));
  if (type !== kind) rest = withHint(rest, '$type', type);
  if (key !== (DEFAULT_MEDIA_KEY === 'source' ? 'source' : media)) rest = withHint(rest, '$key', key);
  for (const h in hints) rest = withHint(rest, h, hints[h] as JsonValue);
  // The media object's own extra fields nest under its key, as the encoder merges them back.
  const inner = residue(obj, SOURCE_KEYS);
  if (inner) rest = withHint(rest, key, inner);
  keepResidue(part, AGENT_INPUT, rest);
  return part;
}

export function decodeBlocks(list: readonly JsonValue[]): Part[] {
  return list.map((b) => decodeBlock(b as JsonObject));
}
