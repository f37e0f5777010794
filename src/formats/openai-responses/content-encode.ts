/**
 * Canonical parts -> Responses content parts: `input_*` parts for user / system / developer
 * messages and function_call_output lists, `output_text` / `refusal` for assistant messages.
 * Each part is written in the target's shape or reported as a loss; own residue is written back.
 */
import type { Citation } from '../../model/citation.js';
import type { Ext } from '../../model/ext.js';
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { DocumentPart, ImagePart, Part, TextPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { formatDataUrl } from '../shared/data-url.js';
import { isHintKey, reportForeignExt } from '../shared/residue.js';
// Generic renderings shared with the Chat codec (candidates for src/formats/shared).
import { renderSearchResult } from '../shared/search-result-text.js';
import { CONTENT_TYPES } from './content-decode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { childPath } from '../shared/child-path.js';

const OR = OPENAI_RESPONSES;

export function own(ext: Ext | undefined): JsonObject | undefined {
  return ext?.[OR];
}

export function loss(losses: LossSink, code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
  losses.push({ code, path, message, action });
}

/**
 * Writes own residue back, except hints and `item` (the item-level fields a part carries for the
 * message item it starts, written on the item instead).
 */
export function restoreOwn(out: JsonObject, ext: Ext | undefined): void {
  const rest = own(ext);
  if (rest === undefined) return;
  for (const key in rest) {
    const value = rest[key];
    if (value !== undefined && key !== 'item' && !isHintKey(key) && !(key in out)) out[key] = value;
  }
}

/** A cache hint becomes an explicit prompt cache breakpoint (its TTL is request-wide here). */
function putBreakpoint(out: JsonObject, part: Part, path: Path, losses: LossSink): void {
  if (!part.cache || 'prompt_cache_breakpoint' in out) return;
  out['prompt_cache_breakpoint'] = { mode: 'explicit' };
  if (part.cache.ttl !== undefined) {
    loss(losses, 'cache-control', childPath(path, 'cache', 'ttl'), 'Responses breakpoints take their TTL from prompt_cache_options, not per part', 'approximated');
  }
}

function inputText(text: string): JsonObject {
  return { type: 'input_text', text };
}

function imagePart(part: ImagePart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = part.source;
  const out: JsonObject = { type: 'input_image' };
  if (src.kind === 'base64') out['image_url'] = formatDataUrl(src.mediaType, src.data);
  else if (src.kind === 'url') out['image_url'] = src.url;
  else if (src.kind === 'file-id') out['file_id'] = src.fileId;
  else {
    loss(losses, 'unsupported-source', childPath(path, 'source'), `Responses images cannot reference a ${src.kind} source`);
    return undefined;
  }
  // detail is required by the SDK types; 'auto' is the API default.
  if (part.detail !== undefined) out['detail'] = part.detail;
  else if (own(part.ext)?.['$noDetail'] !== true) out['detail'] = 'auto';
  return out;
}

function documentPart(part: DocumentPart, path: Path, losses: LossSink): JsonObject | undefined {
  const src = part.source;
  if (src.kind === 'text' || src.kind === 'content') {
    const text = src.kind === 'text' ? src.text : src.parts.map((p) => (p.type === 'text' ? p.text : '')).filter((t) => t !== '').join('\n\n');
    loss(losses, 'document-as-text', path, 'Responses files take bytes, ids or URLs: the plain-text document is sent as text', 'approximated');
    return inputText(part.title ? `${part.title}\n\n${text}` : text);
  }
  const out: JsonObject = { type: 'input_file' };
  if (src.kind === 'base64') out['file_data'] = formatDataUrl(src.mediaType, src.data);
  else if (src.kind === 'file-id') out['file_id'] = src.fileId;
  else if (src.kind === 'url') out['file_url'] = src.url;
  else {
    loss(losses, 'unsupported-source', childPath(path, 'source'), `Responses files cannot reference a document by ${src.kind}`);
    return undefined;
  }
  if (part.name !== undefined) out['filename'] = part.name;
  else if (part.title !== undefined) {
    out['filename'] = part.title;
    loss(losses, 'document-title', childPath(path, 'title'), 'the document title is sent as its file name', 'approximated');
  }
  if (part.title !== undefined && part.name !== undefined) loss(losses, 'document-metadata', childPath(path, 'title'), 'Responses files have no title');
  if (part.context !== undefined) loss(losses, 'document-metadata', childPath(path, 'context'), 'Responses files have no context');
  if (part.citations !== undefined) loss(losses, 'document-metadata', childPath(path, 'citations'), 'Responses cannot enable citations on a file');
  return out;
}

/** Text renderings of parts no Responses content part holds. */
export function asText(part: Part, path: Path, losses: LossSink): string | undefined {
  switch (part.type) {
    case 'search-result':
      loss(losses, 'search-result-as-text', path, 'a search result is sent as plain text (title, source, content)', 'approximated');
      return renderSearchResult(part);
    case 'data':
      loss(losses, 'data-as-text', path, 'structured data is sent as JSON text', 'approximated');
      return JSON.stringify(part.data);
    default:
      return undefined;
  }
}

function providerPart(part: Part & { type: 'provider-block' }, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.origin === OR && CONTENT_TYPES.has(String(part.block['type']))) return part.block;
  loss(losses, 'provider-block', path, `${part.origin} block '${String(part.block['type'])}' has no equivalent here in Responses`);
  return undefined;
}

/** One part as an `input_*` content part (user, system, developer, function_call_output). */
export function inputPart(part: Part, path: Path, losses: LossSink): JsonObject | undefined {
  reportForeignExt(part.ext, OR, path, losses);
  if (part.type === 'provider-block') return providerPart(part, path, losses);
  let out: JsonObject | undefined;
  switch (part.type) {
    case 'text':
      if (part.citations && part.citations.length > 0) loss(losses, 'citations', childPath(path, 'citations'), 'Responses input text carries no citations');
      out = inputText(part.text);
      break;
    case 'image':
      out = imagePart(part, path, losses);
      break;
    case 'document':
      out = documentPart(part, path, losses);
      break;
    case 'refusal':
      loss(losses, 'refusal-as-text', path, 'only assistant messages hold refusals: sent as text', 'approximated');
      out = inputText(part.text);
      break;
    default: {
      const text = asText(part, path, losses);
      if (text === undefined) {
        loss(losses, 'unsupported-part', path, `Responses input content cannot hold ${part.type} parts`);
        return undefined;
      }
      out = inputText(text);
    }
  }
  if (out === undefined) return undefined;
  restoreOwn(out, part.ext);
  putBreakpoint(out, part, path, losses);
  return out;
}

function annotation(c: Citation, text: TextPart, path: Path, losses: LossSink): JsonObject | undefined {
  reportForeignExt(c.ext, OR, path, losses);
  if (c.type === 'document' && c.fileId !== undefined && own(c.ext)?.['index'] !== undefined) {
    const a: JsonObject = { type: 'file_citation', file_id: c.fileId, filename: c.documentTitle ?? '' };
    restoreOwn(a, c.ext);
    return a;
  }
  if (c.type !== 'url') {
    loss(losses, 'citations', path, `${c.type} citations have no Responses annotation`);
    return undefined;
  }
  if (c.citedText !== undefined || c.encryptedIndex !== undefined) {
    loss(losses, 'citations', path, 'url_citation keeps url, title and range only (cited text and provider index dropped)', 'approximated');
  }
  if (c.startIndex === undefined || c.endIndex === undefined) {
    loss(losses, 'citations', path, 'a citation without a range is given the whole text part as its range', 'approximated');
  }
  const a: JsonObject = { type: 'url_citation', url: c.url, title: c.title ?? '', start_index: c.startIndex ?? 0, end_index: c.endIndex ?? text.text.length };
  restoreOwn(a, c.ext);
  return a;
}

function outputText(part: TextPart, path: Path, losses: LossSink): JsonObject {
  const hints = own(part.ext);
  if (hints?.['$inputText'] === true) {
    // input_text in assistant history, as the source had it.
    const input: JsonObject = { type: 'input_text', text: part.text };
    if (part.cache) input['prompt_cache_breakpoint'] = { mode: 'explicit' };
    return input;
  }
  const out: JsonObject = { type: 'output_text', text: part.text };
  // Annotations that did not map to citations are residue and written back as they were.
  if (hints?.['annotations'] !== undefined) out['annotations'] = hints['annotations'];
  else if (hints?.['$noAnnotations'] !== true) {
    const annotations: JsonObject[] = [];
    (part.citations ?? []).forEach((c, n) => {
      const a = annotation(c, part, childPath(path, 'citations', n), losses);
      if (a) annotations.push(a);
    });
    out['annotations'] = annotations;
  } else if (part.citations && part.citations.length > 0) {
    loss(losses, 'citations', childPath(path, 'citations'), 'this output_text had no annotations list: citations dropped');
  }
  if (hints?.['$noLogprobs'] !== true && hints?.['logprobs'] === undefined) out['logprobs'] = [];
  return out;
}

/** One part as assistant message content (output_text / refusal), or undefined with a loss. */
export function outputPart(part: Part, path: Path, losses: LossSink): JsonObject | undefined {
  reportForeignExt(part.ext, OR, path, losses);
  if (part.cache && own(part.ext)?.['$inputText'] !== true) loss(losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoints on assistant output');
  let out: JsonObject;
  if (part.type === 'text') out = outputText(part, path, losses);
  else if (part.type === 'refusal') out = { type: 'refusal', refusal: part.text };
  else if (part.type === 'provider-block') return providerPart(part, path, losses);
  else {
    const text = asText(part, path, losses);
    if (text === undefined) {
      loss(losses, 'unsupported-part', path, `assistant messages cannot hold ${part.type} parts`);
      return undefined;
    }
    out = { type: 'output_text', text, annotations: [], logprobs: [] };
  }
  restoreOwn(out, part.ext);
  return out;
}
