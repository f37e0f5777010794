import type { HasExt } from './ext.js';

/** A reference from generated text to where it came from. Offsets are those of the source format. */
export type Citation = UrlCitation | DocumentCitation | SearchResultCitation;

export interface UrlCitation extends HasExt {
  type: 'url';
  url: string;
  title?: string;
  citedText?: string;
  /** Character offsets into the cited text part, when the format gives them (OpenAI annotations). */
  startIndex?: number;
  endIndex?: number;
  /** Opaque provider reference (Anthropic web_search_result_location.encrypted_index). */
  encryptedIndex?: string;
}

export interface DocumentCitation extends HasExt {
  type: 'document';
  citedText?: string;
  documentIndex?: number;
  documentTitle?: string;
  fileId?: string;
  /** char: character range; page: page range; block: content-block range. End is exclusive. */
  location?: { unit: 'char' | 'page' | 'block'; start: number; end: number };
}

export interface SearchResultCitation extends HasExt {
  type: 'search-result';
  source: string;
  title?: string;
  citedText?: string;
  searchResultIndex?: number;
  startBlockIndex?: number;
  endBlockIndex?: number;
}
