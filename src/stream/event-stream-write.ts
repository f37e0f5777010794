/**
 * Writing AWS event-stream messages (see event-stream.ts for the format) with no allocation of
 * their own beyond a view: the headers' bytes are built once per event type and copied in, the JSON
 * payload is written straight into the message, integers by shifts, all into a shared slab (see
 * `allocate`); only a message too large for the slab gets its own array. TextEncoder.encode and a
 * DataView per small piece cost more than the rest together.
 */
import type { WireEvent } from '../model/stream-event.js';
import { dataText } from '../formats/shared/stream-written.js';
import { Crc32Over, crc32Update } from '../formats/shared/crc32.js';
import { readUint32, writeUint32 } from './uint32.js';
import { joinBytes } from './pack.js';

const PRELUDE = 12;
const encoder = new TextEncoder();

/** A header section, with its CRC step when it is cached (see `Crc32Over`). */
interface Head {
  bytes: Uint8Array;
  crc: Crc32Over | undefined;
}

/** Header sections by event type; capped, as exception types come from the input. */
const headerCache = new Map<string, Head>();
const HEADER_CACHE_MAX = 256;

/**
 * One message's bytes; header values are written as strings (type 7), as Bedrock sends them.
 * The bytes are a view into a shared buffer that is never written again (see `allocate`).
 */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const head: Head = { bytes: headerBytes(headers), crc: undefined };
  const out = frame(head, payload.length);
  out.set(payload, PRELUDE + head.bytes.length);
  return seal(out, head);
}

/**
 * A wire event as one event-stream message, with Bedrock's headers. The bytes are a view into a
 * shared buffer that is never written again: copy them (`.slice()`) before transferring `.buffer`.
 */
export function wireEventToMessage(e: WireEvent): Uint8Array {
  const exception = e.exception === true;
  const type = exception ? (e.event ?? 'internalServerException') : (e.event ?? '');
  const key = exception ? `!${type}` : type;
  let head = headerCache.get(key);
  if (head === undefined) {
    const bytes = headerBytes(
      exception
        ? { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' }
        : { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    );
    const cached = headerCache.size < HEADER_CACHE_MAX;
    head = { bytes, crc: cached ? new Crc32Over(bytes) : undefined };
    if (cached) headerCache.set(key, head);
  }
  // JSON.stringify of undefined is undefined, which TextEncoder took as no text.
  const text: string | undefined = dataText(e);
  const body = text ?? '';
  // At most 3 UTF-8 bytes per UTF-16 unit: a message that surely fits the slab is written there
  // without counting its bytes first.
  if (PRELUDE + head.bytes.length + 3 * body.length + 4 <= OWN_ARRAY_BYTES) return inSlab(head, body);
  // Buffer.byteLength counts as TextEncoder writes (a lone surrogate as U+FFFD, 3 bytes).
  const length = Buffer.byteLength(body, 'utf8');
  const out = frame(head, length);
  const at = PRELUDE + head.bytes.length;
  encoder.encodeInto(body, out.subarray(at, at + length));
  return seal(out, head);
}

/**
 * Messages are views into a shared slab that is written once and never rewritten: a fresh
 * Uint8Array per message (its own backing store, swept by the GC) cost more than writing the
 * message. Like Node's pooled Buffers, a message's `.buffer` is the slab, so a caller that must
 * transfer or detach the bytes takes a copy first (`.slice()`). Large messages get their own.
 */
const SLAB_BYTES = 16 * 1024;
const OWN_ARRAY_BYTES = 2 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
// The same memory as a Buffer, for `write` (UTF-8 at an offset, no view made for it).
let slabText = Buffer.from(slab.buffer);
let slabUsed = 0;

/** Room for `length` bytes at `slabUsed`, starting a new slab when this one has too little. */
function reserve(length: number): void {
  if (slabUsed + length <= SLAB_BYTES) return;
  slab = new Uint8Array(SLAB_BYTES);
  slabText = Buffer.from(slab.buffer);
  slabUsed = 0;
}

function allocate(length: number): Uint8Array {
  if (length > OWN_ARRAY_BYTES) return new Uint8Array(length);
  reserve(length);
  const out = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += length;
  return out;
}

/**
 * A message of at most OWN_ARRAY_BYTES even at 3 bytes per UTF-16 unit, in the slab: the payload is
 * written first (Buffer#write replaces a lone surrogate with U+FFFD as TextEncoder does), then the
 * prelude that gives its length. Only the bytes written are taken from the slab.
 */
function inSlab(head: Head, body: string): Uint8Array {
  reserve(PRELUDE + head.bytes.length + 3 * body.length + 4);
  const start = slabUsed;
  const at = start + PRELUDE + head.bytes.length;
  const written = body.length === 0 ? 0 : slabText.write(body, at);
  const total = PRELUDE + head.bytes.length + written + 4;
  writeHead(slab, start, head, total);
  writeCrc(slab, start, head, total);
  slabUsed += total;
  return slab.subarray(start, start + total);
}

/** A message with its prelude and headers written and room for `payloadLength` bytes and the CRC. */
function frame(head: Head, payloadLength: number): Uint8Array {
  const total = PRELUDE + head.bytes.length + payloadLength + 4;
  const out = allocate(total);
  writeHead(out, 0, head, total);
  return out;
}

/** Writes the message CRC over everything before it. */
function seal(out: Uint8Array, head: Head): Uint8Array {
  writeCrc(out, 0, head, out.length);
  return out;
}

/** The prelude (lengths and their CRC) and the headers of a `total`-byte message at `start` of `buf`. */
function writeHead(buf: Uint8Array, start: number, head: Head, total: number): void {
  writeUint32(buf, start, total);
  writeUint32(buf, start + 4, head.bytes.length);
  writeUint32(buf, start + 8, crc32Update(0, buf, start, start + 8));
  buf.set(head.bytes, start + PRELUDE);
}

/**
 * The message CRC of the `total`-byte message at `start`, over everything before it. It goes on from
 * the prelude CRC writeHead wrote (the CRC of the first 8 bytes), and a cached header section is
 * stepped over in O(1).
 */
function writeCrc(buf: Uint8Array, start: number, head: Head, total: number): void {
  const end = start + total - 4;
  const prelude = crc32Update(readUint32(buf, start + 8), buf, start + 8, start + PRELUDE);
  const crc = head.crc === undefined ? crc32Update(prelude, buf, start + PRELUDE, end) : crc32Update(head.crc.update(prelude), buf, start + PRELUDE + head.bytes.length, end);
  writeUint32(buf, end, crc);
}

function headerBytes(headers: Record<string, string>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const h = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    h[0] = n.length;
    h.set(n, 1);
    h[1 + n.length] = 7;
    h[2 + n.length] = (v.length >>> 8) & 0xff;
    h[3 + n.length] = v.length & 0xff;
    h.set(v, 4 + n.length);
    parts.push(h);
  }
  return joinBytes(parts);
}
