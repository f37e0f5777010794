/**
 * v0.3 <-> v1.0 object conversion, as @a2a-js/sdk's compat layer maps them
 * (src/compat/v0_3/translate): `kind` goes away, roles and states take their enum names, the
 * three part kinds become one Part (file bytes -> raw, uri -> url, mimeType -> mediaType,
 * name -> filename), and a v1.0 data value that is not an object goes to v0.3 wrapped as
 * `{value}` with metadata `data_part_compat: true` (and comes back unwrapped). Unknown keys are
 * carried across unchanged. Inputs are validated objects.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import { stateToV03, stateToV1, type V03State, type V1State } from './a2a-api.js';
import { childPath } from '../shared/child-path.js';

/** Reports what one version cannot hold of the other (a loss at `path`). */
export type Note = (path: Path, code: string, message: string) => void;

const COMPAT_FLAG = 'data_part_compat';

/** Where a converted part's bytes were on the v0.3 wire, so errors about them name that place. */
const RAW_AT = new WeakMap<JsonObject, Path>();

/** The wire path (relative to the part) of a v1.0-form part's `raw`. */
export function rawPath(p: JsonObject): Path {
  return RAW_AT.get(p) ?? ['raw'];
}

function rest(obj: JsonObject, drop: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k in obj) if (!drop.includes(k) && obj[k] !== undefined) out[k] = obj[k] as JsonValue;
  return out;
}

// ---- v0.3 -> v1.0 ----

/** The part at `[...holder, 'parts', index]` in its v1.0 form; its path is made only for a file part (the only one noted). */
export function partToV1(p: JsonObject, holder: Path, index: number, note: Note): JsonObject {
  const kind = p['kind'];
  const out = rest(p, ['kind', 'file', 'data']);
  if (kind === 'file') {
    const path = childPath(holder, 'parts', index);
    const file = p['file'] as JsonObject;
    if (file['bytes'] !== undefined) {
      out['raw'] = file['bytes'];
      RAW_AT.set(out, ['file', 'bytes']);
    } else if (file['uri'] !== undefined) out['url'] = file['uri'];
    else {
      out['raw'] = file['data'] as JsonValue;
      RAW_AT.set(out, ['file', 'data']);
      note(childPath(path, 'file', 'data'), 'a2a-file-data', "a v0.3 file holds its bytes in 'bytes'; 'data' (as the v0.3.0 spec's example writes it) was read as the bytes");
    }
    if (file['mimeType'] !== undefined) out['mediaType'] = file['mimeType'];
    if (file['name'] !== undefined) out['filename'] = file['name'];
    for (const k in file) {
      if (!['bytes', 'uri', 'data', 'mimeType', 'name'].includes(k)) note(childPath(path, 'file', k), 'unsupported-field', `v0.3 file field '${k}' has no place in A2A v1.0`);
    }
  } else if (kind === 'data') {
    const data = p['data'] as JsonObject;
    const meta = p['metadata'];
    if (isJsonObject(meta) && meta[COMPAT_FLAG] === true && Object.keys(data).length === 1 && 'value' in data) {
      out['data'] = data['value'] as JsonValue;
      const m = rest(meta, [COMPAT_FLAG]);
      if (Object.keys(m).length > 0) out['metadata'] = m;
      else delete out['metadata'];
    } else out['data'] = data;
  }
  return out;
}

export function messageToV1(m: JsonObject, path: Path, note: Note): JsonObject {
  const out = rest(m, ['kind']);
  out['role'] = m['role'] === 'user' ? 'ROLE_USER' : 'ROLE_AGENT';
  const parts = m['parts'] as JsonObject[];
  const list: JsonObject[] = [];
  for (let i = 0; i < parts.length; i++) list.push(partToV1(parts[i] as JsonObject, path, i, note));
  out['parts'] = list;
  return out;
}

function statusToV1(s: JsonObject, path: Path, note: Note): JsonObject {
  const out = rest(s, []);
  if (s['state'] === 'created') {
    out['state'] = 'TASK_STATE_SUBMITTED';
    note(childPath(path, 'state'), 'a2a-state-created', "state 'created' (the source design's) is read as 'submitted'");
  } else out['state'] = stateToV1(s['state'] as V03State);
  if (isJsonObject(s['message'])) out['message'] = messageToV1(s['message'], childPath(path, 'message'), note);
  return out;
}

function artifactToV1(a: JsonObject, path: Path, note: Note): JsonObject {
  return { ...rest(a, []), parts: (a['parts'] as JsonObject[]).map((p, i) => partToV1(p, path, i, note)) };
}

export function taskToV1(t: JsonObject, path: Path, note: Note): JsonObject {
  const out = rest(t, ['kind']);
  out['status'] = statusToV1(t['status'] as JsonObject, childPath(path, 'status'), note);
  if (Array.isArray(t['artifacts'])) out['artifacts'] = (t['artifacts'] as JsonObject[]).map((a, i) => artifactToV1(a, childPath(path, 'artifacts', i), note));
  if (Array.isArray(t['history'])) out['history'] = (t['history'] as JsonObject[]).map((m, i) => messageToV1(m, childPath(path, 'history', i), note));
  return out;
}

export function statusUpdateToV1(u: JsonObject, path: Path, note: Note): JsonObject {
  return { ...rest(u, ['kind', 'final']), status: statusToV1(u['status'] as JsonObject, childPath(path, 'status'), note) };
}

export function artifactUpdateToV1(u: JsonObject, path: Path, note: Note): JsonObject {
  return { ...rest(u, ['kind']), artifact: artifactToV1(u['artifact'] as JsonObject, childPath(path, 'artifact'), note) };
}

// ---- v1.0 -> v0.3 ----

export function partToV03(p: JsonObject, path: Path, note: Note): JsonObject {
  const extra = rest(p, ['text', 'raw', 'url', 'data', 'metadata', 'filename', 'mediaType']);
  const meta = isJsonObject(p['metadata']) ? p['metadata'] : undefined;
  if (p['raw'] !== undefined || p['url'] !== undefined) {
    const file: JsonObject = p['raw'] !== undefined ? { bytes: p['raw'] } : { uri: p['url'] as JsonValue };
    if (p['mediaType'] !== undefined) file['mimeType'] = p['mediaType'];
    if (p['filename'] !== undefined) file['name'] = p['filename'];
    return { kind: 'file', file, ...(meta ? { metadata: meta } : {}), ...extra };
  }
  for (const k of ['filename', 'mediaType'] as const) {
    if (p[k] !== undefined) note(childPath(path, k), 'unsupported-field', `A2A v0.3 text and data parts have no '${k}'`);
  }
  if (p['text'] !== undefined) return { kind: 'text', text: p['text'], ...(meta ? { metadata: meta } : {}), ...extra };
  const data = p['data'] as JsonValue;
  if (isJsonObject(data)) return { kind: 'data', data, ...(meta ? { metadata: meta } : {}), ...extra };
  return { kind: 'data', data: { value: data }, metadata: { ...meta, [COMPAT_FLAG]: true }, ...extra };
}

export function messageToV03(m: JsonObject, path: Path, note: Note): JsonObject {
  return {
    kind: 'message',
    ...rest(m, []),
    role: m['role'] === 'ROLE_USER' ? 'user' : 'agent',
    parts: (m['parts'] as JsonObject[]).map((p, i) => partToV03(p, childPath(path, 'parts', i), note)),
  };
}

function statusToV03(s: JsonObject, path: Path, note: Note): JsonObject {
  const out = rest(s, []);
  out['state'] = stateToV03(s['state'] as V1State);
  if (isJsonObject(s['message'])) out['message'] = messageToV03(s['message'], childPath(path, 'message'), note);
  return out;
}

function artifactToV03(a: JsonObject, path: Path, note: Note): JsonObject {
  return { ...rest(a, []), parts: (a['parts'] as JsonObject[]).map((p, i) => partToV03(p, childPath(path, 'parts', i), note)) };
}

export function taskToV03(t: JsonObject, path: Path, note: Note): JsonObject {
  const out: JsonObject = { kind: 'task', ...rest(t, []) };
  // v0.3 requires a contextId on a task.
  out['contextId'] = (t['contextId'] as string | undefined) ?? '';
  out['status'] = statusToV03(t['status'] as JsonObject, childPath(path, 'status'), note);
  if (Array.isArray(t['artifacts'])) out['artifacts'] = (t['artifacts'] as JsonObject[]).map((a, i) => artifactToV03(a, childPath(path, 'artifacts', i), note));
  if (Array.isArray(t['history'])) out['history'] = (t['history'] as JsonObject[]).map((m, i) => messageToV03(m, childPath(path, 'history', i), note));
  return out;
}

export function statusUpdateToV03(u: JsonObject, final: boolean, path: Path, note: Note): JsonObject {
  return { kind: 'status-update', ...rest(u, []), status: statusToV03(u['status'] as JsonObject, childPath(path, 'status'), note), final };
}

export function artifactUpdateToV03(u: JsonObject, path: Path, note: Note): JsonObject {
  return { kind: 'artifact-update', ...rest(u, []), artifact: artifactToV03(u['artifact'] as JsonObject, childPath(path, 'artifact'), note) };
}
