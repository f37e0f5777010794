/**
 * Leaf tests shared by the hand-written yes/no schema checks (a2a and Gemini stream objects, AG-UI
 * and Responses requests): each mirrors an optional zod leaf exactly, so a check built from them
 * answers "valid" only where the schema would.
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
