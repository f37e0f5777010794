/**
 * Blob envelopes ([CAM] BlobEnvelope): `{ blobType, version, <data key>: ... }`, stored as JSON
 * text (the service hands a JSON object blob back as a Java `Map.toString` string, reference §1.2),
 * read from text or from an object. Reading follows Camunda's rules and says where a blob is wrong:
 * no `blobType`, no `version`, a newer `version`, an unknown `blobType` or a missing data field is
 * an issue at `[..., 'blob', ...]`. A bare JSON array is the older tool-calls blob without an envelope.
 */
import type { Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import { BLOB, DATA_KEY, ENVELOPE_VERSION, PROP_MESSAGE, type BlobType } from './agentcore-memory-api.js';
import { childPath } from '../shared/child-path.js';

export type Envelope =
  | { type: typeof BLOB.toolCalls; calls: JsonValue[]; bare?: true }
  | { type: typeof BLOB.toolCallResults; results: JsonValue[] }
  | { type: typeof BLOB.messageContent; content: JsonObject }
  | { type: typeof BLOB.messageMetadata; metadata: JsonObject; properties?: JsonObject }
  | { type: typeof BLOB.payloads; payload: JsonValue[] }
  | { type: typeof BLOB.stash; stash: JsonObject };

export interface ParsedBlob {
  env: Envelope;
  /** The blob came as a JSON object rather than JSON text. */
  object: boolean;
  /** Envelope fields this codec does not know (reported when decoding). */
  unknown: readonly string[];
  /** The whole blob as parsed (the text's `JSON.parse`, or the object itself). */
  value: JsonValue;
}

const KNOWN_TYPES = new Set<string>(Object.values(BLOB));

function issue(issues: Issue[], path: Path, message: string, code = 'invalid_blob', expected?: string): undefined {
  const i: Issue = { code, path, message };
  if (expected !== undefined) i.expected = expected;
  issues.push(i);
  return undefined;
}

/** The path of the blob of payload `j` under `base` (`[...base, 'payload', j, 'blob']`), built only for an issue. */
function blobAt(base: Path, j: number, key?: string, sub?: string): Path {
  const at = childPath(base, 'payload', j, 'blob');
  return key === undefined ? at : sub === undefined ? childPath(at, key) : childPath(at, key, sub);
}

/** The blob's JSON value: parsed when it is text. `base` and `j`: where the payload is (see blobAt). */
function blobValue(blob: JsonValue, base: Path, j: number, issues: Issue[]): JsonValue | undefined {
  if (typeof blob !== 'string') return blob;
  try {
    return JSON.parse(blob) as JsonValue;
  } catch {
    return issue(issues, blobAt(base, j), 'blob is not JSON text (an envelope is stored as JSON text)', 'invalid_blob', 'JSON text');
  }
}

/**
 * Metadata envelopes read from text, by text: a session's events carry the same few (a role, the
 * message's `stringContent`), and JSON.parse of one costs ~1.5-2 µs on Node 20 (parsing blobs was a
 * fifth of turning a Chat-written session's last 10 turns into messages, half of it these). Only
 * envelopes whose values are all primitives but `interlingua.message`'s `{stringContent: true}` are
 * kept: nothing of them reaches a decoded message but copied primitives. The whole reading is kept
 * (value, envelope, unknown keys), frozen: a write into one would throw instead of changing
 * another event's read. The map is emptied when full, so it stays small.
 */
const META_PREFIX = `{"blobType":"${BLOB.messageMetadata}"`;
const META_TEXT_MAX = 1024;
const META_VALUES_MAX = 256;
/** The whole reading of such a text (envelope and all), frozen: read again, nothing is made. */
const metaParsed = new Map<string, ParsedBlob>();

function primitivesOnly(o: JsonObject): boolean {
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'object' && v !== null && !(k === PROP_MESSAGE && isStringContentOnly(v))) return false;
  }
  return true;
}

function isStringContentOnly(v: JsonValue): boolean {
  if (!isJsonObject(v)) return false;
  for (const k in v) if (k !== 'stringContent' || v[k] !== true) return false;
  return true;
}

/** Whether a metadata text may be remembered: short, and written with `blobType` first. */
const metaText = (blob: JsonValue, known: JsonValue | undefined): blob is string =>
  typeof blob === 'string' && known === undefined && blob.length <= META_TEXT_MAX && blob.startsWith(META_PREFIX);

/** Remembers the reading of metadata text `text` when it can be shared (see metaParsed), frozen. */
function rememberMeta(text: string, parsed: ParsedBlob): void {
  const value = parsed.value;
  if (!isJsonObject(value) || parsed.env.type !== BLOB.messageMetadata) return;
  const metadata = value['metadata'];
  const props = value['properties'];
  if (!isJsonObject(metadata) || !primitivesOnly(metadata) || (props !== undefined && (!isJsonObject(props) || !primitivesOnly(props)))) return;
  const message = isJsonObject(props) ? props[PROP_MESSAGE] : undefined;
  if (message !== undefined) Object.freeze(message);
  if (props !== undefined) Object.freeze(props);
  Object.freeze(metadata);
  Object.freeze(value);
  Object.freeze(parsed.env);
  Object.freeze(parsed.unknown);
  if (metaParsed.size >= META_VALUES_MAX) metaParsed.clear();
  metaParsed.set(text, Object.freeze(parsed));
}

/** The envelope keys each type reads (the rest are reported unknown): made once, not per blob. */
const KNOWN_KEYS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.values(BLOB).map((type) => [type, new Set(['blobType', 'version', DATA_KEY[type], ...(type === BLOB.messageMetadata ? ['properties'] : [])])]),
);

/** No unknown keys (most envelopes): one shared, read-only list. */
const NONE: readonly string[] = Object.freeze([]);

function unknownKeys(value: JsonObject, known: ReadonlySet<string>): readonly string[] {
  let out: string[] | undefined;
  for (const k in value) if (Object.hasOwn(value, k) && !known.has(k)) (out ??= []).push(k);
  return out ?? NONE;
}

function wrongData(issues: Issue[], base: Path, j: number, type: string, key: string, data: JsonValue | undefined, what: string): undefined {
  return issue(issues, blobAt(base, j, key), data === undefined ? `${type} envelope is missing its '${key}' field` : `${type} envelope's '${key}' is not ${what}`, 'invalid_blob', what);
}

/**
 * Parses the blob of payload `j` under `base` (issues are at `[...base, 'payload', j, 'blob', ...]`,
 * a path built only for an issue). `known`: the value of text `blob` when it is already at hand
 * (written here from it: see written.ts), so the text need not be parsed.
 */
export function parseBlob(blob: JsonValue, base: Path, j: number, issues: Issue[], known?: JsonValue): ParsedBlob | undefined {
  if (!metaText(blob, known)) return readBlob(blob, base, j, issues, known);
  const kept = metaParsed.get(blob);
  if (kept !== undefined) return kept;
  const before = issues.length;
  const parsed = readBlob(blob, base, j, issues, known);
  if (parsed !== undefined && issues.length === before) rememberMeta(blob, parsed);
  return parsed;
}

function readBlob(blob: JsonValue, base: Path, j: number, issues: Issue[], known: JsonValue | undefined): ParsedBlob | undefined {
  const value = typeof blob !== 'string' ? blob : known !== undefined ? known : blobValue(blob, base, j, issues);
  if (value === undefined) return undefined;
  const object = typeof blob !== 'string';
  if (Array.isArray(value)) return { env: { type: BLOB.toolCalls, calls: value, bare: true }, object, unknown: NONE, value };
  if (!isJsonObject(value)) return issue(issues, blobAt(base, j), 'blob is neither an envelope object nor a JSON array of tool calls', 'invalid_blob', 'an envelope object');
  const type = value['blobType'];
  if (typeof type !== 'string') return issue(issues, blobAt(base, j, 'blobType'), "blob does not contain a 'blobType' field", 'invalid_blob', 'a blobType string');
  const version = value['version'];
  if (version === undefined) return issue(issues, blobAt(base, j, 'version'), "blob does not contain a 'version' field", 'invalid_blob', 'version 1');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return issue(issues, blobAt(base, j, 'version'), `blob version ${JSON.stringify(version)} is not a positive integer`, 'invalid_blob', 'version 1');
  if (version > ENVELOPE_VERSION) {
    return issue(issues, blobAt(base, j, 'version'), `blob version ${version} is newer than the highest version supported (${ENVELOPE_VERSION}); it was written by a newer writer and reading it is not supported`, 'unsupported_version', `version ${ENVELOPE_VERSION}`);
  }
  if (!KNOWN_TYPES.has(type)) return issue(issues, blobAt(base, j, 'blobType'), `unknown blobType '${type}'`, 'unknown_blob_type', [...KNOWN_TYPES].join(' | '));
  const key = DATA_KEY[type as BlobType];
  const data = value[key];
  const unknown = unknownKeys(value, KNOWN_KEYS[type] as ReadonlySet<string>);
  switch (type) {
    case BLOB.toolCalls:
      return Array.isArray(data) ? { env: { type, calls: data }, object, unknown, value } : wrongData(issues, base, j, type, key, data, 'an array');
    case BLOB.toolCallResults:
      return Array.isArray(data) ? { env: { type, results: data }, object, unknown, value } : wrongData(issues, base, j, type, key, data, 'an array');
    case BLOB.messageContent:
      if (!isJsonObject(data)) return wrongData(issues, base, j, type, key, data, 'a content object');
      if (typeof data['type'] !== 'string') return issue(issues, blobAt(base, j, key, 'type'), 'content has no type discriminator', 'invalid_blob', 'a type string');
      return { env: { type, content: data }, object, unknown, value };
    case BLOB.messageMetadata: {
      if (!isJsonObject(data)) return wrongData(issues, base, j, type, key, data, 'an object');
      const props = value['properties'];
      if (props !== undefined && props !== null && !isJsonObject(props)) return issue(issues, blobAt(base, j, 'properties'), "metadata envelope's 'properties' is not an object", 'invalid_blob', 'an object');
      const env: Envelope = { type, metadata: data };
      if (isJsonObject(props)) env.properties = props;
      return { env, object, unknown: props === null ? [...unknown, 'properties'] : unknown, value };
    }
    case BLOB.payloads:
      return Array.isArray(data) ? { env: { type, payload: data }, object, unknown, value } : wrongData(issues, base, j, type, key, data, 'an array');
    default:
      return isJsonObject(data) ? { env: { type: BLOB.stash, stash: data }, object, unknown, value } : wrongData(issues, base, j, type, key, data, 'an object');
  }
}

/** An envelope as this codec writes it: JSON text, `blobType` and `version` first (as Camunda does). */
export function envelopeText(type: BlobType, data: JsonValue, extra?: JsonObject): string {
  const out: JsonObject = { blobType: type, version: ENVELOPE_VERSION, [DATA_KEY[type]]: data };
  if (extra) Object.assign(out, extra);
  return JSON.stringify(out);
}

export function blobPayload(type: BlobType, data: JsonValue, extra?: JsonObject): JsonObject {
  return { blob: envelopeText(type, data, extra) };
}
