/**
 * What the A2A stream decoder and encoder share: the JSON-RPC SSE envelope (A2A's streaming
 * transport sends each StreamResponse as `data: {"jsonrpc":"2.0","id":<request id>,"result":…}`
 * and a mid-stream error as `event: error` with a JSON-RPC error, a2a-js `sse_utils.ts`), the
 * state <-> stop reason table and usage in status metadata.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StopReason, UnifiedStopReason } from '../../model/stop-reason.js';
import type { WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import { stateToV03, type A2aVersion, type V03State, type V1State } from './a2a-api.js';
import type { ObjectKind } from './validate.js';
import { artifactUpdateToV03, messageToV03, statusUpdateToV03, taskToV03, type Note } from './versions.js';

/**
 * `{ <wrapper key of kind>: obj }` as literals: an object literal with a computed key that varies
 * takes V8's slow path (~0.2 us per event).
 */
export function wrap(kind: ObjectKind, obj: JsonObject): JsonObject {
  switch (kind) {
    case 'task':
      return { task: obj };
    case 'message':
      return { message: obj };
    case 'status-update':
      return { statusUpdate: obj };
    case 'artifact-update':
      return { artifactUpdate: obj };
  }
}

/** One stream result (v1.0 object) as the SSE event of `version`, in a JSON-RPC envelope. */
export function frame(kind: ObjectKind, obj: JsonObject, version: A2aVersion, rpcId: string | number, final: boolean, path: Path, note: Note): WireEvent {
  let result: JsonObject;
  if (version === '1.0') result = wrap(kind, obj);
  else if (kind === 'task') result = taskToV03(obj, path, note);
  else if (kind === 'message') result = messageToV03(obj, path, note);
  else if (kind === 'status-update') result = statusUpdateToV03(obj, final, path, note);
  else {
    // The SDK's v0.3 writer spells both flags out; so do we.
    result = artifactUpdateToV03(obj, path, note);
    result['append'] ??= false;
    result['lastChunk'] ??= false;
  }
  return { data: { jsonrpc: '2.0', id: rpcId, result } };
}

/** A JSON-RPC error as A2A's SSE error event. */
export function errorFrame(error: JsonObject, rpcId: string | number): WireEvent {
  return { event: 'error', data: { jsonrpc: '2.0', id: rpcId, error } };
}

/** The JSON-RPC envelope's parts, or the object itself for JSON lines without one. */
export function unframe(w: WireEvent): { result?: JsonValue; error?: JsonObject } {
  const d = w.data;
  if (isJsonObject(d) && ('jsonrpc' in d || 'result' in d || 'error' in d)) {
    if (isJsonObject(d['error'])) return { error: d['error'] };
    if ('result' in d) return { result: d['result'] as JsonValue };
  }
  if (w.event === 'error' && isJsonObject(d)) return { error: d };
  return { result: d };
}

/** The stop reason a final state stands for. `calls` counts the client's unanswered tool calls. */
export function stopFor(state: V1State, calls: number): StopReason {
  const raw = stateToV03(state);
  let unified: UnifiedStopReason = 'other';
  if (state === 'TASK_STATE_COMPLETED') unified = 'stop';
  else if (state === 'TASK_STATE_INPUT_REQUIRED') unified = calls > 0 ? 'tool-calls' : 'pause';
  else if (state === 'TASK_STATE_AUTH_REQUIRED') unified = 'pause';
  return { unified, raw };
}

/** The final state for a stop reason: its own raw state when that says the same, else by meaning. */
export function stateFor(stop: StopReason | undefined): { state: V1State; approximated: boolean } {
  if (stop === undefined) return { state: 'TASK_STATE_COMPLETED', approximated: false };
  const raw = stop.raw as V03State | undefined;
  if (raw === 'completed' && stop.unified === 'stop') return { state: 'TASK_STATE_COMPLETED', approximated: false };
  if (raw === 'input-required' || raw === 'auth-required') {
    const state: V1State = raw === 'input-required' ? 'TASK_STATE_INPUT_REQUIRED' : 'TASK_STATE_AUTH_REQUIRED';
    if (stopFor(state, stop.unified === 'tool-calls' ? 1 : 0).unified === stop.unified) return { state, approximated: false };
  }
  if (stop.unified === 'tool-calls' || stop.unified === 'pause') return { state: 'TASK_STATE_INPUT_REQUIRED', approximated: false };
  return { state: 'TASK_STATE_COMPLETED', approximated: stop.unified !== 'stop' };
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** Usage from status metadata (the canonical field names; anything else is ignored). */
export function readUsage(value: JsonValue | undefined): Partial<Usage> | undefined {
  if (!isJsonObject(value)) return undefined;
  const out: Partial<Usage> = {};
  for (const k of USAGE_FIELDS) {
    const v = value[k];
    if (typeof v === 'number') out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function writeUsage(usage: Partial<Usage>): JsonObject {
  const out: JsonObject = {};
  for (const k of USAGE_FIELDS) {
    const v = usage[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
