/**
 * Usage <-> Chat Completions `usage`. prompt_tokens already includes cached tokens, which is the
 * canonical convention, so inputTokens = prompt_tokens with no arithmetic. The details objects
 * and provider extras (DeepSeek prompt_cache_hit_tokens, Groq timings ...) are residue; details
 * holding only counts the canonical usage has are kept under hints (shared/usage-details.ts).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue, setOwn } from '../shared/residue.js';
import { INPUT_COUNTERS, keptDetails, OUTPUT_COUNTERS, usageResidue, type DetailsSlot } from '../shared/usage-details.js';
import { OPENAI_CHAT } from './openai-chat-api.js';

const USAGE_KEYS = new Set(['prompt_tokens', 'completion_tokens', 'total_tokens']);
const PROMPT_DETAILS: DetailsSlot = { key: 'prompt_tokens_details', hint: '$promptDetails', mapped: INPUT_COUNTERS };
const COMPLETION_DETAILS: DetailsSlot = { key: 'completion_tokens_details', hint: '$completionDetails', mapped: OUTPUT_COUNTERS };
const DETAILS = [PROMPT_DETAILS, COMPLETION_DETAILS];

export function decodeUsage(u: JsonObject): Usage {
  const usage: Usage = { inputTokens: u['prompt_tokens'] as number, outputTokens: u['completion_tokens'] as number };
  if (typeof u['total_tokens'] === 'number') usage.totalTokens = u['total_tokens'];
  const pd = u['prompt_tokens_details'];
  if (isJsonObject(pd)) {
    if (typeof pd['cached_tokens'] === 'number') usage.cacheReadTokens = pd['cached_tokens'];
    if (typeof pd['cache_write_tokens'] === 'number') usage.cacheWriteTokens = pd['cache_write_tokens'];
  }
  const cd = u['completion_tokens_details'];
  if (isJsonObject(cd) && typeof cd['reasoning_tokens'] === 'number') usage.reasoningTokens = cd['reasoning_tokens'];
  usage.raw = u; // as received, shared rather than copied
  let rest = usageResidue(u, USAGE_KEYS, DETAILS);
  // OpenAI counts reasoning inside completion_tokens; some compatible providers (xAI) count it
  // beside them, which their total shows. Canonical outputTokens include reasoning either way.
  const reasoning = usage.reasoningTokens ?? 0;
  if (reasoning > 0 && usage.totalTokens !== undefined && usage.totalTokens === usage.inputTokens + usage.outputTokens + reasoning) {
    usage.outputTokens += reasoning;
    (rest ??= {})['$reasoningApart'] = true;
  }
  // Some compatible providers leave the total out; the encoder writes one only when the source had it.
  if (u['total_tokens'] === undefined) (rest ??= {})['$noTotal'] = true;
  keepResidue(usage, OPENAI_CHAT, rest);
  return usage;
}

/** Sets `obj[key] = value` on a copy of `obj` when it differs (details may be shared residue). */
function withCount(obj: JsonObject | undefined, key: string, value: number | undefined): JsonObject | undefined {
  if (value === undefined || obj?.[key] === value) return obj;
  // Copied key by key: a spread that adds a key costs ~1 µs on Node 20, this ~50 ns.
  const out: JsonObject = {};
  for (const k in obj) if (Object.hasOwn(obj, k)) setOwn(out, k, obj[k] as JsonValue);
  setOwn(out, key, value);
  return out;
}

export function encodeUsage(usage: Usage, losses: LossSink, path: (string | number)[]): JsonObject {
  reportForeignExt(usage.ext, OPENAI_CHAT, path, losses);
  const rest = usage.ext?.[OPENAI_CHAT];
  const apart = rest?.['$reasoningApart'] === true ? (usage.reasoningTokens ?? 0) : 0;
  const out: JsonObject = { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens - apart };
  if (usage.totalTokens !== undefined || rest?.['$noTotal'] !== true) out['total_tokens'] = usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
  const pdIn = keptDetails(rest, PROMPT_DETAILS);
  const cdIn = keptDetails(rest, COMPLETION_DETAILS);
  let pd = withCount(isJsonObject(pdIn) ? pdIn : undefined, 'cached_tokens', usage.cacheReadTokens);
  pd = withCount(pd, 'cache_write_tokens', usage.cacheWriteTokens);
  const cd = withCount(isJsonObject(cdIn) ? cdIn : undefined, 'reasoning_tokens', usage.reasoningTokens);
  if (pd !== undefined) out['prompt_tokens_details'] = pd;
  else if (pdIn !== undefined) out['prompt_tokens_details'] = pdIn;
  if (cd !== undefined) out['completion_tokens_details'] = cd;
  else if (cdIn !== undefined) out['completion_tokens_details'] = cdIn;
  restoreResidue(out, usage.ext, OPENAI_CHAT);
  return out;
}
