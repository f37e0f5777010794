/**
 * zod schemas for inbound Chat Completions bodies. They check shape and types only; the decoder
 * reads the original object (zod strips unknown keys, which are residue to us). Where real
 * OpenAI-compatible providers deviate from the OpenAPI spec (a tool call without `type`, a choice
 * without `finish_reason`), the schema accepts what they send.
 */
import { z } from 'zod';
import { withFastCheck } from '../shared/zod-fast-check.js';

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
});
const AudioPart = z.object({
  type: z.literal('input_audio'),
  input_audio: z.object({ data: z.string(), format: z.string() }),
});
const FilePart = z.object({
  type: z.literal('file'),
  file: z.object({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() }),
});
const RefusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() });

const UserPart = z.discriminatedUnion('type', [TextPart, ImagePart, AudioPart, FilePart]);
const AssistantPart = z.discriminatedUnion('type', [TextPart, RefusalPart]);

const textContent = z.union([z.string(), z.array(TextPart)]);

const FunctionCall = z.object({ name: z.string(), arguments: z.string() });

/** `type` is optional: some compatible providers leave it out; `function` vs `custom` is checked below. */
const ToolCallShape = z.object({
  id: z.string(),
  type: z.enum(['function', 'custom']).optional(),
  function: FunctionCall.optional(),
  custom: z.object({ name: z.string(), input: z.string() }).optional(),
});
const callKey = (call: { type?: string | undefined }): 'custom' | 'function' => (call.type === 'custom' ? 'custom' : 'function');
// The fast form answers the refinement itself: zod's superRefine allocates a closure per call.
export const ToolCallSchema = withFastCheck(
  ToolCallShape.superRefine((call, ctx) => {
    const key = callKey(call);
    if (call[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `a ${key} tool call needs '${key}'` });
  }),
  (compile) => {
    const shape = compile(ToolCallShape);
    return (v) => shape(v) && (v as Record<string, unknown>)[callKey(v as { type?: string })] !== undefined;
  },
);

const Name = z.string().optional();

export const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContent, name: Name }),
  z.object({ role: z.literal('developer'), content: textContent, name: Name }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(UserPart)]), name: Name }),
  z.object({
    role: z.literal('assistant'),
    content: nullish(z.union([z.string(), z.array(AssistantPart)])),
    refusal: nullish(z.string()),
    name: Name,
    tool_calls: nullish(z.array(ToolCallSchema)),
    function_call: nullish(FunctionCall),
    reasoning_content: nullish(z.string()),
  }),
  z.object({ role: z.literal('tool'), content: textContent, tool_call_id: z.string(), name: Name }),
  z.object({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);

const FunctionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: nullish(z.boolean()),
  }),
});
const CustomTool = z.object({ type: z.literal('custom'), custom: z.object({ name: z.string() }) });

const ToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
  z.object({ type: z.literal('custom'), custom: z.object({ name: z.string() }) }),
  z.object({ type: z.literal('allowed_tools'), allowed_tools: z.object({ mode: z.string(), tools: z.array(z.unknown()) }) }),
]);

const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: nullish(z.boolean()),
    }),
  }),
]);

const num = nullish(z.number());
const int = nullish(z.number().int());

export const RequestSchema = z.object({
  model: z.string(),
  messages: z.array(MessageSchema).min(1, 'messages must not be empty'),
  tools: z.array(z.discriminatedUnion('type', [FunctionTool, CustomTool])).optional(),
  tool_choice: ToolChoice.optional(),
  parallel_tool_calls: nullish(z.boolean()),
  max_completion_tokens: int,
  max_tokens: int,
  temperature: num,
  top_p: num,
  top_k: int,
  stop: nullish(z.union([z.string(), z.array(z.string())])),
  seed: int,
  presence_penalty: num,
  frequency_penalty: num,
  response_format: ResponseFormat.optional(),
  reasoning_effort: nullish(z.string()),
  user: z.string().optional(),
  n: int,
  stream: nullish(z.boolean()),
  metadata: nullish(z.record(z.string(), z.string())),
  functions: z.array(z.object({ name: z.string() })).optional(),
});

const UsageSchema = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number().optional(),
  prompt_tokens_details: nullish(z.object({ cached_tokens: nullish(z.number()), cache_write_tokens: nullish(z.number()) })),
  completion_tokens_details: nullish(z.object({ reasoning_tokens: nullish(z.number()) })),
});

const Annotation = z.object({
  type: z.string(),
  url_citation: z.object({ url: z.string(), title: z.string().optional(), start_index: z.number().int(), end_index: z.number().int() }).optional(),
});

export const ResponseSchema = z.object({
  id: z.string().optional(),
  object: z.string().optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: nullish(z.string()),
        refusal: nullish(z.string()),
        tool_calls: nullish(z.array(ToolCallSchema)),
        annotations: nullish(z.array(Annotation)),
        function_call: nullish(FunctionCall),
        reasoning_content: nullish(z.string()),
      }),
      finish_reason: nullish(z.string()),
    }),
  ),
  usage: nullish(UsageSchema),
});
