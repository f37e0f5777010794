/**
 * Canonical messages -> Chat Completions messages. Each canonical message is one stash group
 * (stashGroup): a user message holding tool results becomes tool messages followed by a user
 * message, and under `preserve` the original rides on the first of them.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, TextPart, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { LossList } from '../shared/loss-list.js';
import { stashGroup } from '../shared/stash.js';
import { orphanResultsAsContent, unansweredCalls } from '../shared/tool-pairing.js';
import { joinTexts } from '../shared/join-texts.js';
import { TOOL_ERROR_PREFIX } from '../shared/tool-error-prefix.js';
import { contentPart, isBlank, loss, own, reportPartExtras, type ContentRole } from './content-encode.js';
import { add, NONE_YET, sortAssistantParts } from './assistant-parts.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { decodeSpan } from './message-decode.js';
import { childPath } from '../shared/child-path.js';

/** Tool message text when a tool returned only media, which follows in a user message. */
export const TOOL_MEDIA_NOTE = '[the tool result content follows in the next user message]';

type Content = string | JsonObject[];

/**
 * The `content` of a message from its content parts: one string when the source had one (or when
 * several text parts from another format join), otherwise the array form, parts in order.
 */
export function buildContent(
  parts: readonly { part: Part; j: number }[],
  role: ContentRole,
  path: Path,
  opts: { stringContent: boolean; keepArray: boolean },
  losses: LossSink,
): Content | undefined {
  // One plain text part (most messages): what the lists below would come to, without them.
  if (parts.length === 1 && isPlainText((parts[0] as { part: Part }).part)) {
    const text = ((parts[0] as { part: Part }).part as TextPart).text;
    return opts.keepArray || !opts.stringContent ? [{ type: 'text', text }] : text;
  }
  // Parallel lists rather than an object per part: the written part, its canonical part and index.
  let wire: JsonObject[] = [];
  let from: Part[] = [];
  let at: number[] = [];
  for (const { part, j } of parts) {
    const json = isPlainText(part) ? { type: 'text', text: (part as TextPart).text } : contentPart(part, role, childPath(path, 'content', j), losses);
    if (json) {
      wire.push(json);
      from.push(part);
      at.push(j);
    }
  }
  if (wire.length > 1 && !opts.keepArray && wire.some(isBlankText)) {
    const kept: JsonObject[] = [];
    const keptFrom: Part[] = [];
    const keptAt: number[] = [];
    for (let k = 0; k < wire.length; k++) {
      const json = wire[k] as JsonObject;
      if (isBlankText(json)) {
        loss(losses, 'empty-text', childPath(path, 'content', at[k] as number), 'empty or whitespace-only text part dropped');
        continue;
      }
      kept.push(json);
      keptFrom.push(from[k] as Part);
      keptAt.push(at[k] as number);
    }
    wire = kept;
    from = keptFrom;
    at = keptAt;
  }
  if (wire.length === 0) return opts.stringContent && parts.length === 0 ? '' : undefined;
  let allText = true;
  for (const json of wire) if (json['type'] !== 'text') allText = false;
  if (!allText || opts.keepArray || (wire.length === 1 && !opts.stringContent)) return wire;
  if (wire.length === 1) return (wire[0] as JsonObject)['text'] as string;
  loss(losses, 'text-joined', childPath(path, 'content'), `${wire.length} text parts joined into one string`, 'approximated');
  return joinTexts(wire.map((json, k) => asText(json, from[k] as Part))).text;
}

/** A text part contentPart would write as `{type, text}` with nothing to report (the usual one). */
function isPlainText(part: Part): boolean {
  return part.type === 'text' && part.cache === undefined && part.ext === undefined && part.citations === undefined;
}

function isBlankText(json: JsonObject): boolean {
  return json['type'] === 'text' && isBlank(json['text'] as string);
}

function asText(json: JsonObject, part: Part): TextPart {
  const t: TextPart = { type: 'text', text: json['text'] as string };
  if (part.type === 'text' && part.citations) t.citations = part.citations;
  return t;
}

/** A tool result as a tool message; media it holds is returned to go in a following user message. */
function encodeToolResult(part: ToolResultPart, path: Path, losses: LossSink): { msg: JsonObject; media: readonly Part[] } {
  reportPartExtras(part, path, losses);
  const content = part.content;
  // Lists from one shared empty one (add): most results hold one text and no media.
  let texts: JsonObject[] = NONE_YET;
  let media: readonly Part[] = NONE_YET;
  for (let k = 0; k < content.length; k++) {
    const p = content[k] as Part;
    if (isPlainText(p)) texts = add(texts, { type: 'text', text: (p as TextPart).text });
    else if (p.type === 'image' || p.type === 'document' || p.type === 'audio' || p.type === 'video') {
      loss(losses, 'tool-result-media', childPath(path, 'content', k), `tool messages hold text only: the ${p.type} follows in a user message`, 'approximated');
      media = add(media as Part[], p);
    } else if (p.type === 'text' || p.type === 'search-result' || p.type === 'data') {
      const json = contentPart(p, 'text-only', childPath(path, 'content', k), losses);
      if (json) texts = add(texts, json);
    } else loss(losses, 'unsupported-part', childPath(path, 'content', k), `tool messages cannot hold ${p.type} parts`);
  }
  let written: Content;
  if (part.stringContent === true || texts.length === 0) {
    if (texts.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), `${texts.length} text parts joined into one string`, 'approximated');
    written = texts.length === 1 ? ((texts[0] as JsonObject)['text'] as string) : texts.map((t) => t['text'] as string).join('\n\n');
    if (texts.length === 0 && media.length > 0) written = TOOL_MEDIA_NOTE;
  } else written = texts;
  if (part.isError === true) {
    loss(losses, 'tool-error-flag', path, `tool messages have no error flag: the text starts with '${TOOL_ERROR_PREFIX.trim()}'`, 'approximated');
    written = typeof written === 'string' ? TOOL_ERROR_PREFIX + written : [{ type: 'text', text: TOOL_ERROR_PREFIX.trim() }, ...written];
  }
  // An explicit "not an error" says nothing the tool message lacks, but it cannot come back unless reported (and stashed).
  if (part.isError === false) loss(losses, 'tool-error-flag', path, 'tool messages have no error flag: the explicit isError false is dropped');
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, 'a result of a provider-run tool is sent as an ordinary tool message', 'approximated');
  return { msg: { role: 'tool', tool_call_id: part.callId, content: written }, media };
}

/** user / tool messages: tool results first as tool messages, then the rest as one user message. */
function encodeUserLike(m: Message, path: Path, losses: LossSink): JsonObject[] {
  const hints = own(m.ext);
  const parts = m.parts;
  // Made when there is something to hold, from a one-item literal (add): a user message mostly has
  // one part and no results, a tool message results only.
  let out: JsonObject[] | undefined;
  let rest: { part: Part; j: number }[] | undefined;
  let media: { part: Part; j: number }[] | undefined;
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    if (part.type !== 'tool-result') {
      if (m.role === 'tool') loss(losses, 'tool-message-parts', childPath(path, 'content', j), 'a non-result part of a tool message is sent in a user message', 'approximated');
      rest = add(rest ?? NONE_YET, { part, j });
      continue;
    }
    if (hints?.['$role'] === 'function') {
      // Deprecated function-result message, as it came.
      const text = part.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      out = add(out ?? NONE_YET, { role: 'function', name: m.name ?? part.name ?? part.callId, content: part.content.length === 0 ? null : text });
      continue;
    }
    // Tool messages go first: content that came before a result moves after it.
    if (rest !== undefined && out === undefined) loss(losses, 'tool-result-order', childPath(path, 'content', j), 'tool results are sent before the other content of the turn', 'approximated');
    const { msg, media: moved } = encodeToolResult(part, childPath(path, 'content', j), losses);
    for (let k = 0; k < moved.length; k++) (media ??= []).push({ part: moved[k] as Part, j });
    out = add(out ?? NONE_YET, msg);
  }
  const isTool = m.role === 'tool';
  if (isTool && out?.length === 1) {
    const msg = out[0] as JsonObject;
    if (m.name !== undefined && hints?.['$role'] !== 'function') msg['name'] = m.name;
    restoreResidue(msg, m.ext, OPENAI_CHAT);
  }
  if (rest === undefined && media === undefined && (out !== undefined || isTool)) return out ?? [];
  const opts = { stringContent: m.stringContent === true, keepArray: hints?.['$textArray'] === true };
  const content = buildContent(media === undefined ? (rest ?? []) : [...media, ...(rest ?? [])], 'user', path, opts, losses) ?? '';
  const user: JsonObject = { role: 'user', content };
  if (m.name !== undefined && !isTool) user['name'] = m.name;
  if (!isTool) restoreResidue(user, m.ext, OPENAI_CHAT);
  return add(out ?? NONE_YET, user);
}

function encodeInstructions(m: Message, path: Path, losses: LossSink): JsonObject[] {
  const hints = own(m.ext);
  const opts = { stringContent: m.stringContent === true, keepArray: hints?.['$textArray'] === true };
  const parts = m.parts.map((part, j) => ({ part, j }));
  const msg: JsonObject = { role: m.role, content: buildContent(parts, 'text-only', path, opts, losses) ?? '' };
  if (m.name !== undefined) msg['name'] = m.name;
  restoreResidue(msg, m.ext, OPENAI_CHAT);
  return [msg];
}

function encodeAssistantRequest(m: Message, path: Path, losses: LossSink, unanswered: ReadonlySet<string>): JsonObject[] {
  const sorted = sortAssistantParts(m, path, losses, unanswered);
  const hints = own(m.ext);
  const msg: JsonObject = { role: 'assistant' };
  const opts = { stringContent: m.stringContent === true, keepArray: hints?.['$textArray'] === true };
  const content = buildContent(sorted.content, 'assistant', path, opts, losses);
  if (content !== undefined) msg['content'] = content;
  if (sorted.refusals.length > 0) msg['refusal'] = sorted.refusals.join('\n\n');
  if (m.name !== undefined) msg['name'] = m.name;
  if (sorted.calls.length > 0) msg['tool_calls'] = sorted.calls;
  if (sorted.legacy) msg['function_call'] = sorted.legacy;
  if (sorted.reasoning.length > 0) msg['reasoning_content'] = sorted.reasoning.join('\n\n');
  restoreResidue(msg, m.ext, OPENAI_CHAT);
  // An assistant message needs content or calls; this one had only what was dropped.
  if (!('content' in msg) && !('tool_calls' in msg) && !('function_call' in msg) && !('refusal' in msg)) msg['content'] = '';
  return [msg];
}

const isResult = (p: Part): boolean => p.type === 'tool-result';

function encodeMessage(messages: readonly Message[], i: number, losses: LossSink): JsonObject[] {
  const m = messages[i] as Message;
  const path: Path = ['messages', i];
  reportForeignExt(m.ext, OPENAI_CHAT, path, losses);
  switch (m.role) {
    case 'system':
    case 'developer':
      return encodeInstructions(m, path, losses);
    case 'assistant':
      return encodeAssistantRequest(m, path, losses, unansweredCalls(messages, i));
    default: {
      // Only results can be orphans: a message without any needs no look (and no reporting closure).
      const fixed = !m.parts.some(isResult) ? m : orphanResultsAsContent(messages, i, (j, id) =>
        loss(losses, 'orphan-tool-result', childPath(path, 'content', j), `tool result '${id}' answers no tool call of the assistant message before, which Chat Completions refuses; sent as user content`, 'approximated'),
      );
      return encodeUserLike(fixed, path, losses);
    }
  }
}

export function encodeMessages(messages: readonly Message[], ctx: EncodeContext): JsonObject[] {
  const out: JsonObject[] = [];
  // One list for every message's own losses, emptied after each (stashGroup passes them on).
  const local = new LossList();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    local.clear();
    let wire = encodeMessage(messages, i, local);
    if (m.role === 'tool' && messages[i + 1]?.role === 'tool' && endsInUser(wire)) {
      const run = encodeToolRun(messages, i, wire, local);
      for (const w of stashGroup(run.group, ctx, local, run.wire, ctx.preserve && local.length === 0, decodeSpan)) out.push(w);
      i += run.group.length - 1;
      continue;
    }
    // Asked only under preserve when nothing was lost (stashGroup's `keep`).
    const keep = local.length === 0 && ctx.preserve && keepAnyway(m, wire, messages[i + 1]?.role);
    // stashGroup passes the wire through when there is nothing to report or keep: no group list made then.
    const group = local.length === 0 && !keep ? wire : stashGroup([m], ctx, local, wire, keep, decodeSpan);
    for (let k = 0; k < group.length; k++) out.push(group[k] as JsonObject);
  }
  return out;
}

function endsInUser(wire: readonly JsonObject[]): boolean {
  return wire.length > 0 && wire[wire.length - 1]?.['role'] === 'user';
}

/**
 * Tool messages in a row where one's results held media (or other parts), which follow it in a user
 * message: Chat wants every result of a turn's calls right after the assistant message, so that
 * user message would cut the run. The run is one stash group: all its tool messages, then the user
 * messages, in order.
 */
function encodeToolRun(messages: readonly Message[], start: number, first: JsonObject[], losses: LossSink): { group: Message[]; wire: JsonObject[] } {
  const group: Message[] = [messages[start] as Message];
  const tools: JsonObject[] = [];
  const users: JsonObject[] = [];
  const sort = (wire: readonly JsonObject[]): void => {
    for (const w of wire) (w['role'] === 'user' ? users : tools).push(w);
  };
  sort(first);
  for (let i = start + 1; i < messages.length && messages[i]?.role === 'tool'; i++) {
    group.push(messages[i] as Message);
    sort(encodeMessage(messages, i, losses));
  }
  loss(losses, 'tool-result-order', ['messages', start], 'what tool messages cannot hold follows the whole run of tool messages, in user messages', 'approximated');
  return { group, wire: [...tools, ...users] };
}

/** Whether the wire messages would not read back as `m` though nothing was lost, so preserve stashes `m`. */
function keepAnyway(m: Message, wire: JsonObject[], next: Message['role'] | undefined): boolean {
  return messageHasForeignExt(m, OPENAI_CHAT) || formNotExact(m, wire) || (m.role === 'user' && endsInTool(wire) && (next === 'user' || next === 'tool'));
}

/**
 * A user message that became only tool messages, followed by another user turn: the wire reads
 * back as tool messages then a user message, which is one user turn with its tool results
 * (canonical-conventions.md), not the two turns there were.
 */
function endsInTool(wire: readonly JsonObject[]): boolean {
  return wire.length > 0 && wire[wire.length - 1]?.['role'] === 'tool';
}

/**
 * Whether the wire messages would decode with another string-or-parts form than the canonical
 * message had, though nothing was lost (e.g. a tool result with no content becomes `''`, which
 * reads back as one empty text). Asked only under `preserve`, which then stashes the message.
 */
function formNotExact(m: Message, wire: readonly JsonObject[]): boolean {
  const results = m.parts.filter((p): p is ToolResultPart => p.type === 'tool-result');
  let k = 0;
  let own = false;
  for (const w of wire) {
    if (w['role'] === 'tool' || w['role'] === 'function') {
      const r = results[k++];
      if (w['role'] === 'tool' && r !== undefined && (typeof w['content'] === 'string') !== (r.stringContent === true)) return true;
      continue;
    }
    own = true;
    const content = w['content'];
    if ((typeof content === 'string') !== (m.stringContent === true)) return true;
  }
  return m.stringContent === true && !own;
}

