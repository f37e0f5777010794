/**
 * `stableHash(a) === stableHash(b)` (shared/stable-hash.ts) without rendering either value: the
 * same equality (object key order ignored, members that are undefined left out, other values
 * compared by their JSON.stringify text, `undefined` as the text 'undefined'), found by walking
 * both at once and stopping at the first difference. The encoder asks it of every group it writes
 * under `preserve` (mapping.ts decodesBack), where two hashes cost two renderings of the messages.
 */

const text = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

export function sameAsHashed(a: unknown, b: unknown): boolean {
  if (a === b && (a === null || typeof a !== 'object')) return true;
  const objA = a !== null && typeof a === 'object';
  const objB = b !== null && typeof b === 'object';
  if (!objA || !objB) return !objA && !objB && text(a) === text(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameAsHashed(a[i], other[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue;
    defined++;
    if (!Object.hasOwn(y, key) || !sameAsHashed(x[key], y[key])) return false;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) defined--;
  return defined === 0;
}
