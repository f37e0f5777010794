/**
 * Minimal error shapes per dialect, used only while the library has no error codec for a dialect
 * (the codecs land from branch `errors`; once they do, `encodeError`/`decodeError` answer first).
 */
import type { StreamError } from '../index.js';
import type { Dialect } from './config.js';
import type { HttpError } from './errors.js';

const ANTHROPIC: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error' };
const OPENAI: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_denied', 404: 'not_found_error', 413: 'invalid_request_error', 422: 'invalid_request_error', 429: 'rate_limit_exceeded' };
const GOOGLE: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 413: 'INVALID_ARGUMENT', 422: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };
const BEDROCK: Record<number, string> = { 400: 'ValidationException', 401: 'AccessDeniedException', 403: 'AccessDeniedException', 404: 'ResourceNotFoundException', 413: 'ValidationException', 422: 'ValidationException', 424: 'ModelErrorException', 429: 'ThrottlingException', 503: 'ServiceUnavailableException', 504: 'ModelTimeoutException' };

export function fallbackEncode(dialect: Dialect, e: StreamError & { status: number }): HttpError {
  const { status, message } = e;
  switch (dialect) {
    case 'openai-chat':
    case 'openai-responses':
      return { status, headers: {}, body: { error: { message, type: e.type ?? OPENAI[status] ?? 'server_error', param: null, code: e.code ?? null } } };
    case 'anthropic-messages':
      return { status, headers: {}, body: { type: 'error', error: { type: e.type ?? ANTHROPIC[status] ?? 'api_error', message } } };
    case 'gemini':
      return { status, headers: {}, body: { error: { code: status, message, status: GOOGLE[status] ?? 'INTERNAL' } } };
    case 'bedrock-converse': {
      const name = BEDROCK[status] ?? 'InternalServerException';
      return { status, headers: { 'x-amzn-errortype': name }, body: { message } };
    }
  }
}

export function fallbackDecode(body: unknown, headers: Headers): StreamError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const inner = typeof b['error'] === 'object' && b['error'] !== null ? (b['error'] as Record<string, unknown>) : b;
  const message = inner['message'] ?? inner['Message'];
  if (typeof message !== 'string') return undefined;
  const out: StreamError = { message };
  const type = inner['type'] ?? inner['status'] ?? headers.get('x-amzn-errortype')?.split(':')[0];
  if (typeof type === 'string') out.type = type;
  return out;
}
