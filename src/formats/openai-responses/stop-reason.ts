/**
 * Response `status` (+ `incomplete_details.reason`) <-> canonical stop reasons. The Responses API
 * has no finish reason: a completed response that ends in a call the client must run stopped for
 * tool calls; an incomplete one says why in incomplete_details. `raw` is the status itself.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';
import type { LossSink } from '../codec.js';
import { loss } from './content-encode.js';
import { childPath } from '../shared/child-path.js';

export const STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete']);

/** Output items that wait for the client to run something. */
const CLIENT_CALLS: ReadonlySet<string> = new Set([
  'function_call', 'custom_tool_call', 'computer_call', 'local_shell_call', 'shell_call', 'apply_patch_call',
]);

export function endsInClientCall(output: readonly JsonValue[]): boolean {
  return output.some((item) => isJsonObject(item) && typeof item['type'] === 'string' && CLIENT_CALLS.has(item['type']));
}

function unifiedFor(status: string, incomplete: JsonValue | undefined, toolCalls: boolean): UnifiedStopReason {
  switch (status) {
    case 'completed':
      return toolCalls ? 'tool-calls' : 'stop';
    case 'incomplete': {
      const reason = isJsonObject(incomplete) ? incomplete['reason'] : undefined;
      return reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
    }
    case 'failed':
      return 'error';
    default:
      return 'other'; // in_progress, queued, cancelled
  }
}

export function decodeStatus(status: string, incomplete: JsonValue | undefined, output: readonly JsonValue[]): StopReason {
  return { unified: unifiedFor(status, incomplete, endsInClientCall(output)), raw: status };
}

/** The incomplete_details a status means for a unified reason (null when not incomplete). */
export function incompleteFor(reason: StopReason | undefined): JsonObject | null {
  if (reason?.unified === 'length') return { reason: 'max_output_tokens' };
  if (reason?.unified === 'content-filter') return { reason: 'content_filter' };
  return null;
}

const TO_STATUS: { readonly [u in UnifiedStopReason]: string } = {
  stop: 'completed',
  'tool-calls': 'completed',
  'stop-sequence': 'completed',
  refusal: 'completed',
  pause: 'completed',
  other: 'completed',
  length: 'incomplete',
  'content-filter': 'incomplete',
  error: 'failed',
};

/**
 * `raw` is written back when it is a status that means the same here, or one this codec decoded
 * (`rawStatus`); otherwise the unified reason's status, reported when that is an approximation.
 */
export function encodeStatus(reason: StopReason, toolCalls: boolean, rawStatus: boolean, path: Path, losses: LossSink): string {
  const raw = reason.raw;
  // A status this codec read that the spec does not list (e.g. an older 'complete'): as it came.
  if (raw !== undefined && rawStatus && !STATUSES.has(raw)) return raw;
  if (raw !== undefined && STATUSES.has(raw)) {
    const incomplete = incompleteFor(reason);
    if (unifiedFor(raw, incomplete ?? undefined, toolCalls) === reason.unified) return raw;
  }
  const status = TO_STATUS[reason.unified];
  if (reason.unified === 'stop-sequence') {
    if (reason.sequence !== undefined) loss(losses, 'stop-sequence', childPath(path, 'sequence'), 'a Responses status does not say which stop sequence matched', 'approximated');
  } else if (reason.unified === 'refusal' || reason.unified === 'pause' || reason.unified === 'other') {
    loss(losses, 'stop-reason', path, `stop reason '${reason.unified}' is sent as status '${status}'`, 'approximated');
  }
  return status;
}
