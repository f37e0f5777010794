/**
 * AG-UI 1.0 wire shapes (`@ag-ui/core` 1.0.0, `src/generated/types.ts`; facts in
 * ../shared/reference/protocols.md §1), written out here because `@ag-ui/core` is only a dev
 * dependency. Every object on the wire is open (`looseObject`): fields not listed here are residue.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export const AG_UI = 'ag-ui';

/**
 * The namespace this codec writes inside AG-UI's open `metadata` objects for canonical facts AG-UI
 * has no field for (a stop reason, the provider that minted a reasoning signature), so that they
 * travel through an AG-UI hop and come back. AG-UI reserves only the key `ag-ui`.
 */
export const META_KEY = 'interlingua';

export type TextMessageRole = 'developer' | 'system' | 'assistant' | 'user';

export interface TextPart { type: 'text'; id?: string; text: string; metadata?: JsonValue }
export type PartSource =
  | { type: 'data'; value: string; mimeType: string }
  | { type: 'url'; value: string; mimeType?: string }
  | { type: 'file'; value: string; provider?: string; mimeType?: string };
export interface MediaPart { type: 'image' | 'audio' | 'video' | 'document'; id?: string; source: PartSource; metadata?: JsonValue }
/** Pre-1.0 attachment, still sent by older clients (the 1.0 client upgrades it to a media part). */
export interface BinaryPart { type: 'binary'; mimeType: string; id?: string; url?: string; data?: string; filename?: string }
export type ContentPart = TextPart | MediaPart;

export interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string }; encryptedValue?: string; metadata?: JsonObject }

interface MessageBase { id: string; metadata?: JsonObject; subagentRunId?: string; encryptedValue?: string }
export interface DeveloperMessage extends MessageBase { role: 'developer'; content: string; name?: string }
export interface SystemMessage extends MessageBase { role: 'system'; content: string; name?: string }
export interface AssistantMessage extends MessageBase { role: 'assistant'; content?: string; toolCalls?: ToolCall[]; name?: string }
export interface UserMessage extends MessageBase { role: 'user'; content: string | ContentPart[]; name?: string }
export interface ToolMessage extends MessageBase { role: 'tool'; content: string | ContentPart[]; toolCallId: string; error?: string }
export interface ActivityMessage extends MessageBase { role: 'activity'; activityType: string; content: JsonObject }
export interface ReasoningMessage extends MessageBase { role: 'reasoning'; content: string }
export type Message = DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage | ActivityMessage | ReasoningMessage;

export interface Tool { name: string; description: string; parameters?: JsonValue; metadata?: JsonObject }
export interface Context { description: string; value: string }

/** The POST body of an AG-UI run. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  protocolVersion?: string;
  parentRunId?: string;
  state?: JsonValue;
  messages: Message[];
  tools?: Tool[];
  context?: Context[];
  forwardedProps?: JsonValue;
  resume?: JsonObject[];
}

/**
 * Token counts for one provider and model. Same accounting as the canonical Usage: inputTokens
 * includes cache reads and writes, outputTokens includes reasoning.
 */
export interface TokenUsage {
  provider?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** Any AG-UI event: a `type` plus its fields (the per-type fields are in protocols.md §1.3). */
export type AguiEvent = JsonObject & { type: string };

/** The 1.0 event types (EventType), plus the retired THINKING_* names accepted on input. */
export const EVENT_TYPES = [
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_CHUNK', 'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'RAW', 'CUSTOM',
  'RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'STEP_STARTED', 'STEP_FINISHED',
  'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK', 'REASONING_END', 'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED', 'SUBAGENT_FINISHED', 'SUBAGENT_ERROR',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Retired pre-1.0 names and the 1.0 events they stand for (the 1.0 client's CompatibilityBoundary). */
export const THINKING_NAMES: Readonly<Record<string, EventType>> = {
  THINKING_START: 'REASONING_START',
  THINKING_END: 'REASONING_END',
  THINKING_TEXT_MESSAGE_START: 'REASONING_MESSAGE_START',
  THINKING_TEXT_MESSAGE_CONTENT: 'REASONING_MESSAGE_CONTENT',
  THINKING_TEXT_MESSAGE_END: 'REASONING_MESSAGE_END',
};

/** Fields every event may carry; `subagentRunId` only on events a subagent can produce. */
export const BASE_KEYS = ['type', 'timestamp', 'rawEvent', 'metadata', 'subagentRunId'] as const;

const keys = (...k: string[]): ReadonlySet<string> => new Set(k);

/** Wire keys each decoder maps (the rest of an object is residue under ext['ag-ui']). */
export const INPUT_KEYS = keys('threadId', 'runId', 'messages', 'tools');
export const MESSAGE_KEYS = keys('id', 'role', 'content', 'name');
export const ASSISTANT_KEYS = keys('id', 'role', 'content', 'name', 'toolCalls');
export const TOOL_MESSAGE_KEYS = keys('id', 'role', 'content', 'toolCallId', 'error');
export const REASONING_MESSAGE_KEYS = keys('id', 'role', 'content', 'encryptedValue', 'metadata');
export const CALL_KEYS = keys('id', 'type', 'function');
export const FUNCTION_KEYS = keys('name', 'arguments');
export const TOOL_KEYS = keys('name', 'description', 'parameters');
export const TEXT_PART_KEYS = keys('type', 'id', 'text');
export const MEDIA_PART_KEYS = keys('type', 'id', 'source');
export const SOURCE_KEYS = keys('type', 'value', 'mimeType');
