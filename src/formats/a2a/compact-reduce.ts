/**
 * The reduce step of compaction (compact.ts): streaming records give way to the final ones.
 * - Text: a run of agent `TextMessageChunkEvent` messages directly followed by an agent
 *   `TextMessageEndEvent` message is compacted into that final message, whatever their ids: the
 *   end's text stands (an end without text takes the chunks' text). A run with no end after it
 *   stays, as one message of the chunks' text. Older histories that tie fragments to their end by
 *   a shared messageId (one id for the whole streamed message) read as before.
 * - Tool calls, by call id: `ToolCallArgsEvent` fragments join their call. A `ToolCallStartEvent`
 *   for a call already open is its final form and the call moves there: its arguments stand, or,
 *   when it carries none, the fragments are its arguments. `ToolCallEndEvent` says nothing more.
 *   A user message or a tool result closes the calls open before it.
 */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { MESSAGE_TYPES as T } from './a2a-api.js';
import { loss } from './parts.js';
import { childPath } from '../shared/child-path.js';
import { isToolCalls, readCalls, type ReadCall } from './tool-data.js';

export interface Call extends ReadCall {
  chunks: string[];
  /** Fragments were joined into it (its wire form was not one whole text). */
  merged: boolean;
}

/** One A2A message (v1.0 form) read for compaction, and where it was in the input. */
export interface Rec {
  msg: JsonObject;
  path: Path;
  type: string | undefined;
  messageId: string;
  agent: boolean;
  drop: boolean;
  /** ToolCallStart / ToolCallArgs records: their calls, arguments merged in the reduce step. */
  calls: Call[] | undefined;
  /** A chunk run with no end after it: its records form one message whatever their ids. */
  run: number | undefined;
  /** An end without text that took the text of the chunks before it. */
  text: string | undefined;
  /** A fragment whose text joined the text before it in its message: no record type of its own. */
  joined: boolean;
}

/** A call as read, before any fragment joins it. All fields in one order (no spread): one shape. */
export function toCall(c: ReadCall): Call {
  return { callId: c.callId, name: c.name, text: c.text, json: c.json, rest: c.rest, chunks: c.text === undefined ? [] : [c.text], merged: false };
}

function typeOf(msg: JsonObject): string | undefined {
  const meta = msg['metadata'];
  const t = isJsonObject(meta) ? meta['canonical_type'] : undefined;
  return typeof t === 'string' ? t : undefined;
}

function partsOf(r: Rec): JsonObject[] {
  return r.msg['parts'] as JsonObject[];
}

export function textOf(r: Rec): string {
  let s = '';
  for (const p of partsOf(r)) if (typeof p['text'] === 'string') s += p['text'];
  return s;
}

/** map: the record of one message; tool-call records read their calls. */
export function toRecord(msg: JsonObject, path: Path): Rec {
  const type = typeOf(msg);
  // Every field written here, in one order (no spread): one object shape for all records.
  const rec: Rec = { msg, path, type, messageId: msg['messageId'] as string, agent: msg['role'] === 'ROLE_AGENT', drop: false, calls: undefined, run: undefined, text: undefined, joined: false };
  if (type === T.toolStart || type === T.toolArgs || type === T.toolEnd) {
    const calls: Call[] = [];
    const parts = msg['parts'] as JsonObject[];
    for (let i = 0; i < parts.length; i++) {
      const data = (parts[i] as JsonObject)['data'];
      if (!isToolCalls(data)) continue;
      for (const c of readCalls(data, childPath(path, 'parts', i, 'data'), false)) calls.push(toCall(c));
    }
    rec.calls = calls;
  }
  return rec;
}

const isChunk = (r: Rec): boolean => r.agent && r.type === T.chunk;
const isFragment = (r: Rec): boolean => r.type === T.chunk || r.type === T.content;

/** Runs of agent chunks: absorbed by the end right after them, else kept together as one message. */
function reduceChunkRuns(recs: Rec[], losses: LossSink): void {
  let runs = 0;
  for (let i = 0; i < recs.length; ) {
    if (!isChunk(recs[i] as Rec)) {
      i++;
      continue;
    }
    let j = i;
    while (j < recs.length && isChunk(recs[j] as Rec)) j++;
    const chunks = recs.slice(i, j);
    const end = recs[j];
    i = j;
    if (end === undefined || !end.agent || end.type !== T.end) {
      runs++;
      for (const c of chunks) c.run = runs;
      continue;
    }
    const joined = chunks.map(textOf).join('');
    const said = textOf(end);
    if (said === '') end.text = joined;
    else if (said !== joined) loss(losses, 'a2a-end-text', end.path, "the end message's text differs from the chunks before it; the end's text is kept", 'approximated');
    for (const c of chunks) {
      c.drop = true;
      if (partsOf(c).some((p) => typeof p['text'] !== 'string')) loss(losses, 'a2a-chunk-parts', c.path, 'a chunk compacted into its end message had parts other than text; they are dropped');
    }
  }
}

/** Older histories: fragments and their end share one messageId, not necessarily adjacent. */
function reduceBySharedId(recs: Rec[]): void {
  // Backwards: for each message id, whether the nearest End after this point carries text.
  const endHasText = new Map<string, boolean>();
  let textless = false;
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i] as Rec;
    if (r.drop) continue;
    if (r.type === T.end) {
      const hasText = r.text !== undefined || textOf(r) !== '';
      endHasText.set(r.messageId, hasText);
      if (!hasText) textless = true;
    } else if (isFragment(r) && endHasText.get(r.messageId) === true) r.drop = true;
  }
  // An End without text after fragments of its id only closes them (they stand). Only an End
  // without text can go: none, nothing to look for.
  if (!textless) return;
  const fragmentIds = new Set<string>();
  for (const r of recs) {
    if (r.drop) continue;
    if (isFragment(r)) fragmentIds.add(r.messageId);
    else if (r.type === T.end && r.text === undefined && partsOf(r).every((p) => p['text'] === '') && fragmentIds.has(r.messageId)) r.drop = true;
  }
}

function hasArgs(c: Call): boolean {
  return c.json !== undefined || (c.text ?? '') !== '';
}

function argsText(c: Call): string {
  return c.chunks.length === 0 && c.json !== undefined ? JSON.stringify(c.json) : c.chunks.join('');
}

/** Argument fragments join their call; a later Start of an open call is its final form. */
function reduceCalls(recs: Rec[], losses: LossSink): void {
  const owner = new Map<string, { rec: Rec; call: Call }>();
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i] as Rec;
    // A turn of the user, or results, closes the calls before: an id seen again after them is a new call.
    // (Cleared only when it holds any: clear() makes a new table.)
    if (!r.drop && (!r.agent || r.type === T.toolResult) && owner.size > 0) owner.clear();
    if (r.calls === undefined || r.drop) continue;
    if (r.type === T.toolEnd) {
      r.drop = true;
      continue;
    }
    const calls = r.calls;
    // The calls that stay in this record: r.calls itself while every call is a new one (the usual
    // case), a copy from the first call that is not.
    let kept: Call[] | undefined;
    for (let k = 0; k < calls.length; k++) {
      const c = calls[k] as Call;
      const cur = owner.get(c.callId);
      if (cur === undefined) {
        owner.set(c.callId, { rec: r, call: c });
        kept?.push(c);
        continue;
      }
      kept ??= calls.slice(0, k);
      if (r.type !== T.toolStart) {
        cur.call.chunks.push(...c.chunks);
        if (c.json !== undefined && cur.call.json === undefined) cur.call.json = c.json;
        cur.call.name ??= c.name;
        cur.call.merged = true;
        continue;
      }
      // The final Start: the call leaves the record it was opened in.
      if (cur.rec === r) kept.splice(kept.indexOf(cur.call), 1);
      else {
        cur.rec.calls = (cur.rec.calls as Call[]).filter((x) => x !== cur.call);
        if (cur.rec.calls.length === 0) cur.rec.drop = true;
      }
      if (!hasArgs(c)) {
        c.chunks = cur.call.chunks;
        c.json = cur.call.json;
        c.merged = true;
      } else if (argsText(cur.call) !== '' && argsText(cur.call) !== argsText(c)) {
        loss(losses, 'a2a-end-arguments', r.path, `the final arguments of tool call '${c.callId}' differ from its fragments; the final ones are kept`, 'approximated');
      }
      c.name ??= cur.call.name;
      owner.set(c.callId, { rec: r, call: c });
      kept.push(c);
    }
    if (kept !== undefined) r.calls = kept;
    if (r.calls.length === 0) r.drop = true;
  }
}

/** reduce: the whole step, in place (records to leave out get `drop`). */
export function reduce(recs: Rec[], losses: LossSink): void {
  reduceChunkRuns(recs, losses);
  reduceBySharedId(recs);
  reduceCalls(recs, losses);
}
