/**
 * Server-sent events, as the WHATWG HTML standard defines the format: lines end in LF, CR or CRLF;
 * `data:` lines of one event join with LF; `event:` names it; a blank line dispatches; lines
 * starting with `:` are comments. Incremental: `push` takes any slice of the text (a chunk may end
 * in the middle of a line, or between CR and LF) and returns the events it completed.
 */
import type { JsonValue } from '../model/json.js';
import type { WireEvent } from '../model/stream-event.js';
import { WrittenEvent } from '../formats/shared/stream-written.js';

export class SseParser {
  private buffer = '';
  /** The last chunk ended in CR: an LF starting the next one belongs to that line end. */
  private pendingCr = false;
  /** The event's data lines so far, joined with LF; undefined before its first data line. */
  private data: string | undefined;
  private name: string | undefined;

  push(text: string): WireEvent[] {
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: WireEvent[] = [];
    let start = 0;
    // Positions of the next LF / CR, searched again only once passed: -1 means none left, so a
    // text without CR is not rescanned for one at every line (which made big chunks quadratic).
    let lf = this.buffer.indexOf('\n');
    let cr = this.buffer.indexOf('\r');
    for (;;) {
      if (lf >= 0 && lf < start) lf = this.buffer.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = this.buffer.indexOf('\r', start);
      if (lf < 0 && cr < 0) break;
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        end = cr;
        if (cr + 1 === this.buffer.length) {
          // CR at the end of the chunk: the line is complete, an LF may follow in the next chunk.
          this.pendingCr = true;
          next = cr + 1;
        } else next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      this.line(this.buffer, start, end, out);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /**
   * End of input: an event whose blank line never came is still dispatched (captures often end so),
   * unless its data was cut (empty, or cut inside its JSON): that event never arrived whole, so it
   * is left out and `cutTail` says so (the stream then reads as cut off, not as an invalid event).
   */
  end(): WireEvent[] {
    const out: WireEvent[] = [];
    // Input that ends without a line end ends inside its last event.
    this.unterminated = this.buffer !== '';
    if (this.buffer !== '') this.line(this.buffer, 0, this.buffer.length, out);
    this.buffer = '';
    const data = this.data ?? '';
    if (this.data !== undefined && this.unterminated && (data === '' || isCutJson(data))) {
      this.cutTail = `an event's data (${data.length} characters arrived)`;
      this.data = undefined;
      this.name = undefined;
    }
    this.line('', 0, 0, out);
    return out;
  }

  /** Set by `end` when the last event was cut off inside its data. */
  cutTail: string | undefined;
  private unterminated = false;

  /** The line `text[start..end)`; the field name is compared in place, only the value is cut out. */
  private line(text: string, start: number, end: number, out: WireEvent[]): void {
    if (start === end) {
      if (this.data !== undefined) out.push(wireEvent(this.name, this.data));
      this.data = undefined;
      this.name = undefined;
      return;
    }
    if (text.charCodeAt(start) === 58) return; // ':' starts a comment
    let colon = text.indexOf(':', start);
    if (colon >= end) colon = -1;
    const fieldEnd = colon < 0 ? end : colon;
    let value = '';
    if (colon >= 0) {
      const from = text.charCodeAt(colon + 1) === 32 && colon + 1 < end ? colon + 2 : colon + 1;
      value = text.slice(from, end);
    }
    if (fieldEnd - start === 4 && text.startsWith('data', start)) this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (fieldEnd - start === 5 && text.startsWith('event', start)) this.name = value;
    // `id` and `retry` carry nothing the dialects use.
  }
}

/** Data that starts as a JSON object or array but does not parse: the text of a cut event. */
function isCutJson(data: string): boolean {
  const first = data.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  try {
    JSON.parse(data);
    return false;
  } catch {
    return true;
  }
}

/** Data that is a JSON object or array is parsed; anything else (`[DONE]`) stays the raw text. */
function wireEvent(name: string | undefined, data: string): WireEvent {
  let value: JsonValue = data;
  // The first character, past any leading white space (trimStart only when there may be some).
  const c = data.charCodeAt(0);
  const first = c === 123 || c === 91 || (c > 32 && c < 127) ? data[0] : data.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      value = JSON.parse(data) as JsonValue;
    } catch {
      value = data;
    }
  }
  return name === undefined ? { data: value } : { event: name, data: value };
}

/** All events of a complete SSE text. */
export function parseSse(text: string): WireEvent[] {
  const p = new SseParser();
  return [...p.push(text), ...p.end()];
}

/** One event as SSE text with LF line ends: `event:` when named, `data:` (JSON, or the raw text), a blank line. */
export function formatSse(e: WireEvent): string {
  const raw = typeof e.data === 'string';
  const data: string = raw ? (e.data as string) : (WrittenEvent.textOf(e) ?? JSON.stringify(e.data));
  // One line (JSON text always is: it escapes line ends, so it is not searched for one): no split into a throw-away array.
  if (typeof data === 'string' && (!raw || !data.includes('\n'))) return e.event === undefined ? `data: ${data}\n\n` : `event: ${e.event}\ndata: ${data}\n\n`;
  let out = e.event === undefined ? '' : `event: ${e.event}\n`;
  for (const line of data.split('\n')) out += `data: ${line}\n`;
  return out + '\n';
}
