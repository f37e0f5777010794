/**
 * OpenAI's usage details objects (`input_tokens_details`, `prompt_tokens_details`, ...) hold the
 * counters the canonical usage has slots for (cached, cache-write and reasoning tokens), and
 * sometimes counters of their own (`audio_tokens`, per-turn lists). Kept whole as residue, they were
 * reported as dropped by every other target although nothing in them was lost. A details object
 * whose every key is such a counter is kept for the way back under a hint instead (hints are not
 * reported); one with a counter of its own stays residue, and is reported where it cannot go.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import { withoutKey } from './delete-keys.js';

/** `rest` (a residue object) with `rest[key]` moved to `rest[hint]` when it holds only `mapped` numbers (a new object then). */
export function mappedDetailsAsHint(rest: JsonObject | undefined, key: string, hint: string, mapped: readonly string[]): JsonObject | undefined {
  const details = rest?.[key];
  if (rest === undefined || !isJsonObject(details)) return rest;
  for (const k in details) if (!mapped.includes(k) || typeof details[k] !== 'number') return rest;
  // A copy, not `delete`: deleting a key other than the last turns the object into a dictionary,
  // and every later read of it (the residue report, the encoders' for-in walks) is slower.
  const out = withoutKey(rest, key);
  out[hint] = details;
  return out;
}

/** The details object the decoder kept for `key`: as residue, or under `hint`. */
export function keptDetails(rest: JsonObject | undefined, key: string, hint: string): JsonObject[string] | undefined {
  return rest?.[key] ?? rest?.[hint];
}
