/**
 * `format` <-> media type. The format names are Bedrock Converse's enums (ImageFormat,
 * DocumentFormat, VideoFormat; protocols.md §5.2), because ml-commons copies `format` into a
 * Converse request unchanged (§4.4): a name outside them would be rejected by Bedrock, so it is a
 * validation error here, never guessed. Media types are the IANA registrations (or the common
 * de-facto `x-` types where none is registered).
 */
import type { MediaKind } from './agent-input-api.js';

const TABLE: Record<MediaKind, Record<string, string>> = {
  // `jpg` is not a Bedrock name but the most common spelling people send; it reads as image/jpeg
  // (a hint keeps the spelling), and the plain `jpeg` is what is written for other sources.
  image: { gif: 'image/gif', jpeg: 'image/jpeg', jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' },
  document: {
    pdf: 'application/pdf',
    csv: 'text/csv',
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    html: 'text/html',
    txt: 'text/plain',
    md: 'text/markdown',
  },
  video: {
    flv: 'video/x-flv',
    mkv: 'video/x-matroska',
    mov: 'video/quicktime',
    mp4: 'video/mp4',
    mpeg: 'video/mpeg',
    // Same media type as mpeg: decoding keeps the spelling in a hint so the way back is exact.
    mpg: 'video/mpeg',
    three_gp: 'video/3gpp',
    webm: 'video/webm',
    wmv: 'video/x-ms-wmv',
  },
};

/** Spellings other formats use for the same media type (encode side only). */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'video/x-quicktime': 'video/quicktime',
  'video/mkv': 'video/x-matroska',
  'video/x-mpeg': 'video/mpeg',
  'video/3gp': 'video/3gpp',
};

const REVERSE: Record<MediaKind, Map<string, string>> = {
  image: reverse(TABLE.image),
  document: reverse(TABLE.document),
  video: reverse(TABLE.video),
};

function reverse(table: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  // First name wins (jpeg before jpg, mpeg before mpg), so the plain spelling is the default on encode.
  for (const [format, type] of Object.entries(table)) if (!out.has(type)) out.set(type, format);
  return out;
}

export function formatsOf(kind: MediaKind): string[] {
  return Object.keys(TABLE[kind]);
}

/** The media type of a wire format name, or undefined when the name is not allowed for `kind`. */
export function mediaTypeOf(kind: MediaKind, format: string): string | undefined {
  return Object.hasOwn(TABLE[kind], format) ? TABLE[kind][format] : undefined;
}

/**
 * The wire format name for a media type, or undefined. Parameters (`; charset=...`) and case are
 * ignored; `exact` says whether the media type was already in canonical form.
 */
export function formatOf(kind: MediaKind, mediaType: string): { format: string; exact: boolean } | undefined {
  const bare = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const type = ALIASES[bare] ?? bare;
  const format = REVERSE[kind].get(type);
  return format === undefined ? undefined : { format, exact: type === mediaType };
}

/** Which media kind a media type belongs to, for canonical parts typed more loosely (documents). */
export function kindOfMediaType(mediaType: string): MediaKind | undefined {
  for (const kind of ['image', 'video', 'document'] as const) if (formatOf(kind, mediaType)) return kind;
  return undefined;
}
