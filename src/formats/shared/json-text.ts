/**
 * Whether `JSON.stringify(value)` would give exactly `text`, found without building that string.
 * A codec that must tell whether it would write a body back byte for byte can compare its own
 * object with the text it read: on megabytes of base64 media this saves the serialization and the
 * garbage it leaves (the comparison itself walks the text once, allocation-free for plain strings).
 */
import type { JsonValue } from '../../model/json.js';

/** Control characters: JSON.stringify writes them escaped (quotes, backslashes and lone surrogates are found by indexOf / isWellFormed). */
const CONTROL = /[\u0000-\u001f]/;

export function jsonTextEquals(value: JsonValue | undefined, text: string): boolean {
  return matchAt(value, text, 0, false) === text.length;
}

/**
 * Whether `text` is exactly `JSON.stringify(value)` where `value` is `JSON.parse(text)`: the same
 * answer for that case, cheaper, as plain strings need not be compared (see parsedStringAt).
 */
export function isOwnJsonText(value: JsonValue, text: string): boolean {
  return matchAt(value, text, 0, true) === text.length;
}

/**
 * The index after `value`'s JSON text at `i` in `t`, or -1 when `t` holds something else there.
 * `parsed`: `value` is the parse of `t`, so string values take the cheaper check.
 */
function matchAt(value: JsonValue | undefined, t: string, i: number, parsed: boolean): number {
  if (value === null || value === undefined) return literal('null', t, i);
  switch (typeof value) {
    case 'boolean':
      return literal(value ? 'true' : 'false', t, i);
    case 'number':
      // String(n) is JSON.stringify(n) for finite numbers (same Number::toString), without the
      // serializer's set-up (~10 ns against ~90 ns for a small integer).
      return literal(Number.isFinite(value) ? String(value) : 'null', t, i);
    case 'string':
      return parsed ? parsedStringAt(value, t, i) : stringAt(value, t, i);
    default:
      break;
  }
  // JSON.stringify writes what toJSON returns (a Date, a class instance given by a library caller).
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return -1;
  if (Array.isArray(value)) {
    if (t.charCodeAt(i) !== 0x5b) return -1;
    let at = i + 1;
    for (let k = 0; k < value.length; k++) {
      if (k > 0 && t.charCodeAt(at++) !== 0x2c) return -1;
      at = matchAt(value[k], t, at, parsed);
      if (at < 0) return -1;
    }
    return t.charCodeAt(at) === 0x5d ? at + 1 : -1;
  }
  if (t.charCodeAt(i) !== 0x7b) return -1;
  let at = i + 1;
  let first = true;
  // for-in over own keys visits them in Object.keys order without allocating the key list.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (v === undefined) continue; // JSON.stringify leaves undefined members out
    if (!first && t.charCodeAt(at++) !== 0x2c) return -1;
    first = false;
    // Keys compared character for character (short, and what keeps the walk in step).
    at = stringAt(key, t, at);
    if (at < 0 || t.charCodeAt(at++) !== 0x3a) return -1;
    at = matchAt(v, t, at, parsed);
    if (at < 0) return -1;
  }
  return t.charCodeAt(at) === 0x7d ? at + 1 : -1;
}

function literal(s: string, t: string, i: number): number {
  const end = i + s.length;
  // startsWith compares char by char (~1 ns each); a long slice is a view, and === on strings is a memcmp.
  if (s.length < 32) return t.startsWith(s, i) ? end : -1;
  return end <= t.length && t.substring(i, end) === s ? end : -1;
}

/** Up to this length a string is checked and compared in one loop; longer ones by native scans and a slice compare. */
const SHORT = 64;

function stringAt(s: string, t: string, i: number): number {
  if (t.charCodeAt(i) !== 0x22) return -1;
  const n = s.length;
  if (n <= SHORT) {
    let at = i + 1;
    for (let j = 0; j < n; j++, at++) {
      const c = s.charCodeAt(j);
      if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return literal(JSON.stringify(s), t, i);
      if (t.charCodeAt(at) !== c) return -1;
    }
    return t.charCodeAt(at) === 0x22 ? at + 1 : -1;
  }
  // Native scans only: with no quote, backslash or lone surrogate, `s` is written as is unless it
  // holds a control character, and that scan (the costly one) runs only once the text matched.
  if (s.indexOf('"') < 0 && s.indexOf('\\') < 0 && wellFormed(s)) {
    const end = i + 1 + n;
    if (t.charCodeAt(end) === 0x22 && t.substring(i + 1, end) === s) return CONTROL.test(s) ? -1 : end + 1;
  }
  return literal(JSON.stringify(s), t, i);
}

/**
 * A string value of the text's own parse. The cheap check: the first quote after the opening one
 * is `s.length` characters on and not after a backslash, and `s` has no lone surrogate. That makes
 * the token exactly those characters, so the walk stays in step (a duplicate key fails where its
 * object ends); with no duplicate key the token reads as `s`, which has `s.length` characters, so
 * the token holds no escape: it is `s` as is, with no quote, backslash or control character (JSON
 * text has none raw), which is how JSON.stringify writes it. Else the characters are compared with
 * JSON.stringify's. (No regex scan of `s`: on long plain strings it cost 20x the indexOf.)
 */
function parsedStringAt(s: string, t: string, i: number): number {
  const end = i + 1 + s.length;
  if (t.charCodeAt(i) === 0x22 && t.indexOf('"', i + 1) === end && t.charCodeAt(end - 1) !== 0x5c && wellFormed(s)) return end + 1;
  return literal(JSON.stringify(s), t, i);
}

/** Lone surrogates aside, `String.prototype.isWellFormed` (Node 20; ES2024, past this project's TS lib), which answers one-byte strings without reading them. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeWellFormed = (String.prototype as unknown as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const wellFormed: (s: string) => boolean = nativeWellFormed ? (s) => nativeWellFormed.call(s) : (s) => !LONE_SURROGATE.test(s);

/** Whether tool-call arguments text is JSON; blank text counts: it is the "no arguments" some providers send. */
export function isJsonText(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
