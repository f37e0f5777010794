/**
 * zod schemas of AG-UI 1.0 as `@ag-ui/core/schemas` states them (`src/generated/schemas.ts`), for
 * RunAgentInput and every event this codec reads. Objects are open, as on the wire. Two
 * tolerances, both for real producers: a message may leave out `id` (the .NET SDK's captured
 * requests do), and `null` in the optional fields the 1.0 client itself coerces to absent
 * (`parentMessageId`, `outcome`, `rawEvent`, `result`; protocols.md §1.3) is accepted.
 */
import { z } from 'zod';

const SAFE = 9007199254740991;
const count = z.int().min(0).max(SAFE).optional();
const object = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'expected an object' });
const present = z.unknown().refine((v) => v !== undefined, { error: 'required' });
/** Optional, and a null there reads as absent (pre-1.0 producers wrote null for "no value"). */
const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

const base = {
  timestamp: z.int().min(-SAFE).max(SAFE).optional(),
  rawEvent: z.unknown().optional(),
  metadata: object.optional(),
  subagentRunId: z.string().optional(),
};

export const TextPartSchema = z.looseObject({ type: z.literal('text'), id: z.string().optional(), text: z.string(), metadata: z.unknown().optional() });
const SourceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('data'), value: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal('url'), value: z.string(), mimeType: z.string().optional() }),
  z.looseObject({ type: z.literal('file'), value: z.string(), provider: z.string().optional(), mimeType: z.string().optional() }),
]);
const media = (type: 'image' | 'audio' | 'video' | 'document') =>
  z.looseObject({ type: z.literal(type), id: z.string().optional(), source: SourceSchema, metadata: z.unknown().optional() });
/** The pre-1.0 attachment; the 0.0.x rule: at least one of id, url, data. */
const BinaryPartSchema = z
  .looseObject({ type: z.literal('binary'), mimeType: z.string(), id: z.string().optional(), url: z.string().optional(), data: z.string().optional(), filename: z.string().optional() })
  .refine((p) => p.id !== undefined || p.url !== undefined || p.data !== undefined, { error: 'a binary part needs at least one of id, url or data' });
export const ContentPartSchema = z.discriminatedUnion('type', [TextPartSchema, media('image'), media('audio'), media('video'), media('document'), BinaryPartSchema]);
const contentSchema = z.union([z.string(), z.array(ContentPartSchema)]);

const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
  encryptedValue: z.string().optional(),
  metadata: object.optional(),
});

const message = {
  id: z.string().optional(),
  metadata: object.optional(),
  subagentRunId: z.string().optional(),
  encryptedValue: z.string().optional(),
};
export const MessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ ...message, role: z.literal('developer'), content: z.string(), name: z.string().optional() }),
  z.looseObject({ ...message, role: z.literal('system'), content: z.string(), name: z.string().optional() }),
  z.looseObject({ ...message, role: z.literal('assistant'), content: z.string().optional(), toolCalls: z.array(ToolCallSchema).optional(), name: z.string().optional() }),
  z.looseObject({ ...message, role: z.literal('user'), content: contentSchema, name: z.string().optional() }),
  z.looseObject({ ...message, role: z.literal('tool'), content: contentSchema, toolCallId: z.string(), error: z.string().optional() }),
  z.looseObject({ ...message, role: z.literal('activity'), activityType: z.string(), content: object }),
  z.looseObject({ ...message, role: z.literal('reasoning'), content: z.string() }),
]);

export const ToolSchema = z.looseObject({ name: z.string(), description: z.string(), parameters: z.unknown().optional(), metadata: object.optional() });

export const RunAgentInputSchema = z.looseObject({
  threadId: z.string(),
  runId: z.string(),
  protocolVersion: z.string().optional(),
  parentRunId: z.string().optional(),
  state: z.unknown().optional(),
  messages: z.array(MessageSchema),
  tools: z.array(ToolSchema).optional(),
  context: z.array(z.looseObject({ description: z.string(), value: z.string() })).optional(),
  forwardedProps: z.unknown().optional(),
  resume: z.array(z.looseObject({ interruptId: z.string(), status: z.enum(['resolved', 'cancelled']) })).optional(),
});

const pointer = z.string().regex(/^(\/([^/~]|~[01])*)*$/, { error: 'not a JSON Pointer' });
const PatchSchema = z.array(
  z.discriminatedUnion('op', [
    z.looseObject({ op: z.literal('add'), path: pointer, value: present }),
    z.looseObject({ op: z.literal('remove'), path: pointer }),
    z.looseObject({ op: z.literal('replace'), path: pointer, value: present }),
    z.looseObject({ op: z.literal('move'), from: pointer, path: pointer }),
    z.looseObject({ op: z.literal('copy'), from: pointer, path: pointer }),
    z.looseObject({ op: z.literal('test'), path: pointer, value: present }),
  ]),
);

export const TokenUsageSchema = z.looseObject({
  provider: z.string().optional(),
  model: z.string().optional(),
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  reasoningTokens: count,
  cachedInputTokens: count,
  cacheWriteInputTokens: count,
});

const interrupt = z.looseObject({ id: z.string(), reason: z.string(), message: z.string().optional(), toolCallId: z.string().optional(), expiresAt: z.string().optional() });
const OutcomeSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('success'), pendingToolCallIds: z.array(z.string()).optional() }),
  z.looseObject({ type: z.literal('interrupt'), interrupts: z.array(interrupt).min(1) }),
  z.looseObject({ type: z.literal('cancelled') }),
]);

const ev = (fields: z.ZodRawShape) => z.looseObject({ ...base, ...fields });
const id = { messageId: z.string() };
const call = { toolCallId: z.string() };

/** Each event type's schema (the `type` literal is checked by the lookup itself). */
export const EVENT_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  TEXT_MESSAGE_START: ev({ ...id, role: z.enum(['developer', 'system', 'assistant', 'user']).optional(), name: z.string().optional() }),
  TEXT_MESSAGE_CONTENT: ev({ ...id, delta: z.string() }),
  TEXT_MESSAGE_END: ev(id),
  TEXT_MESSAGE_CHUNK: ev({ messageId: z.string().optional(), role: z.enum(['developer', 'system', 'assistant', 'user']).optional(), delta: z.string().optional(), name: z.string().optional() }),
  TOOL_CALL_START: ev({ ...call, toolCallName: z.string(), parentMessageId: nullable(z.string()) }),
  TOOL_CALL_ARGS: ev({ ...call, delta: z.string() }),
  TOOL_CALL_END: ev(call),
  TOOL_CALL_CHUNK: ev({ toolCallId: z.string().optional(), toolCallName: z.string().optional(), parentMessageId: nullable(z.string()), delta: z.string().optional() }),
  TOOL_CALL_RESULT: ev({ ...id, ...call, content: contentSchema, role: z.literal('tool').optional() }),
  STATE_SNAPSHOT: ev({ snapshot: present }),
  STATE_DELTA: ev({ delta: PatchSchema }),
  MESSAGES_SNAPSHOT: ev({ messages: z.array(MessageSchema) }),
  ACTIVITY_SNAPSHOT: ev({ ...id, activityType: z.string(), content: object, replace: z.boolean().optional() }),
  ACTIVITY_DELTA: ev({ ...id, activityType: z.string(), patch: PatchSchema }),
  RAW: ev({ event: present, source: z.string().optional() }),
  CUSTOM: ev({ name: z.string(), value: present }),
  RUN_STARTED: ev({ threadId: z.string(), runId: z.string(), protocolVersion: z.string().optional(), parentRunId: z.string().optional(), input: RunAgentInputSchema.optional() }),
  RUN_FINISHED: ev({ threadId: z.string(), runId: z.string(), result: z.unknown().optional(), outcome: nullable(OutcomeSchema), usage: z.array(TokenUsageSchema).optional() }),
  RUN_ERROR: ev({ message: z.string(), code: z.string().optional(), usage: z.array(TokenUsageSchema).optional() }),
  STEP_STARTED: ev({ stepName: z.string() }),
  STEP_FINISHED: ev({ stepName: z.string() }),
  REASONING_START: ev(id),
  REASONING_MESSAGE_START: ev({ ...id, role: z.literal('reasoning') }),
  REASONING_MESSAGE_CONTENT: ev({ ...id, delta: z.string() }),
  REASONING_MESSAGE_END: ev(id),
  REASONING_MESSAGE_CHUNK: ev({ messageId: z.string().optional(), delta: z.string().optional() }),
  REASONING_END: ev(id),
  REASONING_ENCRYPTED_VALUE: ev({ subtype: z.enum(['tool-call', 'message']), entityId: z.string(), encryptedValue: z.string() }),
  SUBAGENT_STARTED: ev({ subagentRunId: z.string(), name: z.string(), description: z.string().optional() }),
  SUBAGENT_FINISHED: ev({ subagentRunId: z.string(), result: z.unknown().optional() }),
  SUBAGENT_ERROR: ev({ subagentRunId: z.string(), message: z.string(), code: z.string().optional() }),
  // Retired 0.0.x names, accepted on input (protocols.md §1.3).
  THINKING_START: ev({ title: z.string().optional() }),
  THINKING_END: ev({}),
  THINKING_TEXT_MESSAGE_START: ev({}),
  THINKING_TEXT_MESSAGE_CONTENT: ev({ delta: z.string() }),
  THINKING_TEXT_MESSAGE_END: ev({}),
};
