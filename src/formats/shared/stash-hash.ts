/**
 * The fingerprint a preserve stash carries of the wire content it was written for (message stashes,
 * Anthropic's response `$hash`, agentcore-memory's `$hash`): a change detector, not cryptographic.
 *
 * It sees values as stableHash does (key order and keys holding undefined ignored, each primitive
 * by its JSON text) and walks them the same way into an FNV-1a state, but each string carries its
 * length up front (so no escaping is needed), and the chars of strings of LONG chars or more are
 * not fed one by one: they are joined and go in at the end as one native CRC-32 of their UTF-8
 * bytes (node:zlib, ~0.25 ns a char, where the JS loop costs ~2.5 ns and SHA-1 ~0.6). The lengths
 * fed in the walk say where each joined string stood, so the rendering stays unambiguous. Each FNV
 * step is a bijection of the state, so two renderings that differ in one CRC differ in the result,
 * and a CRC differs for any one edit of up to 32 bits.
 *
 * Earlier versions wrote the same walk with 8 bytes of a SHA-1 in place of the CRC, and before that
 * stableHash values: stashHashMatches accepts both, so stored stashes still apply.
 */
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import { crc32 } from './crc32.js';
import { stableHash } from './stable-hash.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** From this length on a string's chars go to the digest (64-200 measured alike; 32 and below slower). */
const LONG = 64;

/** Whether a string has no lone surrogate (UTF-8 would turn each into U+FFFD, hiding a change). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** How the joined long strings enter the state (given a well-formed string). */
type Feed = (h: number, s: string) => number;

/** CRC-32 (IEEE) of the string's UTF-8 bytes. `zlib.crc32` is Node >= 20.15; before it, the table sum. */
const nativeCrc32 = (zlib as unknown as { crc32?: (s: string) => number }).crc32;
export const tableStringCrc32 = (s: string): number => crc32(Buffer.from(s, 'utf8'));
export const stringCrc32: (s: string) => number = typeof nativeCrc32 === 'function' ? (s) => nativeCrc32(s) : tableStringCrc32;

const feedCrc: Feed = (h, s) => Math.imul(h ^ stringCrc32(s), FNV_PRIME);

/** The earlier versions' feed: 8 bytes of the SHA-1 ('binary' chars). `crypto.hash` is Node >= 20.12. */
const nativeHash = typeof crypto.hash === 'function' ? crypto.hash : undefined;
const sha1: (s: string) => string =
  nativeHash !== undefined ? (s) => nativeHash('sha1', s, 'binary') : (s) => crypto.createHash('sha1').update(s, 'utf8').digest('binary');
const feedSha1: Feed = (h, s) => {
  const d = sha1(s);
  for (let i = 0; i < 8; i++) h = Math.imul(h ^ d.charCodeAt(i), FNV_PRIME);
  return h;
};

/**
 * Chars of the long strings met so far in this walk, joined (V8 joins by reference: the copy is made
 * once, for the digest). Flushed into the state past JOINED_MAX chars to bound that copy.
 */
let joined = '';
const JOINED_MAX = 1 << 20;
/** The walk's feed for joined strings: this version's CRC, or SHA-1 when checking an older hash. */
let feedJoined: Feed = feedCrc;

export function stashHash(value: unknown): string {
  return hashWith(feedCrc, value);
}

function hashWith(feed: Feed, value: unknown): string {
  joined = '';
  feedJoined = feed;
  let h = walk(value, FNV_OFFSET);
  if (joined.length > 0) h = feedDigest(h, joined);
  joined = '';
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * Whether `hash` is the fingerprint of `value`: this version's, or (only when that does not match,
 * so the slow paths cost on a mismatch alone) the SHA-1 walk or the stableHash that earlier
 * versions wrote.
 */
export function stashHashMatches(value: unknown, hash: unknown): boolean {
  return typeof hash === 'string' && (stashHash(value) === hash || hashWith(feedSha1, value) === hash || stableHash(value) === hash);
}

function feedText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** The joined chars through the feed, or one by one if they hold a lone surrogate. */
function feedDigest(h: number, s: string): number {
  return wellFormed(s) ? feedJoined(h, s) : feedText(h, s);
}

/** `"` and the length, then the chars, or for a long string nothing yet (its chars are joined). */
function feedString(h: number, s: string): number {
  const n = s.length;
  h = Math.imul(Math.imul(h ^ 34, FNV_PRIME) ^ n, FNV_PRIME);
  if (n < LONG) return feedText(h, s);
  if (joined.length + n > JOINED_MAX && joined.length > 0) {
    h = feedDigest(h, joined);
    joined = '';
  }
  joined += s;
  return h;
}

function walk(v: unknown, h: number): number {
  if (typeof v === 'string') return feedString(h, v);
  if (v === null || typeof v !== 'object') return feedPrimitive(h, v);
  if (Array.isArray(v)) {
    h = Math.imul(h ^ 91, FNV_PRIME); // [
    for (let i = 0; i < v.length; i++) h = Math.imul(walk(v[i], h) ^ 44, FNV_PRIME); // item ,
    return Math.imul(h ^ 93, FNV_PRIME); // ]
  }
  const obj = v as Record<string, unknown>;
  const keys = sortKeys(Object.keys(obj));
  h = Math.imul(h ^ 123, FNV_PRIME); // {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = obj[key];
    if (item === undefined) continue;
    h = Math.imul(feedString(h, key) ^ 58, FNV_PRIME); // key :
    h = Math.imul(walk(item, h) ^ 44, FNV_PRIME); // value ,
  }
  return Math.imul(h ^ 125, FNV_PRIME); // }
}

/**
 * A primitive other than a string, as a tag above any char code (and an int32 after the int tag, a
 * number's text after the number tag, which `,` always follows): equal exactly when the JSON texts
 * are (NaN and the infinities are null, -0 is 0), without writing the text out for most of them.
 */
function feedPrimitive(h: number, v: unknown): number {
  if (typeof v === 'number') {
    if ((v | 0) === v) return Math.imul(Math.imul(h ^ 0x10003, FNV_PRIME) ^ v, FNV_PRIME);
    if (Number.isFinite(v)) return feedText(Math.imul(h ^ 0x10004, FNV_PRIME), String(v));
    v = null;
  }
  if (v === null) return Math.imul(h ^ 0x10000, FNV_PRIME);
  if (v === true) return Math.imul(h ^ 0x10001, FNV_PRIME);
  if (v === false) return Math.imul(h ^ 0x10002, FNV_PRIME);
  // undefined, and what JSON cannot write (a function or symbol reads as undefined; a bigint throws).
  return feedText(Math.imul(h ^ 0x10005, FNV_PRIME), JSON.stringify(v) ?? 'undefined');
}

/**
 * The keys in the order Array.prototype.sort gives them (by UTF-16 code units, which is what `<`
 * compares); insertion sort in place, cheaper than the built-in sort on the few keys of a wire object.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 12) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}
