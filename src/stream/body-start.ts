/**
 * Tells from the first bytes of a body whether it is the stream framing it should be, so a body
 * that is something else (an upstream's JSON error answer, an HTML error page, a final response
 * sent where a stream was asked for) is named at once instead of reading as an empty stream. Only
 * the start is looked at: leading whitespace, then at most one line or a few dozen bytes.
 */
import { ValidationError } from '../model/errors.js';
import type { Framing } from '../formats/codec.js';
import { isPrelude } from './event-stream.js';

export type BodyStart =
  /** The framing: read it as a stream. */
  | { kind: 'framing' }
  /** Nothing, or nothing but whitespace: a stream with no events. */
  | { kind: 'empty' }
  /** A JSON value where the stream should be: an error body of the dialect, perhaps. */
  | { kind: 'json' }
  /** Neither; `received` says what it is, for the error. */
  | { kind: 'other'; received: string };

/** Bytes enough to quote what arrived; also the most ever held back before deciding. */
export const SNIFF_BYTES = 64;

/** SSE field names (WHATWG), and '' for a comment line. Every stream dialect starts with one of these. */
const SSE_FIELDS = new Set(['', 'data', 'event', 'id', 'retry']);
const LONGEST_FIELD = 'retry:'.length;

const text = new TextDecoder();

/** Index of the first byte that is not whitespace nor a UTF-8 byte order mark. */
function firstContent(head: Uint8Array): number {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return i;
}

/**
 * What `head` (the body's first bytes) is for `framing`, or undefined when more bytes are needed to
 * say; `final` means no more bytes will come.
 */
export function classifyStart(head: Uint8Array, framing: Framing, final: boolean): BodyStart | undefined {
  if (framing === 'json-lines') return { kind: 'framing' };
  const at = firstContent(head);
  if (at === head.length) {
    if (final) return { kind: 'empty' };
    if (head.length < SNIFF_BYTES) return undefined;
    // Blank lines are SSE (some servers send them before the first event); never event-stream.
    return framing === 'sse' ? { kind: 'framing' } : other(head, at, framing);
  }
  const first = head[at];
  if (first === 0x7b || first === 0x5b) return { kind: 'json' }; // '{' or '['
  if (framing === 'aws-event-stream') {
    if (at === 0 && head.length >= 12) return isPrelude(head) ? { kind: 'framing' } : other(head, at, framing);
    // A body cut inside its first prelude is read on (the parser says it was cut), unless it is text.
    if (at === 0 && !final) return undefined;
    return at === 0 && !isText(head) ? { kind: 'framing' } : other(head, at, framing);
  }
  const rest = text.decode(head.subarray(at));
  const stop = rest.search(/[:\r\n]/);
  if (stop >= 0) return SSE_FIELDS.has(rest.slice(0, stop)) ? { kind: 'framing' } : lineEnded(rest, head, at, framing, final);
  // At the end, the start of a field name is a stream cut inside its first line.
  if (final) return [...SSE_FIELDS].some((f) => f.startsWith(rest)) ? { kind: 'framing' } : other(head, at, framing);
  return rest.length >= LONGEST_FIELD ? lineEnded(rest, head, at, framing, final) : undefined;
}

/** Not SSE: wait for the line (or enough bytes) to quote it. */
function lineEnded(rest: string, head: Uint8Array, at: number, framing: Framing, final: boolean): BodyStart | undefined {
  return final || /[\r\n]/.test(rest) || head.length - at >= SNIFF_BYTES ? other(head, at, framing) : undefined;
}

function isText(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) return false;
  return true;
}

function other(head: Uint8Array, at: number, framing: Framing): BodyStart {
  const bytes = head.subarray(at, at + SNIFF_BYTES);
  if (!isText(bytes)) {
    const hex = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    return { kind: 'other', received: `bytes that are not ${framing === 'sse' ? 'text' : 'event-stream messages'} (${hex} ...)` };
  }
  const line = (text.decode(bytes).split(/[\r\n]/)[0] ?? '').trim();
  if (line === '') return { kind: 'other', received: 'blank lines' };
  const quoted = JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}...` : line);
  if (framing === 'aws-event-stream' && /^(data|event|id|retry)?:/.test(line)) return { kind: 'other', received: `SSE text (${quoted})` };
  return { kind: 'other', received: `plain text (${quoted})` };
}

/** What `framing` is, in the words of an error. */
export function framingName(framing: Framing): string {
  return framing === 'sse' ? 'SSE `data:` lines' : framing === 'aws-event-stream' ? 'AWS event-stream messages' : 'JSON lines';
}

/** The error for a body that is not a stream of `framing`. */
export function notTheFraming(framing: Framing, received: string): ValidationError {
  return new ValidationError([
    { code: 'not_a_stream', path: [], message: `expected ${framingName(framing)}, received ${received}`, expected: framingName(framing), received },
  ]);
}

/** What a parsed JSON body is, in the words of an error: its kind and first keys. */
export function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `a JSON array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 5).join(', ') + (keys.length > 5 ? ', ...' : '');
    return keys.length === 0 ? 'an empty JSON object' : `a JSON object (keys: ${shown})`;
  }
  return `a JSON ${value === null ? 'null' : typeof value}`;
}
