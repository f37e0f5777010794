/**
 * Says, fragment by fragment, whether a JSON text streamed in pieces is a whole object or array
 * yet, with work proportional to each fragment (no re-parse). A stream decoder whose dialect has
 * no end event for a block (Chat tool calls) uses it to know when a call's arguments can take no
 * more: once the text is a complete object, any further non-whitespace text would make it invalid.
 * Only structure is tracked (brackets outside strings, string escapes); a text that is not an
 * object or array at the top level is never `complete`.
 */
export class JsonEnd {
  private state: 'before' | 'inside' | 'complete' | 'other' = 'before';
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** True once the text so far is one whole object or array (trailing whitespace allowed). */
  get complete(): boolean {
    return this.state === 'complete';
  }

  push(fragment: string): void {
    for (let i = 0; i < fragment.length; i++) {
      const ch = fragment.charCodeAt(i);
      if (this.state === 'other') return;
      if (this.state !== 'inside') {
        if (isSpace(ch)) continue;
        // A first character that opens a container starts the value; anything else (a scalar, or
        // text after the value) means the text is not one whole container.
        if (this.state === 'before' && (ch === OPEN_OBJECT || ch === OPEN_ARRAY)) {
          this.state = 'inside';
          this.depth = 1;
        } else this.state = 'other';
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === BACKSLASH) this.escaped = true;
        else if (ch === QUOTE) this.inString = false;
        continue;
      }
      if (ch === QUOTE) this.inString = true;
      else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) this.depth++;
      else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
        if (--this.depth === 0) this.state = 'complete';
      }
    }
  }
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(ch: number): boolean {
  return ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09;
}
