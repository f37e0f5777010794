/**
 * OpenAI Chat Completions wire types (POST /v1/chat/completions), as the OpenAPI spec names them.
 * They describe what the encoder writes; the decoder reads raw JSON checked by `schema.ts`, which
 * is looser where real OpenAI-compatible providers deviate (e.g. tool calls without `type`).
 * Every object may carry fields not listed here: they travel as residue.
 */
import type { JsonObject } from '../../model/json.js';

export const OPENAI_CHAT = 'openai-chat' as const;

export interface TextContentPart {
  type: 'text';
  text: string;
}
export interface ImageContentPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
export interface AudioContentPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}
export interface FileContentPart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}
export interface RefusalContentPart {
  type: 'refusal';
  refusal: string;
}
export type UserContentPart = TextContentPart | ImageContentPart | AudioContentPart | FileContentPart;
export type AssistantContentPart = TextContentPart | RefusalContentPart;

export interface FunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export interface CustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}
export type ToolCall = FunctionToolCall | CustomToolCall;

export interface SystemMessage {
  role: 'system';
  content: string | TextContentPart[];
  name?: string;
}
export interface DeveloperMessage {
  role: 'developer';
  content: string | TextContentPart[];
  name?: string;
}
export interface UserMessage {
  role: 'user';
  content: string | UserContentPart[];
  name?: string;
}
export interface AssistantMessage {
  role: 'assistant';
  content?: string | AssistantContentPart[] | null;
  refusal?: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  /** Deprecated single function call. */
  function_call?: { name: string; arguments: string } | null;
  audio?: { id: string } | null;
  /** Not OpenAI: DeepSeek / xAI / vLLM-style reasoning text on compatible providers. */
  reasoning_content?: string | null;
}
export interface ToolMessage {
  role: 'tool';
  content: string | TextContentPart[];
  tool_call_id: string;
}
/** Deprecated answer to a `function_call`. */
export interface FunctionMessage {
  role: 'function';
  content: string | null;
  name: string;
}
export type ChatMessage = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage | FunctionMessage;

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean | null };
}
export interface CustomTool {
  type: 'custom';
  custom: {
    name: string;
    description?: string;
    format?: { type: 'text' } | { type: 'grammar'; grammar: { definition: string; syntax: 'lark' | 'regex' } };
  };
}
export type ChatTool = FunctionTool | CustomTool;

export type ToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | { type: 'custom'; custom: { name: string } }
  | { type: 'allowed_tools'; allowed_tools: { mode: 'auto' | 'required'; tools: JsonObject[] } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema?: JsonObject; strict?: boolean | null } };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  max_completion_tokens?: number | null;
  /** Deprecated; still the only cap many compatible providers accept. */
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  response_format?: ResponseFormat;
  reasoning_effort?: ReasoningEffort | null;
  user?: string;
  n?: number | null;
  stream?: boolean | null;
  metadata?: { [key: string]: string } | null;
  [key: string]: unknown;
}

export interface UrlCitationAnnotation {
  type: 'url_citation';
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

export interface ChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  tool_calls?: ToolCall[];
  annotations?: UrlCitationAnnotation[];
  function_call?: { name: string; arguments: string };
  audio?: JsonObject | null;
  reasoning_content?: string | null;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface ChatChoice {
  index: number;
  message: ChatResponseMessage;
  finish_reason: FinishReason;
  logprobs: JsonObject | null;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number };
}

export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: ChatUsage;
  system_fingerprint?: string;
  service_tier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority' | null;
}
