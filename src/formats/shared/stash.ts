import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { DecodeContext, EncodeContext } from '../codec.js';
import { LossList } from './loss-list.js';
import { stashHash, stashHashMatches } from './stash-hash.js';

/**
 * Under `preserve`, what a target cannot hold rides along in this namespaced field so the way
 * back is exact. It is for storage and interchange, never for sending to a provider.
 *
 * Message level: the first wire message written for a group of canonical messages carries
 * `{ v: 1, span, hash, messages }` — the canonical messages themselves, how many wire messages
 * they became, and a fingerprint of those wire messages. If the wire messages were edited since,
 * the fingerprint no longer matches and the stash is ignored (reported), never applied blindly.
 * Top level: `{ v: 1, fields }` — the canonical request/response fields the target had no slot for.
 */
export const STASH_KEY = 'x-interlingua';
export const STASH_VERSION = 1;

export interface MessageStash {
  v: 1;
  span: number;
  hash: string;
  messages: Message[];
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
export function stashGroup<W extends JsonObject>(messages: Message[], ctx: EncodeContext, local: LossList, wire: W[], keep: boolean): W[] {
  if (local.length === 0 && !keep) return wire;
  const first = wire[0];
  const stashed = ctx.preserve && first !== undefined;
  for (const loss of local.items) ctx.losses.push(stashed ? { ...loss, action: 'stashed' } : loss);
  if (stashed) {
    const stash: MessageStash = { v: STASH_VERSION, span: wire.length, hash: stashHash(wire), messages };
    (first as JsonObject)[STASH_KEY] = stash as unknown as JsonObject;
  }
  return wire;
}

/**
 * If `list[index]` carries a message stash that still matches the wire messages it spans, returns
 * the canonical messages to use instead of decoding them. A stale or malformed stash is reported
 * and ignored, so the visible messages win.
 */
export function takeMessageStash(
  list: readonly unknown[],
  index: number,
  ctx: DecodeContext,
  path: Path,
): { messages: Message[]; span: number } | undefined {
  const head = list[index];
  if (!isJsonObject(head) || !(STASH_KEY in head)) return undefined;
  const stash = head[STASH_KEY];
  const stashPath = [...path, index, STASH_KEY];
  if (
    !isJsonObject(stash) ||
    stash['v'] !== STASH_VERSION ||
    typeof stash['span'] !== 'number' ||
    !Number.isInteger(stash['span']) ||
    stash['span'] < 1 ||
    index + stash['span'] > list.length ||
    typeof stash['hash'] !== 'string' ||
    !Array.isArray(stash['messages'])
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
  return { messages: stash['messages'] as unknown as Message[], span };
}

/** Writes the top-level stash of lost canonical fields, when there are any and `preserve` is on. */
export function putTopStash(out: JsonObject, fields: JsonObject, ctx: EncodeContext): void {
  if (!ctx.preserve || Object.keys(fields).length === 0) return;
  out[STASH_KEY] = { v: STASH_VERSION, fields };
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
