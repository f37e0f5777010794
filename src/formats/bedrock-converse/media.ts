/**
 * Bedrock `format` values <-> media types. Bedrock names a file's type with a short format
 * (`png`, `pdf`, `mp4` ...) from a closed enum (Smithy ImageFormat, DocumentFormat, VideoFormat,
 * AudioFormat); canonical sources carry a media type. Both directions are table look-ups: a media
 * type with no Bedrock format is reported by the encoder, never guessed from a file name or bytes.
 * Where two formats share a media type (video mpeg/mpg, audio mp3/mpeg/mpga ...) the first one listed
 * is the one written for a foreign media type; the decoder keeps the exact format in a `$format` hint.
 */
export type MediaKind = 'image' | 'document' | 'video' | 'audio';

const FORMATS: Readonly<Record<MediaKind, readonly (readonly [format: string, mediaType: string])[]>> = {
  image: [
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
  ],
  document: [
    ['pdf', 'application/pdf'],
    ['csv', 'text/csv'],
    ['doc', 'application/msword'],
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['xls', 'application/vnd.ms-excel'],
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['html', 'text/html'],
    ['txt', 'text/plain'],
    ['md', 'text/markdown'],
  ],
  video: [
    ['mp4', 'video/mp4'],
    ['mov', 'video/quicktime'],
    ['mkv', 'video/x-matroska'],
    ['webm', 'video/webm'],
    ['flv', 'video/x-flv'],
    ['mpeg', 'video/mpeg'],
    ['mpg', 'video/mpeg'],
    ['wmv', 'video/x-ms-wmv'],
    ['three_gp', 'video/3gpp'],
  ],
  audio: [
    ['mp3', 'audio/mpeg'],
    ['mpeg', 'audio/mpeg'],
    ['mpga', 'audio/mpeg'],
    ['wav', 'audio/wav'],
    ['flac', 'audio/flac'],
    ['aac', 'audio/aac'],
    ['x-aac', 'audio/x-aac'],
    ['m4a', 'audio/x-m4a'],
    ['mp4', 'audio/mp4'],
    ['ogg', 'audio/ogg'],
    ['opus', 'audio/opus'],
    ['mka', 'audio/x-matroska'],
    ['mkv', 'audio/x-matroska'],
    ['webm', 'audio/webm'],
    ['pcm', 'audio/pcm'],
  ],
};

/** Common spellings of the same media types (aliases, not guesses). */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'text/md': 'text/markdown',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-flac': 'audio/flac',
  'audio/m4a': 'audio/x-m4a',
  'audio/l16': 'audio/pcm',
  'video/mpg': 'video/mpeg',
  'video/3gp': 'video/3gpp',
};

const TO_MEDIA = new Map<string, string>();
const TO_FORMAT = new Map<string, string>();
/** TO_FORMAT by kind, keyed by the media type alone: no `kind:media` key string to build per look-up. */
const FORMAT_BY_KIND: Record<MediaKind, Map<string, string>> = { image: new Map(), document: new Map(), video: new Map(), audio: new Map() };
for (const kind of Object.keys(FORMATS) as MediaKind[]) {
  for (const [format, media] of FORMATS[kind]) {
    TO_MEDIA.set(`${kind}:${format}`, media);
    if (!TO_FORMAT.has(`${kind}:${media}`)) TO_FORMAT.set(`${kind}:${media}`, format);
    if (!FORMAT_BY_KIND[kind].has(media)) FORMAT_BY_KIND[kind].set(media, format);
  }
}

export function formatsOf(kind: MediaKind): string[] {
  return FORMATS[kind].map(([f]) => f);
}

/** The media type of a Bedrock format (validation has checked the format is in the enum). */
export function mediaTypeOf(kind: MediaKind, format: string): string {
  return TO_MEDIA.get(`${kind}:${format}`) ?? `application/octet-stream`;
}

/** The Bedrock format for a media type, or undefined when Bedrock has none. Parameters are ignored. */
export function formatOf(kind: MediaKind, mediaType: string, hint?: unknown): string | undefined {
  // A media type spelled as the table spells it (nearly always) is its own essence and no alias:
  // with no hint to weigh, the table answers without the normalizing below.
  if (typeof hint !== 'string') {
    const direct = FORMAT_BY_KIND[kind].get(mediaType);
    if (direct !== undefined) return direct;
  }
  const essence = (mediaType.split(';')[0] ?? '').trim().toLowerCase();
  const media = ALIASES[essence] ?? essence;
  // The exact format the source used, when it still names this media type (mpg vs mpeg ...).
  if (typeof hint === 'string' && TO_MEDIA.get(`${kind}:${hint}`) === media) return hint;
  return TO_FORMAT.get(`${kind}:${media}`);
}

/** Whether decoding `format` and encoding the media type back gives the same format without a hint. */
export function isDefaultFormat(kind: MediaKind, format: string): boolean {
  return TO_FORMAT.get(`${kind}:${mediaTypeOf(kind, format)}`) === format;
}
