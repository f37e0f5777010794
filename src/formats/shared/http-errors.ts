/**
 * What every dialect's error codec shares: reading a header from either a Fetch `Headers` or a
 * plain record, choosing the dialect's own error type for an HTTP status, and building a
 * StreamError without undefined fields (exactOptionalPropertyTypes).
 */
import type { JsonValue } from '../../model/json.js';
import type { StreamError } from '../../model/stream-event.js';
import type { HeaderLookup } from '../codec.js';

export function headerValue(headers: HeaderLookup | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof headers.get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === lower) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/**
 * The dialect's type for a status: an exact entry, else the entry for the status class
 * (`4xx` / `5xx` keys), else `fallback`.
 */
export function typeForStatus(table: Readonly<Record<string, string>>, status: number, fallback: string): string {
  return table[String(status)] ?? table[`${Math.floor(status / 100)}xx`] ?? fallback;
}

/** The error's own type when the dialect knows it, else the dialect's type for the status. */
export function nativeType(types: ReadonlySet<string>, table: Readonly<Record<string, string>>, error: StreamError & { status: number }, fallback: string): string {
  return error.type !== undefined && types.has(error.type) ? error.type : typeForStatus(table, error.status, fallback);
}

export function streamError(message: string, fields: { type?: unknown; code?: unknown; status?: number | undefined; raw: JsonValue }): StreamError {
  const e: StreamError = { message, raw: fields.raw };
  if (typeof fields.type === 'string' && fields.type !== '') e.type = fields.type;
  if (typeof fields.code === 'string' || typeof fields.code === 'number') e.code = fields.code;
  if (fields.status !== undefined) e.status = fields.status;
  return e;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
