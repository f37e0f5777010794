/**
 * Parts <-> the JSON inside blobs:
 * - a `camunda.messageContent` content is the canonical part's own JSON (its `type` kept), except
 *   reasoning, written as Camunda's `{type: 'reasoning', provider, payload}` with the provider that
 *   minted it and every other field in `payload`, byte-exact. Camunda's own content types read as
 *   the nearest part: `object` -> data part; `document` (a Camunda document reference), `provider`,
 *   a reasoning of a provider interlingua does not know, or any other type -> a provider block of
 *   this format holding the content whole (written back as it came, a loss elsewhere);
 * - a `camunda.toolCalls` entry is Camunda's ToolCall `{id, name, arguments}`;
 * - a `camunda.toolCallResults` entry is Camunda's ToolCallResultContent `{id, name, content: [...]}`
 *   (content items as above), or the older flat `content` (text, object or null).
 * Canonical fields Camunda has no name for (argumentsJson, isError, stringContent, cache, another
 * format's ext) ride as extra keys; Camunda's extra keys (elementId, completedAt, properties such as
 * `interrupted`) are kept in the part's ext and written back.
 */
import type { Issue } from '../../model/errors.js';
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { DataPart, Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Limits } from '../codec.js';
import { withoutKey } from '../shared/delete-keys.js';
import { putAll } from '../shared/residue.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { AGENTCORE, CALL_KEYS, LIMITS, put, RESULT_KEYS } from './agentcore-memory-api.js';
import { ExtSchema, isCanonicalPartType, PART_SHAPES, ReasoningPayloadSchema, STRICT_PART } from './part-schema.js';
import { isFormatId, surelyReasoningPayload, surelyValidPart } from './plain-shapes.js';
import { childPath } from '../shared/child-path.js';
import { hasKeys, lastOfSeveralKeys } from '../shared/own-keys.js';

export function own(ext: Ext | undefined): JsonObject | undefined {
  return ext?.[AGENTCORE];
}

/** `ext` with `fields` added to this format's entry (none added when `fields` is empty). */
export function withOwn(ext: Ext | undefined, fields: JsonObject): Ext | undefined {
  if (!hasKeys(fields)) return ext;
  return { ...ext, [AGENTCORE]: { ...own(ext), ...fields } };
}

/** What splitExt gives for no ext (most parts): shared, read only. */
const NO_EXT: { residue: JsonObject; foreign: Ext | undefined } = Object.freeze({ residue: Object.freeze({}) as JsonObject, foreign: undefined });

/** The own entry's data fields (no `$` hints), and the other formats' entries (read only). */
export function splitExt(ext: Ext | undefined): { residue: JsonObject; foreign: Ext | undefined } {
  if (ext === undefined) return NO_EXT;
  const residue: JsonObject = {};
  let foreign: Ext | undefined;
  for (const origin in ext) {
    const entry = ext[origin];
    if (entry === undefined) continue;
    if (origin !== AGENTCORE) (foreign ??= {})[origin] = entry;
    else for (const k in entry) if (!k.startsWith('$') && entry[k] !== undefined) put(residue, k, entry[k] as JsonValue);
  }
  return { residue, foreign };
}

function rest(obj: JsonObject, known: ReadonlySet<string>): JsonObject {
  return restOrUndefined(obj, known) ?? {};
}

/** rest, or undefined when it would be empty (most entries: no object made). */
function restOrUndefined(obj: JsonObject, known: ReadonlySet<string>): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const k in obj) if (!known.has(k) && obj[k] !== undefined) put((out ??= {}), k, obj[k] as JsonValue);
  return out;
}

/** Each part type's own keys, made once (this runs for every content read). */
const KNOWN = Object.fromEntries(Object.entries(PART_SHAPES).map(([k, shape]) => [k, new Set(Object.keys(shape))])) as unknown as Record<keyof typeof PART_SHAPES, ReadonlySet<string>>;

const providerBlock = (content: JsonObject): Part => ({ type: 'provider-block', origin: AGENTCORE, block: content });

function validated(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: readonly unknown[] } } }, value: JsonValue, path: Path, issues: Issue[]): boolean {
  const r = schema.safeParse(value);
  if (!r.success) issues.push(...fromZodIssues((r.error?.issues ?? []) as Parameters<typeof fromZodIssues>[0], path).map((i) => ({ ...i, message: `malformed content: ${i.message}` })));
  return r.success;
}

function checkTexts(part: Part, limits: Limits, path: Path, issues: Issue[]): void {
  // The path only for a text that is over (almost never).
  if (part.type === 'text') {
    if (overTextLimit(part.text, limits)) checkTextSize(part.text, limits, childPath(path, 'text'), issues);
  } else if (part.type === 'tool-result') part.content.forEach((p, k) => checkTexts(p, limits, childPath(path, 'content', k), issues));
}

/** A content object (a messageContent blob's `content`, or an item of a tool result's content). */
export function decodeContent(content: JsonObject, path: Path, limits: Limits, issues: Issue[]): Part | undefined {
  const type = content['type'];
  if (typeof type !== 'string') {
    issues.push({ code: 'invalid_blob', path: childPath(path, 'type'), message: 'content has no type discriminator', expected: 'a type string' });
    return undefined;
  }
  if (type === 'object' && 'content' in content) {
    const part: DataPart = { type: 'data', data: content['content'] as JsonValue };
    const ext = withOwn(undefined, { $object: true, ...rest(content, new Set(['type', 'content'])) });
    if (ext) part.ext = ext;
    return part;
  }
  if (type === 'reasoning' && 'provider' in content) {
    const origin = content['provider'];
    const payload = content['payload'];
    const keys = Object.keys(content);
    if (!isFormatId(origin) || !(surelyReasoningPayload(payload) || ReasoningPayloadSchema.safeParse(payload).success) || keys.length !== 3 || !('payload' in content)) return providerBlock(content);
    return { type: 'reasoning', origin, ...(payload as JsonObject) } as ReasoningPart;
  }
  if (!isCanonicalPartType(type) || (type === 'document' && !('source' in content))) return providerBlock(content);
  const residue = rest(content, KNOWN[type]);
  const body = Object.keys(residue).length === 0 ? content : rest(content, new Set(Object.keys(residue)));
  if (!surelyValidPart(type, body) && !validated(STRICT_PART[type], body, path, issues)) return undefined;
  const part = body as unknown as Part;
  checkTexts(part, limits, path, issues);
  const ext = withOwn(part.ext, residue);
  return ext === part.ext ? part : { ...part, ext } as Part;
}

/** A part as a content object. */
export function encodeContent(part: Part): JsonObject {
  const { residue, foreign } = splitExt(part.ext);
  const hints = own(part.ext);
  if (part.type === 'reasoning') {
    const { type: _t, origin, ...payload } = part;
    return { type: 'reasoning', provider: origin, payload: payload as unknown as JsonObject };
  }
  if (part.type === 'data' && hints?.['$object'] === true && foreign === undefined && part.cache === undefined) {
    return { type: 'object', content: part.data, ...residue };
  }
  if (part.type === 'provider-block' && part.origin === AGENTCORE && typeof part.block['type'] === 'string' && part.ext === undefined && part.cache === undefined) {
    return part.block;
  }
  const out = { ...part } as unknown as JsonObject;
  if (foreign === undefined) delete out['ext'];
  else out['ext'] = foreign as unknown as JsonObject;
  return putAll(out, residue);
}

/** Canonical extras a call or result carries as extra keys: an explicit `providerExecuted: false`, cache, other formats' ext. */
function extras(part: ToolCallPart | ToolResultPart): JsonObject {
  const out: JsonObject = {};
  const { residue, foreign } = splitExt(part.ext);
  if (part.providerExecuted === false) out['providerExecuted'] = false;
  if (part.cache) out['cache'] = part.cache as unknown as JsonObject;
  if (foreign) out['ext'] = foreign as unknown as JsonObject;
  return putAll(out, residue);
}

function takeExtras(entry: JsonObject, known: ReadonlySet<string>, path: Path, issues: Issue[]): { cache?: Part['cache']; ext?: Ext; providerExecuted?: false } | undefined {
  const out: { cache?: Part['cache']; ext?: Ext; providerExecuted?: false } = {};
  const pe = entry['providerExecuted'];
  if (pe === false) out.providerExecuted = false;
  else if (pe !== undefined) {
    // A call the provider ran is a messageContent blob, never an entry of these blobs.
    issues.push({ code: 'invalid_blob', path: childPath(path, 'providerExecuted'), message: 'providerExecuted is only ever false here' });
    return undefined;
  }
  const cache = entry['cache'];
  if (cache !== undefined) {
    if (!isJsonObject(cache) || cache['type'] !== 'ephemeral') {
      issues.push({ code: 'invalid_blob', path: childPath(path, 'cache'), message: "cache is not {type: 'ephemeral'}" });
      return undefined;
    }
    out.cache = cache as unknown as Part['cache'] & object;
  }
  const ext = entry['ext'];
  if (ext !== undefined && !validated(ExtSchema, ext, childPath(path, 'ext'), issues)) return undefined;
  const residue = restOrUndefined(entry, known);
  const merged = residue === undefined ? (ext as Ext | undefined) : withOwn(ext as Ext | undefined, residue);
  if (merged) out.ext = merged;
  return out;
}

/** One entry of a toolCalls blob (or of the older bare array). */
export function decodeCall(entry: JsonValue, path: Path, issues: Issue[]): ToolCallPart | undefined {
  if (!isJsonObject(entry) || typeof entry['id'] !== 'string' || typeof entry['name'] !== 'string') {
    issues.push({ code: 'invalid_blob', path, message: 'a tool call needs a string id and name', expected: '{id, name, arguments}' });
    return undefined;
  }
  const more = takeExtras(entry, CALL_KEYS, path, issues);
  if (!more) return undefined;
  const args = entry['arguments'];
  const part: ToolCallPart = { type: 'tool-call', id: entry['id'], name: entry['name'], arguments: args === undefined ? {} : args };
  const aj = entry['argumentsJson'];
  if (typeof aj === 'string') part.argumentsJson = aj;
  else if (aj !== undefined) issues.push({ code: 'invalid_blob', path: childPath(path, 'argumentsJson'), message: 'argumentsJson is not a string' });
  if (more.cache) part.cache = more.cache;
  if (more.providerExecuted === false) part.providerExecuted = false;
  const ext = args === undefined ? withOwn(more.ext, { $noArguments: true }) : more.ext;
  if (ext) part.ext = ext;
  return part;
}

export function encodeCall(part: ToolCallPart): JsonObject {
  const out: JsonObject = { id: part.id, name: part.name };
  if (!(own(part.ext)?.['$noArguments'] === true && isJsonObject(part.arguments) && Object.keys(part.arguments).length === 0)) out['arguments'] = part.arguments;
  // The exact text only when it says more than the arguments do (OpenAI sends it always).
  if (part.argumentsJson !== undefined && part.argumentsJson !== JSON.stringify(part.arguments)) out['argumentsJson'] = part.argumentsJson;
  // putAll, not `{ ...out, ...extras }`: a spread copy given new keys takes a hidden class of its own (~1 µs an entry).
  return putAll(out, extras(part));
}

/** How a result's flat (older) `content` was written: a string, null, absent, or another JSON value. */
type Flat = 'string' | 'null' | 'absent' | 'value';

/** One entry of a toolCallResults blob. */
export function decodeResult(entry: JsonValue, path: Path, limits: Limits, issues: Issue[]): ToolResultPart | undefined {
  if (!isJsonObject(entry)) {
    issues.push({ code: 'invalid_blob', path, message: 'a tool call result is not an object' });
    return undefined;
  }
  const id = entry['id'];
  const name = entry['name'];
  if ((id !== undefined && id !== null && typeof id !== 'string') || (name !== undefined && name !== null && typeof name !== 'string')) {
    issues.push({ code: 'invalid_blob', path, message: "a tool call result's id and name are strings" });
    return undefined;
  }
  const more = takeExtras(entry, RESULT_KEYS, path, issues);
  if (!more) return undefined;
  // Built only when there is a hint (most results have none but `$nameLast`).
  let hints: JsonObject | undefined;
  const raw = entry['content'];
  let content: Part[] = [];
  let flat: Flat | undefined;
  if (Array.isArray(raw)) {
    // Sized and filled by index: a push onto `[]` allocates room for 17.
    content = new Array<Part>(raw.length);
    let n = 0;
    for (let k = 0; k < raw.length; k++) {
      const item = raw[k] as JsonValue;
      if (!isJsonObject(item)) {
        issues.push({ code: 'invalid_blob', path: childPath(path, 'content', k), message: 'a content item is not an object' });
        continue;
      }
      const p = decodeContent(item, childPath(path, 'content', k), limits, issues);
      if (p) content[n++] = p;
    }
    if (n !== content.length) content.length = n;
  } else if (typeof raw === 'string') {
    flat = 'string';
    checkTextSize(raw, limits, childPath(path, 'content'), issues);
    content = [{ type: 'text', text: raw }];
  } else if (raw === null || raw === undefined) flat = raw === null ? 'null' : 'absent';
  else {
    flat = 'value';
    content = [{ type: 'data', data: raw }];
  }
  const part: ToolResultPart = { type: 'tool-result', callId: typeof id === 'string' ? id : '', content };
  if (typeof id !== 'string') (hints ??= {})['$id'] = id === null ? null : false;
  if (typeof name === 'string') {
    part.name = name;
    // Written last: the name may be one the writer took from the call (call-names.ts decides).
    if (lastOfSeveralKeys(entry) === 'name') (hints ??= {})['$nameLast'] = true;
  } else if (name === null) (hints ??= {})['$nullName'] = true;
  if (flat !== undefined) (hints ??= {})['$flat'] = flat;
  const sc = entry['stringContent'];
  const isError = entry['isError'];
  if (sc !== undefined && sc !== true) issues.push({ code: 'invalid_blob', path: childPath(path, 'stringContent'), message: 'stringContent is only ever true' });
  if (isError !== undefined && typeof isError !== 'boolean') issues.push({ code: 'invalid_blob', path: childPath(path, 'isError'), message: 'isError is not a boolean' });
  if (flat === 'string' || sc === true) part.stringContent = true;
  if (typeof isError === 'boolean') part.isError = isError;
  if (more.providerExecuted === false) part.providerExecuted = false;
  if (more.cache) part.cache = more.cache;
  const ext = hints === undefined ? more.ext : withOwn(more.ext, hints);
  if (ext) part.ext = ext;
  return part;
}

const plainText = (p: Part | undefined): p is Part & { type: 'text' } => p?.type === 'text' && p.citations === undefined && p.cache === undefined && p.ext === undefined;
const plainData = (p: Part | undefined): p is DataPart => p?.type === 'data' && p.cache === undefined && p.ext === undefined;

/** The older flat content, when the result came that way and still fits it. */
function flatContent(part: ToolResultPart, flat: JsonValue | undefined): { value: JsonValue | undefined } | undefined {
  const [first, second] = part.content;
  if (flat === 'string' && part.stringContent === true && second === undefined && plainText(first)) return { value: first.text };
  if ((flat === 'null' || flat === 'absent') && first === undefined) return { value: flat === 'null' ? null : undefined };
  if (flat === 'value' && second === undefined && plainData(first) && typeof first.data !== 'string' && first.data !== null) return { value: first.data };
  return undefined;
}

/**
 * One entry of a toolCallResults blob. `callName` is the name of the call the result answers, when
 * the result has none of its own (Anthropic, Bedrock, Chat) and the conversation holds the call:
 * written as the entry's last key, which tells a reader the name came from the call (call-names.ts).
 */
export function encodeResult(part: ToolResultPart, callName?: string): JsonObject {
  const hints = own(part.ext);
  const out: JsonObject = {};
  const idHint = hints?.['$id'];
  if (!(part.callId === '' && (idHint === null || idHint === false))) out['id'] = part.callId;
  else if (idHint === null) out['id'] = null;
  const last = part.name !== undefined && hints?.['$nameLast'] === true ? part.name : part.name === undefined && hints?.['$nullName'] !== true ? callName : undefined;
  if (part.name !== undefined && last === undefined) out['name'] = part.name;
  else if (hints?.['$nullName'] === true) out['name'] = null;
  const flat = flatContent(part, hints?.['$flat']);
  if (flat) {
    if (flat.value !== undefined) out['content'] = flat.value;
  } else {
    out['content'] = part.content.map(encodeContent);
    if (part.stringContent === true) out['stringContent'] = true;
  }
  if (part.isError !== undefined) out['isError'] = part.isError;
  putAll(out, extras(part));
  if (last === undefined) return out;
  // The name last: a copy without it where it is there already (not a delete and a new key).
  const entry = Object.hasOwn(out, 'name') ? withoutKey(out, 'name') : out;
  entry['name'] = last;
  return entry;
}

/**
 * The readable text of a run of results for the conversational TOOL payload ([CAM] §4.4): each
 * result's text, structured data as JSON (a string as itself), blank pieces left out, joined by
 * newlines; cut to the conversational limit (the blob beside it keeps everything).
 */
export function resultsSummary(results: readonly ToolResultPart[]): string {
  // The list is made from the second piece on: most runs hold one result of one text.
  let first: string | undefined;
  let pieces: string[] | undefined;
  for (const r of results) {
    for (const p of r.content) {
      const s = summaryPiece(p);
      if (s.trim() === '') continue;
      if (first === undefined) first = s;
      else (pieces ??= [first]).push(s);
    }
  }
  return clip(pieces !== undefined ? pieces.join('\n') : first ?? '');
}

/** What one content part of a result says in the summary ('' for none). */
function summaryPiece(p: Part): string {
  return p.type === 'text' ? p.text : p.type === 'data' ? (typeof p.data === 'string' ? p.data : JSON.stringify(p.data)) : '';
}

/** `resultsSummary(results) !== ''`. */
export function hasResultsSummary(results: readonly ToolResultPart[]): boolean {
  for (const r of results) for (const p of r.content) if (summaryPiece(p).trim() !== '') return true;
  return false;
}

/**
 * `resultsSummary(results) === text`, without joining the pieces: reading events, the join of a
 * tool's whole output made only to be compared was a tenth of what decoding them allocated. A
 * summary the limit would cut is compared the long way.
 */
export function isResultsSummary(results: readonly ToolResultPart[], text: string): boolean {
  let at = 0;
  let any = false;
  for (const r of results) {
    for (const p of r.content) {
      const s = summaryPiece(p);
      if (s.trim() === '') continue;
      // Pieces that end before the last character the limit could keep are compared here.
      if ((any ? at + 1 : at) + s.length >= LIMITS.conversationalText) return text === resultsSummary(results);
      if (any) {
        if (text.charCodeAt(at) !== 10) return false;
        at++;
      }
      // A slice and ===, not startsWith: on Node 20 startsWith compares character by character
      // (2.5-20 µs for 3,000 characters, against ~0.1 µs).
      if (text.slice(at, at + s.length) !== s) return false;
      at += s.length;
      any = true;
    }
  }
  return text.length === at;
}

/** `text` cut to the conversational limit, never inside a surrogate pair. */
export function clip(text: string): string {
  if (text.length <= LIMITS.conversationalText) return text;
  let end = LIMITS.conversationalText;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}
