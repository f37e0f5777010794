/**
 * Compaction of an A2A history into canonical messages, as the source design does it: map,
 * reduce, map.
 * - map: each A2A message is one record, typed by its `metadata.canonical_type` (an AG-UI event);
 * - reduce: text fragments (TextMessageChunkEvent / TextMessageContentEvent) are dropped when the
 *   next TextMessageEndEvent of their message carries the whole text; ToolCallArgsEvent fragments
 *   are merged into the call their ToolCallStartEvent opened (by call_id); ToolCallEndEvent says
 *   nothing more and goes;
 * - map: consecutive records of one message (same messageId and role) become one canonical
 *   message; tool results (ToolCallResultEvent) become a `tool` message.
 * What is left of a message's wire fields is kept under `ext.a2a` (messageId, contextId, metadata
 * ...) with hints that let request-encode.ts write the same records back.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message, Role } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import { DEFAULT_LIMITS, type Limits, type LossSink } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { keepResidue, residue } from '../shared/residue.js';
import { A2A, CANONICAL_ROLE, CANONICAL_TYPE, MESSAGE_KEYS, MESSAGE_TYPES as T } from './a2a-api.js';
import { decodePart, loss } from './parts.js';
import { isToolCalls, isToolResults, readCalls, readResults, type ReadCall } from './tool-data.js';

/** One A2A message in v1.0 form and where it was in the input. */
export interface Entry {
  msg: JsonObject;
  path: Path;
}

interface Call extends ReadCall {
  chunks: string[];
}

interface Rec extends Entry {
  type: string | undefined;
  messageId: string;
  agent: boolean;
  drop: boolean;
  /** ToolCallStart / ToolCallArgs records: their calls, arguments merged in the reduce step. */
  calls?: Call[];
}

const FRAGMENTS: ReadonlySet<string> = new Set([T.chunk, T.content]);
const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

function typeOf(msg: JsonObject): string | undefined {
  const meta = msg['metadata'];
  const t = isJsonObject(meta) ? meta[CANONICAL_TYPE] : undefined;
  return typeof t === 'string' ? t : undefined;
}

function textOf(msg: JsonObject): string {
  let s = '';
  for (const p of msg['parts'] as JsonObject[]) if (typeof p['text'] === 'string') s += p['text'];
  return s;
}

/** map: one record per message; tool-call records read their calls. */
function toRecords(entries: readonly Entry[]): Rec[] {
  return entries.map((e) => {
    const type = typeOf(e.msg);
    const rec: Rec = { ...e, type, messageId: e.msg['messageId'] as string, agent: e.msg['role'] === 'ROLE_AGENT', drop: false };
    if (type === T.toolStart || type === T.toolArgs || type === T.toolEnd) {
      const calls: Call[] = [];
      (e.msg['parts'] as JsonObject[]).forEach((p, i) => {
        if (isToolCalls(p['data'])) for (const c of readCalls(p['data'], [...e.path, 'parts', i, 'data'], false)) calls.push({ ...c, chunks: c.text === undefined ? [] : [c.text] });
      });
      rec.calls = calls;
    }
    return rec;
  });
}

/** reduce: drop fragments whose End carries the text; merge argument fragments into their call. */
function reduce(recs: Rec[]): void {
  // Backwards: for each message id, whether the nearest End after this point carries text.
  const endHasText = new Map<string, boolean>();
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i] as Rec;
    if (r.type === T.end) endHasText.set(r.messageId, textOf(r.msg) !== '');
    else if (r.type !== undefined && FRAGMENTS.has(r.type) && endHasText.get(r.messageId) === true) r.drop = true;
  }
  const open = new Map<string, Call>();
  for (const r of recs) {
    // An End without text only closes its message (its fragments stand).
    if (r.type === T.end && (r.msg['parts'] as JsonObject[]).every((p) => p['text'] === '')) r.drop = true;
    if (r.calls === undefined) continue;
    if (r.type === T.toolEnd) {
      r.drop = true;
      continue;
    }
    const kept: Call[] = [];
    for (const c of r.calls) {
      const start = open.get(c.callId);
      if (start === undefined) {
        // A call first seen in an Args record opens it (its start was not kept).
        open.set(c.callId, c);
        kept.push(c);
        continue;
      }
      start.chunks.push(...c.chunks);
      if (c.json !== undefined && start.json === undefined) start.json = c.json;
      if (start.name === undefined) start.name = c.name;
    }
    r.calls = kept;
    if (kept.length === 0) r.drop = true;
  }
}

function callPart(c: Call, path: Path): ToolCallPart {
  if (c.name === undefined) throw new ValidationError([{ code: 'invalid_type', path, message: `tool call '${c.callId}' never says its name` }]);
  const part: ToolCallPart = { type: 'tool-call', id: c.callId, name: c.name, arguments: {} };
  if (c.json !== undefined && c.chunks.length === 0) {
    part.arguments = c.json;
    keepResidue(part, A2A, { ...c.rest, $argsObject: true });
    return part;
  }
  const text = c.chunks.join('');
  part.argumentsJson = text;
  if (text.trim() !== '') {
    try {
      part.arguments = JSON.parse(text) as JsonValue;
    } catch {
      throw new ValidationError([{ code: 'invalid_json', path, message: `the arguments of tool call '${c.callId}' are not valid JSON`, expected: 'a JSON text' }]);
    }
  }
  keepResidue(part, A2A, c.rest);
  return part;
}

/** One part as written (no record type): a content part, or a tool data part read as calls / results. */
export function decodeOne(p: JsonObject, at: Path): Part[] {
  const data = p['data'];
  // Only a part that is nothing but the tool data is one (metadata on it would have no home).
  if (isToolResults(data) && Object.keys(p).length === 1) return readResults(data, [...at, 'data']).map((r) => r.part);
  if (isToolCalls(data) && Object.keys(p).length === 1) {
    return readCalls(data, [...at, 'data'], true).map((c) => callPart({ ...c, chunks: c.text === undefined ? [] : [c.text] }, [...at, 'data']));
  }
  return [decodePart(p, at)];
}

export function decodeParts(list: readonly JsonObject[], path: Path): Part[] {
  return list.flatMap((p, i) => decodeOne(p, [...path, i]));
}

function recordParts(r: Rec): Part[] {
  if (r.calls !== undefined) return r.calls.map((c) => callPart(c, r.path));
  return decodeParts(r.msg['parts'] as JsonObject[], [...r.path, 'parts']);
}

/** The wire fields of a message that no canonical field holds (the message's residue). */
function messageResidue(msg: JsonObject, type: string | undefined): JsonObject {
  const rest: JsonObject = residue(msg, MESSAGE_KEYS) ?? {};
  for (const k of ['messageId', 'contextId', 'taskId', 'extensions', 'referenceTaskIds'] as const) if (msg[k] !== undefined) rest[k] = msg[k] as JsonValue;
  const meta = msg['metadata'];
  if (isJsonObject(meta)) {
    const { [CANONICAL_TYPE]: _t, [CANONICAL_ROLE]: _r, ...others } = meta;
    // Metadata that only held our keys comes back from them; any other metadata (even {}) is kept.
    if (Object.keys(others).length > 0 || (type === undefined && _r === undefined)) rest['metadata'] = others;
  }
  return rest;
}

function roleOf(r: Rec, results: boolean): Role {
  if (results) return 'tool';
  const meta = r.msg['metadata'];
  const named = isJsonObject(meta) ? meta[CANONICAL_ROLE] : undefined;
  if (typeof named === 'string' && ROLES.has(named)) return named as Role;
  return r.agent ? 'assistant' : 'user';
}

export type RunClass = 'content' | 'calls' | 'results';

export function runClass(p: Part): RunClass {
  return p.type === 'tool-call' ? 'calls' : p.type === 'tool-result' ? 'results' : 'content';
}

/** The type of the record the encoder writes for each run of parts of one class. */
export const RUN_TYPES: Record<RunClass, string> = { content: T.content, calls: T.toolStart, results: T.toolResult };

/** The runs of same-class parts of a message, in order: one typed record each (request-encode.ts). */
export function partRuns(parts: readonly Part[]): { cls: RunClass; parts: Part[] }[] {
  const out: { cls: RunClass; parts: Part[] }[] = [];
  for (const p of parts) {
    const cls = runClass(p);
    const last = out[out.length - 1];
    if (last !== undefined && last.cls === cls) last.parts.push(p);
    else out.push({ cls, parts: [p] });
  }
  return out;
}

/** map: records of one message (same id, role and kind) -> one canonical message. */
function toMessage(group: Rec[], losses: LossSink, limits: Limits): Message {
  const first = group[0] as Rec;
  const parts: Part[] = [];
  let prevFragment = false;
  for (const r of group) {
    const got = { parts: recordParts(r) };
    const fragment = r.type !== undefined && FRAGMENTS.has(r.type);
    const last = parts[parts.length - 1];
    const head = got.parts[0];
    // Adjacent text fragments of one message are one text.
    if (fragment && prevFragment && last?.type === 'text' && head?.type === 'text' && last.ext === undefined && head.ext === undefined) {
      last.text += head.text;
      parts.push(...got.parts.slice(1));
    } else parts.push(...got.parts);
    prevFragment = fragment;
  }
  const issues: Issue[] = [];
  parts.forEach((p, j) => {
    if (p.type === 'text') checkTextSize(p.text, limits, [...first.path, 'parts', j], issues);
  });
  if (issues.length > 0) throw new ValidationError(issues);
  const results = parts.length > 0 && parts.every((p) => p.type === 'tool-result');
  const msg: Message = { role: roleOf(first, results), parts };
  const rest = messageResidue(first.msg, first.type);
  const firstRest = JSON.stringify(rest);
  group.slice(1).forEach((r) => {
    if (JSON.stringify(messageResidue(r.msg, r.type)) !== firstRest) loss(losses, 'a2a-message-fields', r.path, 'this message differs from the first of its group in fields other than its parts and type; those of the first are kept');
  });
  if (first.type === undefined) rest['$untyped'] = true;
  else {
    const types = group.map((r) => r.type ?? null);
    if (JSON.stringify(types) !== JSON.stringify(partRuns(parts).map((r) => RUN_TYPES[r.cls]))) rest['$types'] = types;
  }
  if (results && first.agent) rest['$agent'] = true;
  keepResidue(msg, A2A, rest);
  return msg;
}

/** Whether record `r` continues the message `prev` belongs to. */
function sameMessage(prev: Rec, r: Rec): boolean {
  if (prev.type === undefined || r.type === undefined) return false;
  const results = (x: Rec) => x.type === T.toolResult;
  return prev.messageId === r.messageId && prev.agent === r.agent && results(prev) === results(r);
}

/** The whole compaction: A2A messages (v1.0 form) -> canonical messages. */
export function compactEntries(entries: readonly Entry[], losses: LossSink, limits: Limits = DEFAULT_LIMITS): Message[] {
  const recs = toRecords(entries);
  reduce(recs);
  const out: Message[] = [];
  let group: Rec[] = [];
  for (const r of recs) {
    if (r.drop) continue;
    const prev = group[group.length - 1];
    if (prev !== undefined && !sameMessage(prev, r)) {
      out.push(toMessage(group, losses, limits));
      group = [];
    }
    group.push(r);
  }
  if (group.length > 0) out.push(toMessage(group, losses, limits));
  return out;
}
