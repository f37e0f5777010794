/**
 * Whether two values have the same stableHash rendering (stable-hash.ts): equal JSON values,
 * key order aside, keys whose value is undefined as absent, a primitive equal to another when its
 * JSON text is ('undefined' when it has none: NaN reads as null). It is what
 * `stableHash(a) === stableHash(b)` asks, without its collisions and without reading all of both:
 * it stops at the first difference, and a value shared by both (the same string, the same object)
 * is not read at all. The "does this come back the same" checks of `preserve` ask it per message.
 */
export function sameRendering(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const aObject = a !== null && typeof a === 'object';
  const bObject = b !== null && typeof b === 'object';
  if (!aObject || !bObject) {
    // Two different strings render differently, and a string never renders as another primitive.
    if (aObject || bObject || typeof a === 'string' || typeof b === 'string') return false;
    return (JSON.stringify(a) ?? 'undefined') === (JSON.stringify(b) ?? 'undefined');
  }
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) return sameItems(a as unknown[], b as unknown[]);
  return sameFields(a as Record<string, unknown>, b as Record<string, unknown>);
}

function sameItems(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameRendering(a[i], b[i])) return false;
  return true;
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let defined = 0;
  for (const key of Object.keys(a)) {
    const value = a[key];
    if (value === undefined) continue;
    defined++;
    if (!isEnumerable.call(b, key) || !sameRendering(value, b[key])) return false;
  }
  for (const key of Object.keys(b)) if (b[key] !== undefined) defined--;
  return defined === 0;
}
