/**
 * zod schemas for inbound Responses bodies. They check shape and types only; the decoder reads
 * the original object (unknown keys are residue to us, so nothing here is strict). Items are
 * checked one by one (validate.ts picks the schema from the item's `type`) so every issue gets
 * the item's own path and an unknown item type is reported once, at its `type`.
 */
import { z } from 'zod';

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();

const Breakpoint = z.object({ mode: z.string() }).optional();

export const InputText = z.object({ type: z.literal('input_text'), text: z.string(), prompt_cache_breakpoint: Breakpoint });
const InputImage = z.object({
  type: z.literal('input_image'),
  image_url: nullish(z.string()),
  file_id: nullish(z.string()),
  detail: z.string().optional(),
});
const InputFile = z.object({
  type: z.literal('input_file'),
  file_data: z.string().optional(),
  file_id: nullish(z.string()),
  file_url: z.string().optional(),
  filename: z.string().optional(),
});
export const InputPart = z.discriminatedUnion('type', [InputText, InputImage, InputFile]);

const Annotation = z.object({ type: z.string() });
const OutputText = z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(Annotation).optional() });
const RefusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() });
/** Assistant history may carry input_text too (EasyInputMessage allows it). */
export const AssistantPart = z.discriminatedUnion('type', [OutputText, RefusalPart, InputText]);

export const UserMessageItem = z.object({
  role: z.enum(['user', 'system', 'developer']),
  content: z.union([z.string(), z.array(z.unknown())]),
});
export const AssistantMessageItem = z.object({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(z.unknown())]),
});

export const FunctionCallItem = z.object({
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: z.string().optional(),
});
export const FunctionCallOutputItem = z.object({
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.unknown())]),
});
export const ReasoningItem = z.object({
  id: z.string().optional(),
  summary: z.array(z.object({ type: z.string(), text: z.string() })),
  encrypted_content: nullish(z.string()),
  content: z.array(z.object({ type: z.string(), text: z.string() })).optional(),
});
export const ItemReference = z.object({ id: z.string() });
/** Built-in tool items are carried whole: they only need a type. */
export const OpaqueItem = z.object({ type: z.string() });

const num = nullish(z.number());

export const RequestSchema = z.object({
  model: z.string().optional(),
  instructions: nullish(z.string()),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  tools: z.array(z.object({ type: z.string() })).optional(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.string() })]).optional(),
  parallel_tool_calls: nullish(z.boolean()),
  max_output_tokens: nullish(z.number().int()),
  temperature: num,
  top_p: num,
  text: nullish(z.object({ format: z.object({ type: z.string() }).optional(), verbosity: nullish(z.string()) })),
  reasoning: nullish(z.object({ effort: nullish(z.string()), summary: nullish(z.string()) })),
  user: nullish(z.string()),
  safety_identifier: nullish(z.string()),
  metadata: nullish(z.record(z.string(), z.string())),
  stream: nullish(z.boolean()),
  store: nullish(z.boolean()),
  include: nullish(z.array(z.string())),
  previous_response_id: nullish(z.string()),
});

export const FunctionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string(),
  description: nullish(z.string()),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
});

export const JsonSchemaFormat = z.object({
  type: z.literal('json_schema'),
  name: z.string(),
  schema: z.record(z.string(), z.unknown()),
  description: z.string().optional(),
  strict: nullish(z.boolean()),
});

const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number().optional(),
  input_tokens_details: nullish(z.object({ cached_tokens: nullish(z.number()) })),
  output_tokens_details: nullish(z.object({ reasoning_tokens: nullish(z.number()) })),
});

export const ResponseSchema = z.object({
  id: z.string(),
  object: z.string().optional(),
  created_at: z.number().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  incomplete_details: nullish(z.object({ reason: nullish(z.string()) })),
  output: z.array(z.unknown()),
  usage: nullish(UsageSchema),
});
