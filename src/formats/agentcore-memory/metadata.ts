/**
 * Message metadata <-> AgentCore event metadata. The service takes at most 15 entries, keys of 1-128
 * and values of 0-256 characters from `[a-zA-Z0-9\s._:/=+@-]`, each value as `{stringValue}`
 * (reference §1.1). A message's metadata goes there as strings (other JSON values serialized,
 * nulls skipped); what does not fit goes into the `camunda.messageMetadata` blob with its JSON value
 * kept, and is reported, so the service never rejects an event for its metadata and nothing is lost.
 * Reading merges both back into one metadata object; hints say which keys came from the blob.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { LIMITS, METADATA_CHARSET } from './agentcore-memory-api.js';

/** Why a key or value cannot be event metadata, or undefined when it can. */
export function keyProblem(key: string): string | undefined {
  if (key.length < 1 || key.length > LIMITS.metadataKey) return `the key is ${key.length} characters (1-${LIMITS.metadataKey} allowed)`;
  if (!METADATA_CHARSET.test(key)) return 'the key has characters outside [a-zA-Z0-9 ._:/=+@-]';
  return undefined;
}

export function valueProblem(value: string): string | undefined {
  if (value.length > LIMITS.metadataValue) return `the value is ${value.length} characters (at most ${LIMITS.metadataValue})`;
  if (!METADATA_CHARSET.test(value)) return 'the value has characters outside [a-zA-Z0-9 ._:/=+@-]';
  return undefined;
}

/**
 * The message metadata of an event: its event metadata (validated `{key: {stringValue}}`) and the
 * metadata blob's entries, with the hints that put each back where it came from.
 */
export function readMetadata(event: JsonObject | undefined, blob: JsonObject | undefined): { metadata: JsonObject | undefined; hints: JsonObject } {
  const hints: JsonObject = {};
  let metadata: JsonObject | undefined;
  for (const key in event) metadata = { ...metadata, [key]: (event[key] as JsonObject)['stringValue'] as string };
  if (blob !== undefined && Object.keys(blob).length > 0) {
    const shadow: JsonObject = {};
    for (const key in blob) {
      if (metadata !== undefined && key in metadata) shadow[key] = metadata[key] as JsonValue;
      (metadata ??= {})[key] = blob[key] as JsonValue;
    }
    hints['$blobKeys'] = Object.keys(blob);
    if (Object.keys(shadow).length > 0) hints['$shadow'] = shadow;
  }
  return { metadata, hints };
}

/**
 * Splits a message's metadata into event metadata and metadata-blob entries. Entries that came
 * from the blob go back there; the rest go into event metadata while they fit. `losses` gets what
 * changes (a skipped null, a value stringified); `info` what is only moved (into the blob).
 */
export function writeMetadata(
  metadata: JsonValue | undefined,
  hints: JsonObject | undefined,
  path: Path,
  losses: LossSink,
  info: LossSink,
): { event: JsonObject | undefined; blob: JsonObject } {
  const blob: JsonObject = {};
  let event: JsonObject | undefined;
  if (!isJsonObject(metadata)) return { event, blob };
  const blobKeys = new Set(Array.isArray(hints?.['$blobKeys']) ? (hints['$blobKeys'] as JsonValue[]) : []);
  const shadow = isJsonObject(hints?.['$shadow']) ? hints['$shadow'] : {};
  let count = 0;
  const put = (key: string, value: string): void => {
    (event ??= {})[key] = { stringValue: value };
    count++;
  };
  for (const key in metadata) {
    const value = metadata[key];
    if (value === undefined) continue;
    const at = [...path, 'ext', 'agentcore-memory', 'metadata', key];
    if (blobKeys.has(key)) {
      blob[key] = value;
      const s = shadow[key];
      if (typeof s === 'string') put(key, s);
      continue;
    }
    if (value === null) {
      losses.push({ code: 'null-metadata', path: at, message: `metadata '${key}' is null: AgentCore event metadata holds strings only, so it is skipped`, action: 'dropped' });
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const problem = keyProblem(key) ?? valueProblem(text) ?? (count >= LIMITS.metadataEntries ? `an event holds at most ${LIMITS.metadataEntries} metadata entries` : undefined);
    if (problem !== undefined) {
      blob[key] = value;
      info.push({ code: 'metadata-in-blob', path: at, message: `metadata '${key}' does not fit AgentCore event metadata (${problem}); kept in the camunda.messageMetadata blob`, action: 'approximated' });
      continue;
    }
    put(key, text);
    if (typeof value !== 'string') losses.push({ code: 'metadata-stringified', path: at, message: `metadata '${key}' is written as the string ${text}: AgentCore event metadata holds strings only`, action: 'approximated' });
  }
  return { event, blob };
}
