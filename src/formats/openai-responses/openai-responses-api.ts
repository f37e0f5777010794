/**
 * OpenAI Responses wire types (POST /v1/responses), named as in the OpenAPI spec. They describe
 * what the encoder writes for the fields it maps; the decoder reads raw JSON checked by
 * `schema.ts`. Every object may carry fields not listed here (they travel as residue), and
 * built-in tool items and tools travel whole as `OpaqueItem` / `OpaqueTool`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export const OPENAI_RESPONSES = 'openai-responses' as const;

export interface PromptCacheBreakpoint {
  mode: 'explicit';
}

export interface InputText {
  type: 'input_text';
  text: string;
  prompt_cache_breakpoint?: PromptCacheBreakpoint;
}
export interface InputImage {
  type: 'input_image';
  detail: 'low' | 'high' | 'auto' | 'original';
  image_url?: string | null;
  file_id?: string | null;
  prompt_cache_breakpoint?: PromptCacheBreakpoint;
}
export interface InputFile {
  type: 'input_file';
  file_data?: string;
  file_id?: string | null;
  file_url?: string;
  filename?: string;
  prompt_cache_breakpoint?: PromptCacheBreakpoint;
}
export type InputContent = InputText | InputImage | InputFile;

export interface UrlCitationAnnotation {
  type: 'url_citation';
  url: string;
  title: string;
  start_index: number;
  end_index: number;
}
export interface FileCitationAnnotation {
  type: 'file_citation';
  file_id: string;
  filename: string;
  index: number;
}
export type Annotation = UrlCitationAnnotation | FileCitationAnnotation;

export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: Annotation[];
  /** Written empty; a provider's logprobs travel as residue. */
  logprobs?: [];
}
export interface Refusal {
  type: 'refusal';
  refusal: string;
}
export type OutputContent = OutputText | Refusal;

/** EasyInputMessage: user, system, developer or (history) assistant input. */
export interface InputMessage {
  type?: 'message';
  role: 'user' | 'system' | 'developer';
  content: string | InputContent[];
}
/** An assistant message given back as input (history). */
export interface AssistantInputMessage {
  type?: 'message';
  role: 'assistant';
  content: string | OutputContent[];
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
  phase?: 'commentary' | 'final_answer' | null;
}
/** An assistant message in a response's `output`. */
export interface OutputMessage {
  type: 'message';
  role: 'assistant';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  content: OutputContent[];
}

export interface FunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | InputContent[];
}
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string | null;
  content?: { type: 'reasoning_text'; text: string }[];
}
export interface ItemReference {
  type: 'item_reference';
  id: string;
}

/** The items this codec maps; every other item type is carried whole. */
export type MappedInputItem = InputMessage | AssistantInputMessage | FunctionCallItem | FunctionCallOutputItem | ReasoningItem | ItemReference;
export type OpaqueItem = JsonObject & { type: string };
export type InputItem = MappedInputItem | OpaqueItem;

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: { [key: string]: JsonValue } | null;
  strict: boolean | null;
}
/** Built-in tools (web_search, file_search, mcp, custom ...), carried whole. */
export type OpaqueTool = JsonObject & { type: string };

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export type TextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: { [key: string]: JsonValue }; description?: string; strict?: boolean | null };

export type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** The request fields this codec maps (the rest is residue). */
export interface MappedRequest {
  model?: string;
  instructions?: string;
  input?: string | MappedInputItem[];
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  text?: { format?: TextFormat };
  reasoning?: { effort?: Effort };
  user?: string;
  safety_identifier?: string;
  metadata?: { [key: string]: string };
  stream?: boolean;
}
export interface ResponsesRequest extends Omit<MappedRequest, 'input' | 'tools'> {
  input?: string | InputItem[];
  tools?: (FunctionTool | OpaqueTool)[];
}

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'cancelled' | 'queued' | 'incomplete';

/** The response fields this codec maps or supplies (the rest is residue). */
export interface MappedResponse {
  id: string;
  object: 'response';
  created_at: number;
  model: string;
  status: ResponseStatus;
  incomplete_details: { reason?: 'max_output_tokens' | 'content_filter' } | null;
  output: (OutputMessage | ReasoningItem | FunctionCallItem)[];
  usage?: ResponseUsage;
  /** Echoes of the request the spec requires; filled with neutral values when unknown. */
  error: JsonObject | null;
  instructions: string | null;
  tools: (FunctionTool | OpaqueTool)[];
  tool_choice: ToolChoice | JsonObject;
  parallel_tool_calls: boolean;
  metadata: { [key: string]: string } | null;
  temperature: number | null;
  top_p: number | null;
}
export interface ResponsesResponse extends Omit<MappedResponse, 'output'> {
  output: (MappedResponse['output'][number] | OpaqueItem)[];
}
