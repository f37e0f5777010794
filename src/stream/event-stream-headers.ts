/**
 * Reading the headers section of an AWS event-stream message (`name (1-byte length) | type (1 byte)
 * | value`, integers big-endian). Bedrock repeats a handful of header strings on every message, so
 * short strings are decoded once and found again by a hash of their bytes: a TextDecoder call and
 * a subarray per string cost more than the rest of the message.
 */

export type HeaderValue = string | number | boolean | Uint8Array;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decoded short strings by a hash of their bytes; capped, as header strings come from the input. */
const known = new Map<number, { bytes: Uint8Array; text: string }>();
const KNOWN_MAX = 512;
const KNOWN_LONGEST = 64;

/**
 * The headers in `bytes[start..end)`, or the reason they cannot be read (a header running past
 * the section, an unknown value type). Invalid UTF-8 throws TextDecoder's TypeError.
 */
export function readHeaders(bytes: Uint8Array, start: number, end: number): Record<string, HeaderValue> | string {
  const out: Record<string, HeaderValue> = {};
  const past = 'a header runs past the headers section';
  let i = start;
  while (i < end) {
    const nameLength = bytes[i++] as number;
    if (i + nameLength + 1 > end) return past;
    const name = headerText(bytes, i, i + nameLength);
    i += nameLength;
    const type = bytes[i++] as number;
    switch (type) {
      case 0: out[name] = true; break;
      case 1: out[name] = false; break;
      case 2: if (i + 1 > end) return past; out[name] = view(bytes).getInt8(i); i += 1; break;
      case 3: if (i + 2 > end) return past; out[name] = view(bytes).getInt16(i); i += 2; break;
      case 4: if (i + 4 > end) return past; out[name] = view(bytes).getInt32(i); i += 4; break;
      case 5: if (i + 8 > end) return past; out[name] = Number(view(bytes).getBigInt64(i)); i += 8; break;
      case 8: if (i + 8 > end) return past; out[name] = Number(view(bytes).getBigInt64(i)); i += 8; break; // timestamp, ms
      case 6:
      case 7: {
        if (i + 2 > end) return past;
        const length = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
        i += 2;
        if (i + length > end) return past;
        out[name] = type === 7 ? headerText(bytes, i, i + length) : bytes.slice(i, i + length);
        i += length;
        break;
      }
      case 9: if (i + 16 > end) return past; out[name] = bytes.slice(i, i + 16); i += 16; break;
      default: return `header '${name}' has unknown value type ${type}`;
    }
  }
  return out;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `bytes[start..end)` as UTF-8 text, from `known` when seen before. */
function headerText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > KNOWN_LONGEST) return utf8.decode(bytes.subarray(start, end));
  let h = end - start;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  h &= 0x3fffffff; // a small integer key
  const hit = known.get(h);
  if (hit !== undefined && sameBytes(hit.bytes, bytes, start, end)) return hit.text;
  const text = utf8.decode(bytes.subarray(start, end));
  if (hit === undefined && known.size < KNOWN_MAX) known.set(h, { bytes: bytes.slice(start, end), text });
  return text;
}

function sameBytes(a: Uint8Array, b: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}
