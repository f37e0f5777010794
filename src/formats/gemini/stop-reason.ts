/**
 * Candidate.finishReason <-> canonical stop reasons. Gemini says STOP when the model called
 * functions too; the decoder reads that as `tool-calls` (raw STOP kept) so other formats see
 * the reason their clients expect. Values come from the v1beta and Vertex v1 protos.
 */
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';

const FROM_WIRE: { readonly [raw: string]: UnifiedStopReason } = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  IMAGE_SAFETY: 'content-filter',
  IMAGE_PROHIBITED_CONTENT: 'content-filter',
  IMAGE_RECITATION: 'content-filter',
  MODEL_ARMOR: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  LANGUAGE: 'other',
  OTHER: 'other',
  IMAGE_OTHER: 'other',
  NO_IMAGE: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
};

/** Canonical reasons without a Gemini value take the nearest one (reported by the caller). */
const TO_WIRE: { readonly [u in UnifiedStopReason]: string } = {
  stop: 'STOP',
  'stop-sequence': 'STOP',
  length: 'MAX_TOKENS',
  'tool-calls': 'STOP',
  'content-filter': 'SAFETY',
  refusal: 'SAFETY',
  pause: 'STOP',
  error: 'OTHER',
  other: 'OTHER',
};

export function decodeFinishReason(raw: string, calledTools: boolean): StopReason {
  if (raw === 'STOP' && calledTools) return { unified: 'tool-calls', raw };
  return { unified: FROM_WIRE[raw] ?? 'other', raw };
}

/**
 * `raw` goes back when it is a Gemini value that means the same (STOP also for tool calls), or
 * when this codec decoded it (`rawIsOwn`: a value newer than this table). `exact` is false when
 * the canonical reason had to be approximated.
 */
export function encodeFinishReason(reason: StopReason, rawIsOwn: boolean): { value: string; exact: boolean } {
  const raw = reason.raw;
  if (raw !== undefined) {
    const known = FROM_WIRE[raw];
    if (known === reason.unified || (raw === 'STOP' && reason.unified === 'tool-calls') || (rawIsOwn && reason.unified === 'other')) {
      return { value: raw, exact: true };
    }
  }
  const value = TO_WIRE[reason.unified];
  // An `other` reason means only what its raw value says: another format's raw is lost here.
  const exact =
    reason.unified === 'stop' || reason.unified === 'length' || reason.unified === 'tool-calls' || reason.unified === 'content-filter' ||
    (reason.unified === 'other' && raw === undefined) || (reason.unified === 'stop-sequence' && reason.sequence === undefined);
  return { value, exact };
}
