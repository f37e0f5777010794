/**
 * A short fingerprint of a JSON value that ignores key order, so a preserve stash can tell whether
 * the visible body it was written for has been edited since. FNV-1a over a canonical rendering:
 * not cryptographic, only a change detector.
 *
 * The rendering: a primitive is its JSON text ('undefined' when it has none), an array
 * `[` + each item followed by `,` + `]`, an object `{` + each defined key (JSON text, sorted)
 * `:` value `,` + `}`. Stashes carry this hash, so the rendering and the hash must never change.
 * Hashing is on the preserve path for every message: it is written without closures and
 * without serialising strings that JSON would write as they are.
 */

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

function feed(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}

/**
 * The hash fed with the JSON text of `s`: `"` + s + `"` while s holds nothing JSON escapes
 * (quote, backslash, control, surrogate), checked in the same pass; else its JSON text.
 */
function feedString(h: number, s: string): number {
  let g = Math.imul(h ^ 34, PRIME);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return feed(h, JSON.stringify(s));
    g = Math.imul(g ^ c, PRIME);
  }
  return Math.imul(g ^ 34, PRIME);
}

function walk(h: number, v: unknown): number {
  if (typeof v === 'string') return feedString(h, v);
  if (v === null || typeof v !== 'object') return feed(h, JSON.stringify(v) ?? 'undefined');
  if (Array.isArray(v)) {
    h = feed(h, '[');
    for (const item of v) h = feed(walk(h, item), ',');
    return feed(h, ']');
  }
  const obj = v as Record<string, unknown>;
  h = feed(h, '{');
  const keys = Object.keys(obj);
  if (keys.length > 1) keys.sort();
  for (const key of keys) {
    const value = obj[key];
    if (value === undefined) continue;
    h = feed(walk(feed(feedString(h, key), ':'), value), ',');
  }
  return feed(h, '}');
}

export function stableHash(value: unknown): string {
  return (walk(OFFSET, value) >>> 0).toString(16).padStart(8, '0');
}
