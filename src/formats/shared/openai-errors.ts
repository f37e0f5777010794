/**
 * OpenAI's error body, shared by Chat Completions and Responses (one API, one shape):
 * `{"error": {"message", "type", "param", "code"}}`. The `openai` SDK picks its error class by
 * status and reads `error.message`, `type` and `code` from it.
 */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import type { ErrorCodec } from '../codec.js';
import { JSON_HEADERS, streamError, typeForStatus } from './http-errors.js';

const TYPE_BY_STATUS: Readonly<Record<string, string>> = {
  '429': 'requests',
  '4xx': 'invalid_request_error',
  '5xx': 'server_error',
};

/** Codes OpenAI sends for statuses a client handles differently. */
const CODE_BY_STATUS: Readonly<Record<string, string>> = {
  '401': 'invalid_api_key',
  '429': 'rate_limit_exceeded',
};

const TYPES = new Set(['invalid_request_error', 'requests', 'tokens', 'insufficient_quota', 'server_error', 'authentication_error', 'permission_error', 'not_found_error', 'rate_limit_error']);

export const openaiErrors: ErrorCodec = {
  decode(body, status) {
    if (!isJsonObject(body) || !isJsonObject(body['error'])) return undefined;
    const e = body['error'];
    if (typeof e['message'] !== 'string') return undefined;
    return streamError(e['message'], { type: e['type'], code: e['code'], status, raw: body });
  },
  encode(error) {
    const type = error.type !== undefined && TYPES.has(error.type) ? error.type : typeForStatus(TYPE_BY_STATUS, error.status, 'server_error');
    const code: JsonValue = typeof error.code === 'string' ? error.code : (CODE_BY_STATUS[String(error.status)] ?? null);
    return { status: error.status, headers: { ...JSON_HEADERS }, body: { error: { message: error.message, type, param: null, code } } };
  },
};
