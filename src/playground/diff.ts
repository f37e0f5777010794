/**
 * Where two JSON values differ, as JSON paths (for the round-trip view): objects by key, arrays by
 * index, anything else by value. Order of object keys does not count (JSON does not give it meaning).
 */
import type { Path } from '../model/loss.js';

const LIMIT = 50;

export function jsonDiff(a: unknown, b: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (out.length >= LIMIT) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length || i >= b.length) out.push([...path, i]);
      else jsonDiff(a[i], b[i], [...path, i], out);
    }
    return out;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a) || !(k in b)) out.push([...path, k]);
      else jsonDiff(a[k], b[k], [...path, k], out);
    }
    return out;
  }
  if (!Object.is(a, b)) out.push(path);
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
