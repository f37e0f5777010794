import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { LossList } from './loss-list.js';
import { stashGroup, type SpanDecoder } from './stash.js';

/**
 * Stash groups for formats that write one wire message per canonical message: one item each,
 * except that an item which becomes no wire message at all (everything in it was dropped) joins
 * the next group, or the last one, so that some wire message can carry it under `preserve`.
 */
export function stashGroups<T>(items: readonly T[], producesWire: (item: T) => boolean): T[][] {
  const out: T[][] = [];
  let pending: T[] = [];
  for (const item of items) {
    pending.push(item);
    if (producesWire(item)) {
      out.push(pending);
      pending = [];
    }
  }
  if (pending.length > 0) {
    const last = out[out.length - 1];
    if (last) last.push(...pending);
    else out.push(pending);
  }
  return out;
}

export interface PerMessageFormat {
  /**
   * One canonical message (at its index) as its wire messages; losses go to the sink. Must depend
   * on nothing but its arguments: each message is encoded once, and its wire messages and losses
   * are kept for its group.
   */
  encode(m: Message, i: number, losses: LossSink): JsonObject[];
  /** Whether these wire messages decode back to exactly these canonical messages. */
  decodesBack(wire: readonly JsonObject[], messages: readonly Message[]): boolean;
  /** The format's decode of wire messages alone, when it has one: stashes are then patches (stash.ts). */
  decodeSpan?: SpanDecoder;
  /** What to write when no message produced anything (a format that must not be empty). */
  whenEmpty?(losses: LossSink): JsonObject[];
}

/** The messages of a one-wire-message-per-message format, in stash groups (see stashGroups). */
export function encodePerMessage(messages: readonly Message[], ctx: EncodeContext, format: PerMessageFormat): JsonObject[] {
  if (!ctx.preserve) return encodeEach(messages, ctx, format);
  const out: JsonObject[] = [];
  // Each message encoded once: what it writes decides the groups, and is then written as it is.
  const items = messages.map((m, i) => {
    const losses = new LossList();
    return { m, wire: format.encode(m, i, losses), losses };
  });
  for (const group of stashGroups(items, (item) => item.wire.length > 0)) {
    // Each group finished by stashGroup: no closures per group.
    const canonical = group.map((g) => g.m);
    // A group of one message (the usual case) uses that message's own losses and wire list.
    const only = group.length === 1 ? group[0] : undefined;
    const losses = only ? only.losses : new LossList();
    let written: JsonObject[] = only ? only.wire : [];
    if (!only) {
      for (const g of group) {
        for (const l of g.losses.items) losses.push(l);
        for (const w of g.wire) written.push(w);
      }
    }
    // Only the last group can be empty, and only when no message produced anything.
    if (written.length === 0 && out.length === 0 && format.whenEmpty !== undefined) written = format.whenEmpty(losses);
    const keep = losses.length === 0 && ctx.preserve && !format.decodesBack(written, canonical);
    for (const w of stashGroup(canonical, ctx, losses, written, keep, format.decodeSpan)) out.push(w);
  }
  return out;
}

/**
 * encodePerMessage without `preserve`: no stash, so no groups. Each message's losses go straight to
 * ctx in message order, which is the order the groups would give them (a message that writes
 * nothing joins a neighbour's group, its losses still in place), and no per-message loss list,
 * item or group array is made.
 */
function encodeEach(messages: readonly Message[], ctx: EncodeContext, format: PerMessageFormat): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = 0; i < messages.length; i++) for (const w of format.encode(messages[i] as Message, i, ctx.losses)) out.push(w);
  // As with groups: the placeholder only when there were messages and none wrote anything.
  if (out.length === 0 && messages.length > 0 && format.whenEmpty !== undefined) for (const w of format.whenEmpty(ctx.losses)) out.push(w);
  return out;
}
