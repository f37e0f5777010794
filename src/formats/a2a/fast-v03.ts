/**
 * A yes/no form of V03MessageSchema (schema.ts) for the request path, where a v0.3 history is read
 * message by message: no paths, no issues, no zod payloads. It answers "valid" only where the
 * schema would; "no" leaves the message to the schema, which finds the issues, so errors are
 * unchanged. (stream-fast.ts does the same for the v1.0 objects.)
 */
import { isJsonObject as isObject } from '../../model/json.js';
import { optString, optStrings } from '../shared/fast-guards.js';
import { optMetadata } from './stream-fast.js';

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
  const id = m['messageId'];
  const role = m['role'];
  if ((kind !== undefined && kind !== 'message') || typeof id !== 'string' || id.length === 0 || (role !== 'user' && role !== 'agent')) return false;
  if (!optString(m['contextId']) || !optString(m['taskId']) || !optMetadata(m['metadata'])) return false;
  if (!optStrings(m['extensions']) || !optStrings(m['referenceTaskIds'])) return false;
  const parts = m['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return false;
  for (let i = 0; i < parts.length; i++) if (!partOk(parts[i])) return false;
  return true;
}
