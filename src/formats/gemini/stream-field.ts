/**
 * A field of a streamed part in either spelling, both written out at the call: `field`
 * (validate.ts) works out the snake_case name (a memo lookup) at each read that misses, and a
 * streamed call's part and its PartialArg miss a dozen a chunk (willContinue, numberValue, ...).
 * Names with one spelling (name, id, args, text) are read as they are.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export function either(obj: JsonObject, camel: string, snake: string): JsonValue | undefined {
  const v = obj[camel];
  return v !== undefined ? v : obj[snake];
}
