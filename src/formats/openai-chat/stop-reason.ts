/**
 * finish_reason <-> canonical stop reasons. Chat Completions has five values; compatible
 * providers send others (e.g. DeepSeek `insufficient_system_resource`), kept as `other` + raw.
 */
import type { JsonObject } from '../../model/json.js';
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';
import type { LossSink } from '../codec.js';
import { loss } from './content-encode.js';
import { childPath } from '../shared/child-path.js';

const FROM_WIRE: { readonly [raw: string]: UnifiedStopReason } = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
  function_call: 'tool-calls',
};

/**
 * Canonical reasons without a Chat Completions value take the nearest one and are reported:
 * a matched stop sequence is `stop` (Chat does not say which); Anthropic's `refusal` (a safety
 * classifier stopped the output) is `content_filter`; `pause`, `error` and `other` are `stop`.
 */
const TO_WIRE: { readonly [u in UnifiedStopReason]: string } = {
  stop: 'stop',
  'stop-sequence': 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  refusal: 'content_filter',
  pause: 'stop',
  error: 'stop',
  other: 'stop',
};

export function decodeFinishReason(raw: string): StopReason {
  const unified = FROM_WIRE[raw];
  return { unified: unified ?? 'other', raw };
}

/**
 * `raw` is written back when it is a Chat Completions value meaning the same, or when this codec
 * decoded it (`$rawFinish`: a compatible provider's own value).
 */
export function encodeFinishReason(reason: StopReason, hints: JsonObject | undefined, path: (string | number)[], losses: LossSink): string {
  const raw = reason.raw;
  if (raw !== undefined && (FROM_WIRE[raw] === reason.unified || hints?.['$rawFinish'] === true)) return raw;
  const wire = TO_WIRE[reason.unified];
  const exact = reason.unified === 'stop' || reason.unified === 'length' || reason.unified === 'tool-calls' || reason.unified === 'content-filter';
  if (reason.unified === 'stop-sequence') {
    if (reason.sequence !== undefined) loss(losses, 'stop-sequence', childPath(path, 'sequence'), 'finish_reason does not say which stop sequence matched', 'approximated');
  } else if (!exact) {
    loss(losses, 'stop-reason', path, `stop reason '${reason.unified}' is sent as finish_reason '${wire}'`, 'approximated');
  }
  return wire;
}
