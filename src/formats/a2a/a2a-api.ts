/**
 * A2A wire shapes. v1.0 is the ProtoJSON form of `lf.a2a.v1` (specification/a2a.proto) as
 * @a2a-js/sdk 1.x writes it with `toJSON` (camelCase, enum names as strings, default values left
 * out); v0.3 is the `kind`-tagged JSON of the v0.3.0 JSON schema. Internally every object is held
 * in the v1.0 form (versions.ts converts), so the codec logic is written once.
 *
 * The source design's conventions on top of A2A (issue 4): each message says which AG-UI event it
 * is in `metadata.canonical_type`; tool calls travel as a data part `{tool_calls: [{call_id, name,
 * arguments}]}` and results as `{tool_results: [{call_id, name, output}]}`. docs/a2a-mapping.md
 * lays the mapping out with the design's examples.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export const A2A = 'a2a';

export type A2aVersion = '1.0' | '0.3';

/** The AG-UI event types A2A messages carry (`metadata.canonical_type`). */
export const MESSAGE_TYPES = {
  /** A user's (or system's) text; an agent's text fragment in older histories. */
  content: 'TextMessageContentEvent',
  /** A streamed fragment of the agent's text. */
  chunk: 'TextMessageChunkEvent',
  /** The agent's text, final. */
  end: 'TextMessageEndEvent',
  /** The agent's tool calls, final (whole arguments). */
  toolStart: 'ToolCallStartEvent',
  /** A streamed fragment of a call's arguments. */
  toolArgs: 'ToolCallArgsEvent',
  /** Not one of the source design's six; AG-UI's own name, accepted on input. */
  toolEnd: 'ToolCallEndEvent',
  toolResult: 'ToolCallResultEvent',
} as const;

/** The AG-UI event types task status updates stand for, by state (the source design's table). */
export const STATUS_TYPES = {
  runStarted: 'RunStartedEvent',
  stepStarted: 'StepStartedEvent',
  stepFinished: 'StepFinishedEvent',
  runFinished: 'RunFinishedEvent',
  runError: 'RunErrorEvent',
} as const;

/** Metadata keys this codec reads and writes. */
export const CANONICAL_TYPE = 'canonical_type';
/** A2A roles are user and agent only: a system or developer message says its role here. */
export const CANONICAL_ROLE = 'canonical_role';
/** Token usage on the final status update (AG-UI RUN_FINISHED carries usage; A2A has no slot). */
export const USAGE_KEY = 'usage';

export const ROLES_V1 = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;
export type V1Role = (typeof ROLES_V1)[number];

export const STATES_V1 = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export type V1State = (typeof STATES_V1)[number];

export const STATES_V03 = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'] as const;
export type V03State = (typeof STATES_V03)[number];

/** v0.3 state name <-> v1.0 enum name (the SDK's compat table: `unknown` is UNSPECIFIED). */
export function stateToV1(s: V03State): V1State {
  return s === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : (`TASK_STATE_${s.toUpperCase().replace('-', '_')}` as V1State);
}
export function stateToV03(s: V1State): V03State {
  return s === 'TASK_STATE_UNSPECIFIED' ? 'unknown' : (s.slice('TASK_STATE_'.length).toLowerCase().replace('_', '-') as V03State);
}

export const TERMINAL_STATES: ReadonlySet<V1State> = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);
export const INTERRUPTED_STATES: ReadonlySet<V1State> = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

// ---- v1.0 (ProtoJSON) ----

/** Exactly one of text / raw (base64) / url / data. */
export interface V1Part {
  text?: string;
  raw?: string;
  url?: string;
  data?: JsonValue;
  metadata?: JsonObject;
  filename?: string;
  mediaType?: string;
}

export interface V1Message {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: V1Role;
  parts: V1Part[];
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface V1TaskStatus {
  state: V1State;
  message?: V1Message;
  timestamp?: string;
}

export interface V1Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: V1Part[];
  metadata?: JsonObject;
  extensions?: string[];
}

export interface V1Task {
  id: string;
  contextId?: string;
  status: V1TaskStatus;
  artifacts?: V1Artifact[];
  history?: V1Message[];
  metadata?: JsonObject;
}

export interface V1StatusUpdate {
  taskId: string;
  contextId: string;
  status: V1TaskStatus;
  metadata?: JsonObject;
}

export interface V1ArtifactUpdate {
  taskId: string;
  contextId: string;
  artifact: V1Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

export type V1StreamResponse = { task: V1Task } | { message: V1Message } | { statusUpdate: V1StatusUpdate } | { artifactUpdate: V1ArtifactUpdate };

// ---- v0.3 (kind-tagged) ----

export type V03Part =
  | { kind: 'text'; text: string; metadata?: JsonObject }
  | { kind: 'file'; file: { bytes: string; mimeType?: string; name?: string } | { uri: string; mimeType?: string; name?: string }; metadata?: JsonObject }
  | { kind: 'data'; data: JsonObject; metadata?: JsonObject };

export interface V03Message {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: V03Part[];
  contextId?: string;
  taskId?: string;
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface V03TaskStatus {
  state: V03State;
  message?: V03Message;
  timestamp?: string;
}

export interface V03Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: V03Part[];
  metadata?: JsonObject;
  extensions?: string[];
}

export interface V03Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: V03TaskStatus;
  artifacts?: V03Artifact[];
  history?: V03Message[];
  metadata?: JsonObject;
}

export interface V03StatusUpdate {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: V03TaskStatus;
  final: boolean;
  metadata?: JsonObject;
}

export interface V03ArtifactUpdate {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: V03Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

export type V03StreamResult = V03Message | V03Task | V03StatusUpdate | V03ArtifactUpdate;

/** One SSE event's data on the JSON-RPC binding (spec §9; a2a-js `sse_utils.ts`). */
export interface JsonRpcResult<R> {
  jsonrpc: '2.0';
  id: string | number | null;
  result: R;
}
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: JsonValue };
}

// ---- the source design's data parts ----

export interface WireToolCall {
  call_id: string;
  name: string;
  /** The JSON object (the design's example), or JSON text (a fragment in ToolCallArgsEvent). */
  arguments: JsonValue;
}

export interface WireToolResult {
  call_id: string;
  name?: string;
  output: JsonValue;
  /** The tool failed (not in the source design's shape; written only when true). */
  is_error?: boolean;
}

/** Keys of each v1.0 object this codec maps; anything else on the wire is residue. */
export const MESSAGE_KEYS = new Set(['messageId', 'contextId', 'taskId', 'role', 'parts', 'metadata', 'extensions', 'referenceTaskIds']);
export const PART_KEYS = new Set(['text', 'raw', 'url', 'data', 'metadata', 'filename', 'mediaType']);
export const TASK_KEYS = new Set(['id', 'contextId', 'status', 'artifacts', 'history', 'metadata']);
