/**
 * Canonical messages -> AG-UI messages, one stash group per canonical message (stashGroup):
 * - tool results become `tool` messages (a user turn's results first, as OpenAI Chat does);
 * - an assistant message's reasoning parts become `reasoning` messages before it (AG-UI keeps
 *   reasoning as messages of its own), its text joins into `content` (a string in AG-UI) and its
 *   calls are `toolCalls`; an ag-ui activity block is written back as its activity message;
 * - system and developer content is a string: text parts join.
 * Ids: the message's own (`$id`), else `msg-<n>` from its position, so output is deterministic.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { joinTexts } from '../shared/join-texts.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { AG_UI, META_KEY } from './ag-ui-api.js';
import { encodeContent, loss, own } from './content-encode.js';
import { decodeSpan } from './message-decode.js';
import { encodePerMessage } from '../shared/stash-groups.js';
import { readBack } from '../shared/stash.js';
import { childPath } from '../shared/child-path.js';

/** Writes the message id: the source's (`$id`), none when the source had none (`$noId`), else `fallback`. */
function withId(out: JsonObject, ext: Message['ext'], fallback: string): JsonObject {
  const hints = own(ext);
  const id = hints?.['$id'];
  if (typeof id === 'string') out['id'] = id;
  else if (hints?.['$noId'] !== true) out['id'] = fallback;
  return out;
}

/** Ids for the wire messages one canonical message becomes: `msg-<i+1>`, then `msg-<i+1>.<k>`. */
function idMaker(i: number): () => string {
  let k = 0;
  return () => (k++ === 0 ? `msg-${i + 1}` : `msg-${i + 1}.${k - 1}`);
}

function encodeToolCall(part: ToolCallPart, path: Path, losses: LossSink): JsonObject {
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'AG-UI has no cache breakpoints');
  reportForeignExt(part.ext, AG_UI, path, losses);
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, `call of provider-run tool '${part.name}' is sent as an ordinary tool call`, 'approximated');
  const inner = own(part.ext)?.['function'];
  const fn: JsonObject = { ...(inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {}), name: part.name, arguments: part.argumentsJson ?? JSON.stringify(part.arguments) };
  const call: JsonObject = { id: part.id, type: 'function', function: fn };
  restoreResidue(call, part.ext, AG_UI);
  return call;
}

function encodeToolResult(part: ToolResultPart, m: Message, path: Path, id: string, losses: LossSink): JsonObject {
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'AG-UI has no cache breakpoints');
  reportForeignExt(part.ext, AG_UI, path, losses);
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, 'a result of a provider-run tool is sent as an ordinary tool message', 'approximated');
  const content = encodeContent(part.content, part.stringContent === true, path, losses);
  // A tool message decoded here holds one result: the message's own id and residue are its.
  const single = m.role === 'tool' && m.parts.length === 1;
  const out = withId({}, single ? m.ext : undefined, id);
  out['role'] = 'tool';
  out['content'] = content;
  out['toolCallId'] = part.callId;
  const error = own(part.ext)?.['error'];
  if (typeof error === 'string') out['error'] = error;
  else if (part.isError === true) {
    // AG-UI says why a tool failed in `error`; a failed result's own text is that reason.
    const text = part.content.filter((p): p is TextPart => p.type === 'text').map((p) => p.text).join('\n');
    out['error'] = text === '' ? 'error' : text;
  } else if (part.isError === false) loss(losses, 'tool-error-flag', childPath(path, 'isError'), 'AG-UI tool messages have no explicit success flag', 'approximated');
  if (single) restoreResidue(out, m.ext, AG_UI);
  return out;
}

/**
 * A reasoning part as a reasoning message. Reasoning minted elsewhere keeps its opaque value in
 * `encryptedValue` (AG-UI's slot for a provider's reasoning artefact) and says whose it is in
 * `metadata.interlingua`, so it reaches its own provider again; AG-UI itself verifies nothing.
 */
export function reasoningMessage(part: ReasoningPart, id: string): JsonObject {
  const out = withId({}, part.ext, id);
  out['role'] = 'reasoning';
  out['content'] = part.text ?? part.summary?.join('\n\n') ?? '';
  const opaque = reasoningOpaque(part);
  if (opaque.value !== undefined) out['encryptedValue'] = opaque.value;
  restoreResidue(out, part.ext, AG_UI);
  if (opaque.meta !== undefined) {
    const meta = out['metadata'];
    out['metadata'] = { ...(meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : {}), [META_KEY]: opaque.meta };
  }
  return out;
}

/** The opaque value AG-UI's `encryptedValue` carries, and what `metadata.interlingua` must say to restore the part. */
export function reasoningOpaque(part: ReasoningPart): { value?: string; meta?: JsonObject } {
  if (part.origin === AG_UI) return part.encryptedContent === undefined ? {} : { value: part.encryptedContent };
  const fields = (['signature', 'encryptedContent', 'redactedData'] as const).filter((f) => part[f] !== undefined);
  const [field] = fields;
  const meta: JsonObject = { origin: part.origin };
  if (field !== undefined) meta['field'] = field;
  for (const f of fields.slice(1)) meta[f] = part[f] as string;
  if (part.id !== undefined) meta['id'] = part.id;
  if (part.summary !== undefined) meta['summary'] = part.summary;
  if (part.text === undefined) meta['noText'] = true;
  return field === undefined ? { meta } : { value: part[field] as string, meta };
}

function isActivity(part: Part): part is Extract<Part, { type: 'provider-block' }> {
  return part.type === 'provider-block' && part.origin === AG_UI && part.block['role'] === 'activity';
}

function encodeAssistant(m: Message, path: Path, nextId: () => string, losses: LossSink): JsonObject[] {
  const before: JsonObject[] = [];
  const texts: TextPart[] = [];
  const calls: JsonObject[] = [];
  let seenOther = false;
  m.parts.forEach((part, j) => {
    const at = childPath(path, 'parts', j);
    if (part.type === 'reasoning') {
      if (seenOther) loss(losses, 'reordered-parts', at, 'AG-UI reasoning is a message before the assistant message: it moves ahead of the text and calls', 'approximated');
      if (part.cache) loss(losses, 'cache-control', childPath(at, 'cache'), 'AG-UI has no cache breakpoints');
      reportForeignExt(part.ext, AG_UI, at, losses);
      before.push(reasoningMessage(part, nextId()));
      return;
    }
    if (isActivity(part)) {
      before.push(part.block);
      return;
    }
    seenOther = true;
    if (part.cache && part.type !== 'tool-call') loss(losses, 'cache-control', childPath(at, 'cache'), 'AG-UI has no cache breakpoints');
    if (part.type === 'text' || part.type === 'refusal') {
      reportForeignExt(part.ext, AG_UI, at, losses);
      if (part.type === 'refusal') loss(losses, 'refusal-as-text', at, 'AG-UI has no refusal: sent as assistant text', 'approximated');
      if (part.type === 'text' && part.citations?.length) loss(losses, 'citations', childPath(at, 'citations'), 'AG-UI text carries no citations');
      texts.push(part.type === 'text' ? part : { type: 'text', text: part.text });
    } else if (part.type === 'tool-call') calls.push(encodeToolCall(part, at, losses));
    else loss(losses, 'unsupported-part', at, `AG-UI assistant messages hold text and tool calls, not ${part.type}`);
  });
  const hints = own(m.ext);
  const existed = hints?.['$id'] !== undefined || hints?.['$noId'] === true;
  if (texts.length === 0 && calls.length === 0 && before.length > 0 && !existed) return before;
  const out = withId({}, m.ext, nextId());
  out['role'] = 'assistant';
  if (texts.length > 0) {
    if (texts.length > 1) loss(losses, 'text-joined', path, 'AG-UI assistant content is one string: text parts are joined', 'approximated');
    out['content'] = joinTexts(texts).text;
  } else if (hints?.['$content'] === '') out['content'] = '';
  if (m.name !== undefined) out['name'] = m.name;
  if (calls.length > 0) out['toolCalls'] = calls;
  restoreResidue(out, m.ext, AG_UI);
  return [...before, out];
}

/** user / system / developer / tool: tool results first as tool messages, then the rest. */
function encodeOther(m: Message, path: Path, nextId: () => string, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  const rest: Part[] = [];
  m.parts.forEach((part, j) => {
    const at = childPath(path, 'parts', j);
    if (part.type === 'tool-result') out.push(encodeToolResult(part, m, at, nextId(), losses));
    else if (m.role === 'tool') loss(losses, 'unsupported-part', at, `a tool message can only hold tool results, not ${part.type}`);
    else rest.push(part);
  });
  if (m.role === 'tool' || (rest.length === 0 && out.length > 0)) return out;
  const msg = withId({}, m.ext, nextId());
  msg['role'] = m.role;
  if (m.role === 'user') msg['content'] = encodeContent(rest, m.stringContent === true, path, losses);
  else {
    const texts: TextPart[] = [];
    m.parts.forEach((part, j) => {
      if (part.type === 'text') {
        if (part.cache) loss(losses, 'cache-control', childPath(path, 'parts', j, 'cache'), 'AG-UI has no cache breakpoints');
        reportForeignExt(part.ext, AG_UI, childPath(path, 'parts', j), losses);
        texts.push(part);
      } else if (part.type !== 'tool-result') loss(losses, 'unsupported-part', childPath(path, 'parts', j), `AG-UI ${m.role} messages hold text only, not ${part.type}`);
    });
    if (texts.length === 0 && m.parts.length > 0) {
      loss(losses, 'empty-message', path, `a ${m.role} message with no text is dropped`);
      return out;
    }
    if (texts.length > 1) loss(losses, 'text-joined', path, `AG-UI ${m.role} content is one string: text parts are joined`, 'approximated');
    msg['content'] = joinTexts(texts).text;
  }
  if (m.name !== undefined) msg['name'] = m.name;
  restoreResidue(msg, m.ext, AG_UI);
  out.push(msg);
  return out;
}

export function encodeMessage(m: Message, i: number, losses: LossSink): JsonObject[] {
  const path: Path = ['messages', i];
  reportForeignExt(m.ext, AG_UI, path, losses);
  const nextId = idMaker(i);
  return m.role === 'assistant' ? encodeAssistant(m, path, nextId, losses) : encodeOther(m, path, nextId, losses);
}

/** Whether these wire messages decode back to exactly the canonical messages they were written for. */
function decodesBack(wire: readonly JsonObject[], messages: readonly Message[]): boolean {
  if (messages.some((m) => messageHasForeignExt(m, AG_UI))) return false;
  return sameValue(readBack(decodeSpan, wire), messages);
}

export function encodeMessages(messages: readonly Message[], ctx: EncodeContext): JsonObject[] {
  return encodePerMessage(messages, ctx, { encode: encodeMessage, decodesBack, decodeSpan });
}
