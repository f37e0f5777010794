/**
 * AG-UI TokenUsage[] <-> canonical usage. AG-UI counts as the canonical model does (inputTokens
 * includes cache reads and writes, outputTokens includes reasoning), so fields map one to one; a
 * run with several entries (one per provider and model) is their sum, as AG-UI tells consumers who
 * want totals to do. The entries themselves ride along as a hint so AG-UI -> AG-UI is exact.
 */
import type { JsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { AG_UI } from './ag-ui-api.js';
import { childPath } from '../shared/child-path.js';

const FIELDS = [
  ['inputTokens', 'inputTokens'],
  ['outputTokens', 'outputTokens'],
  ['totalTokens', 'totalTokens'],
  ['reasoningTokens', 'reasoningTokens'],
  ['cachedInputTokens', 'cacheReadTokens'],
  ['cacheWriteInputTokens', 'cacheWriteTokens'],
] as const;

/** The canonical counts of a run's usage entries (validated by the event schema). */
export function decodeUsage(entries: JsonObject[]): Partial<Usage> {
  const out: Partial<Usage> = {};
  for (const [wire, canonical] of FIELDS) {
    for (const entry of entries) {
      const v = entry[wire];
      if (typeof v === 'number') out[canonical] = (out[canonical] ?? 0) + v;
    }
  }
  const [first] = entries;
  if (first !== undefined) out.raw = entries.length === 1 ? first : { usage: entries };
  out.ext = { [AG_UI]: { $usage: entries } };
  return out;
}

/**
 * The entries for a run's canonical usage: the decoded entries when they still add up to it,
 * else one entry from the canonical counts (with the model, when the stream named one).
 */
export function encodeUsage(usage: Partial<Usage>, model: string | undefined, losses: LossSink, path: (string | number)[]): JsonObject[] {
  const own = usage.ext?.[AG_UI]?.['$usage'];
  if (Array.isArray(own) && own.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e))) {
    const entries = own as JsonObject[];
    const sums = decodeUsage(entries);
    if (FIELDS.every(([, c]) => sums[c] === usage[c])) return entries;
  }
  const entry: JsonObject = {};
  if (model !== undefined) entry['model'] = model;
  for (const [wire, canonical] of FIELDS) {
    const v = usage[canonical];
    if (v === undefined) continue;
    if (Number.isInteger(v) && v >= 0) entry[wire] = v;
    else losses.push({ code: 'invalid-usage', path: childPath(path, canonical), message: `${canonical} ${v} is not a token count AG-UI accepts`, action: 'dropped' });
  }
  return [entry];
}
