/**
 * Error bodies across dialects: read the error a provider answered with, write one the client's
 * SDK raises as its own error class. The gateway passes an upstream failure on with these, and a
 * stream that arrives as a JSON error body becomes the target dialect's error event.
 */
import { UsageError } from '../model/errors.js';
import type { StreamError } from '../model/stream-event.js';
import type { ErrorCodec, HeaderLookup, HttpErrorBody } from './codec.js';
import { getCodec } from './registry.js';

function errorCodec(format: string): ErrorCodec {
  const codec = getCodec(format);
  if (codec.errors === undefined) throw new UsageError(`format '${format}' has no HTTP error shape`);
  return codec.errors;
}

/** The dialect's error body as a StreamError (with `status` when given), or undefined when `body` is not that dialect's error shape. */
export function decodeError(format: string, body: unknown, status?: number, headers?: HeaderLookup): StreamError | undefined {
  return errorCodec(format).decode(body, status, headers);
}

/** An error written in the dialect: status, headers and JSON body its official SDK reads into its own error class. */
export function encodeError(format: string, error: StreamError & { status: number }): HttpErrorBody {
  return errorCodec(format).encode(error);
}
