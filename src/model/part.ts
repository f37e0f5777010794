import type { CacheHint } from './cache.js';
import type { Citation } from './citation.js';
import type { HasExt } from './ext.js';
import type { FormatId } from './format-id.js';
import type { JsonValue } from './json.js';
import type { Source } from './source.js';

/** Fields every part may carry. */
export interface PartBase extends HasExt {
  /** A prompt-cache breakpoint placed after this part. */
  cache?: CacheHint;
}

export interface TextPart extends PartBase {
  type: 'text';
  text: string;
  citations?: Citation[];
}

export interface ImagePart extends PartBase {
  type: 'image';
  source: Source;
  /** OpenAI image detail: 'auto' | 'low' | 'high'. */
  detail?: string;
}

export interface AudioPart extends PartBase {
  type: 'audio';
  source: Source;
}

export interface VideoPart extends PartBase {
  type: 'video';
  source: Source;
}

export interface DocumentPart extends PartBase {
  type: 'document';
  source: Source;
  /** A file name, where the format has one (OpenAI file.filename, Bedrock document.name). */
  name?: string;
  title?: string;
  context?: string;
  /** Whether the model may cite this document (Anthropic citations.enabled). */
  citations?: boolean;
}

/** A call the model made. `arguments` is parsed JSON; `argumentsJson` keeps the exact text when it arrived as text. */
export interface ToolCallPart extends PartBase {
  type: 'tool-call';
  id: string;
  name: string;
  arguments: JsonValue;
  argumentsJson?: string;
  /** True when the provider ran the tool itself (Anthropic server tools, OpenAI built-in tools). */
  providerExecuted?: boolean;
}

/** The outcome of a call; its content is itself parts (text, images, documents, data ...). */
export interface ToolResultPart extends PartBase {
  type: 'tool-result';
  callId: string;
  /** The called tool's name, where the format carries it or it could be recovered from the call. */
  name?: string;
  content: Part[];
  /** The source gave the content as one plain string rather than a list of blocks. */
  stringContent?: true;
  isError?: boolean;
  providerExecuted?: boolean;
}

/**
 * Model reasoning. `text` is readable thinking; `signature`, `redactedData` and `encryptedContent`
 * are opaque provider state kept byte-exact and valid only for `origin`, the provider family that
 * minted them. Unsigned reasoning is never sent to a provider that verifies it.
 */
export interface ReasoningPart extends PartBase {
  type: 'reasoning';
  origin: FormatId;
  text?: string;
  signature?: string;
  redactedData?: string;
  encryptedContent?: string;
  /** Reasoning summaries (OpenAI Responses). */
  summary?: string[];
  /** Provider item id (OpenAI Responses reasoning item id). */
  id?: string;
}

export interface RefusalPart extends PartBase {
  type: 'refusal';
  text: string;
}

/** A search result given to or returned by the model (Anthropic search_result / web_search_result). */
export interface SearchResultPart extends PartBase {
  type: 'search-result';
  source: string;
  title?: string;
  content: TextPart[];
  /** Opaque provider payload (Anthropic encrypted_content). */
  encryptedContent?: string;
  pageAge?: string;
  citations?: boolean;
}

/** Structured JSON (A2A data parts, provider tool outputs with no better slot). */
export interface DataPart extends PartBase {
  type: 'data';
  data: JsonValue;
}

/**
 * A provider block with no canonical meaning (e.g. Anthropic `compaction`, `container_upload`),
 * kept whole for its own provider and reported as a loss anywhere else.
 */
export interface ProviderBlockPart extends PartBase {
  type: 'provider-block';
  origin: FormatId;
  block: { [key: string]: JsonValue };
}

export type Part =
  | TextPart
  | ImagePart
  | AudioPart
  | VideoPart
  | DocumentPart
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart
  | RefusalPart
  | SearchResultPart
  | DataPart
  | ProviderBlockPart;

export type PartType = Part['type'];
