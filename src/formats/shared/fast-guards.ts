/**
 * Tests shared by the hand-written yes/no schema checks (a2a and Gemini stream objects, AG-UI and
 * Responses requests, agentcore-memory blob contents) and the memory event checks: each leaf test
 * mirrors an optional zod leaf exactly, so a check built from them answers "valid" only where the
 * schema would.
 */

/** `z.string().optional()`: absent (undefined) or a string. */
export function optString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

/** `z.boolean().optional()`. */
export function optBoolean(v: unknown): boolean {
  return v === undefined || typeof v === 'boolean';
}

/** `z.array(z.string()).optional()`. */
export function optStrings(v: unknown): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

/**
 * An object on Object.prototype or on none (what JSON.parse makes; arrays and class instances are
 * not): its own enumerable keys are all that a walk over it must see.
 */
export function plainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
