/** Small Web-standard helpers for the mock upstream: JSON and error answers, waiting, hashing. */
import type { FormatId } from '../../model/format-id.js';
import type { JsonValue } from '../../model/json.js';
import { encodeError } from '../../index.js';

export function jsonResponse(body: JsonValue | string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** An error in the dialect's own shape (status, headers, body), as its official SDK reads it. */
export function errorResponse(format: FormatId, status: number, message: string, type?: string): Response {
  const error = encodeError(format, { status, message, ...(type === undefined ? {} : { type }) });
  return jsonResponse(error.body, error.status, error.headers);
}

/** Resolves after `ms` (at once for 0), or early when `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** FNV-1a (32-bit) of the text as 8 hex digits: ids that follow from the request alone. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
