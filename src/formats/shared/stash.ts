import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { LossList } from './loss-list.js';
import { stashHash, stashHashMatches } from './stash-hash.js';
import { applyPatch, messagesPatch, type MessagesPatch, type PatchOp } from './stash-patch.js';
import { childPath } from './child-path.js';

/**
 * Under `preserve`, what a target cannot hold rides along in this namespaced field so the way
 * back is exact. It is for storage and interchange, never for sending to a provider.
 *
 * Message level: the first wire message written for a group of canonical messages carries
 * `{ v: 1, span, hash, messages }` — the canonical messages themselves, how many wire messages
 * they became, and a fingerprint of those wire messages. If the wire messages were edited since,
 * the fingerprint no longer matches and the stash is ignored (reported), never applied blindly.
 * A format that can decode a span of its wire messages on its own (a SpanDecoder, the same function
 * for writing and reading) writes the patch form instead, `{ v: 2, span, hash, shape?, patch }`: only what
 * that decode does not give back (stash-patch.ts, ADR 0013), so the text and media the wire messages
 * already hold are not written twice.
 * Top level: `{ v: 1, fields }` — the canonical request/response fields the target had no slot for.
 */
export const STASH_KEY = 'x-interlingua';
export const STASH_VERSION = 1;
export const PATCH_STASH_VERSION = 2;

export type MessageStash = { v: 1; span: number; hash: string; messages: Message[] } | { v: 2; span: number; hash: string; shape?: number[]; patch: PatchOp[] };

/**
 * A format's decode of a span of its wire messages taken alone, without a stash (the wire messages
 * as written, or as read with the stash key removed). Must depend on nothing but the messages: the
 * writer diffs its result against the canonical messages, the reader applies that diff to its own.
 */
export type SpanDecoder = (wire: readonly JsonObject[]) => Message[];

/**
 * The last read-back: a format's "would these wire messages decode back?" check and then the patch
 * stash of the same group (the same wire array) decode it once. Cleared when a stash is made, else
 * replaced by the next read-back (so at most one group's decode is held between conversions).
 */
let lastRead: { decodeSpan: SpanDecoder; wire: readonly JsonObject[]; decoded: Message[] } | undefined;

/** decodeSpan(wire), or the decode just made of this same wire array. The result is read only. */
export function readBack(decodeSpan: SpanDecoder, wire: readonly JsonObject[]): Message[] {
  if (lastRead !== undefined && lastRead.wire === wire && lastRead.decodeSpan === decodeSpan) return lastRead.decoded;
  const decoded = decodeSpan(wire);
  lastRead = { decodeSpan, wire, decoded };
  return decoded;
}

/** The patch that turns decodeSpan's reading of `wire` into `messages`, or undefined (then v: 1). */
function patchFor(decodeSpan: SpanDecoder, wire: readonly JsonObject[], messages: Message[]): MessagesPatch | undefined {
  try {
    return messagesPatch(readBack(decodeSpan, wire), messages);
  } catch {
    // A span its decoder refuses (a request's arguments that are not JSON), or values nested past
    // the stack: the whole messages still bring it back.
    return undefined;
  } finally {
    lastRead = undefined;
  }
}

function withoutStash(obj: JsonObject): JsonObject {
  if (!(STASH_KEY in obj)) return obj;
  const { [STASH_KEY]: _omit, ...rest } = obj;
  return rest;
}

/**
 * Finishes one group of canonical messages that an encoder wrote into wire messages with a private
 * loss list `local`: if anything was lost and `preserve` is on, stashes the group on the first wire
 * message. Every loss reaches `ctx.losses`, marked 'stashed' when the stash will bring it back.
 *
 * `keep` (asked by the caller only under `preserve` when nothing was lost) says whether the wire
 * messages still would not decode back to the same canonical messages — another format's private
 * hints, or a string-or-blocks form the target cannot write — so the group is stashed anyway.
 */
export function stashGroup<W extends JsonObject>(messages: Message[], ctx: EncodeContext, local: LossList, wire: W[], keep: boolean, decodeSpan?: SpanDecoder): W[] {
  if (local.length === 0 && !keep) return wire;
  const first = wire[0];
  const stashed = ctx.preserve && first !== undefined;
  for (const loss of local.items) ctx.losses.push(stashed ? { ...loss, action: 'stashed' } : loss);
  if (stashed) {
    const stash = messageStash(messages, wire, decodeSpan);
    (first as JsonObject)[STASH_KEY] = stash as unknown as JsonObject;
  }
  return wire;
}

/**
 * The stash for canonical `messages` written as `wire` (not yet carrying it): the patch form when
 * `decodeSpan` is given and its reading of the wire can be patched into the messages, else whole.
 */
export function messageStash(messages: Message[], wire: readonly JsonObject[], decodeSpan?: SpanDecoder): MessageStash {
  const patch = decodeSpan === undefined ? undefined : patchFor(decodeSpan, wire, messages);
  const hash = stashHash(wire);
  if (patch === undefined) return { v: STASH_VERSION, span: wire.length, hash, messages };
  if (patch.shape === undefined) return { v: PATCH_STASH_VERSION, span: wire.length, hash, patch: patch.ops };
  return { v: PATCH_STASH_VERSION, span: wire.length, hash, shape: patch.shape, patch: patch.ops };
}

/**
 * If `list[index]` carries a message stash that still matches the wire messages it spans, returns
 * the canonical messages to use instead of decoding them. A stale or malformed stash is reported
 * and ignored, so the visible messages win. A patch stash (v: 2) is read only by a caller that
 * passes the format's SpanDecoder.
 */
export function takeMessageStash(
  list: readonly unknown[],
  index: number,
  ctx: DecodeContext,
  path: Path,
  decodeSpan?: SpanDecoder,
): { messages: Message[]; span: number } | undefined {
  const head = list[index];
  if (!isJsonObject(head) || !(STASH_KEY in head)) return undefined;
  const stash = head[STASH_KEY];
  const stashPath = childPath(path, index, STASH_KEY);
  if (
    !isJsonObject(stash) ||
    !(stash['v'] === STASH_VERSION ? Array.isArray(stash['messages']) : stash['v'] === PATCH_STASH_VERSION && decodeSpan !== undefined && Array.isArray(stash['patch'])) ||
    typeof stash['span'] !== 'number' ||
    !Number.isInteger(stash['span']) ||
    stash['span'] < 1 ||
    index + stash['span'] > list.length ||
    typeof stash['hash'] !== 'string'
  ) {
    ctx.losses.push(stale(stashPath, 'malformed interlingua stash ignored'));
    return undefined;
  }
  const span = stash['span'];
  const visible = list.slice(index, index + span).map((m, i) => (i === 0 && isJsonObject(m) ? withoutStash(m) : m));
  if (!stashHashMatches(visible, stash['hash'])) {
    ctx.losses.push(stale(stashPath, 'message changed since it was stashed; stash ignored, visible content used'));
    return undefined;
  }
  if (stash['v'] === STASH_VERSION) return { messages: stash['messages'] as unknown as Message[], span };
  const messages = patched(decodeSpan as SpanDecoder, visible as JsonObject[], stash['shape'], stash['patch']);
  if (messages === undefined) {
    ctx.losses.push(stale(stashPath, 'interlingua stash patch does not fit the messages it spans; stash ignored, visible content used'));
    return undefined;
  }
  return { messages, span };
}

/** The visible span decoded and patched, or undefined when the patch does not fit it. */
function patched(decodeSpan: SpanDecoder, visible: JsonObject[], shape: unknown, patch: unknown): Message[] | undefined {
  let decoded: Message[];
  try {
    decoded = decodeSpan(visible);
  } catch {
    return undefined;
  }
  return applyPatch(decoded, shape, patch);
}

/** Writes the top-level stash of lost canonical fields, when there are any and `preserve` is on. */
export function putTopStash(out: JsonObject, fields: JsonObject, ctx: EncodeContext): void {
  if (!ctx.preserve || Object.keys(fields).length === 0) return;
  // A named store (STASH_KEY spelled out, checked to be it): V8 turns an object of many fields (a
  // Responses response) into a slow dictionary when a field is added to it by a computed key.
  out['x-interlingua' satisfies typeof STASH_KEY] = { v: STASH_VERSION, fields };
}

/** Reads the top-level stash's fields, or undefined. A malformed one is reported and ignored. */
export function takeTopStash(body: JsonObject, ctx: DecodeContext): JsonObject | undefined {
  if (!(STASH_KEY in body)) return undefined;
  const stash = body[STASH_KEY];
  if (!isJsonObject(stash) || stash['v'] !== STASH_VERSION || !isJsonObject(stash['fields'])) {
    ctx.losses.push(stale([STASH_KEY], 'malformed interlingua stash ignored'));
    return undefined;
  }
  return stash['fields'];
}

function stale(path: Path, message: string): Loss {
  return { code: 'stale-stash', path, message, action: 'dropped' };
}
