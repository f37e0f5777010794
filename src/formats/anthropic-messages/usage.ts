/**
 * Anthropic usage <-> canonical Usage. Anthropic's input_tokens EXCLUDES cache reads and writes;
 * canonical inputTokens includes them (OpenAI's accounting), so decode adds and encode subtracts.
 */
import type { JsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { ID, rest } from './wire-util.js';

const KNOWN = new Set(['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']);

export function decodeUsage(u: JsonObject): Usage {
  const input = u['input_tokens'] as number;
  const output = u['output_tokens'] as number;
  const write = u['cache_creation_input_tokens'];
  const read = u['cache_read_input_tokens'];
  const usage: Usage = { inputTokens: input, outputTokens: output, raw: u };
  if (typeof write === 'number') {
    usage.cacheWriteTokens = write;
    usage.inputTokens += write;
  }
  if (typeof read === 'number') {
    usage.cacheReadTokens = read;
    usage.inputTokens += read;
  }
  usage.totalTokens = usage.inputTokens + output;
  keepResidue(usage, ID, rest(u, KNOWN));
  return usage;
}

/** Writes Anthropic usage; `lossy` says whether anything was reported (the caller stashes usage). */
export function encodeUsage(usage: Usage, losses: LossSink): { usage: JsonObject; lossy: boolean } {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const out: JsonObject = { input_tokens: Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0)) };
  if (write !== undefined) out['cache_creation_input_tokens'] = write;
  if (read !== undefined) out['cache_read_input_tokens'] = read;
  out['output_tokens'] = usage.outputTokens;
  let lossy = false;
  if (usage.reasoningTokens !== undefined && usage.reasoningTokens > 0) {
    lossy = true;
    losses.push({ code: 'reasoning-tokens', path: ['usage', 'reasoningTokens'], message: 'Anthropic usage has no reasoning token count (they are in output_tokens)', action: 'dropped' });
  }
  restoreResidue(out, usage.ext, ID);
  if (reportForeignExt(usage.ext, ID, ['usage'], losses)) lossy = true;
  return { usage: out, lossy };
}
