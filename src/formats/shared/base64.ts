/**
 * Base64 text as RFC 4648 allows it: the standard or the URL-safe alphabet, padded or not, never
 * a lone trailing character (no length of 4n + 1). Whitespace is not part of it.
 */
export const BASE64_TEXT = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;

const STANDARD = /^[A-Za-z0-9+/]*$/;

/**
 * The same bytes as standard, padded base64 (the only form some targets accept, e.g. a Smithy blob
 * for Bedrock), or undefined when `data` is not base64 at all. Returns `data` itself when it is
 * already in that form, so callers can tell whether anything changed by identity.
 */
export function standardBase64(data: string): string | undefined {
  const body = data.endsWith('==') ? data.slice(0, -2) : data.endsWith('=') ? data.slice(0, -1) : data;
  if (STANDARD.test(body) && data.length % 4 === 0) return data;
  if (!BASE64_TEXT.test(data)) return undefined;
  const std = body.replace(/-/g, '+').replace(/_/g, '/');
  return std + '='.repeat((4 - (std.length % 4)) % 4);
}
