/**
 * A short fingerprint of a JSON value that ignores key order, so a preserve stash can tell whether
 * the visible body it was written for has been edited since. FNV-1a over a canonical rendering:
 * not cryptographic, only a change detector.
 *
 * The rendering: a primitive is its JSON text (`undefined` for what JSON cannot write), an array
 * `[` item `,` ... `]`, an object `{` "key" `:` value `,` ... `}` in sorted key order, keys holding
 * undefined left out. Stashes written earlier carry these hashes, so the rendering must not change;
 * it is fed to the hash as it is walked, without building the text or a closure per call.
 */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function stableHash(value: unknown): string {
  return (walk(value, FNV_OFFSET) >>> 0).toString(16).padStart(8, '0');
}

function feedCode(h: number, code: number): number {
  return Math.imul(h ^ code, FNV_PRIME);
}

function feedText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * A string's JSON text: `"` + the string + `"` when nothing in it is escaped (nearly always), fed
 * straight from the string; otherwise the text JSON.stringify writes.
 */
function feedString(h: number, s: string): number {
  const start = h;
  h = feedCode(h, 34); // "
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Escaped by JSON.stringify: controls, '"', '\', and lone surrogates (any surrogate sends the
    // string to the slow path, which is exact for pairs too).
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return feedText(start, JSON.stringify(s));
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return feedCode(h, 34);
}

function walk(v: unknown, h: number): number {
  if (typeof v === 'string') return feedString(h, v);
  if (v === null || typeof v !== 'object') return feedText(h, JSON.stringify(v) ?? 'undefined');
  if (Array.isArray(v)) {
    h = feedCode(h, 91); // [
    for (const item of v) h = feedCode(walk(item, h), 44); // item ,
    return feedCode(h, 93); // ]
  }
  const obj = v as Record<string, unknown>;
  h = feedCode(h, 123); // {
  for (const key of Object.keys(obj).sort()) {
    const item = obj[key];
    if (item === undefined) continue;
    h = feedCode(feedString(h, key), 58); // "key" :
    h = feedCode(walk(item, h), 44); // value ,
  }
  return feedCode(h, 125); // }
}
