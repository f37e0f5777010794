/**
 * Streamed `url_citation` annotations (search models send them in a delta of the last chunks)
 * <-> canonical citations. Chat offsets count from the start of the choice's whole content;
 * canonical ones from the start of the text block, which begins at `blockStart` in that content.
 */
import type { Citation, UrlCitation } from '../../model/citation.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import { keepResidue, residue, restoreResidue } from '../shared/residue.js';
import { OPENAI_CHAT } from './openai-chat-api.js';

const ANNOTATION_KEYS = new Set(['type', 'url_citation']);
const URL_CITATION_KEYS = new Set(['url', 'title', 'start_index', 'end_index']);

function isUrlCitation(a: JsonValue): a is JsonObject {
  if (!isJsonObject(a) || a['type'] !== 'url_citation' || !isJsonObject(a['url_citation'])) return false;
  const u = a['url_citation'];
  return typeof u['url'] === 'string' && Number.isInteger(u['start_index']) && Number.isInteger(u['end_index']);
}

/** The citations of a delta's annotations, or undefined when one of them is not a url_citation. */
export function annotationCitations(list: readonly JsonValue[], blockStart: number): Citation[] | undefined {
  if (!list.every(isUrlCitation)) return undefined;
  return list.map((a) => {
    const u = (a as JsonObject)['url_citation'] as JsonObject;
    const c: UrlCitation = {
      type: 'url',
      url: u['url'] as string,
      startIndex: (u['start_index'] as number) - blockStart,
      endIndex: (u['end_index'] as number) - blockStart,
    };
    if (typeof u['title'] === 'string') c.title = u['title'];
    let rest = residue(a as JsonObject, ANNOTATION_KEYS);
    const inner = residue(u, URL_CITATION_KEYS);
    if (inner) (rest ??= {})['url_citation'] = inner;
    keepResidue(c, OPENAI_CHAT, rest);
    return c;
  });
}

/** A canonical url citation of a block starting at `blockStart` (block `length` long) as an annotation. */
export function citationAnnotation(c: UrlCitation, blockStart: number, length: number): JsonObject {
  const u: JsonObject = {
    url: c.url,
    title: c.title ?? '',
    start_index: blockStart + (c.startIndex ?? 0),
    end_index: blockStart + (c.endIndex ?? length),
  };
  const own = c.ext?.[OPENAI_CHAT];
  const inner = own?.['url_citation'];
  if (isJsonObject(inner)) for (const key in inner) if (!(key in u)) u[key] = inner[key] as JsonValue;
  const a: JsonObject = { type: 'url_citation', url_citation: u };
  restoreResidue(a, c.ext, OPENAI_CHAT);
  return a;
}
