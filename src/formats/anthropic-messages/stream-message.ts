/**
 * The message-level events of an Anthropic stream as the encoder writes them: message_start (the
 * message shell with the usage known so far), message_delta (stop reason, stop sequence, the
 * response's late fields and the final usage), the error event. Usage and stop reasons go through
 * the response codec's own mapping functions.
 */
import type { Ext } from '../../model/ext.js';
import type { Loss } from '../../model/loss.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { FinishEvent, ResponseStartEvent, StreamError, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { isHintKey, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { encodeStopReason } from './stop-reason.js';
import { encodeUsage } from './usage.js';
import { ID, own } from './wire-util.js';

/** message_delta fields that Anthropic puts inside `delta`; the response's other late fields sit beside it. */
const DELTA_FIELDS: ReadonlySet<string> = new Set(['container', 'stop_details']);

const ignore: LossSink = { push() {} };

/** A sink that puts the canonical event index in front of each loss's path (a class: no closure per event). */
class AtIndex implements LossSink {
  constructor(private readonly losses: LossSink, private readonly index: number) {}
  push(l: Loss): void {
    this.losses.push({ ...l, path: [this.index, ...l.path] });
  }
}

/** Pushes losses with the canonical event index in front of their path. */
export function at(losses: LossSink, index: number): LossSink {
  return new AtIndex(losses, index);
}

export function wire(data: JsonObject): WireEvent {
  return { event: data['type'] as string, data };
}

function wireUsage(usage: Partial<Usage> | undefined, losses: LossSink): JsonObject {
  return encodeUsage({ inputTokens: 0, outputTokens: 0, ...usage }, losses).usage;
}

/**
 * message_start. Its usage is provisional (message_delta carries the final counts), so losses of
 * usage are reported there, once.
 */
export function messageStart(start: ResponseStartEvent | undefined, id: string, usage: Partial<Usage> | undefined, losses: LossSink): WireEvent {
  const message: JsonObject = { id, type: 'message', role: 'assistant', model: start?.model ?? 'unknown', content: [], stop_reason: null, stop_sequence: null };
  message['usage'] = wireUsage(usage, ignore);
  if (start?.model === undefined) {
    losses.push({ code: 'missing-model', path: ['model'], message: "Anthropic messages name their model; 'unknown' written", action: 'approximated' });
  }
  if (start?.created !== undefined) losses.push({ code: 'unsupported-field', path: ['created'], message: "Anthropic has no 'created'", action: 'dropped' });
  if (start?.ext) {
    restoreResidue(message, start.ext, ID);
    reportForeignExt(start.ext, ID, [], losses);
  }
  return wire({ type: 'message_start', message });
}

/**
 * message_delta: the stop reason (null when none was given), the response-end's own residue
 * (`container`, `stop_details` inside the delta, others such as `context_management` beside it)
 * and the final usage.
 */
export function messageDelta(
  finish: { event: FinishEvent; losses: LossSink } | undefined,
  endExt: Ext | undefined,
  startExt: Ext | undefined,
  usage: Partial<Usage> | undefined,
  losses: LossSink,
): WireEvent {
  const delta: JsonObject = {};
  const hints = { ...own(startExt), ...own(endExt) };
  const reason = finish?.event.stopReason;
  if (finish && reason) {
    const { value, exact } = encodeStopReason(reason, hints['$stopRaw'] === true);
    if (!exact) finish.losses.push({ code: 'stop-reason', path: ['stopReason'], message: `stop reason '${reason.raw ?? reason.unified}' sent as '${value}'`, action: 'approximated' });
    delta['stop_reason'] = value;
    if (hints['$noStopSequence'] !== true) delta['stop_sequence'] = value === 'stop_sequence' ? (reason.sequence ?? null) : null;
  } else {
    delta['stop_reason'] = null;
    delta['stop_sequence'] = null;
  }
  if (finish?.event.ext) reportForeignExt(finish.event.ext, ID, [], finish.losses);
  const out: JsonObject = { type: 'message_delta', delta };
  const late = own(endExt);
  for (const key in late) {
    const value = late[key];
    if (isHintKey(key) || value === undefined) continue;
    const target = DELTA_FIELDS.has(key) || key === 'stop_sequence' ? delta : out;
    if (!(key in target)) target[key] = value;
  }
  if (endExt) reportForeignExt(endExt, ID, [], losses);
  if (usage === undefined) {
    losses.push({ code: 'missing-usage', path: ['usage'], message: 'Anthropic streams carry usage; zeros written', action: 'approximated' });
  }
  out['usage'] = wireUsage(usage, losses);
  return wire(out);
}

const ERROR_TYPES: ReadonlySet<string> = new Set([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
]);
/** Other providers' error types with an Anthropic type of the same meaning. */
const FOREIGN_ERRORS: Readonly<Record<string, string>> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  validationException: 'invalid_request_error',
  internalServerException: 'api_error',
  modelStreamErrorException: 'api_error',
  rate_limit_exceeded: 'rate_limit_error',
  server_error: 'api_error',
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  UNAVAILABLE: 'overloaded_error',
  INVALID_ARGUMENT: 'invalid_request_error',
};

/** The error event: Anthropic's own error object when it came from Anthropic, else one built from the canonical error. */
export function errorEvent(error: StreamError, losses: LossSink): WireEvent {
  const raw = error.raw;
  if (isJsonObject(raw) && raw['type'] === 'error' && isJsonObject(raw['error']) && ERROR_TYPES.has(raw['error']['type'] as string)) return wire(raw);
  const given = error.type ?? (typeof error.code === 'string' ? error.code : undefined);
  const type = given !== undefined && ERROR_TYPES.has(given) ? given : ((given !== undefined ? FOREIGN_ERRORS[given] : undefined) ?? 'api_error');
  if (given !== undefined && given !== type) {
    losses.push({ code: 'error-type', path: ['error', 'type'], message: `error type '${given}' sent as '${type}'`, action: 'approximated' });
  }
  return wire({ type: 'error', error: { type, message: error.message } });
}
