/**
 * AWS event-stream binary framing (`application/vnd.amazon.eventstream`), as Bedrock's
 * ConverseStream sends it: each message is a prelude (total length, headers length, CRC32 of those
 * 8 bytes), headers, a payload, and a CRC32 of everything before it; all integers big-endian.
 * Headers are `name (1-byte length) | type (1 byte) | value`. Bedrock events carry `:event-type`,
 * `:content-type` and `:message-type` (`event` or `exception`, then with `:exception-type`), and a
 * JSON payload. Incremental: `push` takes any slice of the bytes.
 */
import type { JsonValue } from '../model/json.js';
import type { WireEvent } from '../model/stream-event.js';
import { ValidationError } from '../model/errors.js';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3), the checksum the event-stream prelude and message end carry. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export type HeaderValue = string | number | boolean | Uint8Array;

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Uint8Array;
}

const PRELUDE = 12;
const MAX_MESSAGE = 24 * 1024 * 1024; // the format's limit on one message

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** The first 12 bytes are a message prelude: a possible length and the CRC of those 8 bytes. */
export function isPrelude(bytes: Uint8Array): boolean {
  if (bytes.length < PRELUDE) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, PRELUDE);
  const total = view.getUint32(0);
  return total >= PRELUDE + 4 + view.getUint32(4) && total <= MAX_MESSAGE && view.getUint32(8) === crc32(bytes, 0, 8);
}

/** Splits event-stream bytes into messages, checking both CRCs of each. */
export class EventStreamParser {
  private buffer: Uint8Array = new Uint8Array(0);
  /** Bytes consumed so far, for error positions. */
  private offset = 0;

  push(chunk: Uint8Array): EventStreamMessage[] {
    this.buffer = this.buffer.length === 0 ? chunk : concat(this.buffer, chunk);
    const out: EventStreamMessage[] = [];
    while (this.buffer.length >= PRELUDE) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
      const total = view.getUint32(0);
      const headersLength = view.getUint32(4);
      if (view.getUint32(8) !== crc32(this.buffer, 0, 8)) this.fail('prelude CRC does not match');
      if (total < PRELUDE + 4 + headersLength || total > MAX_MESSAGE) this.fail(`message length ${total} is impossible`);
      if (this.buffer.length < total) break;
      if (view.getUint32(total - 4) !== crc32(this.buffer, 0, total - 4)) this.fail('message CRC does not match');
      const headers = readHeaders(this.buffer.subarray(PRELUDE, PRELUDE + headersLength), (m) => this.fail(m));
      out.push({ headers, payload: this.buffer.slice(PRELUDE + headersLength, total - 4) });
      this.buffer = this.buffer.subarray(total);
      this.offset += total;
    }
    return out;
  }

  /** End of input: bytes of an unfinished message mean the stream was cut off. */
  end(): void {
    const tail = this.cutTail();
    if (tail !== undefined) this.fail(`the stream ends inside ${tail}`);
  }

  /** What is left of a message the input ended inside, or undefined when it ended between messages. */
  cutTail(): string | undefined {
    return this.buffer.length > 0 ? `a message (${this.buffer.length} bytes left)` : undefined;
  }

  private fail(message: string): never {
    throw new ValidationError([{ code: 'invalid_event_stream', path: ['bytes', this.offset], message: `event-stream message at byte ${this.offset}: ${message}` }]);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function readHeaders(bytes: Uint8Array, fail: (m: string) => never): Record<string, HeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Record<string, HeaderValue> = {};
  let i = 0;
  const need = (n: number): void => {
    if (i + n > bytes.length) fail('a header runs past the headers section');
  };
  while (i < bytes.length) {
    need(1);
    const nameLength = bytes[i++] as number;
    need(nameLength + 1);
    const name = utf8.decode(bytes.subarray(i, i + nameLength));
    i += nameLength;
    const type = bytes[i++] as number;
    switch (type) {
      case 0: out[name] = true; break;
      case 1: out[name] = false; break;
      case 2: need(1); out[name] = view.getInt8(i); i += 1; break;
      case 3: need(2); out[name] = view.getInt16(i); i += 2; break;
      case 4: need(4); out[name] = view.getInt32(i); i += 4; break;
      case 5: need(8); out[name] = Number(view.getBigInt64(i)); i += 8; break;
      case 8: need(8); out[name] = Number(view.getBigInt64(i)); i += 8; break; // timestamp, ms
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(i);
        i += 2;
        need(length);
        const value = bytes.subarray(i, i + length);
        out[name] = type === 7 ? utf8.decode(value) : value.slice();
        i += length;
        break;
      }
      case 9: need(16); out[name] = bytes.slice(i, i + 16); i += 16; break;
      default: fail(`header '${name}' has unknown value type ${type}`);
    }
  }
  return out;
}

/** One message's bytes; header values are written as strings (type 7), as Bedrock sends them. */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let headersLength = 0;
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const h = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    h[0] = n.length;
    h.set(n, 1);
    h[1 + n.length] = 7;
    new DataView(h.buffer).setUint16(2 + n.length, v.length);
    h.set(v, 4 + n.length);
    parts.push(h);
    headersLength += h.length;
  }
  const total = PRELUDE + headersLength + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out, 0, 8));
  let i = PRELUDE;
  for (const h of parts) {
    out.set(h, i);
    i += h.length;
  }
  out.set(payload, i);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

/** A message as a wire event: its event (or exception) type and its JSON payload. */
export function messageToWireEvent(m: EventStreamMessage, index: number): WireEvent {
  const exception = m.headers[':message-type'] === 'exception';
  const type = m.headers[exception ? ':exception-type' : ':event-type'];
  let data: JsonValue;
  const text = utf8.decode(m.payload);
  try {
    data = text === '' ? {} : (JSON.parse(text) as JsonValue);
  } catch {
    throw new ValidationError([{ code: 'invalid_json', path: [index, 'payload'], message: `event-stream message ${index}: the payload is not JSON` }]);
  }
  if (typeof type !== 'string') {
    throw new ValidationError([{ code: 'invalid_event_stream', path: [index, 'headers'], message: `event-stream message ${index} has no ${exception ? ':exception-type' : ':event-type'} header` }]);
  }
  return exception ? { event: type, data, exception: true } : { event: type, data };
}

/** A wire event as one event-stream message, with Bedrock's headers. */
export function wireEventToMessage(e: WireEvent): Uint8Array {
  const headers: Record<string, string> = e.exception
    ? { ':exception-type': e.event ?? 'internalServerException', ':content-type': 'application/json', ':message-type': 'exception' }
    : { ':event-type': e.event ?? '', ':content-type': 'application/json', ':message-type': 'event' };
  return encodeEventStreamMessage(headers, encoder.encode(JSON.stringify(e.data)));
}

/** Every event of complete event-stream bytes. */
export function parseEventStream(bytes: Uint8Array): WireEvent[] {
  const p = new EventStreamParser();
  const messages = p.push(bytes);
  p.end();
  return messages.map(messageToWireEvent);
}
