/**
 * Responses content parts -> canonical parts. Input has passed the schema, so shapes are known;
 * every field not mapped stays as residue on the part, and a part whose sources cannot be told
 * apart exactly (both image_url and file_id, raw base64 without a media type) is kept whole as
 * a provider block so the way back is exact.
 */
import type { Citation } from '../../model/citation.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Part, TextPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { parseDataUrl } from '../shared/data-url.js';
import { keepResidue, residue, setOwn } from '../shared/residue.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';

const OR = OPENAI_RESPONSES;
const TEXT_KEYS = new Set(['type', 'text', 'prompt_cache_breakpoint']);
const IMAGE_KEYS = new Set(['type', 'image_url', 'file_id', 'detail', 'prompt_cache_breakpoint']);
const FILE_KEYS = new Set(['type', 'file_data', 'file_id', 'file_url', 'filename', 'prompt_cache_breakpoint']);
const OUTPUT_TEXT_KEYS = new Set(['type', 'text', 'annotations', 'logprobs']);
const REFUSAL_KEYS = new Set(['type', 'refusal']);
const URL_CITATION_KEYS = new Set(['type', 'url', 'title', 'start_index', 'end_index']);
const FILE_CITATION_KEYS = new Set(['type', 'file_id', 'filename']);

/** Content part types (as opposed to item types), for provider blocks of either kind. */
export const CONTENT_TYPES: ReadonlySet<string> = new Set(['input_text', 'input_image', 'input_file', 'output_text', 'refusal']);

/** Adds private hints (`$` keys) to a residue object. */
export function withHints(rest: JsonObject | undefined, hints: JsonObject): JsonObject | undefined {
  if (Object.keys(hints).length === 0) return rest;
  return { ...rest, ...hints };
}

/** `{ mode: 'explicit' }` is a cache breakpoint after this part; any other value stays residue. */
function takeBreakpoint(p: JsonObject, part: Part, rest: JsonObject | undefined): JsonObject | undefined {
  const bp = p['prompt_cache_breakpoint'];
  if (bp === undefined) return rest;
  if (isJsonObject(bp) && bp['mode'] === 'explicit' && Object.keys(bp).length === 1) {
    part.cache = { type: 'ephemeral' };
    return rest;
  }
  return { ...rest, prompt_cache_breakpoint: bp };
}

function block(p: JsonObject): Part {
  return { type: 'provider-block', origin: OR, block: p };
}

/** Exactly one of the candidate source keys holds a string; the others absent or null. */
function onlySource(p: JsonObject, keys: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const key of keys) {
    const v = p[key];
    if (typeof v === 'string') {
      if (found !== undefined) return undefined;
      found = key;
    } else if (v !== undefined && v !== null) return undefined;
  }
  return found;
}

function imagePart(p: JsonObject): Part {
  const key = onlySource(p, ['image_url', 'file_id']);
  if (key === undefined) return block(p);
  const value = p[key] as string;
  let source: Source;
  if (key === 'file_id') source = { kind: 'file-id', fileId: value };
  else {
    const parsed = parseDataUrl(value);
    source = parsed ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } : { kind: 'url', url: value };
  }
  const part: Part = { type: 'image', source };
  const hints: JsonObject = {};
  // 'auto' is what the API does without a detail and what the encoder writes for none: the
  // default, not a choice a target without the setting loses (canonical-conventions.md, Media).
  if (typeof p['detail'] === 'string') {
    if (p['detail'] !== 'auto') part.detail = p['detail'];
  } else hints['$noDetail'] = true;
  let rest = residue(p, IMAGE_KEYS);
  if (p['detail'] !== undefined && typeof p['detail'] !== 'string') (rest ??= {})['detail'] = p['detail'];
  const other = key === 'file_id' ? 'image_url' : 'file_id';
  if (p[other] === null) (rest ??= {})[other] = null;
  keepResidue(part, OR, withHints(takeBreakpoint(p, part, rest), hints));
  return part;
}

function filePart(p: JsonObject): Part {
  const key = onlySource(p, ['file_data', 'file_id', 'file_url']);
  if (key === undefined) return block(p);
  const value = p[key] as string;
  let source: Source;
  if (key === 'file_id') source = { kind: 'file-id', fileId: value };
  else if (key === 'file_url') source = { kind: 'url', url: value };
  else {
    const parsed = parseDataUrl(value);
    // Bare base64 has no media type, which is never guessed: keep the part whole.
    if (!parsed) return block(p);
    source = { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data };
  }
  const part: Part = { type: 'document', source };
  if (typeof p['filename'] === 'string') part.name = p['filename'];
  let rest = residue(p, FILE_KEYS);
  if (p['file_id'] === null) (rest ??= {})['file_id'] = null;
  keepResidue(part, OR, takeBreakpoint(p, part, rest));
  return part;
}

/** One user / system / developer content part, or one function_call_output content part. */
export function decodeInputPart(p: JsonObject): Part {
  switch (p['type']) {
    case 'input_text': {
      const part: TextPart = { type: 'text', text: p['text'] as string };
      keepResidue(part, OR, takeBreakpoint(p, part, residue(p, TEXT_KEYS)));
      return part;
    }
    case 'input_image':
      return imagePart(p);
    default:
      return filePart(p);
  }
}

function urlCitation(a: JsonObject): Citation | undefined {
  const { url, title, start_index: start, end_index: end } = a;
  if (typeof url !== 'string' || typeof title !== 'string' || typeof start !== 'number' || typeof end !== 'number') return undefined;
  const c: Citation = { type: 'url', url, title, startIndex: start, endIndex: end };
  keepResidue(c, OR, residue(a, URL_CITATION_KEYS));
  return c;
}

/** file_citation: the file id and name; `index` (a position in the text) stays residue. */
function fileCitation(a: JsonObject): Citation | undefined {
  if (typeof a['file_id'] !== 'string' || typeof a['filename'] !== 'string') return undefined;
  const c: Citation = { type: 'document', fileId: a['file_id'], documentTitle: a['filename'] };
  keepResidue(c, OR, residue(a, FILE_CITATION_KEYS));
  return c;
}

/** Annotations -> citations when every one maps; otherwise undefined (the list stays residue). */
function decodeAnnotations(list: JsonValue[]): Citation[] | undefined {
  const out: Citation[] = [];
  for (const a of list) {
    if (!isJsonObject(a)) return undefined;
    const c = a['type'] === 'url_citation' ? urlCitation(a) : a['type'] === 'file_citation' ? fileCitation(a) : undefined;
    if (c === undefined) return undefined;
    out.push(c);
  }
  return out;
}

/** One assistant content part (output_text, refusal, or input_text in history). */
export function decodeOutputPart(p: JsonObject): Part {
  if (p['type'] === 'refusal') {
    const part: Part = { type: 'refusal', text: p['refusal'] as string };
    keepResidue(part, OR, residue(p, REFUSAL_KEYS));
    return part;
  }
  if (p['type'] === 'input_text') {
    const part = decodeInputPart(p);
    const hints: JsonObject = {};
    const had = part.ext?.[OR];
    for (const key in had) setOwn(hints, key, had[key] as JsonValue);
    hints['$inputText'] = true;
    keepResidue(part, OR, hints);
    return part;
  }
  const part: TextPart = { type: 'text', text: p['text'] as string };
  let rest = residue(p, OUTPUT_TEXT_KEYS);
  const annotations = p['annotations'];
  // Hints set on the residue, a fresh object of this part's own (no spread copy per part).
  if (annotations === undefined) (rest ??= {})['$noAnnotations'] = true;
  else if (Array.isArray(annotations) && annotations.length > 0) {
    const citations = decodeAnnotations(annotations);
    if (citations) part.citations = citations;
    else (rest ??= {})['annotations'] = annotations;
  }
  // The spec requires logprobs; an empty list is what the encoder writes, anything else is residue.
  const logprobs = p['logprobs'];
  if (logprobs === undefined) (rest ??= {})['$noLogprobs'] = true;
  else if (!Array.isArray(logprobs) || logprobs.length > 0) (rest ??= {})['logprobs'] = logprobs;
  keepResidue(part, OR, rest);
  return part;
}
