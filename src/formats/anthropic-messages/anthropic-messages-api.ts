/**
 * Anthropic Messages wire types (POST /v1/messages), written from the API reference and the real
 * captures. Self-contained on purpose: the published types must not depend on the SDK, which is
 * only a dev dependency; test/formats/anthropic-messages/sdk-types.test.ts checks they fit it.
 * Blocks interlingua keeps whole (server tool results, compaction ...) are typed loosely.
 */

export type JsonLike = string | number | boolean | null | JsonLike[] | { [key: string]: JsonLike };

export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface AnthropicCitationCharLocation {
  type: 'char_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_char_index: number;
  end_char_index: number;
  file_id?: string | null;
}
export interface AnthropicCitationPageLocation {
  type: 'page_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_page_number: number;
  end_page_number: number;
  file_id?: string | null;
}
export interface AnthropicCitationContentBlockLocation {
  type: 'content_block_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_block_index: number;
  end_block_index: number;
  file_id?: string | null;
}
export interface AnthropicCitationWebSearchResultLocation {
  type: 'web_search_result_location';
  cited_text: string;
  encrypted_index: string;
  title: string | null;
  url: string;
}
export interface AnthropicCitationSearchResultLocation {
  type: 'search_result_location';
  cited_text: string;
  search_result_index: number;
  source: string;
  title: string | null;
  start_block_index: number;
  end_block_index: number;
}
export type AnthropicCitation =
  | AnthropicCitationCharLocation
  | AnthropicCitationPageLocation
  | AnthropicCitationContentBlockLocation
  | AnthropicCitationWebSearchResultLocation
  | AnthropicCitationSearchResultLocation;

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  citations?: AnthropicCitation[] | null;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicBase64Source {
  type: 'base64';
  media_type: string;
  data: string;
}
export interface AnthropicUrlSource {
  type: 'url';
  url: string;
}
export interface AnthropicFileSource {
  type: 'file';
  file_id: string;
}
export interface AnthropicPlainTextSource {
  type: 'text';
  media_type: 'text/plain';
  data: string;
}
export interface AnthropicContentSource {
  type: 'content';
  content: string | (AnthropicTextBlock | AnthropicImageBlock)[];
}

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicBase64Source | AnthropicUrlSource | AnthropicFileSource;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicDocumentBlock {
  type: 'document';
  source: AnthropicBase64Source | AnthropicPlainTextSource | AnthropicContentSource | AnthropicUrlSource | AnthropicFileSource;
  title?: string | null;
  context?: string | null;
  citations?: { enabled?: boolean } | null;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicSearchResultBlock {
  type: 'search_result';
  source: string;
  title: string;
  content: AnthropicTextBlock[];
  citations?: { enabled?: boolean };
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: { [key: string]: JsonLike };
  cache_control?: AnthropicCacheControl | null;
}

/** A server tool call (web_search, web_fetch, code_execution ...). */
export interface AnthropicServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: { [key: string]: JsonLike };
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicMcpToolUseBlock {
  type: 'mcp_tool_use';
  id: string;
  name: string;
  server_name: string;
  input: { [key: string]: JsonLike };
  cache_control?: AnthropicCacheControl | null;
}

export type AnthropicToolResultContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicSearchResultBlock
  | AnthropicOpaqueBlock;

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicToolResultContentBlock[];
  is_error?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicMcpToolResultBlock {
  type: 'mcp_tool_result';
  tool_use_id: string;
  content?: string | AnthropicTextBlock[];
  is_error?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicWebSearchResult {
  type: 'web_search_result';
  url: string;
  title: string;
  encrypted_content: string;
  page_age?: string | null;
}

export interface AnthropicWebSearchToolResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: AnthropicWebSearchResult[] | { type: 'web_search_tool_result_error'; error_code: string };
  cache_control?: AnthropicCacheControl | null;
}

/** The result blocks of other server tools, kept as their JSON `content`. */
export const SERVER_RESULT_TYPES = [
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'advisor_tool_result',
] as const;
export type ServerResultType = (typeof SERVER_RESULT_TYPES)[number];

export interface AnthropicServerToolResultBlock {
  type: ServerResultType;
  tool_use_id: string;
  content: JsonLike;
  cache_control?: AnthropicCacheControl | null;
}

/** Blocks with no canonical meaning, carried whole as provider blocks. */
export const OPAQUE_TYPES = [
  'container_upload',
  'compaction',
  'fallback',
  'mcp_tool_listing',
  'tool_addition',
  'tool_removal',
  'tool_reference',
  'browser_state',
] as const;
export type OpaqueType = (typeof OPAQUE_TYPES)[number];

export interface AnthropicOpaqueBlock {
  type: OpaqueType;
  [key: string]: JsonLike | undefined;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicSearchResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerToolUseBlock
  | AnthropicMcpToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicMcpToolResultBlock
  | AnthropicWebSearchToolResultBlock
  | AnthropicServerToolResultBlock
  | AnthropicOpaqueBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

export interface AnthropicCustomTool {
  type?: 'custom' | null;
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  strict?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

/** Server and versioned client tools (web_search_20250305, bash_20250124 ...), kept whole. */
export interface AnthropicTypedTool {
  type: string;
  name: string;
  cache_control?: AnthropicCacheControl | null;
  [key: string]: unknown;
}

export type AnthropicTool = AnthropicCustomTool | AnthropicTypedTool;

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type AnthropicThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' | null }
  | { type: 'disabled' }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' | null };

export interface AnthropicJsonOutputFormat {
  type: 'json_schema';
  schema: { [key: string]: unknown };
}

export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface AnthropicOutputConfig {
  effort?: AnthropicEffort | null;
  format?: AnthropicJsonOutputFormat | null;
}

export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | AnthropicTextBlock[];
  metadata?: { user_id?: string | null };
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stream?: boolean;
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinkingConfig;
  output_config?: AnthropicOutputConfig;
  /** The older structured-output field (beta structured-outputs-2025-11-13). */
  output_format?: AnthropicJsonOutputFormat | null;
  service_tier?: 'auto' | 'standard_only';
  container?: string | null;
  [key: string]: unknown;
}

export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  | 'compaction';

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number } | null;
  server_tool_use?: { web_search_requests: number; web_fetch_requests?: number } | null;
  service_tier?: 'standard' | 'priority' | 'batch' | null;
  [key: string]: unknown;
}

export type AnthropicResponseBlock = AnthropicContentBlock;

export interface AnthropicResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicResponseBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  [key: string]: unknown;
}
