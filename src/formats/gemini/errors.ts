/**
 * Gemini's error body, Google's RPC status: `{"error": {"code": <HTTP status>, "message",
 * "status": "<RPC code name>", "details"?}}`. A `:streamGenerateContent` call without `alt=sse`
 * answers a JSON array, so a one-element array of it is read too. The Gen AI SDK raises
 * `ApiError` with the HTTP status and the body as its message when the content type is JSON.
 */
import { isJsonObject } from '../../model/json.js';
import type { ErrorCodec } from '../codec.js';
import { JSON_HEADERS, nativeType, streamError } from '../shared/http-errors.js';

// google.rpc.Code names by the HTTP status Google's APIs map them to.
const STATUS_BY_HTTP: Readonly<Record<string, string>> = {
  '400': 'INVALID_ARGUMENT',
  '401': 'UNAUTHENTICATED',
  '403': 'PERMISSION_DENIED',
  '404': 'NOT_FOUND',
  '409': 'ABORTED',
  '413': 'INVALID_ARGUMENT',
  '429': 'RESOURCE_EXHAUSTED',
  '499': 'CANCELLED',
  '500': 'INTERNAL',
  '501': 'UNIMPLEMENTED',
  '503': 'UNAVAILABLE',
  '504': 'DEADLINE_EXCEEDED',
  '4xx': 'FAILED_PRECONDITION',
  '5xx': 'INTERNAL',
};

const RPC_CODES = new Set([...Object.values(STATUS_BY_HTTP), 'OUT_OF_RANGE', 'ALREADY_EXISTS', 'DATA_LOSS', 'UNKNOWN']);

export const geminiErrors: ErrorCodec = {
  decode(body, status) {
    const one = Array.isArray(body) && body.length === 1 ? body[0] : body;
    if (!isJsonObject(one) || !isJsonObject(one['error'])) return undefined;
    const e = one['error'];
    if (typeof e['message'] !== 'string') return undefined;
    const http = typeof e['code'] === 'number' ? e['code'] : undefined;
    return streamError(e['message'], { type: e['status'], code: e['code'], status: status ?? http, raw: body as never });
  },
  encode(error) {
    const rpc = nativeType(RPC_CODES, STATUS_BY_HTTP, error, 'INTERNAL');
    return { status: error.status, headers: { ...JSON_HEADERS }, body: { error: { code: error.status, message: error.message, status: rpc } } };
  },
};
