/**
 * Inbound zod schemas for Anthropic Messages bodies. They check shape and required fields only;
 * decoding reads the original object (zod's output drops unknown keys, which are residue).
 */
import { z } from 'zod';
import { OPAQUE_TYPES, SERVER_RESULT_TYPES } from './anthropic-messages-api.js';

const str = z.string();
const int = z.number().int();
const num = z.number();
const jsonObject = z.record(z.string(), z.unknown());
const present = z.unknown().refine((v) => v !== undefined, 'Required');

const cacheControl = z.object({ type: z.literal('ephemeral'), ttl: str.optional() }).nullish();
const citationsConfig = z.object({ enabled: z.boolean().optional() }).nullish();

const documentCitationFields = {
  cited_text: str,
  document_index: int,
  document_title: str.nullish(),
  file_id: str.nullish(),
};
const citation = z.discriminatedUnion('type', [
  z.object({ type: z.literal('char_location'), ...documentCitationFields, start_char_index: int, end_char_index: int }),
  z.object({ type: z.literal('page_location'), ...documentCitationFields, start_page_number: int, end_page_number: int }),
  z.object({ type: z.literal('content_block_location'), ...documentCitationFields, start_block_index: int, end_block_index: int }),
  z.object({ type: z.literal('web_search_result_location'), cited_text: str, url: str, title: str.nullish(), encrypted_index: str.optional() }),
  z.object({
    type: z.literal('search_result_location'),
    cited_text: str,
    source: str,
    title: str.nullish(),
    search_result_index: int,
    start_block_index: int,
    end_block_index: int,
  }),
]);

export const textBlock = z.object({
  type: z.literal('text'),
  text: str,
  citations: z.array(citation).nullish(),
  cache_control: cacheControl,
});

const base64Source = z.object({ type: z.literal('base64'), media_type: str, data: str });
const urlSource = z.object({ type: z.literal('url'), url: str });
const fileSource = z.object({ type: z.literal('file'), file_id: str });

const imageBlock = z.object({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [base64Source, urlSource, fileSource]),
  cache_control: cacheControl,
});

const documentBlock = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    base64Source,
    z.object({ type: z.literal('text'), media_type: str, data: str }),
    z.object({ type: z.literal('content'), content: z.union([str, z.array(z.discriminatedUnion('type', [textBlock, imageBlock]))]) }),
    urlSource,
    fileSource,
  ]),
  title: str.nullish(),
  context: str.nullish(),
  citations: citationsConfig,
  cache_control: cacheControl,
});

const searchResultBlock = z.object({
  type: z.literal('search_result'),
  source: str,
  title: str,
  content: z.array(textBlock),
  citations: citationsConfig,
  cache_control: cacheControl,
});

const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: str, signature: str });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: str });

const callFields = { id: str, name: str, input: jsonObject, cache_control: cacheControl };
const toolUseBlock = z.object({ type: z.literal('tool_use'), ...callFields });
const serverToolUseBlock = z.object({ type: z.literal('server_tool_use'), ...callFields });
const mcpToolUseBlock = z.object({ type: z.literal('mcp_tool_use'), ...callFields, server_name: str });

const opaqueBlocks = OPAQUE_TYPES.map((t) => z.looseObject({ type: z.literal(t) }));

const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: str,
  content: z
    .union([
      str,
      z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, searchResultBlock, ...opaqueBlocks])),
    ])
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});

const mcpToolResultBlock = z.object({
  type: z.literal('mcp_tool_result'),
  tool_use_id: str,
  content: z.union([str, z.array(textBlock)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});

const webSearchToolResultBlock = z.object({
  type: z.literal('web_search_tool_result'),
  tool_use_id: str,
  content: z.union([
    z.array(z.object({ type: z.literal('web_search_result'), url: str, title: str, encrypted_content: str, page_age: str.nullish() })),
    z.object({ type: z.literal('web_search_tool_result_error'), error_code: str }),
  ]),
  cache_control: cacheControl,
});

const serverResultBlocks = SERVER_RESULT_TYPES.map((t) =>
  z.object({ type: z.literal(t), tool_use_id: str, content: present, cache_control: cacheControl }),
);

/** Blocks both a request and a response may hold. */
const commonBlocks = [
  textBlock,
  thinkingBlock,
  redactedThinkingBlock,
  toolUseBlock,
  serverToolUseBlock,
  mcpToolUseBlock,
  mcpToolResultBlock,
  webSearchToolResultBlock,
  ...serverResultBlocks,
  ...opaqueBlocks,
] as const;

export const requestBlock = z.discriminatedUnion('type', [
  ...commonBlocks,
  imageBlock,
  documentBlock,
  searchResultBlock,
  toolResultBlock,
]);
export const responseBlock = z.discriminatedUnion('type', [...commonBlocks]);

const turnContent = z.union([str, z.array(requestBlock)]);
/** `role: 'system'` inside messages is newer API surface (SDK 1.12 SystemMessageParam): text only. */
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: turnContent }),
  z.object({ role: z.literal('assistant'), content: turnContent }),
  z.object({ role: z.literal('system'), content: z.union([str, z.array(textBlock)]) }),
]);

const tool = z.object({
  type: str.nullish(),
  name: str,
  description: str.optional(),
  input_schema: jsonObject.optional(),
  strict: z.boolean().optional(),
  cache_control: cacheControl,
});

const toolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('tool'), name: str, disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('none') }),
]);

const jsonOutputFormat = z.object({ type: z.literal('json_schema'), schema: jsonObject });

export const requestSchema = z.object({
  model: str,
  max_tokens: int,
  messages: z.array(message).min(1),
  system: z.union([str, z.array(textBlock)]).optional(),
  metadata: z.object({ user_id: str.nullish() }).optional(),
  stop_sequences: z.array(str).optional(),
  temperature: num.optional(),
  top_p: num.optional(),
  top_k: int.optional(),
  stream: z.boolean().optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  // Any type: 'enabled' | 'disabled' | 'adaptive' map to reasoning; newer ones stay residue.
  thinking: z.object({ type: str, budget_tokens: int.optional() }).optional(),
  output_config: z.object({ effort: str.nullish(), format: jsonOutputFormat.nullish() }).optional(),
  output_format: jsonOutputFormat.nullish(),
});

export const responseSchema = z.object({
  id: str,
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: str,
  content: z.array(responseBlock),
  stop_reason: str.nullable(),
  stop_sequence: str.nullish(),
  usage: z.object({
    input_tokens: int,
    output_tokens: int,
    cache_creation_input_tokens: int.nullish(),
    cache_read_input_tokens: int.nullish(),
  }),
});
