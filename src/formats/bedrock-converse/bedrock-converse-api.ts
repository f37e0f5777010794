/**
 * Bedrock Converse wire types (JSON form of the Smithy model com.amazonaws.bedrockruntime, the
 * ConverseRequest / ConverseResponse shapes). Unions are objects with exactly one member set;
 * blobs (`bytes`, `redactedContent`) are base64 text, as the JSON protocol sends them.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export type ConversationRole = 'user' | 'assistant' | 'system';

export type StopReasonValue =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'malformed_model_output'
  | 'malformed_tool_use'
  | 'model_context_window_exceeded';

export interface S3Location {
  uri: string;
  bucketOwner?: string;
}
export type MediaSource = { bytes: string } | { s3Location: S3Location };
export type DocumentSource = MediaSource | { text: string } | { content: { text: string }[] };

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type DocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';
export type VideoFormat = 'mkv' | 'mov' | 'mp4' | 'webm' | 'flv' | 'mpeg' | 'mpg' | 'wmv' | 'three_gp';
export type AudioFormat = 'mp3' | 'opus' | 'wav' | 'aac' | 'flac' | 'mp4' | 'ogg' | 'mkv' | 'mka' | 'x-aac' | 'm4a' | 'mpeg' | 'mpga' | 'pcm' | 'webm';

export interface ImageBlock {
  format: ImageFormat;
  source: MediaSource;
}
export interface VideoBlock {
  format: VideoFormat;
  source: MediaSource;
}
export interface AudioBlock {
  format: AudioFormat;
  source: MediaSource;
}
export interface DocumentBlock {
  format?: DocumentFormat;
  name: string;
  source: DocumentSource;
  context?: string;
  citations?: { enabled: boolean };
}
export interface ToolUseBlock {
  toolUseId: string;
  name: string;
  input: JsonValue;
  /** The model lists server_tool_use; responses also carry other values (Nova: tool_use), kept as they come. */
  type?: 'server_tool_use';
}
export type ToolResultContentBlock =
  | { json: JsonValue }
  | { text: string }
  | { image: ImageBlock }
  | { document: DocumentBlock }
  | { video: VideoBlock }
  | { searchResult: SearchResultBlock };
export interface ToolResultBlock {
  toolUseId: string;
  content: ToolResultContentBlock[];
  status?: 'success' | 'error';
  type?: string;
}
export interface SearchResultBlock {
  source: string;
  title: string;
  content: { text: string }[];
  citations?: { enabled: boolean };
}
export interface CachePointBlock {
  type: 'default';
  ttl?: '5m' | '1h';
}
export type ReasoningContentBlock = { reasoningText: { text: string; signature?: string } } | { redactedContent: string };
export type GuardContentBlock =
  | { text: { text: string; qualifiers?: ('grounding_source' | 'query' | 'guard_content')[] } }
  | { image: { format: 'png' | 'jpeg'; source: { bytes: string } } };

interface Range {
  start?: number;
  end?: number;
}
export type CitationLocation =
  | { web: { url?: string; domain?: string } }
  | { documentChar: Range & { documentIndex?: number } }
  | { documentPage: Range & { documentIndex?: number } }
  | { documentChunk: Range & { documentIndex?: number } }
  | { searchResultLocation: Range & { searchResultIndex?: number } };
export interface Citation {
  title?: string;
  source?: string;
  sourceContent?: { text: string }[];
  location?: CitationLocation;
}

export type ContentBlock =
  | { text: string }
  | { image: ImageBlock }
  | { document: DocumentBlock }
  | { video: VideoBlock }
  | { audio: AudioBlock }
  | { toolUse: ToolUseBlock }
  | { toolResult: ToolResultBlock }
  | { guardContent: GuardContentBlock }
  | { cachePoint: CachePointBlock }
  | { reasoningContent: ReasoningContentBlock }
  | { citationsContent: { content?: { text: string }[]; citations?: Citation[] } }
  | { searchResult: SearchResultBlock };

export interface BedrockMessage {
  role: ConversationRole;
  content: ContentBlock[];
}

export type SystemContentBlock = { text: string } | { guardContent: GuardContentBlock } | { cachePoint: CachePointBlock };

export type Tool =
  | { toolSpec: { name: string; description?: string; inputSchema: { json: JsonValue }; strict?: boolean } }
  | { systemTool: { name: string } }
  | { cachePoint: CachePointBlock };
export type ToolChoice = { auto: JsonObject } | { any: JsonObject } | { tool: { name: string } };

export interface BedrockRequest {
  /** A path label on the wire; present in the body form the SDK takes (see request-decode.ts). */
  modelId?: string;
  messages?: BedrockMessage[];
  system?: SystemContentBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: Tool[]; toolChoice?: ToolChoice };
  guardrailConfig?: JsonObject;
  additionalModelRequestFields?: JsonValue;
  promptVariables?: JsonObject;
  additionalModelResponseFieldPaths?: string[];
  requestMetadata?: { [key: string]: string };
  performanceConfig?: { latency?: 'standard' | 'optimized' };
  serviceTier?: { type: string };
  outputConfig?: JsonObject;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

export interface BedrockResponse {
  output: { message: BedrockMessage };
  /** One of the model's values; a newer one is kept as it came (the SDK reads it as a string too). */
  stopReason: StopReasonValue;
  usage: TokenUsage;
  metrics: { latencyMs: number };
  additionalModelResponseFields?: JsonValue;
  trace?: JsonObject;
  performanceConfig?: JsonObject;
  serviceTier?: JsonObject;
}
