/**
 * zod schemas of canonical parts as this codec writes them into `camunda.messageContent` blobs
 * (the part's own JSON, its `type` discriminator kept) and into tool-result content lists. They
 * follow src/model/part.ts, source.ts and citation.ts field for field; nested objects are strict,
 * so a malformed blob is an error, never a part with a field silently left out.
 */
import { z } from 'zod';
import { FORMAT_IDS } from '../../model/format-id.js';

const str = z.string();
const opt = <T extends z.ZodType>(t: T) => t.optional();
const num = z.number();

export const ExtSchema = z.record(str, z.record(str, z.json()));
const CacheSchema = z.strictObject({ type: z.literal('ephemeral'), ttl: opt(str) });
const base = { ext: opt(ExtSchema), cache: opt(CacheSchema) };
export const FormatIdSchema = z.enum(FORMAT_IDS);

const CitationSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('url'), url: str, title: opt(str), citedText: opt(str), startIndex: opt(num), endIndex: opt(num), encryptedIndex: opt(str), ext: opt(ExtSchema) }),
  z.strictObject({
    type: z.literal('document'),
    citedText: opt(str),
    documentIndex: opt(num),
    documentTitle: opt(str),
    fileId: opt(str),
    location: opt(z.strictObject({ unit: z.enum(['char', 'page', 'block']), start: num, end: num })),
    ext: opt(ExtSchema),
  }),
  z.strictObject({ type: z.literal('search-result'), source: str, title: opt(str), citedText: opt(str), searchResultIndex: opt(num), startBlockIndex: opt(num), endBlockIndex: opt(num), ext: opt(ExtSchema) }),
]);

const media = { mediaType: opt(str), ext: opt(ExtSchema) };
const SourceSchema: z.ZodType = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('base64'), mediaType: str, data: str, ext: opt(ExtSchema) }),
    z.strictObject({ kind: z.literal('url'), url: str, ...media }),
    z.strictObject({ kind: z.literal('file-id'), fileId: str, ...media }),
    z.strictObject({ kind: z.literal('s3'), uri: str, bucketOwner: opt(str), ...media }),
    z.strictObject({ kind: z.literal('text'), text: str, ...media }),
    z.strictObject({ kind: z.literal('content'), parts: z.array(PartSchema), ext: opt(ExtSchema) }),
  ]),
);

const TextPartShape = { type: z.literal('text'), text: str, citations: opt(z.array(CitationSchema)), ...base };

/** Each canonical part type's fields (strict: the keys of a shape are all a part of that type may have). */
export const PART_SHAPES = {
  text: TextPartShape,
  image: { type: z.literal('image'), source: SourceSchema, detail: opt(str), ...base },
  audio: { type: z.literal('audio'), source: SourceSchema, ...base },
  video: { type: z.literal('video'), source: SourceSchema, ...base },
  document: { type: z.literal('document'), source: SourceSchema, name: opt(str), title: opt(str), context: opt(str), citations: opt(z.boolean()), ...base },
  'tool-call': { type: z.literal('tool-call'), id: str, name: str, arguments: z.json(), argumentsJson: opt(str), providerExecuted: opt(z.boolean()), ...base },
  'tool-result': {
    type: z.literal('tool-result'),
    callId: str,
    name: opt(str),
    content: z.array(z.lazy(() => PartSchema)),
    stringContent: opt(z.literal(true)),
    isError: opt(z.boolean()),
    providerExecuted: opt(z.boolean()),
    ...base,
  },
  reasoning: {
    type: z.literal('reasoning'),
    origin: FormatIdSchema,
    text: opt(str),
    signature: opt(str),
    redactedData: opt(str),
    encryptedContent: opt(str),
    summary: opt(z.array(str)),
    id: opt(str),
    ...base,
  },
  refusal: { type: z.literal('refusal'), text: str, ...base },
  'search-result': {
    type: z.literal('search-result'),
    source: str,
    title: opt(str),
    content: z.array(z.strictObject(TextPartShape)),
    encryptedContent: opt(str),
    pageAge: opt(str),
    citations: opt(z.boolean()),
    ...base,
  },
  data: { type: z.literal('data'), data: z.json(), ...base },
  'provider-block': { type: z.literal('provider-block'), origin: FormatIdSchema, block: z.record(str, z.json()), ...base },
} as const;

export type CanonicalPartType = keyof typeof PART_SHAPES;

export function isCanonicalPartType(type: string): type is CanonicalPartType {
  return Object.prototype.hasOwnProperty.call(PART_SHAPES, type);
}

/** Any canonical part, strict all the way down (parts nested in tool results, sources, search results). */
export const PartSchema: z.ZodType = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject(PART_SHAPES.text),
    z.strictObject(PART_SHAPES.image),
    z.strictObject(PART_SHAPES.audio),
    z.strictObject(PART_SHAPES.video),
    z.strictObject(PART_SHAPES.document),
    z.strictObject(PART_SHAPES['tool-call']),
    z.strictObject(PART_SHAPES['tool-result']),
    z.strictObject(PART_SHAPES.reasoning),
    z.strictObject(PART_SHAPES.refusal),
    z.strictObject(PART_SHAPES['search-result']),
    z.strictObject(PART_SHAPES.data),
    z.strictObject(PART_SHAPES['provider-block']),
  ]),
);

/** The fields of a reasoning part other than `type` and `origin`: the `payload` of a reasoning content. */
export const ReasoningPayloadSchema = z.strictObject({
  text: opt(str),
  signature: opt(str),
  redactedData: opt(str),
  encryptedContent: opt(str),
  summary: opt(z.array(str)),
  id: opt(str),
  ...base,
});

/** One strict schema per part type, for validating a part after its residue keys are set aside. */
export const STRICT_PART: Readonly<Record<CanonicalPartType, z.ZodType>> = Object.fromEntries(
  Object.entries(PART_SHAPES).map(([k, shape]) => [k, z.strictObject(shape)]),
) as unknown as Record<CanonicalPartType, z.ZodType>;
