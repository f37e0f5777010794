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
import { crc32 } from '../formats/shared/crc32.js';
import { readHeaders, type HeaderValue } from './event-stream-headers.js';
import { readUint32 } from './uint32.js';
import { joinBytes } from './pack.js';

export { crc32 } from '../formats/shared/crc32.js';
export { encodeEventStreamMessage, wireEventToMessage } from './event-stream-write.js';

export type { HeaderValue } from './event-stream-headers.js';

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Uint8Array;
}

const PRELUDE = 12;
const MAX_MESSAGE = 24 * 1024 * 1024; // the format's limit on one message

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The first 12 bytes are a message prelude: a possible length and the CRC of those 8 bytes. */
export function isPrelude(bytes: Uint8Array): boolean {
  if (bytes.length < PRELUDE) return false;
  const total = readUint32(bytes, 0);
  return total >= PRELUDE + 4 + readUint32(bytes, 4) && total <= MAX_MESSAGE && readUint32(bytes, 8) === crc32(bytes, 0, 8);
}

/** Splits event-stream bytes into messages, checking both CRCs of each. */
export class EventStreamParser {
  private buffer: Uint8Array = new Uint8Array(0);
  /** Bytes consumed so far, for error positions. */
  private offset = 0;

  push(chunk: Uint8Array): EventStreamMessage[] {
    return this.read(chunk, true);
  }

  /**
   * As `push`, but each payload is a view of the input rather than a copy: for a reader that
   * decodes the payloads before it pushes again (a copy per message costs more than its CRC).
   */
  pushViews(chunk: Uint8Array): EventStreamMessage[] {
    return this.read(chunk, false);
  }

  private read(chunk: Uint8Array, copy: boolean): EventStreamMessage[] {
    const buffer = this.buffer.length === 0 ? chunk : joinBytes([this.buffer, chunk]);
    const out: EventStreamMessage[] = [];
    let at = 0;
    while (buffer.length - at >= PRELUDE) {
      const total = readUint32(buffer, at);
      const headersLength = readUint32(buffer, at + 4);
      if (readUint32(buffer, at + 8) !== crc32(buffer, at, at + 8)) this.fail('prelude CRC does not match', buffer, at);
      if (total < PRELUDE + 4 + headersLength || total > MAX_MESSAGE) this.fail(`message length ${total} is impossible`, buffer, at);
      if (buffer.length - at < total) break;
      const end = at + total;
      if (readUint32(buffer, end - 4) !== crc32(buffer, at, end - 4)) this.fail('message CRC does not match', buffer, at);
      let headers: Record<string, HeaderValue> | string;
      try {
        headers = readHeaders(buffer, at + PRELUDE, at + PRELUDE + headersLength);
      } catch (err) {
        this.buffer = buffer.subarray(at); // invalid UTF-8: left unread, as for the other failures
        throw err;
      }
      if (typeof headers === 'string') this.fail(headers, buffer, at);
      const from = at + PRELUDE + headersLength;
      out.push({ headers, payload: copy ? buffer.slice(from, end - 4) : buffer.subarray(from, end - 4) });
      at = end;
      this.offset += total;
    }
    this.buffer = at === 0 ? buffer : buffer.subarray(at);
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

  /** Throws, keeping what is left from `at` of `buffer` (the message that failed) as the unread bytes. */
  private fail(message: string, buffer?: Uint8Array, at = 0): never {
    if (buffer !== undefined) this.buffer = buffer.subarray(at);
    throw new ValidationError([{ code: 'invalid_event_stream', path: ['bytes', this.offset], message: `event-stream message at byte ${this.offset}: ${message}` }]);
  }
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

/** Every event of complete event-stream bytes. */
export function parseEventStream(bytes: Uint8Array): WireEvent[] {
  const p = new EventStreamParser();
  const messages = p.push(bytes);
  p.end();
  return messages.map(messageToWireEvent);
}
