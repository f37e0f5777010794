import type { HasExt } from './ext.js';
import type { JsonObject } from './json.js';

/**
 * Token accounting, normalized: `inputTokens` counts every input token including cache reads and
 * writes (OpenAI's prompt_tokens convention); `outputTokens` includes reasoning tokens.
 * Anthropic's input_tokens excludes cache reads and writes: its codec converts both ways.
 */
export interface Usage extends HasExt {
  inputTokens: number;
  outputTokens: number;
  totalTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  /** The provider's usage object exactly as received, for callers who want its own numbers. */
  raw?: JsonObject;
}
