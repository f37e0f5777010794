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
import { LIMITS, METADATA_CHARSET, put } from './agentcore-memory-api.js';

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
  for (const key in event) put((metadata ??= {}), key, (event[key] as JsonObject)['stringValue'] as string);
  if (blob !== undefined && Object.keys(blob).length > 0) {
    const shadow: JsonObject = {};
    for (const key in blob) {
      if (metadata !== undefined && Object.hasOwn(metadata, key)) put(shadow, key, metadata[key] as JsonValue);
      put((metadata ??= {}), key, blob[key] as JsonValue);
    }
    if (Object.keys(shadow).length > 0) hints['$shadow'] = shadow;
    // Which keys came from the blob needs saying only when writing would not put them there anyway.
    const none = { push: (): void => undefined };
    const natural = writeMetadata(metadata, undefined, [], none, none);
    const same = (a: JsonObject | undefined, b: JsonObject | undefined): boolean => Object.keys(a ?? {}).join('\u0000') === Object.keys(b ?? {}).join('\u0000');
    if (hints['$shadow'] !== undefined || !same(natural.blob, blob) || !same(natural.event, event)) hints['$blobKeys'] = Object.keys(blob);
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
  /** Entries the event may hold: AgentCore's 15, fewer where a store keeps some for itself. */
  maxEntries: number = LIMITS.metadataEntries,
): { event: JsonObject | undefined; blob: JsonObject } {
  const blob: JsonObject = {};
  let event: JsonObject | undefined;
  if (!isJsonObject(metadata)) return { event, blob };
  const blobKeys = new Set(Array.isArray(hints?.['$blobKeys']) ? (hints['$blobKeys'] as JsonValue[]) : []);
  const shadow = isJsonObject(hints?.['$shadow']) ? hints['$shadow'] : {};
  let count = 0;
  const toEvent = (key: string, value: string): void => {
    put((event ??= {}), key, { stringValue: value });
    count++;
  };
  for (const key in metadata) {
    const value = metadata[key];
    if (value === undefined) continue;
    const at = [...path, 'ext', 'agentcore-memory', 'metadata', key];
    if (blobKeys.has(key)) {
      put(blob, key, value);
      const s = Object.hasOwn(shadow, key) ? shadow[key] : undefined;
      if (typeof s === 'string') toEvent(key, s);
      continue;
    }
    if (value === null) {
      losses.push({ code: 'null-metadata', path: at, message: `metadata '${key}' is null: AgentCore event metadata holds strings only, so it is skipped`, action: 'dropped' });
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const problem = keyProblem(key) ?? valueProblem(text) ?? (count >= maxEntries ? `an event holds at most ${maxEntries} metadata entries here` : undefined);
    if (problem !== undefined) {
      put(blob, key, value);
      info.push({ code: 'metadata-in-blob', path: at, message: `metadata '${key}' does not fit AgentCore event metadata (${problem}); kept in the camunda.messageMetadata blob`, action: 'approximated' });
      continue;
    }
    toEvent(key, text);
    if (typeof value !== 'string') losses.push({ code: 'metadata-stringified', path: at, message: `metadata '${key}' is written as the string ${text}: AgentCore event metadata holds strings only`, action: 'approximated' });
  }
  return { event, blob };
}
