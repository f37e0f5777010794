/**
 * Usage <-> Responses `usage`. input_tokens already includes cached tokens and output_tokens
 * includes reasoning tokens, which is the canonical convention: no arithmetic. The details
 * objects are residue with the canonical counts written over them, so unknown detail fields
 * (e.g. a provider's extra counters) survive; missing details are filled with 0 as the spec
 * requires them. Details holding only those counts are kept under hints (shared/usage-details.ts),
 * so another target does not report them as dropped.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { INPUT_COUNTERS, keptDetails, OUTPUT_COUNTERS, usageResidue, type DetailsSlot } from '../shared/usage-details.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';

const OR = OPENAI_RESPONSES;
const USAGE_KEYS = new Set(['input_tokens', 'output_tokens', 'total_tokens']);
const INPUT_DETAILS: DetailsSlot = { key: 'input_tokens_details', hint: '$inputDetails', mapped: INPUT_COUNTERS };
const OUTPUT_DETAILS: DetailsSlot = { key: 'output_tokens_details', hint: '$outputDetails', mapped: OUTPUT_COUNTERS };
const DETAILS = [INPUT_DETAILS, OUTPUT_DETAILS];

export function decodeUsage(u: JsonObject): Usage {
  const usage: Usage = { inputTokens: u['input_tokens'] as number, outputTokens: u['output_tokens'] as number };
  if (typeof u['total_tokens'] === 'number') usage.totalTokens = u['total_tokens'];
  const inDetails = u['input_tokens_details'];
  if (isJsonObject(inDetails)) {
    if (typeof inDetails['cached_tokens'] === 'number') usage.cacheReadTokens = inDetails['cached_tokens'];
    if (typeof inDetails['cache_write_tokens'] === 'number') usage.cacheWriteTokens = inDetails['cache_write_tokens'];
  }
  const outDetails = u['output_tokens_details'];
  if (isJsonObject(outDetails) && typeof outDetails['reasoning_tokens'] === 'number') usage.reasoningTokens = outDetails['reasoning_tokens'];
  usage.raw = u; // as received, shared rather than copied
  let rest = usageResidue(u, USAGE_KEYS, DETAILS);
  // What the encoder would otherwise fill in for another origin's usage.
  for (let k = 0; k < ABSENT.length; k++) {
    const [key, hint] = ABSENT[k] as [string, string];
    if (!(key in u)) (rest ??= {})[hint] = true;
  }
  keepResidue(usage, OR, rest);
  return usage;
}

const ABSENT: readonly [string, string][] = [
  ['input_tokens_details', '$noInputDetails'],
  ['output_tokens_details', '$noOutputDetails'],
  ['total_tokens', '$noTotal'],
];

/**
 * A details object: this format's own as it came with the canonical counts written over it, or
 * for another origin's usage a new one with every count the spec requires (0 when unknown).
 */
function details(out: JsonObject, key: string, given: JsonObject[string] | undefined, absent: boolean, counts: [string, number | undefined][]): void {
  if (given === undefined && absent) return;
  const obj: JsonObject = isJsonObject(given) ? { ...given } : {};
  for (const [k, v] of counts) {
    if (v !== undefined) obj[k] = v;
    else if (given === undefined) obj[k] = 0;
  }
  if (Object.keys(obj).length > 0) out[key] = obj;
  else if (given !== undefined) out[key] = given;
}

export function encodeUsage(usage: Usage, path: Path, losses: LossSink): JsonObject {
  reportForeignExt(usage.ext, OR, path, losses);
  const rest = usage.ext?.[OR];
  if (rest === undefined) {
    // Another origin's usage (nothing of this format's kept): every detail count, 0 when unknown,
    // as `details` writes them, without its lists per call.
    return {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
      output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
      total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    };
  }
  const out: JsonObject = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  details(out, 'input_tokens_details', keptDetails(rest, INPUT_DETAILS), rest?.['$noInputDetails'] === true, [
    ['cached_tokens', usage.cacheReadTokens],
    ['cache_write_tokens', usage.cacheWriteTokens],
  ]);
  details(out, 'output_tokens_details', keptDetails(rest, OUTPUT_DETAILS), rest?.['$noOutputDetails'] === true, [['reasoning_tokens', usage.reasoningTokens]]);
  if (rest?.['$noTotal'] !== true || usage.totalTokens !== undefined) out['total_tokens'] = usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
  restoreResidue(out, usage.ext, OR);
  return out;
}
