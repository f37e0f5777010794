/** Anthropic stop_reason <-> canonical StopReason. */
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';

const TO_UNIFIED: Readonly<Record<string, UnifiedStopReason>> = {
  end_turn: 'stop',
  max_tokens: 'length',
  stop_sequence: 'stop-sequence',
  tool_use: 'tool-calls',
  pause_turn: 'pause',
  refusal: 'refusal',
  // The context window filled up: as far as the caller is concerned, output was cut short.
  model_context_window_exceeded: 'length',
  // Beta: the turn ended so the server could compact the context.
  compaction: 'pause',
};

const FROM_UNIFIED: Readonly<Record<UnifiedStopReason, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'stop-sequence': 'stop_sequence',
  'tool-calls': 'tool_use',
  pause: 'pause_turn',
  refusal: 'refusal',
  'content-filter': 'refusal',
  error: 'end_turn',
  other: 'end_turn',
};

export function decodeStopReason(raw: string, sequence: string | null | undefined): StopReason {
  const out: StopReason = { unified: TO_UNIFIED[raw] ?? 'other', raw };
  if (raw === 'stop_sequence' && typeof sequence === 'string') out.sequence = sequence;
  return out;
}

/** The raw value when it is Anthropic's and means the same; otherwise the mapped one. */
export function encodeStopReason(reason: StopReason, rawIsOwn = false): { value: string; exact: boolean } {
  const raw = reason.raw;
  if (raw !== undefined && (TO_UNIFIED[raw] === reason.unified || (rawIsOwn && reason.unified === 'other'))) return { value: raw, exact: true };
  const value = FROM_UNIFIED[reason.unified];
  return { value, exact: TO_UNIFIED[value] === reason.unified };
}
