import { z } from 'zod';

/**
 * The fast form of z.json() (register it with withFastCheck): strings, finite numbers, booleans,
 * null, and arrays and plain objects of those. One recursive function rather than z.json()'s lazy
 * union of six options, since tool inputs and results are the bulk of a body.
 */
export function isJsonData(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isJsonData(v[i])) return false;
        return true;
      }
      if (!z.util.isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
      const obj = v as Record<string, unknown>;
      for (const key in obj) if (!Object.hasOwn(obj, key) || !isJsonData(obj[key])) return false;
      return true;
    }
    default:
      return false;
  }
}
