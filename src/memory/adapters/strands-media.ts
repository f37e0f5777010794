/**
 * Strands media blocks (image, video, audio, document) <-> canonical media parts. Strands names a
 * file's type with a short `format` (its own list in `@strands-agents/sdk` mime.ts / media.ts,
 * which adds `jpg`, `3gp`, `json` and `xml` to Converse's); canonical parts carry a media type. A
 * format that is not the usual one for its media type (`jpg` for image/jpeg) is kept as the hint
 * `ext.strands.$format`, so the way back is exact. Sources in the JSON form: `{bytes}` (base64
 * text), `{url}` (images), `{location: {type: 's3', uri, bucketOwner?}}`, and for documents
 * `{text}` or `{content: [{text}]}`.
 */
import type { JsonObject } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { DocumentPart, ImagePart, Part } from '../../model/part.js';
import type { Source } from '../../model/source.js';

export const STRANDS = 'strands';

export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** [format, media type]; the first format listed for a media type is the one written for it. */
const FORMATS: Readonly<Record<MediaKind, readonly (readonly [string, string])[]>> = {
  image: [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['jpg', 'image/jpeg'], ['gif', 'image/gif'], ['webp', 'image/webp']],
  video: [
    ['mkv', 'video/x-matroska'], ['mov', 'video/quicktime'], ['mp4', 'video/mp4'], ['webm', 'video/webm'], ['flv', 'video/x-flv'],
    ['mpeg', 'video/mpeg'], ['mpg', 'video/mpeg'], ['wmv', 'video/x-ms-wmv'], ['3gp', 'video/3gpp'],
  ],
  audio: [
    ['mp3', 'audio/mpeg'], ['mpeg', 'audio/mpeg'], ['mpga', 'audio/mpeg'], ['opus', 'audio/opus'], ['wav', 'audio/wav'], ['aac', 'audio/aac'],
    ['flac', 'audio/flac'], ['mp4', 'audio/mp4'], ['ogg', 'audio/ogg'], ['mka', 'audio/x-matroska'], ['mkv', 'audio/x-matroska'],
    ['x-aac', 'audio/x-aac'], ['m4a', 'audio/x-m4a'], ['pcm', 'audio/pcm'], ['webm', 'audio/webm'],
  ],
  document: [
    ['pdf', 'application/pdf'], ['csv', 'text/csv'], ['doc', 'application/msword'],
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'], ['xls', 'application/vnd.ms-excel'],
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], ['html', 'text/html'], ['txt', 'text/plain'],
    ['md', 'text/markdown'], ['json', 'application/json'], ['xml', 'application/xml'],
  ],
};

/** Other spellings of the same media types. */
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'audio/mp3': 'audio/mpeg', 'audio/x-wav': 'audio/wav', 'text/x-markdown': 'text/markdown' };

export function mediaTypeOf(kind: MediaKind, format: string): string | undefined {
  return FORMATS[kind].find(([f]) => f === format)?.[1];
}

function formatOf(kind: MediaKind, mediaType: string): string | undefined {
  const essence = (mediaType.split(';')[0] ?? '').trim().toLowerCase();
  const media = ALIASES[essence] ?? essence;
  return FORMATS[kind].find(([, m]) => m === media)?.[0];
}

export function formatsOf(kind: MediaKind): string[] {
  return FORMATS[kind].map(([f]) => f);
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A validated Strands media block's body -> its canonical part. */
export function decodeMedia(kind: MediaKind, body: JsonObject): Part {
  const format = body['format'] as string;
  const mediaType = mediaTypeOf(kind, format) as string;
  const src = body['source'] as JsonObject;
  let source: Source;
  if (typeof src['bytes'] === 'string') source = { kind: 'base64', mediaType, data: src['bytes'] };
  else if (typeof src['url'] === 'string') source = { kind: 'url', url: src['url'], mediaType };
  else if (isObject(src['location'])) {
    const loc = src['location'];
    source = { kind: 's3', uri: loc['uri'] as string, mediaType };
    if (typeof loc['bucketOwner'] === 'string') source.bucketOwner = loc['bucketOwner'];
  } else if (typeof src['text'] === 'string') source = { kind: 'text', text: src['text'], mediaType };
  else source = { kind: 'content', parts: (src['content'] as JsonObject[]).map((c) => ({ type: 'text', text: c['text'] as string })) };
  const part = { type: kind, source } as Part;
  if (kind === 'document') {
    const doc = part as DocumentPart;
    doc.name = body['name'] as string;
    const citations = body['citations'];
    if (isObject(citations) && typeof citations['enabled'] === 'boolean') doc.citations = citations['enabled'];
    if (typeof body['context'] === 'string') doc.context = body['context'];
  }
  if (formatOf(kind, mediaType) !== format || source.kind === 'content') part.ext = { [STRANDS]: { $format: format } };
  return part;
}

/** A canonical media part -> a Strands media block, or undefined (with a loss) when Strands has no form for it. */
export function encodeMedia(part: Part & { source: Source }, path: Path, losses: Loss[]): JsonObject | undefined {
  const kind = part.type as MediaKind;
  const drop = (message: string): undefined => void losses.push({ code: 'unsupported-media', path, message, action: 'dropped' });
  const src = part.source;
  const hinted = part.ext?.[STRANDS]?.['$format'];
  const mediaType = src.kind === 'content' ? undefined : src.mediaType ?? (src.kind === 'text' ? 'text/plain' : undefined);
  // The hinted format, while it still names the part's media type.
  const usual = mediaType === undefined ? undefined : formatOf(kind, mediaType);
  const hintFits = typeof hinted === 'string' && mediaTypeOf(kind, hinted) !== undefined && (usual === undefined ? mediaType === undefined : mediaTypeOf(kind, hinted) === mediaTypeOf(kind, usual));
  const format = hintFits ? hinted : mediaType === undefined ? (kind === 'document' ? 'txt' : undefined) : usual;
  if (format === undefined) return drop(`Strands has no ${kind} format for ${mediaType ?? 'a source without a media type'}`);
  let source: JsonObject;
  switch (src.kind) {
    case 'base64':
      source = { bytes: src.data };
      break;
    case 'url':
      if (kind !== 'image') return drop(`a Strands ${kind} cannot be given by URL`);
      source = { url: src.url };
      break;
    case 's3':
      source = { location: src.bucketOwner === undefined ? { type: 's3', uri: src.uri } : { type: 's3', uri: src.uri, bucketOwner: src.bucketOwner } };
      break;
    case 'text':
      if (kind !== 'document') return drop(`a Strands ${kind} cannot be inline text`);
      source = { text: src.text };
      break;
    case 'content': {
      if (kind !== 'document' || src.parts.some((p) => p.type !== 'text')) return drop(`a Strands ${kind} holds text content blocks only`);
      source = { content: src.parts.map((p) => ({ text: (p as { text: string }).text })) };
      break;
    }
    case 'file-id':
      return drop(`a provider file id (${src.fileId}) has no Strands source`);
  }
  const body: JsonObject = { format, source };
  if (kind === 'document') {
    const doc = part as DocumentPart;
    if (doc.name === undefined) losses.push({ code: 'document-name', path, message: "Strands documents need a name: 'document' was used", action: 'approximated' });
    const named: JsonObject = { name: doc.name ?? 'document', ...body };
    if (doc.citations !== undefined) named['citations'] = { enabled: doc.citations };
    if (doc.context !== undefined) named['context'] = doc.context;
    return { document: named };
  }
  if (kind === 'image' && (part as ImagePart).detail !== undefined) losses.push({ code: 'unsupported-field', path: [...path, 'detail'], message: 'Strands images have no detail setting', action: 'dropped' });
  return { [kind]: body };
}

