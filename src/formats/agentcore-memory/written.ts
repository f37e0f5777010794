/**
 * Events this codec just encoded, remembered with the messages they were encoded from, so the
 * read-back check under `preserve` (mapping.ts decodesBack) need not encode them a second time:
 * reading such an event gives messages; when those are, field for field, the messages it was
 * encoded from, encoding them again (writesBack) gives the same event, as the encoder reads nothing
 * but its input. The check is strict (key order, prototypes, undefined, -0), so "the same input"
 * means what the encoder sees, not what a JSON reader would; anything else takes the full check.
 * The check also reads each blob from the value its text was written from (writtenEvent) instead
 * of parsing the text again, where that text parses back to exactly that value.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { AGENTCORE, BLOB, LIMITS } from './agentcore-memory-api.js';
import type { CallNames } from './call-names.js';
import { hasPlainArgumentsJson } from '../shared/plain-arguments.js';
import { own } from './content.js';
import { encodeEvent, textBlobs } from './event-encode.js';

export interface Written {
  /** The messages encoded into the event: one, or a run of joined ones merged into it. */
  messages: readonly Message[];
  /** Each message's call names (At.names), which named its results. */
  names: readonly (CallNames | undefined)[];
  metadataEntries: number;
  preserve: boolean;
  /**
   * By payload index, the value each text blob was written from, when that text parses back to
   * exactly it (isJsonClean): the read-back check reads it instead of parsing the text again.
   */
  blobs?: readonly (JsonValue | undefined)[];
}

/**
 * Whether `JSON.parse(JSON.stringify(v))` is `v` again key for key: plain objects and arrays
 * (no holes) of strings, booleans, null and finite numbers (not -0), no undefined.
 */
export function isJsonClean(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      const proto = Object.getPrototypeOf(v);
      if (Array.isArray(v)) {
        if (proto !== Array.prototype) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !isJsonClean(v[i])) return false;
        return true;
      }
      if (proto !== Object.prototype) return false;
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!isJsonClean(o[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Whether `a` and `b` are the same input to an encoder: plain objects and arrays with the same keys in the same order, and the same primitives. */
export function sameInput(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const proto = Object.getPrototypeOf(a);
  // Plain objects and arrays only: a Date or a class instance has more to it than its own keys.
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && proto !== Array.prototype)) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    if (a.length !== list.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in list) || !sameInput(a[i], list[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameInput(ra[k], rb[k])) return false;
  }
  return true;
}

/**
 * True when the read-back check would surely find that `read` writes back as the event it was read
 * from: it was encoded here, as the check encodes (preserve, AgentCore's own metadata limit), from
 * exactly these messages, or with only what the encoder wrote the same either way told apart
 * (samePart). False says nothing: the caller makes the full check.
 */
export function writesBackAsWritten(read: readonly Message[], written: Written | undefined): boolean {
  if (written === undefined || !written.preserve || written.metadataEntries !== LIMITS.metadataEntries) return false;
  const from = written.messages;
  if (read.length !== from.length) return false;
  for (let i = 0; i < read.length; i++) if (!sameMessage(read[i] as Message, from[i] as Message, written.names[i])) return false;
  return true;
}

function sameMessage(read: Message, from: Message, names: CallNames | undefined): boolean {
  if (sameInput(read, from)) return true;
  const ka = Object.keys(read);
  const kb = Object.keys(from);
  if (ka.length !== kb.length || Object.getPrototypeOf(read) !== Object.prototype || Object.getPrototypeOf(from) !== Object.prototype) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as keyof Message;
    if (k !== kb[i]) return false;
    if (k !== 'parts' ? !sameInput(read[k], from[k]) : !sameParts(read.parts, from.parts, names)) return false;
  }
  return true;
}

function sameParts(read: readonly Part[], from: readonly Part[], names: CallNames | undefined): boolean {
  if (!Array.isArray(read) || !Array.isArray(from) || read.length !== from.length) return false;
  for (let j = 0; j < read.length; j++) if (!samePart(read[j] as Part, from[j] as Part, names)) return false;
  return true;
}

/**
 * The two differences a read-back part may have from the part written that encodeCall and
 * encodeResult (content.ts) write the same, as both build their entry field by field (key order
 * of the part means nothing to them): a call's argumentsJson that is JSON.stringify of its
 * arguments (not written, so not read), and a result without a name that was written with the
 * name of its call (`names`) as the last key (read as that name and a `$nameLast` hint).
 */
function samePart(read: Part, from: Part, names: CallNames | undefined): boolean {
  if (sameInput(read, from)) return true;
  if (read.type === 'tool-call' && from.type === 'tool-call') {
    return hasPlainArgumentsJson(from) && !Object.hasOwn(read, 'argumentsJson') && sameFieldsBut(read, from, 'argumentsJson');
  }
  if (read.type === 'tool-result' && from.type === 'tool-result') {
    return from.name === undefined && from.ext === undefined && read.name !== undefined && read.name === names?.get(from.callId) && nameLastOnly(read.ext) && sameFieldsBut(read, from, 'name', 'ext');
  }
  return false;
}

/** The same fields in any order, `skip` left out of both. */
function sameFieldsBut(read: object, from: object, ...skip: string[]): boolean {
  const a = read as Record<string, unknown>;
  const b = from as Record<string, unknown>;
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  let n = 0;
  for (const k of Object.keys(b)) {
    if (skip.includes(k)) continue;
    n++;
    if (!Object.hasOwn(a, k) || !sameInput(a[k], b[k])) return false;
  }
  for (const k of Object.keys(a)) if (!skip.includes(k)) n--;
  return n === 0;
}

function nameLastOnly(ext: unknown): boolean {
  if (typeof ext !== 'object' || ext === null || Object.getPrototypeOf(ext) !== Object.prototype) return false;
  const keys = Object.keys(ext);
  const mine = (ext as Record<string, unknown>)[AGENTCORE];
  if (keys.length !== 1 || keys[0] !== AGENTCORE || typeof mine !== 'object' || mine === null || Object.getPrototypeOf(mine) !== Object.prototype) return false;
  const hints = Object.keys(mine);
  return hints.length === 1 && hints[0] === '$nameLast' && (mine as Record<string, unknown>)['$nameLast'] === true;
}

/**
 * encodeEvent with text blobs, as encodeRun asks for, with the value of each text blob kept at
 * `objects[k]` (when it parses back to exactly that: isJsonClean) for the read-back check.
 */
export function writtenEvent(m: Message, path: Path, names: CallNames | undefined, losses: LossSink, info: LossSink, preserve: boolean, metadataEntries: number, objects: (JsonValue | undefined)[][], k: number): JsonObject | undefined {
  if (own(m.ext)?.['$objectBlobs'] === true) return encodeEvent(m, path, losses, info, preserve, metadataEntries, 'text', names);
  const event = encodeEvent(m, path, losses, info, preserve, metadataEntries, 'objects', names);
  if (event === undefined) return undefined;
  const payload = event['payload'] as JsonObject[];
  const kept: (JsonValue | undefined)[] = [];
  for (let j = 0; j < payload.length; j++) {
    const blob = (payload[j] as JsonObject)['blob'];
    kept.push(isJsonObject(blob) && blob['blobType'] !== BLOB.payloads && isJsonClean(blob) ? blob : undefined);
  }
  // What encodeEvent does with 'text' (the same key order: payload is already in place).
  event['payload'] = payload.map(textBlobs);
  objects[k] = kept;
  return event;
}
