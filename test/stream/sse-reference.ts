/**
 * The SSE parser and writer as they were before src/stream/sse.ts read lines in place: the oracle
 * of sse-reference.test.ts (same events, cut tails and text for any input and any chunking).
 *
 * Server-sent events, as the WHATWG HTML standard defines the format: lines end in LF, CR or CRLF;
 * `data:` lines of one event join with LF; `event:` names it; a blank line dispatches; lines
 * starting with `:` are comments. Incremental: `push` takes any slice of the text (a chunk may end
 * in the middle of a line, or between CR and LF) and returns the events it completed.
 */
import type { JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';

export class ReferenceSseParser {
  private buffer = '';
  /** The last chunk ended in CR: an LF starting the next one belongs to that line end. */
  private pendingCr = false;
  private data: string[] = [];
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
      this.line(this.buffer.slice(start, end), out);
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
    if (this.buffer !== '') this.line(this.buffer, out);
    this.buffer = '';
    const data = this.data.join('\n');
    if (this.data.length > 0 && this.unterminated && (data === '' || isCutJson(data))) {
      this.cutTail = `an event's data (${data.length} characters arrived)`;
      this.data = [];
      this.name = undefined;
    }
    this.line('', out);
    return out;
  }

  /** Set by `end` when the last event was cut off inside its data. */
  cutTail: string | undefined;
  private unterminated = false;

  private line(line: string, out: WireEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(wireEvent(this.name, this.data.join('\n')));
      this.data = [];
      this.name = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.name = value;
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
  const first = data.trimStart()[0];
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
export function referenceParseSse(text: string): WireEvent[] {
  const p = new ReferenceSseParser();
  return [...p.push(text), ...p.end()];
}

/** One event as SSE text with LF line ends: `event:` when named, `data:` (JSON, or the raw text), a blank line. */
export function referenceFormatSse(e: WireEvent): string {
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  let out = e.event === undefined ? '' : `event: ${e.event}\n`;
  for (const line of data.split('\n')) out += `data: ${line}\n`;
  return out + '\n';
}
