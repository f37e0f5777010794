/**
 * Anthropic usage <-> canonical Usage. Anthropic's input_tokens EXCLUDES cache reads and writes;
 * canonical inputTokens includes them (OpenAI's accounting), so decode adds and encode subtracts.
 */
import type { JsonObject } from '../../model/json.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
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

/**
 * Writes Anthropic usage. `lossy` says whether the usage would not decode back the same (the caller
 * stashes it): something was reported, or only a form changes (no total given, which decoding
 * computes; another format's hints).
 */
export function encodeUsage(usage: Usage, losses: LossSink): { usage: JsonObject; lossy: boolean } {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const uncached = usage.inputTokens - (read ?? 0) - (write ?? 0);
  const out: JsonObject = { input_tokens: Math.max(0, uncached) };
  if (write !== undefined) out['cache_creation_input_tokens'] = write;
  if (read !== undefined) out['cache_read_input_tokens'] = read;
  out['output_tokens'] = usage.outputTokens;
  let lossy = usage.totalTokens === undefined || hasForeignExt(usage.ext, ID);
  if (uncached < 0) lossy = report(losses, 'usage-input', 'inputTokens', `${usage.inputTokens} input tokens are fewer than the cache reads and writes; input_tokens 0 written`, 'approximated');
  if (usage.reasoningTokens !== undefined) {
    lossy = report(losses, 'reasoning-tokens', 'reasoningTokens', 'Anthropic usage has no reasoning token count (they are in output_tokens)', 'dropped');
  }
  // Anthropic has no total; it is input + output when decoded. Some providers count otherwise
  // (Gemini's OpenAI-compatible endpoint adds thinking tokens): that total cannot be written.
  if (usage.totalTokens !== undefined && usage.totalTokens !== usage.inputTokens + usage.outputTokens) {
    lossy = report(losses, 'usage-total', 'totalTokens', `total ${usage.totalTokens} is not input + output (${usage.inputTokens + usage.outputTokens}); Anthropic has no total`, 'dropped');
  }
  restoreResidue(out, usage.ext, ID);
  if (reportForeignExt(usage.ext, ID, ['usage'], losses)) lossy = true;
  return { usage: out, lossy };
}

/** Reports a usage loss; returns true (the usage is lossy). A function of its own, not a closure per call. */
function report(losses: LossSink, code: string, path: string, message: string, action: 'dropped' | 'approximated'): true {
  losses.push({ code, path: ['usage', path], message, action });
  return true;
}
