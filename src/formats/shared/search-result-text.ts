import type { SearchResultPart } from '../../model/part.js';

/** `title (source)` then the text: how a search result reads for a model with no slot for it. */
export function renderSearchResult(part: SearchResultPart): string {
  const head = part.title ? `${part.title} (${part.source})` : part.source;
  const body = part.content.map((t) => t.text).join('\n\n');
  return body === '' ? head : `${head}\n${body}`;
}
