/**
 * Bytes written together: byte arrays joined into one, and the frames written for one input chunk
 * as one byte array, which a server writes with one enqueue (one syscall, one packet) however many
 * events the chunk held. A web TransformStream costs ~1.7 µs a chunk on Node 20, about what
 * transcoding an event does: frame by frame, the bench's stream in 4 KB chunks took ~1.45x as long
 * through `transcode()` (bench/stream/web-stream.ts).
 */
const utf8 = new TextEncoder();

/** The arrays one after another in one new array. */
export function joinBytes(arrays: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const a of arrays) length += a.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.byteLength;
  }
  return out;
}

export const utf8Bytes = (frame: Uint8Array | string): Uint8Array => (typeof frame === 'string' ? utf8.encode(frame) : frame);

/** Undefined for no frames; text frames are joined before they are encoded (one array, not one per frame). */
export function packFrames(frames: readonly (string | Uint8Array)[]): Uint8Array | undefined {
  if (frames.length === 0) return undefined;
  if (frames.length === 1) return utf8Bytes(frames[0] as string | Uint8Array);
  if (frames.every((f) => typeof f === 'string')) return utf8.encode(frames.join(''));
  return joinBytes(frames.map(utf8Bytes));
}
