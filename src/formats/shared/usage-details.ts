/**
 * OpenAI's usage details objects (`input_tokens_details`, `prompt_tokens_details`, ...) hold the
 * counters the canonical usage has slots for (cached, cache-write and reasoning tokens), and
 * sometimes counters of their own (`audio_tokens`, per-turn lists). Kept whole as residue, they were
 * reported as dropped by every other target although nothing in them was lost. A details object
 * whose every key is such a counter is kept for the way back under a hint instead (hints are not
 * reported); one with a counter of its own stays residue, and is reported where it cannot go.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import { residue } from './residue.js';

/** A details object of a usage body, the hint it is kept under when it holds only `mapped` counters, and those. */
export interface DetailsSlot {
  key: string;
  hint: string;
  mapped: readonly string[];
}

/** The counters of an input (prompt) details object that the canonical usage holds. */
export const INPUT_COUNTERS: readonly string[] = ['cached_tokens', 'cache_write_tokens'];
/** The counter of an output (completion) details object that the canonical usage holds. */
export const OUTPUT_COUNTERS: readonly string[] = ['reasoning_tokens'];

function mappedOnly(details: JsonValue | undefined, mapped: readonly string[]): boolean {
  if (!isJsonObject(details)) return false;
  for (const k in details) if (!mapped.includes(k) || typeof details[k] !== 'number') return false;
  return true;
}

/**
 * `residue(u, known)` with each details object of `slots` that holds only its mapped counters under
 * the slot's hint instead of its key: one object built, nothing deleted or copied (a deleted key
 * would leave the residue a slow V8 dictionary, read again by every target's residue report).
 */
export function usageResidue(u: JsonObject, known: ReadonlySet<string>, slots: readonly DetailsSlot[]): JsonObject | undefined {
  let hinted: DetailsSlot[] | undefined;
  for (const s of slots) if (mappedOnly(u[s.key], s.mapped)) (hinted ??= []).push(s);
  if (hinted === undefined) return residue(u, known);
  const moved = hinted;
  let rest = residue(u, known, (key) => moved.some((s) => s.key === key));
  for (const s of moved) (rest ??= {})[s.hint] = u[s.key] as JsonValue;
  return rest;
}

/** The details object the decoder kept for the slot: as residue, or under its hint. */
export function keptDetails(rest: JsonObject | undefined, slot: DetailsSlot): JsonObject[string] | undefined {
  return rest?.[slot.key] ?? rest?.[slot.hint];
}
