/**
 * Responses items -> canonical messages. Consecutive model-side items (reasoning, assistant
 * messages, function calls, built-in tool calls) form ONE assistant message, parts in item order,
 * so the turn converts naturally to formats with one assistant message per turn. Which part starts
 * which item is kept in hints (`$item` on a part) so the encoder rebuilds the exact item sequence.
 * Item-level fields (ids, status, phase ...) are residue on the part that came from the item (for
 * assistant groups) or on the message (for user / system / developer messages).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message, Role } from '../../model/message.js';
import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import { DEFAULT_LIMITS, type DecodeContext } from '../codec.js';
import { keepResidue, residue, setOwn } from '../shared/residue.js';
import { LossList } from '../shared/loss-list.js';
import { takeMessageStash, type SpanDecoder } from '../shared/stash.js';
import { decodeInputPart, decodeOutputPart } from './content-decode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { argumentsValue, itemType, type ParsedArgs } from './validate.js';

const OR = OPENAI_RESPONSES;
/** `type` is not known: it stays residue so whether the item named it is kept without a hint. */
const MESSAGE_KEYS = new Set(['role', 'content']);
const CALL_KEYS = new Set(['type', 'call_id', 'name', 'arguments']);
const OUTPUT_KEYS = new Set(['type', 'call_id', 'output']);
const REASONING_KEYS = new Set(['type', 'id', 'summary', 'encrypted_content', 'content']);

/** Items a client sends back (results, approvals): they do not belong to the model's turn. */
const CLIENT_SIDE: ReadonlySet<string> = new Set([
  'function_call_output', 'computer_call_output', 'local_shell_call_output', 'shell_call_output',
  'apply_patch_call_output', 'custom_tool_call_output', 'mcp_approval_response', 'tool_search_output',
  'program_output', 'compaction_trigger', 'additional_tools',
]);

/**
 * Whether an item is part of the model's turn. item_reference counts as model-side: references
 * point at stored output items (reasoning, calls) in practice, and the choice only affects how it
 * groups, never what is written back.
 */
export function isModelSide(item: JsonObject): boolean {
  const type = itemType(item) as string;
  if (type === 'message') return item['role'] === 'assistant';
  return !CLIENT_SIDE.has(type);
}

function providerBlock(item: JsonObject): Part {
  return { type: 'provider-block', origin: OR, block: item };
}

/** Summaries map when every entry is exactly `{ type: 'summary_text', text }`. */
function textList(list: unknown, type: string): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: string[] = [];
  for (const s of list as JsonObject[]) {
    if (s['type'] !== type || typeof s['text'] !== 'string' || Object.keys(s).length !== 2) return undefined;
    out.push(s['text']);
  }
  return out;
}

/** A reasoning item, kept byte-exact for this format (id, summary, encrypted content, text). */
export function decodeReasoning(item: JsonObject): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', origin: OR };
  let rest = residue(item, REASONING_KEYS);
  if (typeof item['id'] === 'string') part.id = item['id'];
  const enc = item['encrypted_content'];
  if (typeof enc === 'string') part.encryptedContent = enc;
  else if (enc === null) (rest ??= {})['encrypted_content'] = null;
  const summary = textList(item['summary'], 'summary_text');
  if (summary) part.summary = summary;
  else (rest ??= {})['summary'] = item['summary'] ?? null;
  // Reasoning text (open-weight models): one reasoning_text entry is the readable text.
  const content = item['content'];
  const text = content === undefined ? undefined : textList(content, 'reasoning_text');
  if (text && text.length === 1) part.text = text[0] as string;
  else if (content !== undefined) (rest ??= {})['content'] = content;
  keepResidue(part, OR, rest);
  return part;
}

function decodeCall(item: JsonObject, args: ParsedArgs): ToolCallPart {
  const text = item['arguments'] as string;
  const part: ToolCallPart = { type: 'tool-call', id: item['call_id'] as string, name: item['name'] as string, arguments: args.get(item) ?? {}, argumentsJson: text };
  keepResidue(part, OR, residue(item, CALL_KEYS));
  return part;
}

/** The parts of an assistant message item; the first carries `$item` and the item's own fields. */
function decodeAssistantMessage(item: JsonObject, parts: Part[]): void {
  const content = item['content'];
  if (Array.isArray(content) && content.length === 0) {
    parts.push(providerBlock(item)); // no part to hang the item on: kept whole
    return;
  }
  const start = parts.length;
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else for (const p of content as JsonObject[]) parts.push(decodeOutputPart(p));
  const first = parts[start] as Part;
  const rest = residue(item, MESSAGE_KEYS);
  // The part's own residue first, then the item's hints: copied key by key into one fresh object
  // (a spread followed by new keys takes V8's slow path).
  const hints: JsonObject = {};
  const had = first.ext?.[OR];
  for (const key in had) setOwn(hints, key, had[key] as JsonValue);
  hints['$item'] = true;
  if (typeof content === 'string') hints['$itemString'] = true;
  if (rest) hints['item'] = rest;
  keepResidue(first, OR, hints);
}

/** One model-side item appended to the open assistant message's parts. */
export function decodeModelItem(item: JsonObject, args: ParsedArgs, parts: Part[]): void {
  switch (itemType(item)) {
    case 'message':
      decodeAssistantMessage(item, parts);
      return;
    case 'reasoning':
      parts.push(decodeReasoning(item));
      return;
    case 'function_call':
      parts.push(decodeCall(item, args));
      return;
    default:
      parts.push(providerBlock(item));
  }
}

function decodeToolOutput(item: JsonObject): ToolResultPart {
  const output = item['output'];
  const part: ToolResultPart = { type: 'tool-result', callId: item['call_id'] as string, content: [] };
  if (typeof output === 'string') {
    part.content.push({ type: 'text', text: output });
    part.stringContent = true;
  } else for (const p of output as JsonObject[]) part.content.push(decodeInputPart(p));
  keepResidue(part, OR, residue(item, OUTPUT_KEYS));
  return part;
}

/** One client-side item (a user / system / developer message, a result) as its own message. */
function decodeClientItem(item: JsonObject): Message {
  const type = itemType(item);
  if (type === 'message') {
    const content = item['content'];
    const m: Message = { role: item['role'] as Role, parts: [] };
    if (typeof content === 'string') {
      m.parts.push({ type: 'text', text: content });
      m.stringContent = true;
    } else for (const p of content as JsonObject[]) m.parts.push(decodeInputPart(p));
    keepResidue(m, OR, residue(item, MESSAGE_KEYS));
    return m;
  }
  const role: Role = type === 'compaction_trigger' || type === 'additional_tools' ? 'user' : 'tool';
  const part = type === 'function_call_output' ? decodeToolOutput(item) : providerBlock(item);
  return { role, parts: [part] };
}

/**
 * Items decoded alone, their arguments parsed here: the preserve stash's SpanDecoder
 * (shared/stash.ts), for `input` and `output`. Arguments that are not JSON count as `{}` in an
 * output, as a response reads them; in an input they throw, as a request does not decode at all.
 */
function spanDecoder(allModelSide: boolean): SpanDecoder {
  return (wire) => {
    const args: ParsedArgs = new Map();
    for (const item of wire) {
      if (item['type'] !== 'function_call' || typeof item['arguments'] !== 'string') continue;
      const value = argumentsValue(item['arguments']);
      if (value === undefined && !allModelSide) throw new Error('function_call arguments are not JSON');
      args.set(item, value ?? {});
    }
    return decodeItems(wire as JsonObject[], args, { limits: DEFAULT_LIMITS, losses: new LossList() }, [], allModelSide);
  };
}
export const decodeInputSpan = spanDecoder(false);
export const decodeOutputSpan = spanDecoder(true);

/** The whole `input` list (or a response's `output`, with `allModelSide`). */
export function decodeItems(items: JsonObject[], args: ParsedArgs, ctx: DecodeContext, base: Path, allModelSide = false): Message[] {
  const out: Message[] = [];
  let open: Message | undefined;
  const groups: Message[] = [];
  for (let i = 0; i < items.length; i++) {
    const stash = takeMessageStash(items, i, ctx, base, allModelSide ? decodeOutputSpan : decodeInputSpan);
    if (stash) {
      out.push(...stash.messages);
      i += stash.span - 1;
      open = undefined;
      continue;
    }
    const item = items[i] as JsonObject;
    if (allModelSide || isModelSide(item)) {
      if (!open) {
        open = { role: 'assistant', parts: [] };
        out.push(open);
        groups.push(open);
      }
      decodeModelItem(item, args, open.parts);
      continue;
    }
    open = undefined;
    out.push(decodeClientItem(item));
  }
  for (const m of groups) if (m.parts.length === 1) markSingle(m);
  return out;
}

/** A lone string-content assistant item reads as a string message to other formats too. */
function markSingle(m: Message): void {
  const only = m.parts[0] as Part;
  if (only.type === 'text' && only.ext?.[OR]?.['$itemString'] === true) m.stringContent = true;
}
