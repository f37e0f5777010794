/**
 * Where the `preserve` stash (../shared/stash.ts) lives on the A2A wire. A2A objects take no
 * unknown keys, but messages, tasks and send-message requests each carry a free-form `metadata`
 * object (a2a.proto: `google.protobuf.Struct metadata`), so the stash goes there:
 * - a message group's stash `{v, span, hash, messages}` is `metadata["x-interlingua"]` of the
 *   group's first wire message; its hash covers the group's wire messages without it;
 * - the request-level stash `{v, fields}` (model, tools, sampling, other formats' ext ...) is
 *   `metadata["x-interlingua"]` of the send-message request (send form) or of the task (task
 *   form); a bare message or a list of messages has no outer object, so there it is
 *   `metadata["x-interlingua-request"]` of the first wire message.
 * A stash written into an object that had no metadata says so (`metadataAdded: true`): taking it
 * out removes the metadata it made, so the object comes back exactly as it was written.
 * The request stash's private fields: `$generatedIds` (message ids `msg-<n>` were made up: the
 * decoder drops them again), `$plain` (the request was never A2A: no form or version hints) and
 * `$a2a` (the A2A form the request came in, when it had to be written as a list instead).
 */
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { copyKeys, setOwn } from '../shared/residue.js';
import { STASH_KEY } from '../shared/stash.js';
import { A2A } from './a2a-api.js';

/**
 * Hint (`ext.a2a`) of a v0.3 message or task that came without its `kind`, which the v0.3 schema
 * requires and the spec's own examples leave out: it is written back without it.
 */
export const NO_KIND = '$noKind';

/** The request-level stash's key in a message's metadata (the message stash holds `x-interlingua`). */
export const REQUEST_STASH_KEY = 'x-interlingua-request';

const ADDED = 'metadataAdded';

/** Puts `stash` under `metadata[key]` of `holder` (in place), marking metadata it had to create. */
export function putInMetadata(holder: JsonObject, key: string, stash: JsonObject): void {
  const meta = holder['metadata'];
  if (isJsonObject(meta)) {
    // copyKeys, not `{ ...meta, [key]: stash }`, which gives each message's metadata a hidden class of its own.
    const metadata = copyKeys(meta);
    setOwn(metadata, key, stash);
    holder['metadata'] = metadata;
  } else holder['metadata'] = { [key]: { ...stash, [ADDED]: true } };
}

/**
 * `holder` without `metadata[key]` (a copy; the input is never changed) and the stash found there.
 * Metadata the stash had created goes with it.
 */
export function takeFromMetadata(holder: JsonObject, key: string): { holder: JsonObject; stash: JsonValue | undefined } {
  const meta = holder['metadata'];
  if (!isJsonObject(meta) || !(key in meta)) return { holder, stash: undefined };
  const { [key]: stash, ...rest } = meta;
  const out: JsonObject = { ...holder, metadata: rest };
  if (isJsonObject(stash) && stash[ADDED] === true && Object.keys(rest).length === 0) delete out['metadata'];
  return { holder: out, stash: stash as JsonValue };
}

/**
 * Encode side: moves the message stash stashGroup left at the top of a wire message (where
 * ../shared/stash.ts puts it) into the message's metadata.
 */
export function sinkMessageStash(msg: JsonObject): void {
  const stash = msg[STASH_KEY];
  if (!isJsonObject(stash)) return;
  delete msg[STASH_KEY];
  putInMetadata(msg, STASH_KEY, stash);
}

/**
 * Decode side: a copy of a wire message with its metadata stash lifted to the top, where
 * takeMessageStash looks for it (and where residue() never keeps it).
 */
export function liftMessageStash(msg: JsonValue): JsonValue {
  if (!isJsonObject(msg)) return msg;
  const { holder, stash } = takeFromMetadata(msg, STASH_KEY);
  return stash === undefined ? msg : { ...holder, [STASH_KEY]: stash };
}

/** The id written for the canonical message at `index` when it has no A2A id of its own. */
export function generatedId(index: number): string {
  return `msg-${index + 1}`;
}

/**
 * The message without the A2A id an encode made up for it (`msg-<n>` at place `at`), or the message
 * itself when it has none; the message is never changed (it may be a decode another check shares).
 * Used under `preserve` only, where the request stash says ids were made up. A message whose own id
 * happened to look made up is stashed by the encoder, never read here.
 */
export function withoutGeneratedId(m: Message, at: number): Message {
  const own = m.ext?.[A2A];
  if (own?.['messageId'] !== generatedId(at)) return m;
  const { messageId: _id, ...rest } = own;
  const { [A2A]: _own, ...others } = m.ext as Ext;
  const ext: Ext = Object.keys(rest).length > 0 ? { ...others, [A2A]: rest } : others;
  const { ext: _ext, ...bare } = m;
  return Object.keys(ext).length > 0 ? { ...bare, ext } : bare;
}

/** withoutGeneratedId for each message, `offset` being the place of the first. */
export function withoutGeneratedIds(messages: readonly Message[], offset: number): Message[] {
  return messages.map((m, k) => withoutGeneratedId(m, offset + k));
}
