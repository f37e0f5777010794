/**
 * Yes/no forms of V03MessageSchema and V03TaskSchema (schema.ts) for the request path, where a v0.3
 * history is read message by message (and a task holds a whole one): no paths, no issues, no zod
 * payloads. Each answers "valid" only where its schema would; "no" leaves the object to the
 * schema, which finds the issues, so errors are unchanged. (stream-fast.ts does the same for the
 * v1.0 objects.)
 */
import { isJsonObject as isObject } from '../../model/json.js';
import { optString, optStrings } from '../shared/fast-guards.js';
import { STATES_V03 } from './a2a-api.js';
import { optMetadata } from './stream-fast.js';

const STATES: ReadonlySet<unknown> = new Set([...STATES_V03, 'created']);

function id(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0;
}

/** FileSchema: its typed fields, and exactly one of bytes, uri and data (its refinement). */
function fileOk(f: unknown): boolean {
  if (!isObject(f) || !optString(f['bytes']) || !optString(f['uri']) || !optString(f['mimeType']) || !optString(f['name'])) return false;
  return (f['bytes'] !== undefined ? 1 : 0) + (f['uri'] !== undefined ? 1 : 0) + (f['data'] !== undefined ? 1 : 0) === 1;
}

/** V03PartSchema: the option its `kind` names (a discriminated union: no other option is tried). */
function partOk(p: unknown): boolean {
  if (!isObject(p) || !optMetadata(p['metadata'])) return false;
  switch (p['kind']) {
    case 'text':
      return typeof p['text'] === 'string';
    case 'file':
      return fileOk(p['file']);
    case 'data':
      // z.record: what optMetadata accepts, required.
      return p['data'] !== undefined && optMetadata(p['data']);
    default:
      return false;
  }
}

/** V03MessageSchema. */
export function v03MessageOk(m: unknown): boolean {
  if (!isObject(m)) return false;
  const kind = m['kind'];
  const role = m['role'];
  if ((kind !== undefined && kind !== 'message') || !id(m['messageId']) || (role !== 'user' && role !== 'agent')) return false;
  if (!optString(m['contextId']) || !optString(m['taskId']) || !optMetadata(m['metadata'])) return false;
  if (!optStrings(m['extensions']) || !optStrings(m['referenceTaskIds'])) return false;
  return partsOk(m['parts']);
}

/** z.array(V03PartSchema).min(1). */
function partsOk(parts: unknown): boolean {
  if (!Array.isArray(parts) || parts.length === 0) return false;
  for (let i = 0; i < parts.length; i++) if (!partOk(parts[i])) return false;
  return true;
}

/** V03StatusSchema. */
function statusOk(s: unknown): boolean {
  if (!isObject(s) || !STATES.has(s['state']) || !optString(s['timestamp'])) return false;
  const message = s['message'];
  return message === undefined || v03MessageOk(message);
}

/** V03ArtifactSchema. */
function artifactOk(a: unknown): boolean {
  if (!isObject(a) || !id(a['artifactId']) || !optString(a['name']) || !optString(a['description'])) return false;
  return optMetadata(a['metadata']) && optStrings(a['extensions']) && partsOk(a['parts']);
}

/** z.array(each).optional(). */
function optList(v: unknown, each: (x: unknown) => boolean): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!each(v[i])) return false;
  return true;
}

/** V03TaskSchema. */
export function v03TaskOk(t: unknown): boolean {
  if (!isObject(t)) return false;
  const kind = t['kind'];
  if ((kind !== undefined && kind !== 'task') || !id(t['id']) || !optString(t['contextId']) || !optMetadata(t['metadata'])) return false;
  return statusOk(t['status']) && optList(t['artifacts'], artifactOk) && optList(t['history'], v03MessageOk);
}
