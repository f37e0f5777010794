/**
 * Reads whatever a user has — a parsed JSON value, JSON text, SSE text, JSON lines, or AWS
 * event-stream bytes — into either one JSON body or a list of wire events, without knowing the
 * dialect yet. Layouts are told apart by their first bytes, the way a person would: a binary
 * prelude whose CRC checks out, a `data:`/`event:` field, one JSON value, or one JSON value a line.
 */
import { ValidationError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { WireEvent } from '../model/stream-event.js';
import { crc32, parseEventStream } from '../stream/event-stream.js';
import { parseSse } from '../stream/sse.js';
import type { Framing } from '../formats/codec.js';

/** How the input was laid out. `events` is a JSON array of event objects (AG-UI captures, Gemini's JSON-array stream). */
export type Layout = 'json' | 'sse' | 'json-lines' | 'aws-event-stream' | 'events';

export type Capture =
  | { layout: 'json'; body: unknown }
  | { layout: Exclude<Layout, 'json'>; events: WireEvent[] };

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the bytes open with an event-stream prelude whose CRC matches (cheap, and never true of text). */
export function looksLikeEventStream(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(8) === crc32(bytes, 0, 8) && view.getUint32(0) >= 16;
}

/** SSE opens with a field name (`data:`, `event:`, `id:`, `retry:`) or a `:` comment line. */
function looksLikeSse(text: string): boolean {
  return /^(?:data|event|id|retry)[:\r\n]|^:/m.test(text.trimStart().split('\n', 1)[0] ?? '') || /^\s*(?:event|data):/.test(text);
}

/** A decoded Bedrock frame as the corpus writes them: `{headers: {":event-type"}, payload}`. */
function frameLine(v: JsonValue): WireEvent | undefined {
  if (!isObj(v) || !isObj(v['headers']) || !('payload' in v) || Object.keys(v).length !== 2) return undefined;
  const h = v['headers'];
  const payload = v['payload'] as JsonValue;
  if (h[':message-type'] === 'exception' && typeof h[':exception-type'] === 'string') return { event: h[':exception-type'], data: payload, exception: true };
  return typeof h[':event-type'] === 'string' ? { event: h[':event-type'], data: payload } : undefined;
}

function jsonLines(text: string): WireEvent[] {
  const out: WireEvent[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: JsonValue;
    try {
      value = JSON.parse(line) as JsonValue;
    } catch {
      throw new ValidationError([{ code: 'invalid_json', path: [i], message: `line ${i + 1} is neither JSON nor SSE` }]);
    }
    out.push(frameLine(value) ?? { data: value });
  });
  return out;
}

/**
 * A JSON array of objects reads as a list of events (AG-UI captures; Gemini's streamGenerateContent
 * without `alt=sse` answers such an array): no dialect's body is a top-level array.
 */
function isEventArray(v: unknown): v is JsonObject[] {
  return Array.isArray(v) && v.length > 0 && v.every(isObj);
}

/** Reads text (JSON, SSE or JSON lines) into a body or events; a ValidationError when it is none of them. */
export function readCaptureText(text: string): Capture {
  const trimmed = text.trim();
  if (trimmed === '') throw new ValidationError([{ code: 'empty', path: [], message: 'the input is empty' }]);
  if (looksLikeSse(trimmed)) return { layout: 'sse', events: parseSse(text) };
  try {
    return readCaptureValue(JSON.parse(trimmed) as unknown);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  // Not one JSON value: one a line, or nothing we read.
  return { layout: 'json-lines', events: jsonLines(trimmed) };
}

/** A parsed value: a body, or a list of events when it is an array of typed event objects. */
export function readCaptureValue(value: unknown): Capture {
  if (isEventArray(value)) return { layout: 'events', events: value.map((data) => ({ data })) };
  return { layout: 'json', body: value };
}

/** Any input: bytes (event-stream or UTF-8 text), text, or an already parsed value. */
export function readCapture(input: unknown): Capture {
  if (input instanceof Uint8Array) {
    if (looksLikeEventStream(input)) return { layout: 'aws-event-stream', events: parseEventStream(input) };
    return readCaptureText(new TextDecoder().decode(input));
  }
  if (typeof input === 'string') return readCaptureText(input);
  return readCaptureValue(input);
}

/**
 * The events as `framing`'s decoder reads them: JSON lines of an event-stream dialect are written
 * `{"<eventType>": payload}` (as decoded captures and `frameWriter` write them), so an unnamed
 * one-key event becomes that named event. Other framings take the events as they are.
 */
export function eventsForFraming(framing: Framing, events: readonly WireEvent[]): WireEvent[] {
  if (framing !== 'aws-event-stream') return [...events];
  return events.map((e) => {
    if (e.event !== undefined || !isObj(e.data)) return e;
    const entries = Object.entries(e.data);
    const [first] = entries;
    return entries.length === 1 && first !== undefined ? { event: first[0], data: first[1] } : e;
  });
}
