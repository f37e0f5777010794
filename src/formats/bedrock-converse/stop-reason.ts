/** Bedrock stopReason <-> canonical StopReason. */
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';

/** Every StopReason enum value of the Smithy model. */
const TO_UNIFIED: Readonly<Record<string, UnifiedStopReason>> = {
  end_turn: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
  stop_sequence: 'stop-sequence',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
  // The context window filled up: for the caller, output was cut short.
  model_context_window_exceeded: 'length',
};

const FROM_UNIFIED: Readonly<Record<UnifiedStopReason, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'stop-sequence': 'stop_sequence',
  'tool-calls': 'tool_use',
  'content-filter': 'content_filtered',
  // Bedrock has no refusal or pause: the nearest meanings.
  refusal: 'content_filtered',
  pause: 'end_turn',
  error: 'malformed_model_output',
  other: 'end_turn',
};

export function decodeStopReason(raw: string): StopReason {
  return { unified: TO_UNIFIED[raw] ?? 'other', raw };
}

/** The raw value when it is Bedrock's and means the same; otherwise the mapped one. */
export function encodeStopReason(reason: StopReason, rawIsOwn = false): { value: string; exact: boolean } {
  const raw = reason.raw;
  if (raw !== undefined && (TO_UNIFIED[raw] === reason.unified || (rawIsOwn && reason.unified === 'other'))) return { value: raw, exact: true };
  const value = FROM_UNIFIED[reason.unified];
  return { value, exact: TO_UNIFIED[value] === reason.unified };
}
