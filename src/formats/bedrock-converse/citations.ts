/**
 * Bedrock citations (CitationsContentBlock.citations) <-> canonical citations. Bedrock's members
 * are all optional and its location is a union (web, documentChar, documentPage, documentChunk,
 * searchResultLocation); canonical citations hold what maps, and the decoder keeps the original
 * citation in a `$citation` hint so that Bedrock -> canonical -> Bedrock is exact as long as the
 * canonical fields were not changed in between.
 */
import type { Citation } from '../../model/citation.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { reportForeignExt } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { ID, lose, memberOf, own } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

const LOCATIONS: ReadonlySet<string> = new Set(['web', 'documentChar', 'documentPage', 'documentChunk', 'searchResultLocation']);
const UNITS = { documentChar: 'char', documentPage: 'page', documentChunk: 'block' } as const;
const BY_UNIT = { char: 'documentChar', page: 'documentPage', block: 'documentChunk' } as const;

const num = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export function decodeCitation(c: JsonObject): Citation {
  const cited = citedText(c['sourceContent']);
  const title = str(c['title']);
  const loc = isJsonObject(c['location']) ? c['location'] : undefined;
  const kind = loc ? memberOf(loc, LOCATIONS) : undefined;
  const inner = kind && loc && isJsonObject(loc[kind]) ? loc[kind] : {};
  let out: Citation;
  if (kind === 'web') {
    out = { type: 'url', url: str(inner['url']) ?? '' };
    if (title !== undefined) out.title = title;
  } else if (kind === 'searchResultLocation') {
    out = { type: 'search-result', source: str(c['source']) ?? '' };
    if (title !== undefined) out.title = title;
    const index = num(inner['searchResultIndex']);
    const start = num(inner['start']);
    const end = num(inner['end']);
    if (index !== undefined) out.searchResultIndex = index;
    if (start !== undefined) out.startBlockIndex = start;
    if (end !== undefined) out.endBlockIndex = end;
  } else {
    out = { type: 'document' };
    if (title !== undefined) out.documentTitle = title;
    const index = num(inner['documentIndex']);
    if (index !== undefined) out.documentIndex = index;
    const start = num(inner['start']);
    const end = num(inner['end']);
    if (kind !== undefined && start !== undefined && end !== undefined) out.location = { unit: UNITS[kind as keyof typeof UNITS], start, end };
  }
  if (cited !== undefined) out.citedText = cited;
  if (!sameValue(build(out, undefined, [], { push: () => undefined }), c)) out.ext = { [ID]: { citation: c } };
  return out;
}

function citedText(list: JsonValue | undefined): string | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  let text = '';
  for (const item of list) {
    if (!isJsonObject(item) || typeof item['text'] !== 'string') return undefined;
    text += item['text'];
  }
  return text;
}

/** The canonical fields only, to tell whether a citation changed since it was decoded. */
function fields(c: Citation): Omit<Citation, 'ext'> {
  const { ext: _ext, ...rest } = c;
  return rest;
}

export function encodeCitation(c: Citation, path: Path, losses: LossSink): JsonObject {
  const original = own(c.ext)?.['citation'];
  reportForeignExt(c.ext, ID, path, losses);
  return build(c, original, path, losses);
}

function build(c: Citation, original: JsonValue | undefined, path: Path, losses: LossSink): JsonObject {
  if (isJsonObject(original) && sameValue(fields(decodeCitation(original)), fields(c))) return original;
  const out: JsonObject = {};
  if (c.citedText !== undefined) out['sourceContent'] = [{ text: c.citedText }];
  switch (c.type) {
    case 'url':
      if (c.title !== undefined) out['title'] = c.title;
      out['location'] = { web: { url: c.url } };
      if (c.startIndex !== undefined || c.endIndex !== undefined) lose(losses, 'citation-offsets', path, 'Bedrock web citations have no character offsets');
      if (c.encryptedIndex !== undefined) lose(losses, 'unsupported-field', childPath(path, 'encryptedIndex'), 'Bedrock citations have no encrypted index');
      break;
    case 'document': {
      if (c.documentTitle !== undefined) out['title'] = c.documentTitle;
      const inner: JsonObject = {};
      if (c.documentIndex !== undefined) inner['documentIndex'] = c.documentIndex;
      if (c.location) {
        inner['start'] = c.location.start;
        inner['end'] = c.location.end;
        out['location'] = { [BY_UNIT[c.location.unit]]: inner };
      } else if (c.documentIndex !== undefined) out['location'] = { documentChar: inner };
      if (c.fileId !== undefined) lose(losses, 'unsupported-field', childPath(path, 'fileId'), 'Bedrock citations have no file id');
      break;
    }
    case 'search-result': {
      out['source'] = c.source;
      if (c.title !== undefined) out['title'] = c.title;
      const inner: JsonObject = {};
      if (c.searchResultIndex !== undefined) inner['searchResultIndex'] = c.searchResultIndex;
      if (c.startBlockIndex !== undefined) inner['start'] = c.startBlockIndex;
      if (c.endBlockIndex !== undefined) inner['end'] = c.endBlockIndex;
      out['location'] = { searchResultLocation: inner };
      break;
    }
  }
  return out;
}
