/**
 * The commonest blob contents told valid without zod (part-schema.ts), which cost about a tenth of
 * reading events: plain text parts, images and other media with a base64 or URL source, reasoning
 * payloads of strings. Each check answers true only where the strict schema surely accepts the
 * value (known keys of plain objects, each of its type); anything else, ext and cache included,
 * takes the schema, so what is read and what is reported stay the same.
 */
import { FORMAT_IDS } from '../../model/format-id.js';
import { plainObject } from '../shared/fast-guards.js';

const FORMATS: ReadonlySet<string> = new Set(FORMAT_IDS);


/** Whether `v` is a plain object whose keys are all `required` and `optional` ones, each a string, with every `required` one there. */
function strings(v: unknown, required: readonly string[], optional: readonly string[]): boolean {
  if (!plainObject(v)) return false;
  let n = 0;
  for (const k of Object.keys(v)) {
    if (typeof v[k] !== 'string') return false;
    if (required.includes(k)) n++;
    else if (!optional.includes(k)) return false;
  }
  return n === required.length;
}

/** SourceSchema's base64 and url members, without ext. */
function plainSource(v: unknown): boolean {
  if (!plainObject(v)) return false;
  if (v['kind'] === 'base64') return strings(v, ['kind', 'mediaType', 'data'], []);
  if (v['kind'] === 'url') return strings(v, ['kind', 'url'], ['mediaType']);
  return false;
}

/** Whether STRICT_PART[type] surely accepts `body` (its residue keys already set aside). */
export function surelyValidPart(type: string, body: Record<string, unknown>): boolean {
  if (!plainObject(body) || body['type'] !== type) return false;
  switch (type) {
    case 'text':
    case 'refusal':
      return strings(body, ['type', 'text'], []);
    case 'image':
    case 'audio':
    case 'video': {
      let n = 0;
      for (const k of Object.keys(body)) {
        if (k === 'type') n++;
        else if (k === 'source') {
          if (!plainSource(body[k])) return false;
          n++;
        } else if (!(k === 'detail' && type === 'image' && typeof body[k] === 'string')) return false;
      }
      return n === 2;
    }
    default:
      return false;
  }
}

const REASONING_STRINGS: readonly string[] = ['text', 'signature', 'redactedData', 'encryptedContent', 'id'];

/** Whether ReasoningPayloadSchema surely accepts `v` (no ext or cache). */
export function surelyReasoningPayload(v: unknown): boolean {
  if (!plainObject(v)) return false;
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (REASONING_STRINGS.includes(k)) {
      if (typeof x !== 'string') return false;
    } else if (k === 'summary') {
      if (!Array.isArray(x)) return false;
      for (let i = 0; i < x.length; i++) if (typeof x[i] !== 'string') return false;
    } else return false;
  }
  return true;
}

/** Whether FormatIdSchema accepts `v`. */
export const isFormatId = (v: unknown): v is (typeof FORMAT_IDS)[number] => typeof v === 'string' && FORMATS.has(v);
