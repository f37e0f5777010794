/**
 * Errors in the client's own dialect: the status, headers and body its official SDK reads into its
 * own error class (the library's `encodeError`), and a failed upstream call read back with
 * `decodeError` so its status and message reach the client translated. Mid-stream failures become
 * the dialect's stream error event.
 */
import { decodeError, encodeError, type StreamError, type WireEvent } from '../index.js';
import type { Dialect } from './config.js';

/** A failure the gateway answers with: status, message, the dialect's error type when known. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type?: string,
    /** Extra response headers (retry-after of a 429). */
    readonly headers: Record<string, string> = {},
    /** Validation issues with their JSON paths, for a 400. */
    readonly issues?: unknown,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export interface HttpError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The error as `dialect` writes it. */
export function dialectError(dialect: Dialect, error: StreamError & { status: number }): HttpError {
  return encodeError(dialect, error);
}

/** A Response carrying the error in `dialect`, with `extra` headers (retry-after, losses). */
export function errorResponse(dialect: Dialect, err: GatewayError, extra: Record<string, string> = {}): Response {
  const e: StreamError & { status: number } = { status: err.status, message: err.message };
  if (err.type !== undefined) e.type = err.type;
  const out = dialectError(dialect, e);
  const body = err.issues !== undefined && isObject(out.body) ? withIssues(out.body, err.issues) : out.body;
  const headers = new Headers({ 'content-type': 'application/json', ...out.headers, ...err.headers, ...extra });
  return new Response(JSON.stringify(body), { status: out.status, headers });
}

/** Validation issues go next to the message where the dialect's error object has room for them. */
function withIssues(body: Record<string, unknown>, issues: unknown): unknown {
  const inner = body['error'];
  if (isObject(inner)) return { ...body, error: { ...inner, issues } };
  return { ...body, issues };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const FORWARDED_ERROR_HEADERS = ['retry-after', 'retry-after-ms', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens'];

/**
 * An upstream's failed answer (status + body text) as a GatewayError carrying its status, message
 * and retry-after. `secret` (the upstream's key) is masked should the provider quote it back.
 */
export function upstreamFailure(format: Dialect, status: number, text: string, headers: { get(name: string): string | null }, secret?: string): GatewayError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const decoded: StreamError | undefined = body === undefined ? undefined : decodeError(format, body, status);
  let message = decoded?.message ?? (text.trim() === '' ? `upstream answered ${status}` : text.trim().slice(0, 2000));
  if (secret !== undefined && secret.length >= 8) message = message.split(secret).join('***');
  const kept: Record<string, string> = {};
  for (const name of FORWARDED_ERROR_HEADERS) {
    const v = headers.get(name);
    if (v !== null) kept[name] = v;
  }
  return new GatewayError(status, message, decoded?.type ?? headers.get('x-amzn-errortype')?.split(':')[0], kept);
}

const BEDROCK_STREAM_EXCEPTIONS: Record<number, string> = {
  400: 'validationException',
  429: 'throttlingException',
  503: 'serviceUnavailableException',
};

/** The dialect's mid-stream error event for `error`, which its decoder and its SDK read as the stream's failure. */
export function streamErrorEvent(dialect: Dialect, error: StreamError & { status: number }): WireEvent {
  const body = dialectError(dialect, error).body as Record<string, unknown>;
  switch (dialect) {
    case 'openai-chat':
    case 'gemini':
      return { data: body as never };
    case 'anthropic-messages':
      return { event: 'error', data: body as never };
    case 'openai-responses': {
      const inner = (isObject(body['error']) ? body['error'] : {}) as Record<string, unknown>;
      return {
        event: 'error',
        // The documented fields, and the `error` object the API sends (what openai-node raises).
        data: { type: 'error', code: (inner['code'] as string | null | undefined) ?? (inner['type'] as string | undefined) ?? 'server_error', message: error.message, param: null, error: inner as never, sequence_number: 0 },
      };
    }
    case 'bedrock-converse':
      return { event: BEDROCK_STREAM_EXCEPTIONS[error.status] ?? 'internalServerException', data: { message: error.message }, exception: true };
  }
}
