/**
 * ConverseStream wire facts the stream decoder and encoder share (Smithy ConverseStreamOutput):
 * event and exception names, payload checks that name the wire event they fail on, and the
 * mapping of other dialects' error types onto Bedrock's exceptions.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { StreamError } from '../../model/stream-event.js';
import { childPath } from '../shared/child-path.js';

/** The exception members of ConverseStreamOutput, as `:exception-type` names them. */
export const EXCEPTIONS: ReadonlySet<string> = new Set([
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
]);

/** Every payload may carry a padding field `p` (random length, against traffic analysis): never meaningful. */
export const PADDING = 'p';

export const START_MEMBERS: ReadonlySet<string> = new Set(['toolUse', 'toolResult', 'image']);
export const DELTA_MEMBERS: ReadonlySet<string> = new Set(['text', 'toolUse', 'toolResult', 'reasoningContent', 'citation', 'image']);
export const REASONING_MEMBERS: ReadonlySet<string> = new Set(['text', 'signature', 'redactedContent']);

export function fail(at: number, path: (string | number)[], message: string): never {
  throw new ValidationError([{ code: 'invalid_stream_event', path: [at, ...path], message: `wire event ${at}: ${message}` }]);
}

/** The event's payload, which must be a JSON object. */
export function payloadOf(data: JsonValue, at: number, event: string): JsonObject {
  if (!isJsonObject(data)) fail(at, ['data'], `the ${event} payload is not an object`);
  return data;
}

export function indexOf(p: JsonObject, at: number, event: string): number {
  const i = p['contentBlockIndex'];
  if (typeof i !== 'number' || !Number.isInteger(i) || i < 0) fail(at, ['contentBlockIndex'], `${event} needs contentBlockIndex, a non-negative integer`);
  return i;
}

export function objectAt(obj: JsonObject, key: string, at: number, path: (string | number)[], what: string): JsonObject {
  const v = obj[key];
  if (!isJsonObject(v)) fail(at, childPath(path, key), `${what} must be an object`);
  return v;
}

export function stringAt(obj: JsonObject, key: string, at: number, path: (string | number)[], what: string): string {
  const v = obj[key];
  if (typeof v !== 'string') fail(at, childPath(path, key), `${what} must be a string`);
  return v;
}

/** The bytes of several base64 chunks as one base64 text (a chunk boundary need not fall on 3 bytes). */
export function concatBase64(chunks: readonly string[]): string {
  if (chunks.length === 1) return chunks[0] as string;
  return Buffer.concat(chunks.map((c) => Buffer.from(c, 'base64'))).toString('base64');
}

/** The bytes of `full` after those of `prefix`, as base64, or undefined when `prefix` is not a prefix. */
export function base64After(full: string, prefix: string): string | undefined {
  const a = Buffer.from(full, 'base64');
  const b = Buffer.from(prefix, 'base64');
  if (b.length > a.length || !a.subarray(0, b.length).equals(b)) return undefined;
  return a.subarray(b.length).toString('base64');
}

/** Other dialects' error types and HTTP codes -> the Bedrock exception that means the same. */
const BY_TYPE: Readonly<Record<string, string>> = {
  overloaded_error: 'serviceUnavailableException',
  rate_limit_error: 'throttlingException',
  rate_limit_exceeded: 'throttlingException',
  invalid_request_error: 'validationException',
  api_error: 'internalServerException',
  server_error: 'internalServerException',
  RESOURCE_EXHAUSTED: 'throttlingException',
  UNAVAILABLE: 'serviceUnavailableException',
  INVALID_ARGUMENT: 'validationException',
};
const BY_STATUS: Readonly<Record<number, string>> = {
  400: 'validationException',
  424: 'modelStreamErrorException',
  429: 'throttlingException',
  500: 'internalServerException',
  503: 'serviceUnavailableException',
  529: 'serviceUnavailableException',
};

/** The exception to write for a canonical error, and whether it is the error's own Bedrock type. */
export function exceptionFor(error: StreamError): { type: string; own: boolean } {
  if (error.type !== undefined && EXCEPTIONS.has(error.type)) return { type: error.type, own: true };
  // The same exception as Bedrock's HTTP API names it (`ValidationException`, x-amzn-ErrorType).
  const camel = error.type === undefined ? undefined : `${error.type.charAt(0).toLowerCase()}${error.type.slice(1)}`;
  if (camel !== undefined && EXCEPTIONS.has(camel)) return { type: camel, own: true };
  const byType = error.type === undefined ? undefined : BY_TYPE[error.type];
  const status = error.status ?? (typeof error.code === 'number' ? error.code : Number(error.code));
  return { type: byType ?? BY_STATUS[status] ?? 'internalServerException', own: false };
}
