import type { HasExt } from './ext.js';
import type { JsonObject } from './json.js';
import type { Message } from './message.js';
import type { Tool, ToolChoice } from './tool.js';

export type ResponseFormat =
  | { type: 'text' }
  /** Any JSON object (OpenAI json_object). */
  | { type: 'json' }
  | { type: 'json-schema'; schema: JsonObject; name?: string; description?: string; strict?: boolean };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ReasoningConfig {
  /** false: reasoning explicitly off. */
  enabled?: boolean;
  /** 'adaptive': the model decides how much to think (Anthropic thinking.type adaptive). */
  mode?: 'adaptive';
  effort?: ReasoningEffort;
  budgetTokens?: number;
}

/**
 * A request to generate the next assistant turn. System and developer instructions are messages
 * (role 'system' / 'developer') so their position is kept for formats that allow them anywhere.
 */
export interface Request extends HasExt {
  model?: string;
  messages: Message[];
  tools?: Tool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  /** End-user id for abuse monitoring (OpenAI user / safety_identifier, Anthropic metadata.user_id). */
  user?: string;
  /** Number of alternative completions wanted (OpenAI n, Gemini candidateCount). */
  candidateCount?: number;
  stream?: boolean;
  /** Free key/value metadata (OpenAI metadata). */
  metadata?: { [key: string]: string };
}

export type RequestExtra = Omit<Request, 'messages'>;

export type { JsonObject };
