/**
 * Anthropic's error body: `{"type": "error", "error": {"type", "message"}, "request_id"?}`, the
 * same object a stream sends in its `error` event. The SDK picks its error class by status and
 * reads `error.type` and `error.message`.
 */
import { isJsonObject } from '../../model/json.js';
import type { ErrorCodec } from '../codec.js';
import { JSON_HEADERS, nativeType, streamError } from '../shared/http-errors.js';

// https://docs.anthropic.com/en/api/errors
const TYPE_BY_STATUS: Readonly<Record<string, string>> = {
  '400': 'invalid_request_error',
  '401': 'authentication_error',
  '402': 'billing_error',
  '403': 'permission_error',
  '404': 'not_found_error',
  '413': 'request_too_large',
  '429': 'rate_limit_error',
  '504': 'timeout_error',
  '529': 'overloaded_error',
  '4xx': 'invalid_request_error',
  '5xx': 'api_error',
};

const TYPES = new Set(Object.values(TYPE_BY_STATUS));

export const anthropicErrors: ErrorCodec = {
  decode(body, status) {
    if (!isJsonObject(body) || body['type'] !== 'error' || !isJsonObject(body['error'])) return undefined;
    const e = body['error'];
    if (typeof e['message'] !== 'string') return undefined;
    return streamError(e['message'], { type: e['type'], status, raw: body });
  },
  encode(error) {
    const type = nativeType(TYPES, TYPE_BY_STATUS, error, 'api_error');
    return { status: error.status, headers: { ...JSON_HEADERS }, body: { type: 'error', error: { type, message: error.message } } };
  },
};
