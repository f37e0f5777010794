/** A prompt-cache breakpoint after this item (Anthropic cache_control, Bedrock cachePoint). */
export interface CacheHint {
  type: 'ephemeral';
  /** e.g. '5m' or '1h' where the provider supports it. */
  ttl?: string;
}
