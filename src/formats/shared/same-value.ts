/**
 * Whether two values are the same as stableHash sees them (key order and keys holding undefined
 * ignored; each primitive compared by its JSON text), answered by walking both at once and stopping
 * at the first difference instead of hashing both whole. For "would decoding give this back?"
 * checks, which run per message under preserve. Unlike comparing two 32-bit hashes, it never
 * calls different values equal.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const objA = a !== null && typeof a === 'object';
  const objB = b !== null && typeof b === 'object';
  if (!objA || !objB) {
    // Two different strings have different JSON texts: no need to write them out.
    if (typeof a === 'string' && typeof b === 'string') return false;
    return !objA && !objB && primitiveText(a) === primitiveText(b);
  }
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const listA = a as unknown[];
    const listB = b as unknown[];
    if (listA.length !== listB.length) return false;
    for (let i = 0; i < listA.length; i++) if (!sameValue(listA[i], listB[i])) return false;
    return true;
  }
  const recA = a as Record<string, unknown>;
  const recB = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(recA)) {
    const value = recA[key];
    if (value === undefined) continue;
    count++;
    const other = recB[key];
    if (other === undefined || !Object.hasOwn(recB, key) || !sameValue(value, other)) return false;
  }
  for (const key of Object.keys(recB)) if (recB[key] !== undefined) count--;
  return count === 0;
}

/** A primitive as stableHash renders it (NaN and the infinities read as null, as in JSON). */
function primitiveText(v: unknown): string {
  return JSON.stringify(v) ?? 'undefined';
}
