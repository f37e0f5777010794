/**
 * Canonical messages -> Bedrock `system` + `messages`, applying Bedrock's conversation rules:
 * - leading system/developer messages become the top-level `system`; later ones are moved there;
 * - `tool` messages become user turns (Bedrock carries tool results in user messages);
 * - same-role turns are merged ("A conversation must alternate between user and assistant roles");
 * - a conversation starting with an assistant turn gets a placeholder user turn first
 *   ("A conversation must start with a user message");
 * - blank text is never sent, and a message left with nothing is dropped.
 * Every rewrite is a loss. Under `preserve` each wire message carries the canonical messages it
 * came from whenever decoding it back would not give them exactly (a loss, or only a difference of
 * form such as OpenAI's plain-string content), so converting back is exact.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { EncodeContext } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { withoutPlainArgumentsJson } from '../shared/plain-arguments.js';
import { sameValue } from '../shared/same-value.js';
import { withOrphansAsContent, withoutUnansweredCalls } from '../shared/tool-pairing.js';
import { messageStash, STASH_KEY } from '../shared/stash.js';
import { decodeBlocks } from './content-decode.js';
import { decodeMessage, decodeSpan } from './message-decode.js';
import { encodeParts, type PartContext } from './content-encode.js';
import type { DocumentNamer } from './names.js';
import { ID } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

/** The user turn put before a conversation that starts with the assistant. */
export const LEADING_USER_TEXT = '.';

export interface EncodedMessages {
  system?: JsonObject[];
  messages: JsonObject[];
  /** Top-stash fields: the exact leading system messages, messages with no wire message left. */
  stash: JsonObject;
}

type WireRole = 'user' | 'assistant' | 'system';

interface Item {
  role: WireRole;
  blocks: JsonObject[];
  /**
   * The canonical messages this wire message stands for, messages[from, to) (dropped ones ride
   * with the next): indexes, as the list is needed only under `preserve`.
   */
  from: number;
  to: number;
  losses: Loss[];
  /** The message whose Bedrock residue is written on the wire message, and its canonical index. */
  first: Message;
  index: number;
  /** The (last) canonical message was a `tool` message. */
  tool: boolean;
  placeholder?: boolean;
}

const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';
/** A system message decoded from inside Bedrock's `messages` (ConversationRole allows it). */
const inMessages = (m: Message): boolean => m.role === 'system' && m.ext?.[ID]?.['$inMessages'] === true;

export function encodeMessages(messages: readonly Message[], namer: DocumentNamer, ctx: EncodeContext): EncodedMessages {
  let lead = 0;
  while (lead < messages.length && isSystem(messages[lead] as Message) && !inMessages(messages[lead] as Message)) lead++;

  const sysLosses = new LossList();
  const system: JsonObject[] = [];
  const partCtx = (losses: LossList, index: number): PartContext => ({ namer, losses, keepBlank: false, messages, index });
  for (let i = 0; i < lead; i++) system.push(...systemBlocks(messages[i] as Message, ['messages', i], partCtx(sysLosses, i)));
  for (const l of sysLosses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);

  const items: Item[] = [];
  // Messages from `from` on that have no wire message yet: moved system ones and dropped ones.
  let from = lead;
  let pendingLosses: Loss[] = [];
  let moved = false;
  for (let i = lead; i < messages.length; i++) {
    const m = messages[i] as Message;
    const path: Path = ['messages', i];
    const local = new LossList();
    if (isSystem(m) && !inMessages(m)) {
      local.push({ code: 'system-moved', path, message: 'system message moved to the top-level system', action: 'approximated' });
      for (const b of systemBlocks(m, path, partCtx(local, i))) system.push(b);
      for (const l of local.items) pendingLosses.push(l);
      moved = true;
      continue;
    }
    const role: WireRole = m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'system' : 'user';
    if (m.name !== undefined) local.push({ code: 'message-name', path: childPath(path, 'name'), message: 'Bedrock messages have no participant name', action: 'dropped' });
    reportForeignExt(m.ext, ID, path, local);
    const paired = m.role === 'assistant' ? withoutUnansweredCalls(messages, i, local, 'Bedrock') : withOrphansAsContent(messages, i, local, 'Bedrock');
    const blocks = encodeParts(paired.parts, role === 'system' ? 'user' : m.role, ['messages', i, 'parts'], partCtx(local, i));
    if (blocks.length === 0) {
      local.push({ code: 'empty-message', path, message: 'message left with no content was dropped', action: 'dropped' });
      for (const l of local.items) pendingLosses.push(l);
      continue;
    }
    let losses = local.items;
    if (pendingLosses.length > 0) {
      for (const l of local.items) pendingLosses.push(l);
      losses = pendingLosses;
      pendingLosses = [];
    }
    items.push({ role, blocks, from, to: i + 1, losses, first: m, index: i, tool: m.role === 'tool' });
    from = i + 1;
  }

  const merged = mergeTurns(items);
  leadWithUser(merged);

  const out: JsonObject[] = [];
  for (const item of merged) finishGroup(item, messages, ctx, out);

  const stash: JsonObject = {};
  if (from < messages.length) {
    for (const l of pendingLosses) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
    stash['$trailing'] = messages.slice(from) as unknown as JsonValue;
  }
  if (ctx.preserve) {
    const leading = messages.slice(0, lead);
    if (moved || !systemComesBack(leading, system)) stash['$system'] = leading as unknown as JsonValue;
  }
  const result: EncodedMessages = { messages: out, stash };
  if (system.length > 0) result.system = system;
  return result;
}

function systemBlocks(m: Message, path: Path, ctx: PartContext): JsonObject[] {
  if (m.role === 'developer') ctx.losses.push({ code: 'developer-role', path: childPath(path, 'role'), message: 'developer message sent as system', action: 'approximated' });
  if (m.name !== undefined) ctx.losses.push({ code: 'message-name', path: childPath(path, 'name'), message: 'Bedrock messages have no participant name', action: 'dropped' });
  reportForeignExt(m.ext, ID, path, ctx.losses);
  const kept = m.parts.filter((p, j) => {
    const ok = p.type === 'text' || (p.type === 'provider-block' && p.origin === ID) || (p.type === 'image' && p.ext?.[ID]?.['guardContent'] !== undefined);
    if (!ok) ctx.losses.push({ code: 'system-non-text', path: childPath(path, 'parts', j), message: `Bedrock system holds text only; ${p.type} dropped`, action: 'dropped' });
    return ok;
  });
  return encodeParts(kept, 'user', childPath(path, 'parts'), ctx);
}

/** Whether decoding `system` gives back exactly the leading canonical system messages. */
function systemComesBack(leading: Message[], system: JsonObject[]): boolean {
  if (leading.length === 0) return system.length === 0;
  if (leading.length !== 1) return false;
  const back: Message = { role: 'system', parts: decodeBlocks(system) };
  return sameValue(back, leading[0]);
}

/**
 * Same-role neighbours become one message (Bedrock requires alternating roles). Tool messages
 * joining a user turn is where Bedrock carries tool results (as Anthropic does), not a loss; two
 * user or two assistant messages made one is.
 */
function mergeTurns(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (prev && prev.role === item.role && item.role !== 'system') {
      for (const l of item.losses) prev.losses.push(l);
      if (!prev.tool && !item.tool) {
        prev.losses.push({
          code: 'merged-turns',
          path: ['messages', item.index],
          message: `consecutive ${item.role} turns merged into one message (Bedrock requires alternating roles)`,
          action: 'approximated',
        });
      }
      prev.tool = item.tool;
      for (const b of item.blocks) prev.blocks.push(b);
      // Merged items are neighbours: the group grows to the end of this one.
      prev.to = item.to;
      continue;
    }
    out.push(item);
  }
  return out;
}

function leadWithUser(items: Item[]): void {
  const first = items[0];
  if (first === undefined || first.role !== 'assistant') return;
  first.placeholder = true;
  first.losses.unshift({
    code: 'leading-user-turn',
    path: ['messages'],
    message: `Bedrock conversations start with a user message; a user turn '${LEADING_USER_TEXT}' was put first`,
    action: 'approximated',
  });
}

/** Appends an item's wire message(s) to `out`; stashes its canonical messages when the way back would differ. */
function finishGroup(item: Item, messages: readonly Message[], ctx: EncodeContext, out: JsonObject[]): void {
  const msg: JsonObject = { role: item.role, content: item.blocks };
  restoreResidue(msg, item.first.ext, ID);
  if (STASH_KEY in msg) delete msg[STASH_KEY];
  const lossy = item.losses.length > 0;
  for (const l of item.losses) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  if (!ctx.preserve && !item.placeholder) {
    out.push(msg);
    return;
  }
  const wire = item.placeholder ? [{ role: 'user', content: [{ text: LEADING_USER_TEXT }] }, msg] : [msg];
  if (ctx.preserve && (lossy || !comesBack(item, messages, msg))) {
    (wire[0] as JsonObject)[STASH_KEY] = messageStash(messages.slice(item.from, item.to), wire, decodeSpan) as unknown as JsonObject;
  }
  for (const w of wire) out.push(w);
}

/**
 * Whether decoding the wire message gives back exactly the one canonical message it came from; a
 * tool call's text that JSON.stringify of its `input` writes again is no difference (plain-arguments.ts).
 */
function comesBack(item: Item, messages: readonly Message[], msg: JsonObject): boolean {
  const only = item.to - item.from === 1 ? messages[item.from] : undefined;
  return only !== undefined && sameValue(decodeMessage(msg), withoutPlainArgumentsJson(only));
}
