/**
 * Yes/no forms of the v1.0 stream-object schemas (schema.ts), for readStreamObject: one per event
 * and hundreds of events per stream, so no paths, no issues and no zod payloads. Each answers
 * "valid" only where the schema would; "no" leaves the object to the schema, which finds the
 * issues, so errors are unchanged.
 */
import { z } from 'zod';
import { STATES_V1 } from './a2a-api.js';
import type { ObjectKind } from './validate.js';
import { isJsonObject as isObject } from '../../model/json.js';
import { optBoolean, optString, optStrings } from '../shared/fast-guards.js';

const STATES: ReadonlySet<unknown> = new Set(STATES_V1);

type Obj = Record<string, unknown>;

function id(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0;
}

/** Metadata (z.record of string keys): a plain object without symbol keys, as zod's record requires. */
export function optMetadata(v: unknown): boolean {
  return v === undefined || (z.util.isPlainObject(v) && Object.getOwnPropertySymbols(v).length === 0);
}

/** V1PartSchema: the typed fields, and exactly one content field. */
function partOk(p: unknown): boolean {
  if (!isObject(p)) return false;
  if (!optString(p['text']) || !optString(p['raw']) || !optString(p['url']) || !optString(p['filename']) || !optString(p['mediaType'])) return false;
  if (!optMetadata(p['metadata'])) return false;
  const n = (p['text'] !== undefined ? 1 : 0) + (p['raw'] !== undefined ? 1 : 0) + (p['url'] !== undefined ? 1 : 0) + (p['data'] !== undefined ? 1 : 0);
  return n === 1;
}

/** z.array(V1PartSchema).min(1). */
function partsOk(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!partOk(v[i])) return false;
  return true;
}

/** V1MessageSchema. */
function messageOk(m: unknown): boolean {
  if (!isObject(m)) return false;
  const role = m['role'];
  if (!id(m['messageId']) || (role !== 'ROLE_USER' && role !== 'ROLE_AGENT')) return false;
  if (!optString(m['contextId']) || !optString(m['taskId']) || !optMetadata(m['metadata'])) return false;
  if (!optStrings(m['extensions']) || !optStrings(m['referenceTaskIds'])) return false;
  return partsOk(m['parts']);
}

/** V1StatusSchema. */
function statusOk(s: unknown): boolean {
  if (!isObject(s) || !STATES.has(s['state']) || !optString(s['timestamp'])) return false;
  const message = s['message'];
  return message === undefined || messageOk(message);
}

/** V1ArtifactSchema. */
function artifactOk(a: unknown): boolean {
  if (!isObject(a) || !id(a['artifactId']) || !optString(a['name']) || !optString(a['description'])) return false;
  if (!optMetadata(a['metadata']) || !optStrings(a['extensions'])) return false;
  return partsOk(a['parts']);
}

function optList(v: unknown, each: (x: unknown) => boolean): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!each(v[i])) return false;
  return true;
}

/** V1TaskSchema. */
function taskOk(t: Obj): boolean {
  if (!id(t['id']) || !optString(t['contextId']) || !optMetadata(t['metadata']) || !statusOk(t['status'])) return false;
  return optList(t['artifacts'], artifactOk) && optList(t['history'], messageOk);
}

/** V1StatusUpdateSchema. */
function statusUpdateOk(u: Obj): boolean {
  return id(u['taskId']) && typeof u['contextId'] === 'string' && optMetadata(u['metadata']) && statusOk(u['status']);
}

/** V1ArtifactUpdateSchema. */
function artifactUpdateOk(u: Obj): boolean {
  if (!id(u['taskId']) || typeof u['contextId'] !== 'string' || !optBoolean(u['append']) || !optBoolean(u['lastChunk'])) return false;
  return optMetadata(u['metadata']) && artifactOk(u['artifact']);
}

/** Whether `obj` is a valid v1.0 `kind` (no issues from its schema). False: let the schema say why. */
export function v1ObjectOk(kind: ObjectKind, obj: Obj): boolean {
  switch (kind) {
    case 'status-update':
      return statusUpdateOk(obj);
    case 'artifact-update':
      return artifactUpdateOk(obj);
    case 'message':
      return messageOk(obj);
    case 'task':
      return taskOk(obj);
    default:
      return false;
  }
}
