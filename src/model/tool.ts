import type { CacheHint } from './cache.js';
import type { HasExt } from './ext.js';
import type { FormatId } from './format-id.js';
import type { JsonObject } from './json.js';

/** A function the caller runs. `parameters` is a JSON Schema object. */
export interface FunctionTool extends HasExt {
  type: 'function';
  name: string;
  description?: string;
  parameters?: JsonObject;
  strict?: boolean;
  cache?: CacheHint;
}

/**
 * A tool the provider runs itself (Anthropic web_search_20250305, OpenAI web_search ...), kept
 * whole for the provider family that defines it; elsewhere it is a loss.
 */
export interface ProviderTool extends HasExt {
  type: 'provider';
  origin: FormatId;
  name?: string;
  config: JsonObject;
  cache?: CacheHint;
}

export type Tool = FunctionTool | ProviderTool;

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  /** The model must call some tool (Anthropic `any`, OpenAI `required`). */
  | { type: 'required' }
  | { type: 'tool'; name: string };
