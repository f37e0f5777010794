/**
 * A short fingerprint of a JSON value that ignores key order, so a preserve stash can tell whether
 * the visible body it was written for has been edited since. FNV-1a over a canonical rendering:
 * not cryptographic, only a change detector.
 */
export function stableHash(value: unknown): string {
  let h = 0x811c9dc5;
  const feed = (s: string): void => {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  };
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      feed(JSON.stringify(v) ?? 'undefined');
      return;
    }
    if (Array.isArray(v)) {
      feed('[');
      for (const item of v) {
        walk(item);
        feed(',');
      }
      feed(']');
      return;
    }
    const obj = v as Record<string, unknown>;
    feed('{');
    for (const key of Object.keys(obj).sort()) {
      if (obj[key] === undefined) continue;
      feed(JSON.stringify(key));
      feed(':');
      walk(obj[key]);
      feed(',');
    }
    feed('}');
  };
  walk(value);
  return (h >>> 0).toString(16).padStart(8, '0');
}
