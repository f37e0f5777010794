/**
 * zod schemas for Bedrock Converse bodies, from the Smithy model (bedrock-runtime): required
 * members, enums, lengths and patterns. They check shape only; the decoder reads the original
 * object. Smithy unions (ContentBlock, SystemContentBlock, Tool, ToolChoice, sources ...) are JSON
 * objects with exactly one member set: `union()` checks that and validates the member with its
 * path. Structures accept unknown keys (kept as residue, so a newer field survives a round trip).
 * Responses are read leniently: a union may carry extra unknown keys beside its one member (some
 * recorded responses do), and `metrics` / `usage` may be missing (hand-written test vectors).
 * An optional member may be an explicit `null`: AWS JSON protocols treat it as unset (kept as
 * residue so it comes back).
 */
import { z } from 'zod';
import { STASH_KEY } from '../shared/stash.js';
import { formatsOf } from './media.js';
import { DOCUMENT_NAME, DOCUMENT_NAME_MAX, isToolName, isToolUseId, TOOL_NAME, TOOL_USE_ID } from './names.js';
import { isStandardBase64 } from '../shared/base64.js';
import { isJsonData } from '../shared/json-data.js';
import { withFastCheck, type FastCheck } from '../shared/zod-fast-check.js';

type Shape = Record<string, z.ZodType>;

/** Issue codes we set ourselves on custom issues (read back in validate.ts). */
export const UNKNOWN_MEMBER = 'unknown_member';
export const UNION_MEMBERS = 'union_members';

/** The yes/no form of union() for the fast check (zod-fast-check.ts): the same walk, with no issue built. */
function fastUnion(members: Record<string, FastCheck>, lenient: boolean): FastCheck {
  // A Map: one hash lookup per key, where `hasOwn` and `members[key]` are two megamorphic loads.
  const checks = new Map(Object.entries(members));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const obj = value as Record<string, unknown>;
    let check: FastCheck | undefined;
    let inner: unknown;
    for (const key in obj) {
      const x = obj[key];
      if (key === STASH_KEY || x === undefined || x === null) continue;
      const c = checks.get(key);
      if (c === undefined) {
        if (lenient) continue;
        return false;
      }
      if (check !== undefined) return false;
      check = c;
      inner = x;
    }
    return check !== undefined && check(inner);
  };
}

function union(members: Shape, lenient: boolean, what: string): z.ZodType {
  const names = Object.keys(members);
  const expected = names.join(' | ');
  const schema = z.unknown().superRefine((value, ctx) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: `expected a ${what} object with one of: ${expected}`, params: { code: 'invalid_type', expected: 'object' } });
      return;
    }
    const obj = value as Record<string, unknown>;
    const set: string[] = [];
    const unknown: string[] = [];
    for (const key in obj) {
      if (key === STASH_KEY || obj[key] === undefined || obj[key] === null) continue;
      if (Object.hasOwn(members, key)) set.push(key);
      else unknown.push(key);
    }
    if (!lenient) {
      for (const key of unknown) {
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown ${what} member '${key}'`, params: { code: UNKNOWN_MEMBER, expected } });
      }
    }
    if (set.length !== 1) {
      if (set.length === 0 && unknown.length > 0 && !lenient) return; // already said which key is wrong
      const message = set.length === 0 ? `a ${what} needs exactly one of: ${expected}` : `a ${what} has exactly one member; found ${set.join(', ')}`;
      ctx.addIssue({ code: 'custom', message, params: { code: UNION_MEMBERS, expected } });
      return;
    }
    const key = set[0] as string;
    const result = (members[key] as z.ZodType).safeParse(obj[key]);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never);
  });
  return withFastCheck(schema, (compile) => {
    const checks: Record<string, FastCheck> = {};
    for (const key of names) checks[key] = compile(members[key] as z.ZodType);
    return fastUnion(checks, lenient);
  });
}

const int0 = z.int().min(0);
/**
 * A Smithy blob's base64 text, standard alphabet and padded: the form the encoder writes, so a
 * lone trailing character ('x', which holds no byte) is refused here rather than dropped later.
 * Checked without an anchored regex, which is slow on megabytes.
 */
const base64Text = (v: string, ctx: z.RefinementCtx): void => {
  if (!isStandardBase64(v)) ctx.addIssue({ code: 'invalid_format', format: 'base64', message: 'bytes are standard padded base64 text', input: v });
};
const Json = withFastCheck(z.json(), () => isJsonData);

function build(lenient: boolean) {
  // A Smithy blob travels as base64 text in the JSON wire form (length min 1).
  const Bytes = withFastCheck(z.string().min(1).superRefine(base64Text), () => (v) => typeof v === 'string' && v.length > 0 && isStandardBase64(v));
  const S3Location = z.object({
    uri: z.string().max(1024).regex(/^s3:\/\/[a-z0-9][.\-a-z0-9]{1,61}[a-z0-9](\/.*)?$/),
    bucketOwner: z.string().regex(/^[0-9]{12}$/).nullish(),
  });
  const MediaSource = union({ bytes: Bytes, s3Location: S3Location }, lenient, 'source');
  const ErrorBlock = z.object({ message: z.string().nullish() });
  const CitationsConfig = z.object({ enabled: z.boolean() });
  const TextOnly = union({ text: z.string() }, lenient, 'text block');

  const Image = z.object({ format: z.enum(formatsOf('image')), source: MediaSource, error: ErrorBlock.nullish() });
  const Video = z.object({ format: z.enum(formatsOf('video')), source: MediaSource });
  const Audio = z.object({ format: z.enum(formatsOf('audio')), source: MediaSource, error: ErrorBlock.nullish() });
  const Document = z.object({
    format: z.enum(formatsOf('document')).nullish(),
    name: z
      .string()
      .min(1)
      .max(DOCUMENT_NAME_MAX)
      .regex(DOCUMENT_NAME, 'a document name holds only alphanumerics, single whitespace characters, hyphens, parentheses and square brackets'),
    source: union({ bytes: Bytes, s3Location: S3Location, text: z.string(), content: z.array(TextOnly) }, lenient, 'document source'),
    context: z.string().nullish(),
    citations: CitationsConfig.nullish(),
  });
  const SearchResult = z.object({
    source: z.string(),
    title: z.string(),
    content: z.array(z.object({ text: z.string() })),
    citations: CitationsConfig.nullish(),
  });
  // The patterns' fast forms are loops (names.ts), cheaper than the regex on every block.
  const ToolName = withFastCheck(z.string().regex(TOOL_NAME, 'a tool name matches ^[a-zA-Z0-9_-]{1,64}$'), () => (v) => typeof v === 'string' && isToolName(v));
  const ToolUseId = withFastCheck(z.string().regex(TOOL_USE_ID, 'a tool use id matches ^[a-zA-Z0-9_.:-]{1,64}$'), () => (v) => typeof v === 'string' && isToolUseId(v));
  const ToolUse = z.object({ toolUseId: ToolUseId, name: ToolName, input: Json, type: z.string().nullish() });
  const ToolResult = z.object({
    toolUseId: ToolUseId,
    content: z.array(
      union({ json: Json, text: z.string(), image: Image, document: Document, video: Video, searchResult: SearchResult }, lenient, 'tool result content block'),
    ),
    status: z.enum(['success', 'error']).nullish(),
    type: z.string().nullish(),
  });
  const GuardContent = union(
    {
      text: z.object({ text: z.string(), qualifiers: z.array(z.enum(['grounding_source', 'query', 'guard_content'])).nullish() }),
      image: z.object({ format: z.enum(['png', 'jpeg']), source: union({ bytes: Bytes }, lenient, 'source') }),
    },
    lenient,
    'guard content',
  );
  const CachePoint = z.object({ type: z.literal('default'), ttl: z.enum(['5m', '1h']).nullish() });
  const Reasoning = union(
    { reasoningText: z.object({ text: z.string(), signature: z.string().nullish() }), redactedContent: withFastCheck(z.string().superRefine(base64Text), () => (v) => typeof v === 'string' && isStandardBase64(v)) },
    lenient,
    'reasoning content',
  );
  const Range = z.object({ start: int0.nullish(), end: int0.nullish() });
  const DocRange = Range.extend({ documentIndex: int0.nullish() });
  const Citation = z.object({
    title: z.string().nullish(),
    source: z.string().nullish(),
    sourceContent: z.array(TextOnly).nullish(),
    location: union(
      {
        web: z.object({ url: z.string().nullish(), domain: z.string().nullish() }),
        documentChar: DocRange,
        documentPage: DocRange,
        documentChunk: DocRange,
        searchResultLocation: Range.extend({ searchResultIndex: int0.nullish() }),
      },
      lenient,
      'citation location',
    ).nullish(),
  });
  const CitationsContent = z.object({ content: z.array(TextOnly).nullish(), citations: z.array(Citation).nullish() });

  const ContentBlock = union(
    {
      text: z.string(),
      image: Image,
      document: Document,
      video: Video,
      audio: Audio,
      toolUse: ToolUse,
      toolResult: ToolResult,
      guardContent: GuardContent,
      cachePoint: CachePoint,
      reasoningContent: Reasoning,
      citationsContent: CitationsContent,
      searchResult: SearchResult,
    },
    lenient,
    'content block',
  );
  const Message = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.array(ContentBlock) });
  return { Message, CachePoint, GuardContent, ToolName };
}

const strict = build(false);
/** One Converse message (role and content blocks), as requests hold them. */
export const messageSchema = strict.Message;
const loose = build(true);

const Tool = union(
  {
    toolSpec: z.object({
      name: strict.ToolName,
      description: z.string().min(1).nullish(),
      inputSchema: union({ json: Json }, false, 'tool input schema'),
      strict: z.boolean().nullish(),
    }),
    systemTool: z.object({ name: strict.ToolName }),
    cachePoint: strict.CachePoint,
  },
  false,
  'tool',
);
const ToolChoice = union({ auto: z.object({}), any: z.object({}), tool: z.object({ name: strict.ToolName }) }, false, 'tool choice');

export const requestSchema = z.object({
  modelId: z.string().min(1).max(2048).nullish(),
  messages: z.array(strict.Message).nullish(),
  system: z.array(union({ text: z.string().min(1), guardContent: strict.GuardContent, cachePoint: strict.CachePoint }, false, 'system content block')).nullish(),
  inferenceConfig: z
    .object({
      maxTokens: z.int().min(1).nullish(),
      temperature: z.number().min(0).max(1).nullish(),
      topP: z.number().min(0).max(1).nullish(),
      stopSequences: z.array(z.string().min(1)).max(2500).nullish(),
    })
    .nullish(),
  toolConfig: z.object({ tools: z.array(Tool).min(1), toolChoice: ToolChoice.nullish() }).nullish(),
  guardrailConfig: z
    .object({ guardrailIdentifier: z.string().nullish(), guardrailVersion: z.string().nullish(), trace: z.enum(['enabled', 'disabled', 'enabled_full']).nullish() })
    .nullish(),
  additionalModelRequestFields: Json.nullish(),
  promptVariables: z.record(z.string(), union({ text: z.string() }, false, 'prompt variable')).nullish(),
  additionalModelResponseFieldPaths: z.array(z.string().min(1).max(256)).max(10).nullish(),
  requestMetadata: z.record(z.string().min(1).max(256), z.string().max(256)).nullish(),
  performanceConfig: z.object({ latency: z.enum(['standard', 'optimized']).nullish() }).nullish(),
  serviceTier: z.object({ type: z.enum(['priority', 'default', 'flex', 'reserved']) }).nullish(),
  outputConfig: z
    .object({
      textFormat: z
        .object({
          type: z.literal('json_schema'),
          structure: union({ jsonSchema: z.object({ schema: z.string(), name: z.string().nullish(), description: z.string().nullish() }) }, false, 'output format structure'),
        })
        .nullish(),
    })
    .nullish(),
});

export const responseSchema = z.object({
  output: union({ message: loose.Message.extend({ role: z.literal('assistant') }) }, true, 'output'),
  // An open set in practice: a value this schema does not know maps to 'other' with raw kept.
  stopReason: z.string(),
  usage: z.object({
    inputTokens: int0,
    outputTokens: int0,
    totalTokens: int0,
    cacheReadInputTokens: int0.nullish(),
    cacheWriteInputTokens: int0.nullish(),
  }).nullish(),
  metrics: z.object({ latencyMs: z.int() }).nullish(),
  additionalModelResponseFields: Json.nullish(),
  trace: Json.nullish(),
});
