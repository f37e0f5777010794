/**
 * Raw stream bytes <-> wire events for each framing, incrementally: SSE text, AWS event-stream
 * binary, or JSON lines (one event per line: the SSE `data` object, or for event-stream dialects
 * `{"<eventType>": payload}` as decoded captures write them).
 */
import { ValidationError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { WireEvent } from '../model/stream-event.js';
import type { Framing } from '../formats/codec.js';
import { dataText } from '../formats/shared/stream-written.js';
import { EventStreamParser, messageToWireEvent, wireEventToMessage } from './event-stream.js';
import { formatSse, SseParser } from './sse.js';

export interface FrameReader {
  push(chunk: Uint8Array | string): WireEvent[];
  end(): WireEvent[];
  /** After `end`: what was left of an event the input was cut inside of (it is not read), if any. */
  readonly cutTail?: string | undefined;
}

const encoder = new TextEncoder();

/** Reads `framing` from bytes or text. `lines` reads JSON lines with the dialect's framing's shape instead. */
export function frameReader(framing: Framing, options: { lines?: boolean } = {}): FrameReader {
  if (options.lines === true || framing === 'json-lines') return new JsonLinesReader(framing);
  if (framing === 'sse') {
    const decoder = new TextDecoder();
    const sse = new SseParser();
    return {
      push: (chunk) => sse.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })),
      end: () => [...sse.push(decoder.decode()), ...sse.end()],
      get cutTail() {
        return sse.cutTail;
      },
    };
  }
  const parser = new EventStreamParser();
  let n = 0;
  let cutTail: string | undefined;
  return {
    push: (chunk) => parser.pushViews(typeof chunk === 'string' ? encoder.encode(chunk) : chunk).map((m) => messageToWireEvent(m, n++)),
    // Bytes of a message that never arrived whole: the stream was cut there (reported as such by the reader's user).
    end: () => {
      cutTail = parser.cutTail();
      return [];
    },
    get cutTail() {
      return cutTail;
    },
  };
}

/** Writes one wire event in `framing`: SSE text, event-stream bytes, or one JSON line. */
export function frameWriter(framing: Framing): (e: WireEvent) => Uint8Array | string {
  if (framing === 'sse') return formatSse;
  if (framing === 'aws-event-stream') return wireEventToMessage;
  return (e) => (e.event === undefined ? `${dataText(e)}\n` : `${JSON.stringify({ [e.event]: e.data })}\n`);
}

class JsonLinesReader implements FrameReader {
  private buffer = '';
  private n = 0;
  private readonly decoder = new TextDecoder();
  constructor(private readonly framing: Framing) {}

  push(chunk: Uint8Array | string): WireEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const lines = this.buffer.split('\n');
    this.buffer = lines.pop() ?? '';
    return lines.flatMap((l) => this.line(l));
  }

  end(): WireEvent[] {
    const rest = this.buffer + this.decoder.decode();
    this.buffer = '';
    return this.line(rest);
  }

  private line(text: string): WireEvent[] {
    const at = this.n++;
    if (text.trim() === '') return [];
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      throw new ValidationError([{ code: 'invalid_json', path: [at], message: `line ${at + 1} is not JSON` }]);
    }
    if (this.framing !== 'aws-event-stream') return [{ data: value }];
    const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value as JsonObject) : [];
    const [first] = entries;
    if (entries.length !== 1 || first === undefined) {
      throw new ValidationError([{ code: 'invalid_event', path: [at], message: `line ${at + 1}: expected {"<eventType>": payload}` }]);
    }
    return [{ event: first[0], data: first[1] }];
  }
}
