/**
 * Canonical messages -> A2A messages carrying their canonical types, as the source design's table
 * lays them out. Each canonical message becomes one A2A message per run of parts of one class: the
 * agent's content in a TextMessageEndEvent (its final text), a user's (and a system or developer
 * message's) in a TextMessageContentEvent, tool calls in a ToolCallStartEvent (arguments as the
 * JSON object), tool results in a ToolCallResultEvent (named after their call when the
 * conversation holds it). An empty text beside tool calls is no text. A2A has two roles: system and
 * developer messages go as user messages that name their role in `metadata.canonical_role`; tool
 * results go as the user's.
 *
 * Ids (message-ids.ts): a message without an A2A id gets `msg-<n>` (n: its place in the request,
 * from 1); the second and later A2A messages of one canonical message get continuation ids
 * (`<id>#<n>`), and no two messages of one output share an id.
 *
 * Each canonical message is one stash group (stashGroup): under `preserve`, a group that lost
 * something, or whose wire messages would not decode back to it exactly, carries its canonical
 * messages in its first wire message's metadata (stash.ts).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { readBack, stashGroup } from '../shared/stash.js';
import { sameValue } from '../shared/same-value.js';
import { isJsonText } from '../shared/json-text.js';
import { A2A, CANONICAL_ROLE, CANONICAL_TYPE, type A2aVersion } from './a2a-api.js';
import { partRuns, runType, type RunClass } from './compact.js';
import { MessageIds } from './message-ids.js';
import { decodeSpan } from './messages-decode.js';
import { encodePart, loss, own } from './parts.js';
import { generatedId, NO_KIND, sinkMessageStash, withoutGeneratedIds } from './stash.js';
import { writeCall, writeResult } from './tool-data.js';
import { messageToV03, type Note } from './versions.js';
import { stashGroups } from '../shared/stash-groups.js';
import { orphanResultsAsContent } from '../shared/tool-pairing.js';
import { WireTrail } from './wire-joins.js';
import { childPath } from '../shared/child-path.js';

/** Residue keys of a message that are written as named wire fields, not restored blindly. */
const OWN_FIELDS = ['messageId', 'metadata'] as const;

/** What the messages of one output share: the calls' names (for their results) and the ids given out. */
export interface Shared {
  names: ReadonlyMap<string, string>;
  ids: MessageIds;
  /** The messages written so far, when they are known (an own id must not read as their continuation). */
  trail?: WireTrail;
}

/** A fresh state, for looking at one message alone. */
function alone(): Shared {
  return { names: new Map(), ids: new MessageIds() };
}

/** The name of every tool call in the conversation, by call id. */
export function callNames(messages: readonly Message[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call' && !out.has(p.id)) out.set(p.id, p.name);
  return out;
}

/**
 * A call's `arguments` on the wire: the JSON object (the design's example). Text only where the
 * arguments are not valid JSON (reported), where they are not an object, or where an A2A source
 * wrote them as text (`$argsText`).
 */
function callArguments(c: ToolCallPart, path: Path, losses: LossSink): JsonValue {
  const text = c.argumentsJson;
  if (text !== undefined && !isJsonText(text)) {
    loss(losses, 'invalid-arguments', childPath(path, 'argumentsJson'), `the arguments of tool call '${c.id}' are not valid JSON: sent as that text, not as the object A2A tool calls carry`, 'approximated');
    return text;
  }
  if (own(c.ext)?.['$argsText'] === true) return text ?? JSON.stringify(c.arguments);
  if (!isJsonObject(c.arguments)) return text ?? JSON.stringify(c.arguments);
  if (text !== undefined && text !== JSON.stringify(c.arguments)) {
    loss(losses, 'arguments-text', childPath(path, 'argumentsJson'), 'tool arguments are sent as an object; their exact text is not kept', 'approximated');
  }
  return c.arguments;
}

/** A result names its tool when it says the name, or the conversation holds its call (unless its A2A source had none). */
function named(r: ToolResultPart, names: ReadonlyMap<string, string>): ToolResultPart {
  if (r.name !== undefined || own(r.ext)?.['$noName'] === true) return r;
  const name = names.get(r.callId);
  return name === undefined ? r : { ...r, name };
}

function toolData(cls: RunClass, parts: Part[], at: number[], path: Path, losses: LossSink, names: ReadonlyMap<string, string>): JsonObject {
  if (cls === 'calls') {
    return {
      data: {
        tool_calls: parts.map((p, j) => {
          const c = p as ToolCallPart;
          const where = childPath(path, 'parts', at[j] as number);
          if (c.providerExecuted) loss(losses, 'provider-executed', where, 'A2A tool calls do not say who runs them; the provider-executed mark is dropped', 'approximated');
          return writeCall(c.id, c.name, callArguments(c, where, losses), c.ext);
        }),
      },
    };
  }
  return { data: { tool_results: parts.map((p, j) => writeResult(named(p as ToolResultPart, names), childPath(path, 'parts', at[j] as number), losses)) } };
}

/** A run of content parts as A2A parts; `at` holds each part's index in the message. */
function contentParts(parts: Part[], at: number[], path: Path, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  parts.forEach((p, j) => {
    const w = encodePart(p, childPath(path, 'parts', at[j] as number), losses);
    if (w !== undefined) out.push(w);
  });
  return out;
}

interface Rec {
  type: string | null;
  agent: boolean;
  parts: JsonObject[];
}

/**
 * The parts of a message A2A writes, with their indices. Beside tool calls an empty text is no
 * text (OpenAI Chat's `content: ""` on a tool-calling turn), unless the message came from A2A, which
 * wrote it.
 */
function writtenParts(m: Message): { parts: Part[]; at: number[] } {
  const calls = m.parts.some((p) => p.type === 'tool-call');
  const parts: Part[] = [];
  const at: number[] = [];
  m.parts.forEach((p, j) => {
    if (calls && own(m.ext) === undefined && p.type === 'text' && p.text === '' && p.ext === undefined && p.citations === undefined) return;
    parts.push(p);
    at.push(j);
  });
  return { parts, at };
}

/** The A2A records of one canonical message (v1.0 form, before ids and metadata). */
export function records(m: Message, path: Path, losses: LossSink, names: ReadonlyMap<string, string> = new Map()): Rec[] {
  const hints = own(m.ext);
  const agentRole = m.role === 'assistant' || (m.role === 'tool' && hints?.['$agent'] === true);
  const written = writtenParts(m);
  const runs = partRuns(written.parts);
  let done = 0;
  const out: Rec[] = [];
  const untyped = hints?.['$untyped'] === true;
  const types = Array.isArray(hints?.['$types']) && hints['$types'].length === runs.length ? (hints['$types'] as (string | null)[]) : undefined;
  runs.forEach((run, r) => {
    const at = written.at.slice(done, done + run.parts.length);
    const parts = run.cls === 'content' ? contentParts(run.parts, at, path, losses) : [toolData(run.cls, run.parts, at, path, losses, names)];
    done += run.parts.length;
    // Results a user sends are the user's; the agent's own (provider-executed) are the agent's.
    const agent = run.cls === 'results' ? agentRole && m.role !== 'user' : agentRole;
    if (untyped && out.length > 0) (out[0] as Rec).parts.push(...parts);
    else out.push({ type: untyped ? null : (types?.[r] ?? runType(run.cls, agent)), agent, parts });
  });
  return out.filter((r) => r.parts.length > 0);
}

/** One canonical message -> its A2A messages (v1.0), ids claimed in `shared`. */
export function encodeMessage(given: Message, i: number, losses: LossSink, shared: Shared = alone()): JsonObject[] {
  const path: Path = ['messages', i];
  // A2A tool results need a call_id: one without (an AgentCore TOOL text with no results blob) is sent as text naming its tool.
  const m = given.role === 'assistant' ? given : orphanResultsAsContent([given], 0, (j) => loss(losses, 'orphan-tool-result', childPath(path, 'parts', j), 'a tool result with no call id is sent as text', 'approximated'), (r) => r.callId.trim() !== '');
  reportForeignExt(m.ext, A2A, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', childPath(path, 'name'), 'A2A messages have no participant name');
  const hints = own(m.ext);
  let recs = records(m, path, losses, shared.names);
  if (recs.length === 0) {
    if (m.parts.length === 0) {
      loss(losses, 'empty-message', path, 'an A2A message needs at least one part: the empty message is dropped');
      return [];
    }
    // Nothing A2A can hold is left: a placeholder keeps the turn, as other targets do.
    const what = [...new Set(m.parts.map((p) => p.type))].join(', ');
    const agent = m.role === 'assistant';
    recs = [{ type: runType('content', agent), agent, parts: [{ text: `[omitted: ${what}]` }] }];
  }
  const ownId = typeof hints?.['messageId'] === 'string' ? hints['messageId'] : undefined;
  const head = recs[0] as Rec;
  const ids = shared.ids.claim(ownId ?? generatedId(i), recs.length, (id) => shared.trail?.joinsById(id, head.agent, head.type) === true);
  if (ownId !== undefined && ids[0] !== ownId) {
    loss(losses, 'a2a-message-id', childPath(path, 'messageId'), `message id '${ownId}' is taken by an earlier message of this output, or would read as the continuation of the one before: written as '${ids[0] ?? ''}'`, 'approximated');
  }
  const residueMeta = isJsonObject(hints?.['metadata']) ? hints['metadata'] : undefined;
  const role = m.role === 'system' || m.role === 'developer' ? m.role : undefined;
  // A message that came from A2A already said its role this way: no loss on the way back.
  if (role !== undefined && ownId === undefined) {
    loss(losses, 'system-as-user', path, `A2A has no ${role} role: sent as a user message with metadata.canonical_role '${role}'`, 'approximated');
  }
  return recs.map((r, k) => {
    const out: JsonObject = { messageId: ids[k] as string, role: r.agent ? 'ROLE_AGENT' : 'ROLE_USER', parts: r.parts };
    const meta: JsonObject = { ...residueMeta };
    if (r.type !== null) meta[CANONICAL_TYPE] = r.type;
    if (role !== undefined) meta[CANONICAL_ROLE] = role;
    if (residueMeta !== undefined || Object.keys(meta).length > 0) out['metadata'] = meta;
    const rest: JsonObject = {};
    for (const k in hints) if (!(OWN_FIELDS as readonly string[]).includes(k)) rest[k] = hints[k] as JsonValue;
    restoreResidue(out, { [A2A]: rest }, A2A);
    return out;
  });
}

/** A canonical message and its place in the request. */
export interface At {
  m: Message;
  i: number;
}

/** One canonical message as wire messages of `version`; what the version cannot hold is a loss. */
function encodeIn(at: At, version: A2aVersion, losses: LossSink, shared: Shared): JsonObject[] {
  const v1 = encodeMessage(at.m, at.i, losses, shared);
  if (version === '1.0') return v1;
  const note: Note = (path, code, message) => losses.push({ code, path, message, action: 'dropped' });
  const noKind = own(at.m.ext)?.[NO_KIND] === true;
  return v1.map((w) => {
    const out = messageToV03(w, ['messages', at.i], note);
    if (noKind) delete out['kind'];
    return out;
  });
}

/** Stash groups (see stashGroups), by whether a message becomes any wire message. */
function groups(items: readonly At[]): At[][] {
  return stashGroups(items, (at) => encodeMessage(at.m, at.i, new LossList()).length > 0);
}

/** Whether the group's wire messages, decoded on their own, give back exactly its canonical messages. */
function decodesBack(wire: readonly JsonObject[], group: readonly At[]): boolean {
  if (group.some((g) => messageHasForeignExt(g.m, A2A))) return false;
  try {
    const decoded = withoutGeneratedIds(readBack(decodeSpan, wire), (group[0] as At).i);
    return sameValue(decoded, group.map((g) => g.m));
  } catch {
    return false;
  }
}

export interface EncodedMessages {
  wire: JsonObject[];
  /** Some message had no A2A id: `msg-<n>` was written (decoders drop it again under preserve). */
  generatedIds: boolean;
}

/**
 * Canonical messages -> wire messages of `version`, stashing groups under `preserve`. `shared`
 * carries the ids and call names across several calls that write one output (a task's history
 * and its status message).
 */
export function encodeMessages(items: readonly At[], version: A2aVersion, ctx: EncodeContext, shared?: Shared): EncodedMessages {
  const trail = new WireTrail();
  const state: Shared = { ...(shared ?? { names: callNames(items.map((at) => at.m)), ids: new MessageIds() }), trail };
  const wire: JsonObject[] = [];
  let generatedIds = false;
  for (const group of groups(items)) {
    // Each group finished by stashGroup: no closures per group.
    const losses = new LossList();
    let written = group.flatMap((g) => encodeIn(g, version, losses, state));
    // A list of A2A messages must not be empty: when no message produced anything, a placeholder
    // is written (it carries the stash under preserve).
    if (written.length === 0 && wire.length === 0) {
      loss(losses, 'empty-message', ['messages'], 'no message A2A can hold is left; a placeholder user message is written', 'approximated');
      written = encodeIn({ m: { role: 'user', parts: [{ type: 'text', text: '[empty conversation]' }] }, i: 0 }, version, new LossList(), state);
    }
    // A group the decoder would join to the one before it is stashed: the decoder then reads it apart.
    const keep = losses.length === 0 && ctx.preserve && (trail.joins(written) || !decodesBack(written, group));
    const out = stashGroup(group.map((g) => g.m), ctx, losses, written, keep, decodeSpan);
    if (out[0] !== undefined) sinkMessageStash(out[0]);
    trail.add(out);
    wire.push(...out);
    if (group.some((g) => typeof own(g.m.ext)?.['messageId'] !== 'string')) generatedIds = true;
  }
  return { wire, generatedIds };
}
