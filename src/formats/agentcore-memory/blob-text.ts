/**
 * "Would the encoder write this blob text back byte for byte?", answered from the value the
 * decoder already parsed from that text instead of walking the written blob against the text:
 * `JSON.stringify(written) === text` holds exactly when the written blob has the same JSON text as
 * the parsed one (`sameJsonText`, a walk of two objects whose long strings are mostly the same
 * string) and the text is the JSON text `JSON.stringify` gives its own parsed value
 * (`isOwnJsonText`). The second check skips comparing the characters of plain strings (see there),
 * which were most of the cost of the read-back check on every event.
 */
import type { JsonValue } from '../../model/json.js';

/** Characters JSON.stringify writes escaped (or may: any surrogate goes the slow, exact way). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Whether `JSON.stringify(written) === JSON.stringify(parsed)`, for `parsed` a `JSON.parse` result
 * (no undefined, no non-finite numbers). Keys in order; a key holding undefined is left out, an
 * undefined array item or non-finite number reads as null, as JSON.stringify writes them.
 */
export function sameJsonText(written: JsonValue | undefined, parsed: JsonValue): boolean {
  if (written === parsed) return true;
  if (written === undefined || written === null || typeof written !== 'object') {
    return typeof written === 'number' && !Number.isFinite(written) && parsed === null;
  }
  if (parsed === null || typeof parsed !== 'object') return false;
  if (Array.isArray(written)) {
    if (!Array.isArray(parsed) || written.length !== parsed.length) return false;
    for (let k = 0; k < written.length; k++) if (!sameJsonText(written[k] ?? null, parsed[k] as JsonValue)) return false;
    return true;
  }
  if (Array.isArray(parsed)) return false;
  const keys = Object.keys(parsed);
  let n = 0;
  for (const key of Object.keys(written)) {
    const v = written[key];
    if (v === undefined) continue;
    if (keys[n++] !== key || !sameJsonText(v, parsed[key] as JsonValue)) return false;
  }
  return n === keys.length;
}

/** Whether `text` is exactly `JSON.stringify(value)`, where `value` is `JSON.parse(text)`. */
export function isOwnJsonText(value: JsonValue, text: string): boolean {
  return valueAt(value, text, 0) === text.length;
}

/**
 * The index after `value`'s JSON text at `i`, or -1. Everything is compared but the characters of
 * a plain string (one JSON.stringify writes unescaped): there it suffices that the first quote
 * after the opening one is `s.length` characters on and not after a backslash. That makes the
 * token at `i` exactly those characters with no quote inside, and, `value` being the text's own
 * parse, they read as `s` (with `s.length` characters, so with no escape): they are `s`. A text
 * with a duplicate key fails where its object ends, as the walk keeps token for token in step.
 */
function valueAt(value: JsonValue, t: string, i: number): number {
  if (value === null) return literal('null', t, i);
  switch (typeof value) {
    case 'string':
      return stringAt(value, t, i);
    case 'number':
      return literal(JSON.stringify(value), t, i);
    case 'boolean':
      return literal(value ? 'true' : 'false', t, i);
    default:
      break;
  }
  if (Array.isArray(value)) {
    if (t.charCodeAt(i) !== 0x5b) return -1;
    let at = i + 1;
    for (let k = 0; k < value.length; k++) {
      if (k > 0 && t.charCodeAt(at++) !== 0x2c) return -1;
      at = valueAt(value[k] as JsonValue, t, at);
      if (at < 0) return -1;
    }
    return t.charCodeAt(at) === 0x5d ? at + 1 : -1;
  }
  if (t.charCodeAt(i) !== 0x7b) return -1;
  let at = i + 1;
  let first = true;
  for (const key in value) {
    if (!first && t.charCodeAt(at++) !== 0x2c) return -1;
    first = false;
    at = keyAt(key, t, at);
    if (at < 0 || t.charCodeAt(at++) !== 0x3a) return -1;
    at = valueAt(value[key] as JsonValue, t, at);
    if (at < 0) return -1;
  }
  return t.charCodeAt(at) === 0x7d ? at + 1 : -1;
}

/**
 * A string value. First the cheap check: the first quote after the opening one is `s.length`
 * characters on and not after a backslash, and `s` has no lone surrogate. That makes the token
 * exactly those characters, so the walk stays in step (a duplicate key fails where its object
 * ends); with no duplicate key the token reads as `s`, which has `s.length` characters, so the
 * token holds no escape: it is `s` as is, with no quote, backslash or control character (JSON
 * text has none raw), which is how JSON.stringify writes it. Else the characters are compared
 * with JSON.stringify's. (No regex scan of `s`: on long plain strings it cost 20x the indexOf.)
 */
function stringAt(s: string, t: string, i: number): number {
  const end = i + 1 + s.length;
  if (t.charCodeAt(i) === 0x22 && t.indexOf('"', i + 1) === end && t.charCodeAt(end - 1) !== 0x5c && wellFormed(s)) return end + 1;
  return literal(JSON.stringify(s), t, i);
}

/** A key, compared character for character (short, and what keeps the walk in step). */
function keyAt(key: string, t: string, i: number): number {
  if (ESCAPED.test(key)) return literal(JSON.stringify(key), t, i);
  const end = i + 1 + key.length;
  return t.charCodeAt(i) === 0x22 && t.startsWith(key, i + 1) && t.charCodeAt(end) === 0x22 ? end + 1 : -1;
}

/** Lone surrogates aside, `String.prototype.isWellFormed` (Node 20; ES2024, past this project's TS lib), which answers one-byte strings without reading them. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeWellFormed = (String.prototype as unknown as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const wellFormed: (s: string) => boolean = nativeWellFormed ? (s) => nativeWellFormed.call(s) : (s) => !LONE_SURROGATE.test(s);

function literal(s: string, t: string, i: number): number {
  return t.startsWith(s, i) ? i + s.length : -1;
}
