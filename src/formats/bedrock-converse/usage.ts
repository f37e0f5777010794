/**
 * Bedrock TokenUsage <-> canonical Usage. Bedrock's inputTokens EXCLUDES cache reads and writes
 * (a recorded cache write: inputTokens 16, cacheWriteInputTokens 2387, outputTokens 9,
 * totalTokens 2412 = their sum); canonical inputTokens includes them (OpenAI's accounting), so
 * decode adds and encode subtracts. totalTokens is the same number on both sides.
 */
import type { JsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { ID, rest } from './wire-util.js';

const KNOWN = new Set(['inputTokens', 'outputTokens', 'totalTokens', 'cacheReadInputTokens', 'cacheWriteInputTokens']);

export function decodeUsage(u: JsonObject): Usage {
  const input = u['inputTokens'] as number;
  const output = u['outputTokens'] as number;
  const read = u['cacheReadInputTokens'];
  const write = u['cacheWriteInputTokens'];
  const usage: Usage = { inputTokens: input, outputTokens: output, totalTokens: u['totalTokens'] as number, raw: u };
  if (typeof read === 'number') {
    usage.cacheReadTokens = read;
    usage.inputTokens += read;
  }
  if (typeof write === 'number') {
    usage.cacheWriteTokens = write;
    usage.inputTokens += write;
  }
  keepResidue(usage, ID, rest(u, KNOWN));
  return usage;
}

/** Writes Bedrock usage; reports what it cannot hold. */
export function encodeUsage(usage: Usage, losses: LossSink): JsonObject {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const out: JsonObject = {
    inputTokens: Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0)),
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
  if (read !== undefined) out['cacheReadInputTokens'] = read;
  if (write !== undefined) out['cacheWriteInputTokens'] = write;
  if (usage.reasoningTokens !== undefined) {
    losses.push({ code: 'reasoning-tokens', path: ['usage', 'reasoningTokens'], message: 'Bedrock usage has no reasoning token count (they are in outputTokens)', action: 'dropped' });
  }
  restoreResidue(out, usage.ext, ID);
  reportForeignExt(usage.ext, ID, ['usage'], losses);
  return out;
}
