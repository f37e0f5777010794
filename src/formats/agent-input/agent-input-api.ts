/**
 * Standard agent input (the body of an agent execute request), as OpenSearch ml-commons
 * implements it (`AgentInput.java`, protocols.md §4.2): `{ "input": <string | block[] | message[]> }`
 * or the legacy `{ "parameters": { "question": "..." } }`. Every object may carry fields not listed
 * here: they travel as residue.
 */
import type { JsonObject } from '../../model/json.js';
import type { Role } from '../../model/message.js';

export const AGENT_INPUT = 'agent-input' as const;

export type MediaKind = 'image' | 'video' | 'document';
export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'document'];

/**
 * Where a media block's bytes are. `type` is case-insensitive on the way in (ml-commons upper-cases
 * it into its `SourceType` enum). `url` data is a URL; ml-commons' Bedrock provider takes `s3://` only.
 */
export interface MediaSource {
  type: 'base64' | 'url';
  format: string;
  data: string;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

/**
 * A media block. The source design names the media object after the block type
 * (`{ "type": "image", "image": {...} }`); ml-commons' parser reads it from `source`. Both are read;
 * the encoder writes the key the source used, else `DEFAULT_MEDIA_KEY`.
 */
export interface MediaBlock {
  type: MediaKind;
  image?: MediaSource;
  video?: MediaSource;
  document?: MediaSource;
  source?: MediaSource;
}

export type ContentBlock = TextBlock | MediaBlock;

export interface ToolCall {
  id: string;
  /** ml-commons defaults a missing type to "function". */
  type?: 'function';
  function: { name: string; arguments: string };
}

export interface AgentMessage {
  /** Any string: user, assistant, system, developer and tool have rules; others pass through. */
  role: string;
  content: ContentBlock[];
  /** Assistant messages: calls the model made (AG-UI / OpenAI shape, arguments as JSON text). */
  toolCalls?: ToolCall[];
  /** Tool messages: which call this answers. */
  toolCallId?: string;
}

export type AgentInputValue = string | ContentBlock[] | AgentMessage[];

export interface AgentInputRequest {
  input?: AgentInputValue;
  /** Legacy form: `question` is the input; other keys are agent parameters, kept as residue. */
  parameters?: JsonObject;
  [key: string]: unknown;
}

/** Which media key the encoder writes for blocks that did not come from this format. */
export const DEFAULT_MEDIA_KEY: 'kind' | 'source' = 'kind';

/**
 * Wire roles (compared case-insensitively, as ml-commons does) -> canonical roles. Any other role
 * is accepted too: it decodes as a `user` message that keeps its wire role in `ext` (`role`), so
 * this format writes it back and every other format reports it.
 */
export const ROLES: ReadonlyMap<string, Role> = new Map([
  ['user', 'user'],
  ['assistant', 'assistant'],
  ['system', 'system'],
  ['developer', 'developer'],
  ['tool', 'tool'],
]);

export const BODY_KEYS = new Set(['input', 'parameters']);
export const TEXT_BLOCK_KEYS = new Set(['type', 'text']);
export const SOURCE_KEYS = new Set(['type', 'format', 'data']);
export const MESSAGE_KEYS = new Set(['role', 'content']);
export const ASSISTANT_KEYS = new Set(['role', 'content', 'toolCalls']);
export const TOOL_MESSAGE_KEYS = new Set(['role', 'content', 'toolCallId']);
export const CALL_KEYS = new Set(['id', 'type', 'function']);
export const FN_KEYS = new Set(['name', 'arguments']);

/** Media block keys: the type, plus the media object under the source design's or ml-commons' key. */
export function mediaBlockKeys(kind: MediaKind): ReadonlySet<string> {
  return new Set(['type', kind, 'source']);
}
