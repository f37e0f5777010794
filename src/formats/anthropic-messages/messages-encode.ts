/**
 * Canonical messages -> Anthropic `system` + `messages`. Leading system/developer messages become
 * the top-level system; later ones are moved there (reported). A run of `tool` messages and the
 * user message right after it become one user turn, tool results first. Each group of canonical
 * messages goes through stashGroup so `preserve` can stash what did not fit.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { EncodeContext } from '../codec.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { stashGroup } from '../shared/stash.js';
import { withOrphansAsContent, withoutUnansweredCalls } from '../shared/tool-pairing.js';
import { decodeSpan } from './content-decode.js';
import { encodePartsInto, encodeText } from './content-encode.js';
import { ID } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

export interface EncodedMessages {
  system?: string | JsonObject[];
  messages: JsonObject[];
  /** Top-stash fields: the exact leading system messages / messages with no wire message left. */
  stash: JsonObject;
}

const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';
/** A system message decoded from inside Anthropic's `messages` (not the top-level system). */
const inMessages = (m: Message): boolean => m.role === 'system' && m.ext?.[ID]?.['$inMessages'] === true;

export function encodeMessages(messages: readonly Message[], ctx: EncodeContext): EncodedMessages {
  let lead = 0;
  while (lead < messages.length && isSystem(messages[lead] as Message) && !inMessages(messages[lead] as Message)) lead++;

  const sysLosses = new LossList();
  const systemBlocks: JsonObject[] = [];
  for (let i = 0; i < lead; i++) systemBlocks.push(...systemMessageBlocks(messages[i] as Message, ['messages', i], sysLosses));
  // The leading messages come back from the top stash ($system, set below), not a message stash.
  for (const l of sysLosses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);

  const out: JsonObject[] = [];
  let pending: Message[] = [];
  let pendingLosses: Loss[] = [];
  let moved = false;
  let i = lead;
  while (i < messages.length) {
    const m = messages[i] as Message;
    if (isSystem(m) && !inMessages(m)) {
      // A system message mid-conversation: Anthropic has only the top-level system.
      const local = new LossList();
      local.push({ code: 'system-moved', path: ['messages', i], message: 'system message moved to the top-level system', action: 'approximated' });
      systemBlocks.push(...systemMessageBlocks(m, ['messages', i], local));
      pending.push(m);
      pendingLosses.push(...local.items);
      moved = true;
      i++;
      continue;
    }
    const group = pending;
    const local = new LossList();
    for (const l of pendingLosses) local.push(l);
    let wire: JsonObject | undefined;
    if (m.role === 'tool') {
      const blocks: JsonObject[] = [];
      while (i < messages.length && (messages[i] as Message).role === 'tool') {
        const t = messages[i] as Message;
        group.push(t);
        messageBlocks(withOrphansAsContent(messages, i, local, 'Anthropic'), 'user', i, local, blocks);
        i++;
      }
      const next = messages[i];
      let residueFrom: Message | undefined;
      if (next?.role === 'user') {
        group.push(next);
        messageBlocks(withOrphansAsContent(messages, i, local, 'Anthropic'), 'user', i, local, blocks);
        residueFrom = next;
        i++;
      }
      wire = blocks.length > 0 ? withResidue({ role: 'user', content: toolResultsFirst(blocks, i - 1, local) }, residueFrom) : undefined;
    } else if (m.role === 'system') {
      group.push(m);
      wire = encodeInlineSystem(m, ['messages', i], local);
      i++;
    } else {
      group.push(m);
      wire = encodeMessage(m.role === 'assistant' ? withoutUnansweredCalls(messages, i, local, 'Anthropic') : withOrphansAsContent(messages, i, local, 'Anthropic'), i, local);
      i++;
    }
    if (wire === undefined) {
      const left = omittedTypes(m);
      if (left.length === 0) {
        // Only blank text: nothing is lost by leaving the turn out.
        local.push({ code: 'empty-message', path: ['messages', i - 1], message: 'message left with no content was dropped', action: 'dropped' });
        pending = group;
        pendingLosses = local.items;
        continue;
      }
      // Content Anthropic cannot take (audio ...): the turn stays, saying what it held, so the
      // model does not answer as if it never came and the body keeps at least one message.
      local.push({ code: 'empty-message', path: ['messages', i - 1], message: 'nothing in the message can be sent; a placeholder text names what was left out', action: 'approximated' });
      wire = { role: m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'system' : 'user', content: [placeholder(left)] };
    }
    // The group is finished by stashGroup: `local` already holds its losses.
    const keep = local.length === 0 && ctx.preserve && notExact(group, wire);
    // stashGroup hands back the list it was given (its first message may get the stash).
    stashGroup(group, ctx, local, [wire], keep, decodeSpan);
    out.push(wire);
    pending = [];
    pendingLosses = [];
  }

  if (out.length === 0) {
    // Anthropic needs at least one message: the dropped ones (if any) ride on a placeholder.
    const group = pending;
    const local = new LossList();
    for (const l of pendingLosses) local.push(l);
    local.push({ code: 'empty-message', path: ['messages'], message: 'no message left to send; a placeholder user message is written', action: 'approximated' });
    out.push(...stashGroup(group, ctx, local, [{ role: 'user', content: [placeholder([])] }], false, decodeSpan));
    pending = [];
  }
  const stash: JsonObject = {};
  if (pending.length > 0) {
    for (const l of pendingLosses) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
    stash['$trailing'] = pending as unknown as JsonValue;
  }
  const result: EncodedMessages = { messages: out, stash };
  const only = messages[0];
  const first = only?.parts[0];
  if (lead === 1 && !moved && only?.stringContent && only.parts.length === 1 && first?.type === 'text' && isPlain(first)) {
    result.system = first.text; // a system string stays a string, even an empty one
  } else if (systemBlocks.length > 0) result.system = systemBlocks;
  const lostSystem = sysLosses.length > 0 || moved || (ctx.preserve && systemNotExact(messages.slice(0, lead), result.system));
  if (lostSystem) stash['$system'] = messages.slice(0, lead) as unknown as JsonValue;
  return result;
}

/**
 * Whether decoding the written system would not give back the leading messages, though nothing
 * was lost: several messages joined into one system, the string-or-blocks form, another format's
 * hints. Only asked under `preserve`, which then stashes them.
 */
function systemNotExact(lead: readonly Message[], system: string | JsonObject[] | undefined): boolean {
  const [only, ...more] = lead;
  if (only === undefined) return false;
  if (more.length > 0 || system === undefined || messageHasForeignExt(only, ID)) return true;
  return (only.stringContent === true) !== (typeof system === 'string');
}

/**
 * Whether a group's wire message would not decode back to the group's messages, though nothing was
 * lost: another format's hints or explicit nulls, or a string content the Anthropic message could
 * not keep (beside tool results or tool_use blocks it must be blocks). Asked only under `preserve`.
 */
function notExact(group: readonly Message[], wire: JsonObject): boolean {
  for (const m of group) {
    if (messageHasForeignExt(m, ID)) return true;
    if (m.stringContent === true && typeof wire['content'] !== 'string') return true;
    for (const p of m.parts) {
      if (p.type === 'tool-result' && p.stringContent === true && !(p.content.length === 1 && p.content[0]?.type === 'text')) return true;
    }
  }
  return false;
}

/** The kinds of content a message held, other than text, when none of it could be sent. */
function omittedTypes(m: Message): string[] {
  return [...new Set(m.parts.filter((p) => p.type !== 'text').map((p) => p.type))];
}

function placeholder(types: readonly string[]): JsonObject {
  return { type: 'text', text: types.length > 0 ? `[omitted: ${types.join(', ')}]` : '[empty message]' };
}

function isPlain(p: Part): boolean {
  return p.cache === undefined && p.ext === undefined && (p.type !== 'text' || p.citations === undefined);
}

function systemMessageBlocks(m: Message, path: Path, losses: LossList): JsonObject[] {
  if (m.role === 'developer') losses.push({ code: 'developer-role', path: childPath(path, 'role'), message: 'developer message sent as system', action: 'approximated' });
  if (m.name !== undefined) losses.push({ code: 'message-name', path: childPath(path, 'name'), message: 'Anthropic messages have no participant name', action: 'dropped' });
  reportForeignExt(m.ext, ID, path, losses);
  const blocks: JsonObject[] = [];
  m.parts.forEach((p, j) => {
    if (p.type !== 'text') {
      losses.push({ code: 'system-non-text', path: childPath(path, 'parts', j), message: `Anthropic system holds text only; ${p.type} dropped`, action: 'dropped' });
      return;
    }
    const b = encodeText(p, childPath(path, 'parts', j), losses);
    if (b) blocks.push(b);
  });
  return blocks;
}

/** `{role: 'system'}` inside messages, where the source had it: text only. */
function encodeInlineSystem(m: Message, path: Path, losses: LossList): JsonObject | undefined {
  const first = m.parts[0];
  if (m.stringContent && m.parts.length === 1 && first?.type === 'text' && isPlain(first)) {
    return withResidue({ role: 'system', content: first.text }, m);
  }
  const blocks = systemMessageBlocks(m, path, losses);
  return blocks.length > 0 ? withResidue({ role: 'system', content: blocks }, m) : undefined;
}

/** Appends `messages[i]`'s blocks to `out`; paths are built from `i` (the parts' one always: encodeParts extends it). */
function messageBlocks(m: Message, role: 'user' | 'assistant', i: number, losses: LossList, out: JsonObject[]): JsonObject[] {
  messageExtras(m, i, losses);
  return encodePartsInto(out, m.parts, role, ['messages', i, 'parts'], losses);
}

/** The name and another format's hints, which an Anthropic message cannot hold: reported. */
function messageExtras(m: Message, i: number, losses: LossList): void {
  if (m.name !== undefined) losses.push({ code: 'message-name', path: ['messages', i, 'name'], message: 'Anthropic messages have no participant name', action: 'dropped' });
  if (m.ext !== undefined) reportForeignExt(m.ext, ID, ['messages', i], losses);
}

function withResidue(out: JsonObject, m: Message | undefined): JsonObject {
  if (m?.ext) restoreResidue(out, m.ext, ID);
  return out;
}

function encodeMessage(m: Message, i: number, losses: LossList): JsonObject | undefined {
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const first = m.parts[0];
  if (m.stringContent && m.parts.length === 1 && first?.type === 'text' && isPlain(first) && first.text.trim() !== '') {
    messageExtras(m, i, losses);
    return withResidue({ role, content: first.text }, m);
  }
  const blocks = messageBlocks(m, role, i, losses, []);
  if (blocks.length === 0) return undefined;
  return withResidue({ role, content: role === 'user' ? toolResultsFirst(blocks, i, losses) : blocks }, m);
}

/** Anthropic wants a user turn's tool_result blocks before anything else. */
function toolResultsFirst(blocks: JsonObject[], i: number, losses: LossList): JsonObject[] {
  let seenOther = false;
  let misordered = false;
  for (const b of blocks) {
    if (b['type'] === 'tool_result') {
      if (seenOther) misordered = true;
    } else seenOther = true;
  }
  if (!misordered) return blocks;
  losses.push({ code: 'tool-result-order', path: ['messages', i], message: 'tool results moved before other content of the user turn', action: 'approximated' });
  return [...blocks.filter((b) => b['type'] === 'tool_result'), ...blocks.filter((b) => b['type'] !== 'tool_result')];
}
