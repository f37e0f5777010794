import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';

/** The body as a JSON object, or a ValidationError at the root saying what it was instead. */
export function requireObject(body: unknown): JsonObject {
  if (isJsonObject(body)) return body;
  const received = body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body;
  throw new ValidationError([{ code: 'invalid_type', path: [], message: `expected a JSON object, received ${received}`, expected: 'object', received }]);
}
