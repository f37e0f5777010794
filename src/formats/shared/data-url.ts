/** `data:<media type>[;base64],<data>` — parsed, never guessed. */
export interface DataUrl {
  mediaType: string;
  data: string;
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,/;

/** Parses a base64 data URL; undefined when `url` is not one. */
export function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const match = DATA_URL.exec(url);
  if (!match || match[1] === undefined) return undefined;
  if ((match[2] ?? '') !== '') return undefined; // parameters (e.g. charset) would be lost on the way back
  return { mediaType: match[1], data: url.slice(match[0].length) };
}

export function formatDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
