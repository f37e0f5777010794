/**
 * Canonical messages -> A2A messages carrying their canonical types. Each canonical message becomes
 * one A2A message per run of parts of one class, all with the message's id: content parts in a
 * TextMessageContentEvent, tool calls in a ToolCallStartEvent (whole arguments), tool results in a
 * ToolCallResultEvent. A2A has two roles: system and developer messages go as user messages that
 * name their role in `metadata.canonical_role`; tool results go as the user's. A message without
 * an A2A id gets `msg-<n>` (n: its place in the request, from 1).
 *
 * Each canonical message is one stash group (encodeGroup): under `preserve`, a group that lost
 * something, or whose wire messages would not decode back to it exactly, carries its canonical
 * messages in its first wire message's metadata (stash.ts).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { DEFAULT_LIMITS, type EncodeContext, type LossSink } from '../codec.js';
import { messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { encodeGroup } from '../shared/stash.js';
import { stableHash } from '../shared/stable-hash.js';
import { A2A, CANONICAL_ROLE, CANONICAL_TYPE, MESSAGE_TYPES, type A2aVersion } from './a2a-api.js';
import { partRuns, RUN_TYPES, type RunClass } from './compact.js';
import { decodeMessages } from './messages-decode.js';
import { encodePart, loss, own } from './parts.js';
import { dropGeneratedIds, generatedId, NO_KIND, sinkMessageStash } from './stash.js';
import { writeCall, writeResult } from './tool-data.js';
import { messageToV03, type Note } from './versions.js';
import { stashGroups } from '../shared/stash-groups.js';
import { orphanResultsAsContent } from '../shared/tool-pairing.js';

/** Residue keys of a message that are written as named wire fields, not restored blindly. */
const OWN_FIELDS = ['messageId', 'metadata'] as const;

function toolData(cls: RunClass, parts: Part[], path: Path, losses: LossSink): JsonObject {
  if (cls === 'calls') {
    return {
      data: {
        tool_calls: parts.map((p) => {
          const c = p as Part & { type: 'tool-call' };
          const args: JsonValue = own(c.ext)?.['$argsObject'] === true ? c.arguments : (c.argumentsJson ?? JSON.stringify(c.arguments));
          if (c.providerExecuted) loss(losses, 'provider-executed', path, 'A2A tool calls do not say who runs them; the provider-executed mark is dropped', 'approximated');
          return writeCall(c.id, c.name, args, c.ext);
        }),
      },
    };
  }
  return { data: { tool_results: parts.map((p, j) => writeResult(p as Part & { type: 'tool-result' }, [...path, j], losses)) } };
}

/** A run of content parts as A2A parts; `path` is the message's. */
function contentParts(parts: Part[], base: number, path: Path, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  parts.forEach((p, j) => {
    const w = encodePart(p, [...path, 'parts', base + j], losses);
    if (w !== undefined) out.push(w);
  });
  return out;
}

interface Rec {
  type: string | null;
  agent: boolean;
  parts: JsonObject[];
}

/** The A2A records of one canonical message (v1.0 form, before ids and metadata). */
export function records(m: Message, path: Path, losses: LossSink): Rec[] {
  const hints = own(m.ext);
  const agentRole = m.role === 'assistant' || (m.role === 'tool' && hints?.['$agent'] === true);
  const runs = partRuns(m.parts);
  let base = 0;
  const out: Rec[] = [];
  const untyped = hints?.['$untyped'] === true;
  const types = Array.isArray(hints?.['$types']) && hints['$types'].length === runs.length ? (hints['$types'] as (string | null)[]) : undefined;
  runs.forEach((run, r) => {
    const parts = run.cls === 'content' ? contentParts(run.parts, base, path, losses) : [toolData(run.cls, run.parts, [...path, 'parts', base], losses)];
    base += run.parts.length;
    // Results a user sends are the user's; the agent's own (provider-executed) are the agent's.
    const agent = run.cls === 'results' ? agentRole && m.role !== 'user' : agentRole;
    if (untyped && out.length > 0) (out[0] as Rec).parts.push(...parts);
    else out.push({ type: untyped ? null : (types?.[r] ?? RUN_TYPES[run.cls]), agent, parts });
  });
  return out.filter((r) => r.parts.length > 0);
}

/** One canonical message -> its A2A messages (v1.0). */
export function encodeMessage(given: Message, i: number, losses: LossSink): JsonObject[] {
  const path: Path = ['messages', i];
  // A2A tool results need a call_id: one without (an AgentCore TOOL text with no results blob) is sent as text naming its tool.
  const m = given.role === 'assistant' ? given : orphanResultsAsContent([given], 0, (j) => loss(losses, 'orphan-tool-result', [...path, 'parts', j], 'a tool result with no call id is sent as text', 'approximated'), (r) => r.callId.trim() !== '');
  reportForeignExt(m.ext, A2A, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', [...path, 'name'], 'A2A messages have no participant name');
  const hints = own(m.ext);
  let recs = records(m, path, losses);
  if (recs.length === 0) {
    if (m.parts.length === 0) {
      loss(losses, 'empty-message', path, 'an A2A message needs at least one part: the empty message is dropped');
      return [];
    }
    // Nothing A2A can hold is left: a placeholder keeps the turn, as other targets do.
    const what = [...new Set(m.parts.map((p) => p.type))].join(', ');
    recs = [{ type: RUN_TYPES.content, agent: m.role === 'assistant', parts: [{ text: `[omitted: ${what}]` }] }];
  }
  const messageId = typeof hints?.['messageId'] === 'string' ? hints['messageId'] : generatedId(i);
  const residueMeta = isJsonObject(hints?.['metadata']) ? hints['metadata'] : undefined;
  const named = m.role === 'system' || m.role === 'developer' ? m.role : undefined;
  // A message that came from A2A already said its role this way: no loss on the way back.
  if (named !== undefined && hints?.['messageId'] === undefined) {
    loss(losses, 'system-as-user', path, `A2A has no ${named} role: sent as a user message with metadata.canonical_role '${named}'`, 'approximated');
  }
  return recs.map((r) => {
    const out: JsonObject = { messageId, role: r.agent ? 'ROLE_AGENT' : 'ROLE_USER', parts: r.parts };
    const meta: JsonObject = { ...residueMeta };
    if (r.type !== null) meta[CANONICAL_TYPE] = r.type;
    if (named !== undefined) meta[CANONICAL_ROLE] = named;
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
function encodeIn(at: At, version: A2aVersion, losses: LossSink): JsonObject[] {
  const v1 = encodeMessage(at.m, at.i, losses);
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

const silent: Note = () => undefined;

/** Whether the group's wire messages, decoded on their own, give back exactly its canonical messages. */
function decodesBack(wire: readonly JsonObject[], group: readonly At[]): boolean {
  if (group.some((g) => messageHasForeignExt(g.m, A2A))) return false;
  try {
    const { messages } = decodeMessages(wire, [], { limits: DEFAULT_LIMITS, losses: new LossList() }, silent);
    const decoded = dropGeneratedIds(messages, (group[0] as At).i);
    return stableHash(decoded) === stableHash(group.map((g) => g.m));
  } catch {
    return false;
  }
}

function typeOf(w: JsonObject): JsonValue | undefined {
  return isJsonObject(w['metadata']) ? w['metadata'][CANONICAL_TYPE] : undefined;
}

/** Whether a decoder would read `first` as the continuation of the message `prev` ends (compact.ts sameMessage). */
function continues(prev: JsonObject | undefined, first: JsonObject | undefined): boolean {
  if (prev === undefined || first === undefined) return false;
  const [a, b] = [typeOf(prev), typeOf(first)];
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const results = (t: string) => t === MESSAGE_TYPES.toolResult;
  return prev['messageId'] === first['messageId'] && prev['role'] === first['role'] && results(a) === results(b);
}

export interface EncodedMessages {
  wire: JsonObject[];
  /** Some message had no A2A id: `msg-<n>` was written (decoders drop it again under preserve). */
  generatedIds: boolean;
}

/** Canonical messages -> wire messages of `version`, stashing groups under `preserve`. */
export function encodeMessages(items: readonly At[], version: A2aVersion, ctx: EncodeContext): EncodedMessages {
  const wire: JsonObject[] = [];
  let generatedIds = false;
  for (const group of groups(items)) {
    const prev = wire[wire.length - 1];
    // A group that would merge into the one before it is stashed: the decoder then reads it apart.
    const keep = (w: JsonObject[]): boolean => continues(prev, w[0]) || !decodesBack(w, group);
    const out = encodeGroup(group.map((g) => g.m), ctx, (losses) => {
      const written = group.flatMap((g) => encodeIn(g, version, losses));
      // A list of A2A messages must not be empty: when no message produced anything, a placeholder
      // is written (it carries the stash under preserve).
      if (written.length > 0 || wire.length > 0) return written;
      loss(losses, 'empty-message', ['messages'], 'no message A2A can hold is left; a placeholder user message is written', 'approximated');
      return encodeIn({ m: { role: 'user', parts: [{ type: 'text', text: '[empty conversation]' }] }, i: 0 }, version, new LossList());
    }, keep);
    if (out[0] !== undefined) sinkMessageStash(out[0]);
    wire.push(...out);
    if (group.some((g) => typeof own(g.m.ext)?.['messageId'] !== 'string')) generatedIds = true;
  }
  return { wire, generatedIds };
}
