import type { Citation } from './citation.js';
import type { HasExt } from './ext.js';
import type { FormatId } from './format-id.js';
import type { JsonValue } from './json.js';
import type { Part } from './part.js';
import type { StopReason } from './stop-reason.js';
import type { Usage } from './usage.js';

/**
 * The canonical stream: what every dialect's stream decoder produces and every stream encoder
 * takes. AG-UI-shaped (DESIGN.md "Streams"): a response opens, blocks open / grow / close, a stop
 * reason and usage arrive, the response ends. Rules (checked by `verifyStream`):
 * - `response-start` comes first and once; nothing follows `response-end` or `error`;
 * - a block is addressed by `(choice, index)`, its position in the choice's message (the index the
 *   accumulated message's `parts` will have); indices of a choice are used once each, in order;
 * - `*-delta` and `*-end` only for an open block of the same kind; every opened block is ended
 *   before `response-end`; a `part` event is a whole block at once (start and end in one);
 * - `usage` may come at any point and any number of times: each field given replaces the earlier
 *   value (providers send input tokens first and output tokens last, or cumulative totals);
 * - `finish` gives a choice's stop reason, once per choice.
 * A stream that stops without `response-end` or `error` was cut off: accumulating it reports that
 * instead of completing it with invented data.
 */
export type StreamEvent =
  | ResponseStartEvent
  | TextStartEvent
  | TextDeltaEvent
  | CitationEvent
  | TextEndEvent
  | ReasoningStartEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
  | PartEvent
  | UsageEvent
  | FinishEvent
  | ResponseEndEvent
  | ErrorEvent
  | ProviderEvent;

export type StreamEventType = StreamEvent['type'];

/** Where a block sits: the choice (0 unless a dialect streams alternatives) and its part index. */
export interface BlockRef {
  choice?: number;
  index: number;
}

/** The response opens. Fields known only later (usage, stop reason) come in their own events. */
export interface ResponseStartEvent extends HasExt {
  type: 'response-start';
  id?: string;
  model?: string;
  /** Unix seconds. */
  created?: number;
}

/** A text block opens; `refusal` marks a refusal text (OpenAI `refusal` deltas). */
export interface TextStartEvent extends BlockRef, HasExt {
  type: 'text-start';
  refusal?: true;
}

export interface TextDeltaEvent extends BlockRef {
  type: 'text-delta';
  delta: string;
}

/** A citation for the open text block (Anthropic citations_delta, Responses annotation.added). */
export interface CitationEvent extends BlockRef {
  type: 'citation';
  citation: Citation;
}

export interface TextEndEvent extends BlockRef, HasExt {
  type: 'text-end';
}

/**
 * A reasoning block opens. `origin` is the provider family that minted it (its signature or
 * encrypted content is valid only there). Redacted reasoning usually arrives whole here.
 */
export interface ReasoningStartEvent extends BlockRef, HasExt {
  type: 'reasoning-start';
  origin: FormatId;
  /** Provider item id (OpenAI Responses reasoning item). */
  id?: string;
  redactedData?: string;
  encryptedContent?: string;
}

/**
 * Reasoning grows: `text` is readable thinking, or with `summaryIndex` a fragment of that summary
 * (OpenAI Responses); `signature` is a fragment of the signature (appended byte-exact).
 */
export interface ReasoningDeltaEvent extends BlockRef {
  type: 'reasoning-delta';
  text?: string;
  summaryIndex?: number;
  signature?: string;
}

/** The reasoning block closes; fields that arrive only at its end (Responses encrypted_content) come here, whole. */
export interface ReasoningEndEvent extends BlockRef, HasExt {
  type: 'reasoning-end';
  signature?: string;
  redactedData?: string;
  encryptedContent?: string;
}

export interface ToolCallStartEvent extends BlockRef, HasExt {
  type: 'tool-call-start';
  id: string;
  name: string;
  providerExecuted?: true;
}

/** A fragment of the call's arguments as JSON text, appended in order. */
export interface ToolCallDeltaEvent extends BlockRef {
  type: 'tool-call-delta';
  delta: string;
}

/**
 * The call closes. `arguments` is the whole argument text when the dialect sends it at the end
 * (Responses `function_call_arguments.done`, Gemini's whole functionCall): it equals the deltas'
 * concatenation when there were deltas, and stands for them when there were none.
 */
export interface ToolCallEndEvent extends BlockRef, HasExt {
  type: 'tool-call-end';
  arguments?: string;
}

/** A whole block at once: an image, a server tool's result, a search result, a provider block ... */
export interface PartEvent extends BlockRef {
  type: 'part';
  part: Part;
}

/** Token counts so far; each field given replaces the earlier value. */
export interface UsageEvent {
  type: 'usage';
  usage: Partial<Usage>;
}

/** A choice stopped generating, and why. */
export interface FinishEvent extends HasExt {
  type: 'finish';
  choice?: number;
  stopReason: StopReason;
}

/** The stream ended as its dialect ends a complete stream. */
export interface ResponseEndEvent extends HasExt {
  type: 'response-end';
}

/** A mid-stream error: the stream ends here. */
export interface ErrorEvent {
  type: 'error';
  error: StreamError;
}

export interface StreamError {
  message: string;
  /** The provider's error type or code, e.g. 'overloaded_error', 'throttlingException'. */
  type?: string;
  code?: string | number;
  /** The HTTP status the error came with (or would be sent with), when it is an HTTP error. */
  status?: number;
  /** The provider's error object as received. */
  raw?: JsonValue;
}

/**
 * A wire event with no canonical meaning, kept for its own dialect (its encoder re-emits it;
 * others report it). `keepalive` marks events that carry nothing (pings), which others skip silently.
 */
export interface ProviderEvent {
  type: 'provider-event';
  origin: FormatId;
  event: WireEvent;
  keepalive?: true;
}

/**
 * One framed event of a dialect's wire stream: an SSE event (`event:` name where the dialect
 * writes one; `data` parsed as JSON, or the raw text when it is not JSON, e.g. `[DONE]`), or an AWS
 * event-stream message (`event` = its `:event-type`, or its `:exception-type` with `exception`).
 */
export interface WireEvent {
  event?: string;
  data: JsonValue;
  exception?: true;
}
