/**
 * One A2A message of a stream (bare, or the message of a status update) -> canonical block events,
 * by its `metadata.canonical_type`:
 * - TextMessageChunkEvent / TextMessageContentEvent: its text grows the text block of its message
 *   id (opened on first use); other parts close that block and come whole;
 * - TextMessageEndEvent: closes the block; when no fragment came, its text is the whole block
 *   (when fragments came, they stand: an End whose text differs is reported);
 * - ToolCallStartEvent / ToolCallArgsEvent / ToolCallEndEvent: a call opens, grows, closes;
 * - ToolCallResultEvent: each result closes its call and comes whole (a `tool-result` part);
 * - no canonical_type: a plain A2A message, each of its parts a whole block;
 * - any other type: a provider event (kept for A2A, reported elsewhere).
 * Block ext (`ext.a2a`) keeps the message id, and `$untyped` / `$fragment` when the encoder
 * should write the block that way again.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { keepResidue } from '../shared/residue.js';
import { A2A, CANONICAL_TYPE, MESSAGE_KEYS, MESSAGE_TYPES as T } from './a2a-api.js';
import { decodeOne } from './compact.js';
import { loss } from './parts.js';
import type { Blocks } from './stream-blocks.js';
import { isToolCalls, isToolResults, readCalls, readResults } from './tool-data.js';
import { childPath } from '../shared/child-path.js';

export interface ContentCtx {
  blocks: Blocks;
  losses: LossSink;
  taskId: string | undefined;
  contextId: string | undefined;
}

const KNOWN: ReadonlySet<string> = new Set(Object.values(T));

/** Message fields a stream has no place for: reported, once per message. */
function reportFields(msg: JsonObject, path: Path, c: ContentCtx): void {
  const extra: string[] = [];
  for (const k in msg) if (!MESSAGE_KEYS.has(k)) extra.push(k);
  for (const k of ['extensions', 'referenceTaskIds'] as const) if (Array.isArray(msg[k]) && (msg[k] as JsonValue[]).length > 0) extra.push(k);
  if (msg['taskId'] !== undefined && msg['taskId'] !== c.taskId) extra.push('taskId');
  if (msg['contextId'] !== undefined && msg['contextId'] !== c.contextId) extra.push('contextId');
  const meta = msg['metadata'];
  if (isJsonObject(meta)) for (const k in meta) if (k !== CANONICAL_TYPE) extra.push(`metadata.${k}`);
  if (extra.length > 0) loss(c.losses, 'a2a-message-fields', path, `a streamed message's ${extra.join(', ')} have no place in the canonical stream`);
}

function partFields(p: JsonObject): boolean {
  for (const k in p) if (k !== 'text') return true;
  return false;
}

/** Tool call / result data parts of a typed tool message. */
function toolParts(msg: JsonObject, type: string, path: Path, c: ContentCtx, out: StreamEvent[]): void {
  const messageId = msg['messageId'] as string;
  const agent = msg['role'] === 'ROLE_AGENT';
  (msg['parts'] as JsonObject[]).forEach((p, i) => {
    const at = childPath(path, 'parts', i, 'data');
    const data = p['data'];
    if (type === T.toolResult) {
      if (!isToolResults(data)) {
        loss(c.losses, 'a2a-tool-part', at, 'a ToolCallResultEvent part that is not {tool_results} is dropped');
        return;
      }
      for (const r of readResults(data, at)) {
        if (c.blocks.callOpen(r.callId)) c.blocks.callEnd(r.callId, out);
        c.blocks.answered(r.callId);
        if (agent) r.part.providerExecuted = true;
        keepResidue(r.part, A2A, { ...r.part.ext?.[A2A], $messageId: messageId });
        c.blocks.part(r.part, out);
      }
      return;
    }
    if (!isToolCalls(data)) {
      loss(c.losses, 'a2a-tool-part', at, `a ${type} part that is not {tool_calls} is dropped`);
      return;
    }
    for (const call of readCalls(data, at, false)) {
      const text = call.text ?? (call.json === undefined ? '' : JSON.stringify(call.json));
      if (call.rest !== undefined) loss(c.losses, 'a2a-message-fields', at, `tool call '${call.callId}' fields ${Object.keys(call.rest).join(', ')} have no place in the canonical stream`);
      if (type === T.toolEnd) {
        c.blocks.callArgs(call.callId, text, out);
        c.blocks.callEnd(call.callId, out);
        continue;
      }
      if (!c.blocks.callOpen(call.callId)) {
        if (c.blocks.callClosed(call.callId)) {
          loss(c.losses, 'a2a-late-arguments', at, `arguments for tool call '${call.callId}' after it ended are dropped`);
          continue;
        }
        if (call.name === undefined) throw new ValidationError([{ code: 'invalid_value', path: at, message: `tool call '${call.callId}' starts without a name` }]);
        c.blocks.callStart(call.callId, call.name, { messageId }, at, out);
      }
      c.blocks.callArgs(call.callId, text, out);
    }
  });
}

/** A message's parts (with their index) each as a whole block: a plain message, or the non-text parts of a typed one. */
function wholeParts(parts: [JsonObject, number][], path: Path, ext: JsonObject, c: ContentCtx, out: StreamEvent[]): void {
  for (const part of parts.flatMap(([p, i]) => decodeOne(p, childPath(path, 'parts', i)))) {
    if (part.type === 'text' && part.ext === undefined) c.blocks.wholeText(part.text, ext, out);
    else if (part.type === 'tool-call') {
      c.blocks.callStart(part.id, part.name, ext, childPath(path, 'parts'), out);
      c.blocks.callArgs(part.id, part.argumentsJson ?? JSON.stringify(part.arguments), out);
      c.blocks.callEnd(part.id, out);
    } else {
      if (part.type === 'tool-result') c.blocks.answered(part.callId);
      // On a part, what the encoder needs is hints: `messageId` would read as a part field.
      const { messageId, ...hints } = ext;
      keepResidue(part, A2A, { ...part.ext?.[A2A], ...hints, $messageId: messageId as JsonValue });
      c.blocks.part(part, out);
    }
  }
}


/**
 * Decodes one message; `wire` is the stream event's v1.0 result, kept whole in a provider event
 * when the message's type means nothing canonical.
 */
export function decodeContent(msg: JsonObject, path: Path, c: ContentCtx, wire: JsonObject, out: StreamEvent[]): void {
  const meta = msg['metadata'];
  const type = isJsonObject(meta) && typeof meta[CANONICAL_TYPE] === 'string' ? (meta[CANONICAL_TYPE] as string) : undefined;
  if (type !== undefined && !KNOWN.has(type)) {
    out.push({ type: 'provider-event', origin: A2A, event: { data: wire } });
    return;
  }
  reportFields(msg, path, c);
  const messageId = msg['messageId'] as string;
  const parts = msg['parts'] as JsonObject[];
  if (type === undefined) {
    wholeParts(parts.map((p, i) => [p, i]), path, { messageId, $untyped: true }, c, out);
    return;
  }
  if (type === T.toolStart || type === T.toolArgs || type === T.toolEnd || type === T.toolResult) {
    toolParts(msg, type, path, c, out);
    return;
  }
  const key = `m:${messageId}`;
  if (type === T.end) {
    const text = parts.map((p) => (typeof p['text'] === 'string' ? p['text'] : '')).join('');
    const fragments = c.blocks.closeText(key, out);
    if (fragments === undefined) {
      if (parts.some((p) => typeof p['text'] === 'string')) c.blocks.wholeText(text, { messageId }, out);
    } else if (text !== '' && text !== fragments) {
      loss(c.losses, 'a2a-end-text', path, 'the end message text differs from its fragments; the fragments are kept', 'approximated');
    }
    const others = parts.map((p, i): [JsonObject, number] => [p, i]).filter(([p]) => typeof p['text'] !== 'string');
    if (others.length > 0) wholeParts(others, path, { messageId }, c, out);
    return;
  }
  // A text fragment: Chunk (the encoder's default) or Content (kept as a hint).
  const ext: JsonObject = type === T.chunk ? { messageId } : { messageId, $fragment: type };
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as JsonObject;
    if (typeof p['text'] === 'string') {
      if (partFields(p)) loss(c.losses, 'a2a-message-fields', childPath(path, 'parts', i), "a text fragment's part fields have no place in the canonical stream");
      c.blocks.text(key, p['text'], ext, out);
    } else {
      c.blocks.closeText(key, out);
      wholeParts([[p, i]], path, { messageId, $fragment: type }, c, out);
    }
  }
}
