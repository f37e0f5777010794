/**
 * Canonical messages -> Responses items: a request's `input` or a response's `output`.
 *
 * An assistant message becomes its items in part order: reasoning, function_call and built-in
 * tool items each stand alone; content parts go into message items. Parts this codec decoded say
 * which item they came from (`$item`, `item`, `$itemString`), so the exact item sequence comes
 * back. Other formats' text goes, in a request, into one string item per part (the form every
 * reader of the spec accepts); in a response, into one output message per run of content.
 *
 * Each canonical message is one stash group (stashGroup). Under `preserve` a group is stashed
 * when its items would not decode back to the same message (a user turn holding tool results
 * decodes as tool messages then a user message; defaults the spec requires were filled in ...).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { randomHex32 } from '../shared/random-hex.js';
import { reportForeignExt, restoreResidue, setOwn } from '../shared/residue.js';
import { readBack, STASH_KEY, stashGroup } from '../shared/stash.js';
import { CONTENT_TYPES } from './content-decode.js';
import { asText, inputPart, loss, outputPart, own } from './content-encode.js';
import { functionCallItem, functionOutputItem, mintsCallItem, reasoningItem } from './item-encode.js';
import { decodeInputSpan, decodeOutputSpan, isModelSide } from './items-decode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { sameBesidesOwn } from './same-besides-own.js';
import { childPath } from '../shared/child-path.js';

const OR = OPENAI_RESPONSES;

/** `input`: a request's history; `output`: a response's items, where message items need id and status. */
export type ItemsMode = 'input' | 'output';

const isItemBlock = (part: Part): part is Part & { type: 'provider-block' } =>
  part.type === 'provider-block' && part.origin === OR && !CONTENT_TYPES.has(String(part.block['type']));

/** A fresh output message id, for content of another origin (OutputMessage requires one). */
function messageId(): string {
  return `msg_${randomHex32()}`;
}

/** Builds the items of one assistant message. */
class AssistantItems {
  readonly items: JsonObject[] = [];
  /** The last item made up here for another origin's content (its status may still change). */
  lastMinted: JsonObject | undefined;
  /** Content list of the message item content parts still go into. */
  private open: JsonObject[] | undefined;

  constructor(
    private readonly mode: ItemsMode,
    private readonly losses: LossSink,
  ) {}

  push(item: JsonObject | undefined): void {
    this.open = undefined;
    if (item) this.items.push(item);
  }

  content(part: Part, path: Path): void {
    const hints = own(part.ext);
    if (hints?.['$item'] === true) return this.ownItem(part, hints, path);
    // Parts after the first of a message item carry no mark: they continue the open item.
    if (this.open) {
      const json = outputPart(part, path, this.losses);
      if (json) this.open.push(json);
      return;
    }
    if (this.mode === 'input' && hints === undefined) return this.textItem(part, path);
    const json = outputPart(part, path, this.losses);
    if (!json) return;
    this.open = [json];
    const item: JsonObject = this.mode === 'output' ? { id: messageId(), type: 'message', status: 'completed' } : {};
    if (this.mode === 'output') this.lastMinted = item;
    item['role'] = 'assistant';
    item['content'] = this.open;
    this.items.push(item);
  }

  /** A message item this codec decoded: its own fields, string or list content as it was. */
  private ownItem(part: Part, hints: JsonObject, path: Path): void {
    const rest = hints['item'];
    // Key by key, then `role`: a spread followed by a new key takes V8's slow path (residue.ts).
    const item: JsonObject = {};
    if (rest !== null && typeof rest === 'object' && !Array.isArray(rest)) for (const key in rest) setOwn(item, key, rest[key] as JsonValue);
    item['role'] = 'assistant';
    this.items.push(item);
    if (hints['$itemString'] === true && part.type === 'text') {
      reportForeignExt(part.ext, OR, path, this.losses);
      if (part.citations && part.citations.length > 0) loss(this.losses, 'citations', childPath(path, 'citations'), 'string message content carries no annotations');
      item['content'] = part.text;
      this.open = undefined;
      return;
    }
    const json = outputPart(part, path, this.losses);
    this.open = json ? [json] : [];
    item['content'] = this.open;
  }

  /**
   * Another origin's content in a request: one assistant string item per part. The spec (and the
   * SDK types) let an assistant content list appear only on an output message with its id, which
   * another origin's turn does not have; a string is valid for every reader.
   */
  private textItem(part: Part, path: Path): void {
    reportForeignExt(part.ext, OR, path, this.losses);
    if (part.cache) loss(this.losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoints on assistant output');
    let text: string | undefined;
    if (part.type === 'text') {
      if (part.citations && part.citations.length > 0) loss(this.losses, 'citations', childPath(path, 'citations'), 'Responses request history carries no citations on text');
      text = part.text;
    } else if (part.type === 'refusal') {
      loss(this.losses, 'refusal-as-text', path, 'a refusal in request history is sent as the assistant’s text', 'approximated');
      text = part.text;
    } else if (part.type === 'provider-block') {
      loss(this.losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent in Responses`);
    } else {
      text = asText(part, path, this.losses);
      if (text === undefined) loss(this.losses, 'unsupported-part', path, `assistant messages cannot hold ${part.type} parts`);
    }
    if (text !== undefined) this.push({ role: 'assistant', content: text });
  }
}

/**
 * The calls written so far that no output answered yet. Without server-side state
 * (previous_response_id, conversation) the API refuses an output whose call is not in the input,
 * so a result of another origin that names no written call (Gemini pairs by name) is paired by
 * name with the first open call of that name, or else left out; both are reported.
 */
export class OpenCalls {
  /** Made on the first call recorded: a response's one message records none. */
  private open: Map<string, string> | undefined;
  /**
   * `recording` false: no result can follow (one message left, or `serverState`, which answers
   * every result as it is), so calls need not be remembered.
   */
  constructor(
    readonly serverState: boolean,
    private readonly recording = true,
  ) {}

  called(item: JsonObject | undefined): void {
    if (this.recording && item?.['type'] === 'function_call') (this.open ??= new Map()).set(item['call_id'] as string, item['name'] as string);
  }

  /** The call id to answer, or undefined when the result must be left out. */
  answer(part: ToolResultPart, path: Path, losses: LossSink): string | undefined {
    if (this.serverState || this.open?.delete(part.callId) === true) return part.callId;
    for (const [id, name] of this.open ?? []) {
      if (part.name === undefined || name !== part.name) continue;
      this.open?.delete(id);
      loss(losses, 'tool-id', childPath(path, 'callId'), `result for '${part.callId}' answers call '${id}' of the same tool`, 'approximated');
      return id;
    }
    loss(losses, 'unmatched-tool-result', path, `no function_call '${part.callId}' precedes this result: the API would refuse it`);
    return undefined;
  }
}

/**
 * `cut`: the output stopped short (max_output_tokens, content filter) in this message. The item
 * being written then is incomplete too, as the API marks it; only an item made up here: own
 * items keep their status.
 */
function encodeAssistant(m: Message, path: Path, mode: ItemsMode, losses: LossSink, calls: OpenCalls, cut: boolean): JsonObject[] {
  const out = new AssistantItems(mode, losses);
  // Loops, not forEach closures: these run for every message encoded.
  for (let j = 0; j < m.parts.length; j++) {
    const part = m.parts[j] as Part;
    const at = childPath(path, 'parts', j);
    if (part.type === 'reasoning') out.push(reasoningItem(part, at, losses));
    else if (part.type === 'tool-call') {
      const item = functionCallItem(part, at, losses, mode === 'output');
      calls.called(item);
      out.push(item);
      if (item !== undefined && mintsCallItem(part, mode === 'output')) out.lastMinted = item;
    }
    else if (part.type === 'tool-result') {
      out.push(undefined);
      loss(losses, 'provider-executed-tool', at, 'a tool result cannot sit in an assistant turn of the Responses API');
    } else if (isItemBlock(part)) out.push(part.block);
    else out.content(part, at);
  }
  const last = out.items[out.items.length - 1];
  if (cut && last !== undefined && last === out.lastMinted) last['status'] = 'incomplete';
  return out.items;
}

/**
 * user / system / developer / tool messages: tool results and this codec's client-side items
 * (computer_call_output ...) first as their own items, then the rest as one message item.
 */
function encodeClient(m: Message, path: Path, losses: LossSink, calls: OpenCalls): JsonObject[] {
  const items: JsonObject[] = [];
  // Indices of the parts left for the message item (no pair object per part).
  const rest: number[] = [];
  for (let j = 0; j < m.parts.length; j++) {
    const part = m.parts[j] as Part;
    // The part's path is built where it is used: parts left for the message item get theirs below.
    if (part.type === 'tool-result') {
      const at = childPath(path, 'parts', j);
      const id = calls.answer(part, at, losses);
      if (id !== undefined) items.push(functionOutputItem(part, id, at, losses));
    }
    else if (isItemBlock(part)) items.push(part.block);
    else {
      if (m.role === 'tool') loss(losses, 'tool-message-parts', childPath(path, 'parts', j), 'a non-result part of a tool message is sent in a user message', 'approximated');
      rest.push(j);
    }
  }
  if (rest.length === 0 && (items.length > 0 || m.role === 'tool')) return items;
  const role = m.role === 'tool' ? 'user' : m.role;
  const only = rest.length > 0 ? m.parts[rest[0] as number] : undefined;
  let content: JsonObject[string];
  if (m.stringContent === true && rest.length === 1 && only?.type === 'text' && !only.cache && !only.ext?.[OR] && !(only.citations?.length)) {
    if (only.ext !== undefined) reportForeignExt(only.ext, OR, childPath(path, 'parts', rest[0] ?? 0), losses);
    content = only.text;
  } else {
    const list: JsonObject[] = [];
    for (let k = 0; k < rest.length; k++) {
      const j = rest[k] as number;
      const json = inputPart(m.parts[j] as Part, childPath(path, 'parts', j), losses);
      if (json) list.push(json);
    }
    content = list;
  }
  const item: JsonObject = { role, content };
  if (m.role !== 'tool') restoreResidue(item, m.ext, OR);
  items.push(item);
  return items;
}

function encodeMessage(m: Message, path: Path, mode: ItemsMode, losses: LossSink, calls: OpenCalls, cut: boolean): JsonObject[] {
  reportForeignExt(m.ext, OR, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', childPath(path, 'name'), 'Responses messages have no participant name');
  const items = m.role === 'assistant' ? encodeAssistant(m, path, mode, losses, calls, cut) : encodeClient(m, path, losses, calls);
  // An empty output is a valid response; anywhere else a message that became nothing is reported.
  if (items.length === 0 && (mode === 'input' || m.parts.length > 0)) loss(losses, 'empty-message', path, 'message left with no content was dropped');
  return items;
}

/** A canonical value with this format's ext (residue and hints) taken out, and no undefined keys (the copy the walk falls back to, and its tests' reference). */
export function withoutOwn(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutOwn);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    if (k === 'ext' && x !== null && typeof x === 'object') {
      const { [OR]: _own, ...others } = x as Record<string, unknown>;
      if (Object.keys(others).length > 0) out[k] = withoutOwn(others);
    } else out[k] = withoutOwn(x);
  }
  return out;
}

/** Whether the items decode back to exactly these messages (up to this format's own ext). */
export function decodesBack(items: JsonObject[], messages: readonly Message[], mode: ItemsMode): boolean {
  let back: Message[];
  try {
    back = readBack(mode === 'output' ? decodeOutputSpan : decodeInputSpan, items);
  } catch {
    return false; // a request's arguments that are not JSON: they do not decode at all
  }
  return sameBesidesOwn(back, messages, OR, withoutOwn);
}

/** stashGroup's `keep` for the group of `pending` and `m`: stash when the items would not decode back to it. */
function keepGroup(pending: readonly Message[], m: Message, wire: JsonObject[], mode: ItemsMode): boolean {
  const group = pending.length === 0 ? [m] : [...pending, m];
  return group.some((g) => messageHasForeignExt(g, OR)) || !decodesBack(wire, group, mode);
}

export interface EncodedItems {
  items: JsonObject[];
  /** Messages at the end that became no item at all: the caller stashes them under `preserve`. */
  trailing: Message[];
}

/**
 * Encodes messages (from `start`) into items; `cut` says a response's output stopped short. A
 * message that becomes no item joins the next message's stash group, so `preserve` still brings it back. Consecutive assistant turns read back
 * as one (the Responses API has no turn boundary between model items): reported as `turns-merged`.
 */
export function encodeItems(
  messages: readonly Message[],
  ctx: EncodeContext,
  mode: ItemsMode,
  start = 0,
  pathOf: (i: number) => Path = (i) => ['messages', i],
  serverState = false,
  cut = false,
): EncodedItems {
  const items: JsonObject[] = [];
  // Results come only in later messages: with one message (a response's output) none can answer a call.
  const calls = new OpenCalls(serverState, !serverState && messages.length - start > 1);
  let prevModelSide = false;
  let pending: Message[] = [];
  const pendingLosses = new LossList();
  for (let i = start; i < messages.length; i++) {
    const m = messages[i] as Message;
    const path = pathOf(i);
    const local = new LossList();
    const wire = encodeMessage(m, path, mode, local, calls, cut && i === messages.length - 1);
    if (wire.length === 0) {
      if (local.length === 0 && m.ext === undefined) continue; // an empty output: nothing to bring back
      pending = [...pending, m];
      for (const l of local.items) pendingLosses.push(l);
      continue;
    }
    if (prevModelSide && isModelSide(wire[0] as JsonObject)) {
      local.push({ code: 'turns-merged', path, message: 'this assistant turn follows another: Responses reads them as one', action: 'approximated' });
    }
    // One stash group per message (stashGroup), without closures or copies per message: the pending losses come
    // first, and the group (pending messages, then this one) is built only for a stash.
    let lost = local;
    if (pendingLosses.length > 0) {
      lost = new LossList();
      for (const l of pendingLosses.items) lost.push(l);
      for (const l of local.items) lost.push(l);
    }
    const keep = lost.length === 0 && ctx.preserve && keepGroup(pending, m, wire, mode);
    const out = lost.length === 0 && !keep ? wire : stashGroup(pending.length === 0 ? [m] : [...pending, m], ctx, lost, wire, keep, mode === 'output' ? decodeOutputSpan : decodeInputSpan);
    // After a stashed group the decoder starts a new turn, so nothing merges into it.
    prevModelSide = isModelSide(out[out.length - 1] as JsonObject) && !(STASH_KEY in (out[0] as JsonObject));
    for (let k = 0; k < out.length; k++) items.push(out[k] as JsonObject);
    pending = [];
    if (pendingLosses.length !== 0) pendingLosses.items.length = 0;
  }
  for (const l of pendingLosses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  return { items, trailing: pending };
}
