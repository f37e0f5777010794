/**
 * usageMetadata <-> canonical Usage. Gemini counts thinking apart: candidatesTokenCount excludes
 * thoughtsTokenCount, and toolUsePromptTokenCount (what server-side tools read) is apart from
 * promptTokenCount; totalTokenCount adds them all. Canonical outputTokens include reasoning and
 * inputTokens every input token, so decode adds and encode subtracts. promptTokenCount already
 * includes cachedContentTokenCount, as canonical inputTokens include cache reads.
 */
import type { JsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { keepResidue, restoreResidue } from '../shared/residue.js';
import { loss } from './content-encode.js';
import { ID, reportExt, rest } from './wire-util.js';

const KNOWN = new Set(['promptTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'cachedContentTokenCount', 'totalTokenCount']);

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export function decodeUsage(u: JsonObject): Usage {
  const prompt = num(u['promptTokenCount']);
  const candidates = num(u['candidatesTokenCount']);
  const thoughts = num(u['thoughtsTokenCount']);
  const toolUse = num(u['toolUsePromptTokenCount']);
  const usage: Usage = { inputTokens: (prompt ?? 0) + (toolUse ?? 0), outputTokens: (candidates ?? 0) + (thoughts ?? 0), raw: u };
  const total = num(u['totalTokenCount']);
  if (total !== undefined) usage.totalTokens = total;
  const cached = num(u['cachedContentTokenCount']);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  const res: JsonObject = rest(u, KNOWN) ?? {};
  // Absent counts come back absent, not as zeros.
  if (prompt === undefined && u['promptTokenCount'] === undefined) res['$noPrompt'] = true;
  if (candidates === undefined && u['candidatesTokenCount'] === undefined) res['$noCandidates'] = true;
  if (total === undefined && u['totalTokenCount'] === undefined) res['$noTotal'] = true;
  if (Object.keys(res).length > 0) keepResidue(usage, ID, res);
  return usage;
}

/** Canonical usage -> usageMetadata; `lossy` says whether anything was reported. */
export function encodeUsage(usage: Usage, losses: LossSink): { value: JsonObject; lossy: boolean } {
  const mine = usage.ext?.[ID];
  const toolUse = num(mine?.['toolUsePromptTokenCount']) ?? 0;
  const reasoning = usage.reasoningTokens;
  let lossy = false;
  const out: JsonObject = {};
  const prompt = usage.inputTokens - toolUse;
  if (!(mine?.['$noPrompt'] === true && prompt === 0)) out['promptTokenCount'] = prompt;
  if (usage.cacheReadTokens !== undefined) out['cachedContentTokenCount'] = usage.cacheReadTokens;
  const candidates = usage.outputTokens - (reasoning ?? 0);
  if (!(mine?.['$noCandidates'] === true && candidates === 0)) out['candidatesTokenCount'] = Math.max(0, candidates);
  if (reasoning !== undefined) out['thoughtsTokenCount'] = reasoning;
  if (usage.totalTokens !== undefined) out['totalTokenCount'] = usage.totalTokens;
  else if (mine?.['$noTotal'] !== true) out['totalTokenCount'] = usage.inputTokens + usage.outputTokens;
  if (usage.cacheWriteTokens !== undefined && usage.cacheWriteTokens > 0) {
    lossy = true;
    loss(losses, 'cache-write-tokens', ['usage', 'cacheWriteTokens'], 'Gemini usage has no cache write count (explicit caches are created apart)');
  }
  restoreResidue(out, usage.ext, ID);
  if (reportExt(usage.ext, ['usage'], losses)) lossy = true;
  return { value: out, lossy };
}
