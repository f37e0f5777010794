/**
 * Compaction of an A2A history into canonical messages, as the source design does it: map,
 * reduce, map.
 * - map: each A2A message is one record, typed by its `metadata.canonical_type` (an AG-UI event);
 * - reduce (compact-reduce.ts): chunk runs give way to the end message after them, argument
 *   fragments join their call;
 * - map: consecutive records of one message become one canonical message. Records are of one
 *   message when they are of one chunk run, or have the same messageId or a continuation id of the
 *   first (`<id>#<n>`, message-ids.ts), with the same role and kind; tool results
 *   (ToolCallResultEvent) become a `tool` message.
 * What is left of a message's wire fields is kept under `ext.a2a` (messageId, contextId, metadata
 * ...) with hints that let request-encode.ts write the same records back.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message, Role } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { Limits, LossSink } from '../codec.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { keepResidue, residue, setOwn } from '../shared/residue.js';
import { A2A, CANONICAL_ROLE, CANONICAL_TYPE, MESSAGE_KEYS, MESSAGE_TYPES as T } from './a2a-api.js';
import { reduce, toCall, type Call, type Rec } from './compact-reduce.js';
import { isContinuationOf } from './message-ids.js';
import { decodePart, loss } from './parts.js';
import { childPath } from '../shared/child-path.js';
import { isToolCalls, isToolResults, readCalls, readResultParts, type ReadCall } from './tool-data.js';

export { toRecord, type Rec } from './compact-reduce.js';

const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/**
 * A call's canonical part. On the request path (`losses` given) arguments that came as one whole
 * text keep the hint `$argsText`, so they are written back as text (the encoder writes the object
 * otherwise), and arguments that are not JSON are kept as text with `{}` as their value, reported;
 * on a stream's whole part they are an error.
 */
function callPart(c: Call, path: Path, losses?: LossSink): ToolCallPart {
  if (c.name === undefined) throw new ValidationError([{ code: 'invalid_type', path, message: `tool call '${c.callId}' never says its name` }]);
  const part: ToolCallPart = { type: 'tool-call', id: c.callId, name: c.name, arguments: {} };
  if (c.json !== undefined && c.chunks.length === 0) {
    part.arguments = c.json;
    keepResidue(part, A2A, c.rest);
    return part;
  }
  const text = c.chunks.join('');
  part.argumentsJson = text;
  if (text.trim() !== '') {
    try {
      part.arguments = JSON.parse(text) as JsonValue;
    } catch {
      const message = `the arguments of tool call '${c.callId}' are not valid JSON`;
      if (losses === undefined) throw new ValidationError([{ code: 'invalid_json', path, message, expected: 'a JSON text' }]);
      loss(losses, 'invalid-arguments', path, `${message}; kept as text, {} as the value`, 'approximated');
    }
  }
  keepResidue(part, A2A, c.merged || losses === undefined ? c.rest : { ...c.rest, $argsText: true });
  return part;
}

/** How the request path reads whole parts (a stream's whole parts are read without it). */
export interface RequestRead {
  losses: LossSink;
}

/**
 * One part as written (no record type): a content part, or a tool data part read as calls /
 * results. On the request path arguments that are not JSON are reported, not refused (callPart),
 * and results keep the hints its encoder needs.
 */
export function decodeOne(p: JsonObject, at: Path, request?: RequestRead): Part[] {
  const data = p['data'];
  // Only a part that is nothing but the tool data is one (metadata on it would have no home).
  if ((isToolResults(data) || isToolCalls(data)) && Object.keys(p).length === 1) {
    const out: Part[] = [];
    appendToolData(out, data, childPath(at, 'data'), request);
    return out;
  }
  return [decodePart(p, at)];
}

/** The parts of a tool data object (found at `at`): its results, else its calls, appended to `out`. */
function appendToolData(out: Part[], data: JsonObject, at: Path, request: RequestRead | undefined): void {
  if (isToolResults(data)) {
    const results = readResultParts(data, at, request !== undefined);
    for (let i = 0; i < results.length; i++) out.push(results[i] as Part);
    return;
  }
  const calls = readCalls(data, at, true);
  for (let i = 0; i < calls.length; i++) out.push(callPart(toCall(calls[i] as ReadCall), at, request?.losses));
}

/**
 * Appends the canonical parts of `list`, the parts found at `[...path, key]` (at `path` without a
 * key): decodeOne's reading, its tests made once. A plain content part needs its path only for an
 * error: made there (decodePart), not per part.
 */
function appendParts(out: Part[], list: readonly JsonObject[], path: Path, key: string | undefined, request: RequestRead | undefined): void {
  for (let i = 0; i < list.length; i++) {
    const p = list[i] as JsonObject;
    const data = p['data'];
    if (data !== undefined && (isToolResults(data) || isToolCalls(data)) && Object.keys(p).length === 1) {
      appendToolData(out, data, key === undefined ? childPath(path, i, 'data') : childPath(path, key, i, 'data'), request);
    } else out.push(decodePart(p, path, i, key));
  }
}

export function decodeParts(list: readonly JsonObject[], path: Path, request?: RequestRead): Part[] {
  const out: Part[] = [];
  appendParts(out, list, path, undefined, request);
  return out;
}

/** Appends the canonical parts of record `r`. */
function appendRecordParts(out: Part[], r: Rec, read: RequestRead): void {
  if (r.calls !== undefined) {
    for (let i = 0; i < r.calls.length; i++) out.push(callPart(r.calls[i] as Call, r.path, read.losses));
    return;
  }
  let wire = r.msg['parts'] as JsonObject[];
  if (r.text !== undefined) {
    // An end that took its chunks' text: that text in its (first) text part.
    const at = wire.findIndex((p) => typeof p['text'] === 'string');
    const others = wire.filter((p) => typeof p['text'] !== 'string');
    wire = at < 0 ? [{ text: r.text }, ...others] : [{ ...(wire[at] as JsonObject), text: r.text }, ...others];
  }
  appendParts(out, wire, r.path, 'parts', read);
}

/** The wire fields of a message that no canonical field holds (the message's residue). */
function messageResidue(msg: JsonObject, type: string | undefined): JsonObject {
  // The fields kept although MESSAGE_KEYS names them come after the others, in one order, each
  // read and set by its name (a store by a variable key costs more); the usual residue, the id
  // alone, is made as one literal.
  const id = msg['messageId'];
  let rest = residue(msg, MESSAGE_KEYS);
  if (rest === undefined && id !== undefined) rest = { messageId: id };
  else {
    rest ??= {};
    if (id !== undefined) rest['messageId'] = id;
  }
  if (msg['contextId'] !== undefined) rest['contextId'] = msg['contextId'];
  if (msg['taskId'] !== undefined) rest['taskId'] = msg['taskId'];
  if (msg['extensions'] !== undefined) rest['extensions'] = msg['extensions'];
  if (msg['referenceTaskIds'] !== undefined) rest['referenceTaskIds'] = msg['referenceTaskIds'];
  const meta = msg['metadata'];
  if (isJsonObject(meta)) {
    // The metadata without our two keys, copied in a loop (a rest destructuring per message cost more).
    // Made only when there is another key (most metadata holds only ours).
    let others: JsonObject | undefined;
    for (const k in meta) {
      if (k === CANONICAL_TYPE || k === CANONICAL_ROLE) continue;
      setOwn((others ??= {}), k, meta[k] as JsonValue);
    }
    // Metadata that only held our keys comes back from them; any other metadata (even {}) is kept.
    if (others !== undefined || (type === undefined && meta[CANONICAL_ROLE] === undefined)) rest['metadata'] = others ?? {};
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

/**
 * The type of the record the encoder writes for a run of parts of one class (the design's table):
 * the agent's text is its final message (TextMessageEndEvent), anyone else's text
 * TextMessageContentEvent; calls ToolCallStartEvent, results ToolCallResultEvent.
 */
export function runType(cls: RunClass, agent: boolean): string {
  if (cls === 'calls') return T.toolStart;
  if (cls === 'results') return T.toolResult;
  return agent ? T.end : T.content;
}

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

/**
 * Whether two message residues write the same JSON apart from their messageId (what comparing
 * their JSON texts without it says: same keys in the same order, same values), walked key by key
 * instead of serialised; only object values are compared as JSON text.
 */
function sameButId(a: JsonObject, b: JsonObject): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && ka[i] === 'messageId') i++;
    while (j < kb.length && kb[j] === 'messageId') j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    const key = ka[i] as string;
    if (key !== kb[j]) return false;
    const x = a[key];
    const y = b[key];
    if (x !== y && (typeof x !== 'object' || typeof y !== 'object' || JSON.stringify(x) !== JSON.stringify(y))) return false;
    i++;
    j++;
  }
}

/** The first record from `i` (before `to`) whose type was written: not dropped, not joined. */
function nextTyped(recs: readonly Rec[], i: number, to: number): number {
  while (i < to && ((recs[i] as Rec).drop || (recs[i] as Rec).joined)) i++;
  return i;
}

/** The record types as written in recs[from, to), one per run of parts (joined fragments count once). */
function writtenTypes(recs: readonly Rec[], from: number, to: number): (string | null)[] {
  const types: (string | null)[] = [];
  for (let i = nextTyped(recs, from, to); i < to; i = nextTyped(recs, i + 1, to)) types.push((recs[i] as Rec).type ?? null);
  return types;
}

/**
 * Whether the record types as written (writtenTypes) are those the encoder writes for `parts` by
 * default (runType): partRuns' runs and the records walked in place, without building either.
 */
function typesAsDefault(recs: readonly Rec[], from: number, to: number, parts: readonly Part[], agent: boolean): boolean {
  let i = from;
  let prev: RunClass | undefined;
  for (let j = 0; j < parts.length; j++) {
    const cls = runClass(parts[j] as Part);
    if (cls === prev) continue;
    prev = cls;
    i = nextTyped(recs, i, to);
    if (i === to || (recs[i] as Rec).type !== runType(cls, agent)) return false;
    i++;
  }
  return nextTyped(recs, i, to) === to;
}

/**
 * map: the records of one message (see sameMessage), those of recs[from, to) not dropped, -> one
 * canonical message. A range of `recs`, not a list of its own: one array less per message.
 */
function toMessage(recs: readonly Rec[], from: number, to: number, read: RequestRead, limits: Limits): Message {
  const { losses } = read;
  const first = recs[from] as Rec;
  const parts: Part[] = [];
  let prevFragment = false;
  for (let g = from; g < to; g++) {
    const r = recs[g] as Rec;
    if (r.drop) continue;
    const start = parts.length;
    appendRecordParts(parts, r, read);
    const fragment = r.type === T.chunk || r.type === T.content;
    const last = start > 0 ? parts[start - 1] : undefined;
    const head = parts[start];
    // Adjacent text fragments of one message are one text.
    if (fragment && prevFragment && last?.type === 'text' && head?.type === 'text' && last.ext === undefined && head.ext === undefined) {
      last.text += head.text;
      parts.splice(start, 1);
      r.joined = true;
    }
    prevFragment = fragment;
  }
  let issues: Issue[] | undefined;
  let results = parts.length > 0;
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j] as Part;
    if (p.type === 'text' && overTextLimit(p.text, limits)) checkTextSize(p.text, limits, childPath(first.path, 'parts', j), (issues ??= []));
    if (p.type !== 'tool-result') results = false;
  }
  if (issues !== undefined && issues.length > 0) throw new ValidationError(issues);
  const rest = messageResidue(first.msg, first.type);
  // The records' ids differ by design (continuation ids, chunk runs); any other field is reported.
  // Most groups are one record: nothing to compare (and nothing to serialise).
  for (let k = from + 1; k < to; k++) {
    const r = recs[k] as Rec;
    if (r.drop) continue;
    if (!sameButId(messageResidue(r.msg, r.type), rest)) loss(losses, 'a2a-message-fields', r.path, 'this message differs from the first of its group in fields other than its id, parts and type; those of the first are kept');
  }
  if (first.type === undefined) rest['$untyped'] = true;
  else if (!typesAsDefault(recs, from, to, parts, first.agent)) rest['$types'] = writtenTypes(recs, from, to);
  if (results && first.agent) rest['$agent'] = true;
  // What keepResidue makes of a new message, as one literal (`a2a` is A2A; a computed key costs more).
  return { role: roleOf(first, results), parts, ext: { a2a: rest } };
}

/**
 * Whether record `r` continues the message whose first record is `head` and last `prev`: records
 * of one chunk run, or typed records of one role and kind (results or not) whose id is the same
 * as the last one's (older histories) or a continuation id of the first one's.
 */
function sameMessage(head: Rec, prev: Rec, r: Rec): boolean {
  if (prev.run !== undefined && prev.run === r.run) return true;
  if (prev.type === undefined || r.type === undefined) return false;
  if (prev.agent !== r.agent || (prev.type === T.toolResult) !== (r.type === T.toolResult)) return false;
  return r.messageId === prev.messageId || isContinuationOf(r.messageId, head.messageId);
}

/** The whole compaction: records of A2A messages (toRecord) -> canonical messages, appended to `out`. */
export function compactRecords(recs: Rec[], losses: LossSink, limits: Limits, out: Message[]): void {
  reduce(recs, losses);
  const read: RequestRead = { losses };
  // The current message's records: recs[from, i) without the dropped ones; `prev` the last of them.
  let from = 0;
  let prev: Rec | undefined;
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i] as Rec;
    if (r.drop) continue;
    if (prev === undefined) from = i;
    else if (!sameMessage(recs[from] as Rec, prev, r)) {
      out.push(toMessage(recs, from, i, read, limits));
      from = i;
    }
    prev = r;
  }
  if (prev !== undefined) out.push(toMessage(recs, from, recs.length, read, limits));
}
