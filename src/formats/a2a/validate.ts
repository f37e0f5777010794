/**
 * Reading inbound A2A objects: which object and which version it is, whether it is valid (every
 * problem with its JSON path, in one ValidationError), and its v1.0 form (versions.ts), which is
 * what the rest of the codec works on.
 *
 * Version detection: v0.3 objects carry `kind`, use the roles `user`/`agent`, parts tagged with
 * `kind` and lower-case states; v1.0 objects use `ROLE_*` and `TASK_STATE_*` names, and a stream
 * event wraps its object as `{task}`, `{message}`, `{statusUpdate}` or `{artifactUpdate}`.
 */
import type { z } from 'zod';
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import type { A2aVersion } from './a2a-api.js';
import {
  V03ArtifactUpdateSchema,
  V03MessageSchema,
  V03StatusUpdateSchema,
  V03TaskSchema,
  V1ArtifactUpdateSchema,
  V1MessageSchema,
  V1StatusUpdateSchema,
  V1TaskSchema,
} from './schema.js';
import { artifactUpdateToV1, messageToV1, statusUpdateToV1, taskToV1, type Note } from './versions.js';
import { schemaIssues } from '../shared/zod-fast.js';
import { v1ObjectOk } from './stream-fast.js';
import { v03MessageOk, v03TaskOk } from './fast-v03.js';
import { childPath } from '../shared/child-path.js';

export type ObjectKind = 'task' | 'message' | 'status-update' | 'artifact-update';

export interface Read {
  kind: ObjectKind;
  version: A2aVersion;
  /** The object in its v1.0 form. */
  value: JsonObject;
  /** v0.3 status updates: the `final` flag (v1.0 has none). */
  final?: boolean;
}

const V1_SCHEMAS: Record<ObjectKind, z.ZodType> = { task: V1TaskSchema, message: V1MessageSchema, 'status-update': V1StatusUpdateSchema, 'artifact-update': V1ArtifactUpdateSchema };
const V1_WRAPPERS: Record<string, ObjectKind> = { task: 'task', message: 'message', statusUpdate: 'status-update', artifactUpdate: 'artifact-update' };
const V03_KINDS: ReadonlySet<string> = new Set(['task', 'message', 'status-update', 'artifact-update']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function invalid(path: Path, message: string, expected?: string, received?: unknown): ValidationError {
  return new ValidationError([{ code: 'invalid_value', path, message, ...(expected !== undefined ? { expected } : {}), ...(received !== undefined ? { received: describe(received) } : {}) }]);
}

function check(schema: z.ZodType, value: unknown, path: Path): void {
  const found = schemaIssues(schema, value);
  if (found.length > 0) throw new ValidationError(fromZodIssues(found, path));
}

/** The version an unwrapped object is written in, from its roles, part tags and states. */
export function detectVersion(obj: JsonObject): A2aVersion {
  if (typeof obj['kind'] === 'string') return '0.3';
  const role = obj['role'];
  if (role === 'user' || role === 'agent') return '0.3';
  if (typeof role === 'string' && role.startsWith('ROLE_')) return '1.0';
  const parts = obj['parts'] ?? (isJsonObject(obj['artifact']) ? obj['artifact']['parts'] : undefined);
  if (Array.isArray(parts) && parts.some((p) => isJsonObject(p) && 'kind' in p)) return '0.3';
  const status = obj['status'];
  if (isJsonObject(status) && typeof status['state'] === 'string') return status['state'].startsWith('TASK_STATE_') ? '1.0' : '0.3';
  return '1.0';
}

/** What an unwrapped, untagged object is, by the fields only it has. */
function shapeKind(obj: JsonObject): ObjectKind | undefined {
  if ('artifact' in obj) return 'artifact-update';
  if ('status' in obj) return 'taskId' in obj ? 'status-update' : 'task';
  // An artifact alone (artifactId, parts) is no stream event and no message.
  if ('messageId' in obj || ('parts' in obj && !('artifactId' in obj))) return 'message';
  return undefined;
}

/** Validates `obj` as a `kind` of `version` and returns its v1.0 form. */
export function readAs(kind: ObjectKind, version: A2aVersion, obj: JsonObject, path: Path, note: Note): Read {
  if (version === '1.0') {
    // The hand-written yes/no check first (a task holds its whole history); the schema says why not.
    if (!v1ObjectOk(kind, obj)) check(V1_SCHEMAS[kind], obj, path);
    return { kind, version, value: obj };
  }
  switch (kind) {
    // The hand-written yes/no checks first (fast-v03.ts), the schema only when they say no.
    case 'task':
      if (!v03TaskOk(obj)) check(V03TaskSchema, obj, path);
      return { kind, version, value: taskToV1(obj, path, note) };
    case 'message':
      if (!v03MessageOk(obj)) check(V03MessageSchema, obj, path);
      return { kind, version, value: messageToV1(obj, path, note) };
    case 'status-update':
      check(V03StatusUpdateSchema, obj, path);
      return { kind, version, value: statusUpdateToV1(obj, path, note), final: obj['final'] === true };
    case 'artifact-update':
      check(V03ArtifactUpdateSchema, obj, path);
      return { kind, version, value: artifactUpdateToV1(obj, path, note) };
  }
}

/**
 * One stream result (the `result` of a JSON-RPC stream event, or a JSON line): a v1.0
 * StreamResponse wrapper, a v0.3 `kind`-tagged object, or an untagged object known by its shape.
 */
export function readStreamObject(value: JsonValue, path: Path, note: Note): Read {
  if (!isJsonObject(value)) throw invalid(path, 'an A2A stream event must be a JSON object', 'object', value);
  const keys = Object.keys(value);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only !== undefined && only in V1_WRAPPERS) {
    const inner = value[only];
    const kind = V1_WRAPPERS[only] as ObjectKind;
    if (!isJsonObject(inner)) throw invalid(childPath(path, only), `'${only}' must be an object`, 'object', inner);
    // A valid event (the common case) skips the schema, and the path made for its issues.
    if (v1ObjectOk(kind, inner)) return { kind, version: '1.0', value: inner };
    return readAs(kind, '1.0', inner, childPath(path, only), note);
  }
  const tag = value['kind'];
  if (tag !== undefined) {
    if (typeof tag !== 'string' || !V03_KINDS.has(tag)) {
      throw invalid(childPath(path, 'kind'), `unknown A2A object kind ${JSON.stringify(tag)}; expected task, message, status-update or artifact-update`);
    }
    return readAs(tag as ObjectKind, '0.3', value, path, note);
  }
  const kind = shapeKind(value);
  if (kind === undefined) {
    throw invalid(path, 'not an A2A stream event: expected {task}, {message}, {statusUpdate}, {artifactUpdate} (v1.0) or an object with kind (v0.3)');
  }
  const version = detectVersion(value);
  if (version === '1.0' && v1ObjectOk(kind, value)) return { kind, version, value };
  return readAs(kind, version, value, path, note);
}

/**
 * Whether readStreamObject would read `obj` as a valid v1.0 message (untagged, known by its
 * messageId, a ROLE_* role) without an issue: V1MessageSchema as a yes/no check (stream-fast.ts),
 * no paths, no zod lookups. False leaves the object to the full reading, which finds the issues.
 */
export function v1MessageOk(obj: JsonObject): boolean {
  return obj['kind'] === undefined && !('artifact' in obj) && !('status' in obj) && v1ObjectOk('message', obj);
}

/**
 * Whether readStreamObject takes `obj` for a v0.3 message when it is a valid one: tagged `message`,
 * or untagged and neither an update nor a task by its fields (a valid v0.3 message has a messageId,
 * several keys and a v0.3 role, so no wrapper and no other version).
 */
function v03MessageShape(obj: JsonObject): boolean {
  const kind = obj['kind'];
  return kind === 'message' || (kind === undefined && !('artifact' in obj) && !('status' in obj));
}

/** A message on its own or inside a list or task, either version. */
export function readMessage(value: unknown, path: Path, note: Note): Read {
  if (!isJsonObject(value)) throw invalid(path, 'an A2A message must be a JSON object', 'object', value);
  // The common case, a valid v1.0 message, read without the general path (its outcome is the same).
  if (v1MessageOk(value)) return { kind: 'message', version: '1.0', value };
  // So is a valid v0.3 message, tagged or known by its shape: readStreamObject would read it as one
  // (readAs 'message', '0.3'), its schema check passing.
  if (v03MessageShape(value) && v03MessageOk(value)) return { kind: 'message', version: '0.3', value: messageToV1(value, path, note) };
  const read = readStreamObject(value, path, note);
  if (read.kind !== 'message') throw invalid(path, `expected an A2A message, found a ${read.kind}`);
  return read;
}
