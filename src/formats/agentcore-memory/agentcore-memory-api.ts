/**
 * AWS Bedrock AgentCore Memory event shapes and limits (facts: ../shared/reference/agentcore-memory.md
 * §1, the service's Smithy model at aws-sdk-js-v3 088f0580), and the blob envelopes of the Camunda
 * connectors' mapper (§4.3) this format writes and reads.
 *
 * The request body of this format is ListEvents-shaped: `{ "events": [Event, ...], "nextToken"? }`.
 * An event is `{ payload: PayloadType[], metadata?: {key: {stringValue}}, eventId?, eventTimestamp?,
 * actorId?, sessionId?, memoryId?, branch?, ... }`; a payload is exactly one of
 * `{ conversational: { role, content: { text } } }` or `{ blob: <document> }`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export const AGENTCORE = 'agentcore-memory';

export type WireRole = 'USER' | 'ASSISTANT' | 'TOOL' | 'OTHER';
export const WIRE_ROLES: readonly WireRole[] = ['USER', 'ASSISTANT', 'TOOL', 'OTHER'];

export interface Conversational { role: WireRole; content: { text: string } }
export type Payload = { conversational: Conversational } | { blob: JsonValue };
export interface Event extends JsonObject {
  payload: JsonObject[];
}

/**
 * Sets `obj[key]` as an own property whatever the key: keys come from the wire, and a plain
 * assignment of `__proto__` would change the object's prototype instead.
 */
export function put(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** CreateEvent limits ([SMITHY] PayloadTypeList, Content.text, MetadataMap / MetadataKey / MetadataValue). */
export const LIMITS = {
  payloads: 100,
  conversationalText: 100_000,
  metadataEntries: 15,
  metadataKey: 128,
  metadataValue: 256,
} as const;

/**
 * The metadata key and value character set `[a-zA-Z0-9\s._:/=+@-]`. `\s` is read narrowly (ASCII
 * whitespace, as Java's default `\s`): a value with another space character is not risked on the
 * service and goes to the metadata blob instead.
 */
export const METADATA_CHARSET = /^[a-zA-Z0-9 \t\n\x0B\f\r._:/=+@-]*$/;

/** Camunda's envelope types ([CAM] BlobEnvelopeType) and this format's own. */
export const BLOB = {
  toolCalls: 'camunda.toolCalls',
  toolCallResults: 'camunda.toolCallResults',
  messageContent: 'camunda.messageContent',
  messageMetadata: 'camunda.messageMetadata',
  /** Payloads past the per-event limit, packed into one blob and unpacked in place on reading. */
  payloads: 'interlingua.payloads',
  /** The `preserve` stash of a group of canonical messages (see request-encode.ts). */
  stash: 'interlingua.stash',
} as const;
export type BlobType = (typeof BLOB)[keyof typeof BLOB];

/** The envelope version this codec writes and the newest it reads ([CAM] CURRENT_VERSION). */
export const ENVELOPE_VERSION = 1;

/** Each envelope's data key ([CAM] BlobEnvelopeType). */
export const DATA_KEY: Readonly<Record<BlobType, string>> = {
  [BLOB.toolCalls]: 'toolCalls',
  [BLOB.toolCallResults]: 'results',
  [BLOB.messageContent]: 'content',
  [BLOB.messageMetadata]: 'metadata',
  [BLOB.payloads]: 'payload',
  [BLOB.stash]: 'stash',
};

/** Properties of the metadata blob ([CAM] §4.4) this codec maps; the rest is kept as they came. */
export const PROP_ROLE = 'role';
export const PROP_USER_NAME = 'userName';
/** Under `preserve`: message fields AgentCore has no slot for (`stringContent`, other formats' ext). */
export const PROP_MESSAGE = 'interlingua.message';

/** Event fields this codec maps; every other field of an event is kept as it came (ext.event). */
export const EVENT_KEYS: ReadonlySet<string> = new Set(['payload', 'metadata']);
export const BODY_KEYS: ReadonlySet<string> = new Set(['events']);
/** Camunda's ToolCall and ToolCallResultContent fields mapped to canonical slots. */
export const CALL_KEYS: ReadonlySet<string> = new Set(['id', 'name', 'arguments', 'argumentsJson', 'providerExecuted', 'cache', 'ext']);
export const RESULT_KEYS: ReadonlySet<string> = new Set(['id', 'name', 'content', 'isError', 'stringContent', 'providerExecuted', 'cache', 'ext']);

/*
 * What this codec keeps in a message's `ext['agentcore-memory']`:
 * - `metadata`: the message metadata (event metadata as strings, metadata-blob entries as JSON);
 *   a store or caller sets it to have metadata written;
 * - `event`: the event's other fields as they came (eventId, eventTimestamp, actorId, sessionId,
 *   branch ...), written back only to this format;
 * - `properties`: metadata-blob properties other than role and userName (Camunda's
 *   `camunda.modelId`, `camunda.messageId`, `camunda.stopReason` ...);
 * - private hints (`$...`): how the event was laid out, so that it is written back exactly.
 */
