/**
 * The parts of an assistant message sorted into what Chat Completions holds apart: content, refusals,
 * reasoning and tool calls (requests and responses both write them from this), and the calls
 * themselves.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, SearchResultPart, ToolCallPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';
import { restoreResidue } from '../shared/residue.js';
import { renderSearchResult } from '../shared/search-result-text.js';
import { loss, own, reportPartExtras, restoreNested } from './content-encode.js';
import { OPENAI_CHAT } from './openai-chat-api.js';

function encodeToolCall(part: ToolCallPart, path: Path, losses: LossSink): { call?: JsonObject; legacy?: JsonObject } {
  reportPartExtras(part, path, losses);
  const hints = own(part.ext);
  const args = part.argumentsJson ?? (hints?.['$custom'] === true && typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments));
  if (hints?.['$legacy'] === true) {
    const legacy: JsonObject = { name: part.name, arguments: args };
    restoreResidue(legacy, part.ext, OPENAI_CHAT);
    return { legacy };
  }
  const call: JsonObject =
    hints?.['$custom'] === true
      ? { id: part.id, type: 'custom', custom: { name: part.name, input: args } }
      : { id: part.id, type: 'function', function: { name: part.name, arguments: args } };
  restoreNested(call, part.ext, hints?.['$custom'] === true ? 'custom' : 'function');
  if (hints?.['$noType'] === true) deleteKey(call, 'type');
  return { call };
}

/** A call encodeToolCall writes as a plain function call, reporting nothing: no hints, residue or cache. */
function isPlainCall(part: ToolCallPart): boolean {
  return part.ext === undefined && part.cache === undefined && part.providerExecuted !== true;
}

/** encodeToolCall's call for a plain call (isPlainCall), with no path built. */
function plainCall(part: ToolCallPart): JsonObject {
  return { id: part.id, type: 'function', function: { name: part.name, arguments: part.argumentsJson ?? JSON.stringify(part.arguments) } };
}

/** The assistant fields both requests and responses use, sorted out of the parts. */
export interface AssistantParts {
  content: { part: Part; j: number }[];
  refusals: string[];
  reasoning: string[];
  calls: JsonObject[];
  legacy?: JsonObject;
}

/** A list before its first item: one shared, frozen empty list that `add` never pushes onto. */
export const NONE_YET = Object.freeze([]) as unknown as never[];

/** `list` with `item` added: the first item as a one-item literal (a push onto `[]` allocates room for 17; most lists stay empty or hold one). */
export function add<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item];
  list.push(item);
  return list;
}

/** `unanswered`: ids of calls the next turn does not answer (requests only), left out and reported. */
export function sortAssistantParts(m: Message, path: Path, losses: LossSink, unanswered?: ReadonlySet<string>): AssistantParts {
  const out: AssistantParts = { content: NONE_YET, refusals: NONE_YET, reasoning: NONE_YET, calls: NONE_YET };
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as Part;
    // Text, the usual part, needs no path; the others build theirs.
    if (part.type === 'text') {
      out.content = add(out.content, { part, j });
    } else if (part.type === 'tool-call' && isPlainCall(part) && unanswered?.has(part.id) !== true) {
      out.calls = add(out.calls, plainCall(part));
    } else sortAssistantPart(part, j, childPath(path, 'content', j), out, losses, unanswered);
  }
  if (out.reasoning.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), 'several reasoning parts joined into reasoning_content', 'approximated');
  if (out.refusals.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), 'several refusals joined into one', 'approximated');
  return out;
}

function sortAssistantPart(part: Part, j: number, at: Path, out: AssistantParts, losses: LossSink, unanswered: ReadonlySet<string> | undefined): void {
  if (part.type === 'tool-call' && unanswered?.has(part.id) === true) {
    loss(losses, 'unanswered-tool-call', at, `tool call '${part.id}' has no tool message right after, which Chat Completions refuses; left out`);
    return;
  }
  switch (part.type) {
    case 'reasoning':
      reportPartExtras(part, at, losses);
      if (part.origin === OPENAI_CHAT && part.text !== undefined) out.reasoning = add(out.reasoning, part.text);
      else loss(losses, 'foreign-reasoning', at, `reasoning from ${part.origin} cannot be sent to Chat Completions`);
      return;
    case 'tool-call': {
      if (part.providerExecuted === true) {
        loss(losses, 'provider-executed-tool', at, `call of provider-run tool '${part.name}' has no Chat Completions equivalent`);
        return;
      }
      const { call, legacy } = encodeToolCall(part, at, losses);
      if (call) out.calls = add(out.calls, call);
      if (legacy) out.legacy = legacy;
      return;
    }
    case 'tool-result': {
      // A provider-run search (Anthropic web search) is what the answer rests on: its results
      // stay readable as text; anything else such a result holds has no place here.
      reportPartExtras(part, at, losses);
      const found = part.content.filter((p): p is SearchResultPart => p.type === 'search-result');
      if (found.length > 0) {
        loss(losses, 'search-result-as-text', at, 'search results a provider tool returned are sent as assistant text (title, source, content)', 'approximated');
        out.content = add(out.content, { part: { type: 'text', text: found.map(renderSearchResult).join('\n') }, j });
      }
      if (found.length < part.content.length || found.length === 0) loss(losses, 'provider-executed-tool', at, 'tool results cannot sit in an assistant message');
      return;
    }
    case 'refusal':
      if (own(part.ext)?.['$inContent'] === true) out.content = add(out.content, { part, j });
      else {
        reportPartExtras(part, at, losses);
        out.refusals = add(out.refusals, part.text);
      }
      return;
    default:
      out.content = add(out.content, { part, j });
  }
}
