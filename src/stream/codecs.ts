/**
 * A dialect's stream decoder and encoder on their own, for callers that work on canonical stream
 * events (the agent host decodes a model's stream to run tools between steps, and encodes an agent
 * run as A2A or AG-UI). `transcode` is these two back to back.
 */
import type { Loss } from '../model/loss.js';
import { DEFAULT_LIMITS, type Limits, type LossSink, type StreamDecoder, type StreamEncoder } from '../formats/codec.js';
import { getStreamCodec } from '../formats/registry.js';

export interface StreamCodecOptions {
  /** Called with each loss as it happens. */
  onLoss?: (loss: Loss) => void;
}

function sinkOf(options: StreamCodecOptions): LossSink {
  return { push: (loss) => options.onLoss?.(loss) };
}

/** Wire events of `from` -> canonical stream events. */
export function streamDecoder(from: string, options: StreamCodecOptions & { limits?: Partial<Limits> } = {}): StreamDecoder {
  return getStreamCodec(from).decoder({ limits: { ...DEFAULT_LIMITS, ...options.limits }, losses: sinkOf(options) });
}

/**
 * Canonical stream events -> wire events of `to`. `context` holds the dialect's own encoder options
 * (A2A: `a2aVersion`, `rpcId`; OpenAI Chat: `includeUsage`).
 */
export function streamEncoder(to: string, options: StreamCodecOptions & { context?: Record<string, unknown> } = {}): StreamEncoder {
  return getStreamCodec(to).encoder({ ...options.context, losses: sinkOf(options) });
}

export type { StreamDecoder, StreamEncoder };
