import type { Citation } from '../../model/citation.js';
import type { Ext } from '../../model/ext.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Source } from '../../model/source.js';

/**
 * Whether an ext holds an entry of another origin, even one reportForeignExt says nothing about
 * (private `$` hints, explicit nulls, empty arrays). Such entries are not losses, but a target
 * that cannot carry them must stash under `preserve`, or the way back is not exact.
 */
export function hasForeignExt(ext: Ext | undefined, origin: string): boolean {
  if (ext === undefined) return false;
  for (const key in ext) if (key !== origin && ext[key] !== undefined) return true;
  return false;
}

function citationsForeign(citations: readonly Citation[] | undefined, origin: string): boolean {
  return citations !== undefined && citations.some((c) => hasForeignExt(c.ext, origin));
}

function sourceForeign(source: Source, origin: string): boolean {
  if (hasForeignExt(source.ext, origin)) return true;
  return source.kind === 'content' && partsHaveForeignExt(source.parts, origin);
}

/**
 * Walks the canonical structure only (parts, nested parts, sources, citations), never JSON payloads
 * such as tool arguments or data parts, where a key named `ext` means nothing.
 */
export function partHasForeignExt(part: Part, origin: string): boolean {
  if (hasForeignExt(part.ext, origin)) return true;
  switch (part.type) {
    case 'text':
      return citationsForeign(part.citations, origin);
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
      return sourceForeign(part.source, origin);
    case 'tool-result':
      return partsHaveForeignExt(part.content, origin);
    case 'search-result':
      return partsHaveForeignExt(part.content, origin);
    default:
      return false;
  }
}

export function partsHaveForeignExt(parts: readonly Part[], origin: string): boolean {
  return parts.some((p) => partHasForeignExt(p, origin));
}

/** A message or anything inside it carries another origin's ext. */
export function messageHasForeignExt(message: Message, origin: string): boolean {
  return hasForeignExt(message.ext, origin) || partsHaveForeignExt(message.parts, origin);
}
