/**
 * Building blocks shared by the wire-format arbitraries: texts, ids, tool names, JSON values,
 * JSON Schemas, base64 images with real media types and sampling numbers that survive JSON.
 */
import fc from 'fast-check';

/** Non-empty text with at least one non-space character (empty text is a loss, not a round trip). */
export const text = (): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.lorem({ maxCount: 12, mode: 'sentences' }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
      { weight: 1, arbitrary: fc.constantFrom('Hello', '  padded  ', 'line1\nline2', 'naïve café 日本語 🙂', '{"json":"looking"}') },
    )
    .filter((s) => s.trim().length > 0);

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnum = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ALNUM.split('')), minLength: min, maxLength: max });

/** Anthropic tool_use ids match ^[a-zA-Z0-9_-]+$ ("toolu_" + 24 characters in captures). */
export const anthropicToolId = (): fc.Arbitrary<string> => alnum(8, 24).map((s) => `toolu_${s}`);

/** OpenAI call ids are free strings; mostly "call_" + alnum, sometimes characters Anthropic rejects. */
export const openaiToolId = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: alnum(8, 24).map((s) => `call_${s}`) },
    { weight: 1, arbitrary: alnum(4, 10).map((s) => `functions.get:${s}|0`) },
  );

/** Function names both APIs accept: ^[a-zA-Z0-9_-]{1,64}$. */
export const toolName = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('get', 'search', 'lookup', 'run', 'fetch_url', 'calc'), alnum(0, 12)).map(([a, b]) => (b ? `${a}_${b}` : a));

/** A JSON value without -0 or non-finite numbers (they do not survive JSON.stringify exactly). */
export const jsonValue = (): fc.Arbitrary<unknown> =>
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

export const jsonObject = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), jsonValue(), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

/** A small JSON Schema object for tool parameters. */
export const jsonSchema = (): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record(
      {
        props: fc.uniqueArray(fc.tuple(fc.constantFrom('location', 'query', 'n', 'unit', 'url', 'flag'), fc.constantFrom('string', 'number', 'integer', 'boolean')), {
          selector: ([k]) => k,
          maxLength: 4,
        }),
        required: fc.boolean(),
        closed: fc.boolean(),
      },
      { requiredKeys: ['props', 'required', 'closed'] },
    )
    .map(({ props, required, closed }) => {
      const schema: Record<string, unknown> = {
        type: 'object',
        properties: Object.fromEntries(props.map(([k, t]) => [k, { type: t }])),
      };
      if (required && props.length > 0) schema['required'] = [props[0]?.[0]];
      if (closed) schema['additionalProperties'] = false;
      return schema;
    });

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const MAGIC: Record<(typeof IMAGE_MEDIA_TYPES)[number], number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
  'image/gif': [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  'image/webp': [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
};

/** A base64 image: the media type's magic bytes followed by random bytes. */
export const base64Image = (): fc.Arbitrary<{ mediaType: string; data: string }> =>
  fc.tuple(fc.constantFrom(...IMAGE_MEDIA_TYPES), fc.uint8Array({ minLength: 4, maxLength: 96 })).map(([mediaType, bytes]) => ({
    mediaType,
    data: Buffer.concat([Buffer.from(MAGIC[mediaType]), Buffer.from(bytes)]).toString('base64'),
  }));

export const httpsImageUrl = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('example.com', 'upload.wikimedia.org', 'cdn.test'), alnum(3, 12), fc.constantFrom('png', 'jpg', 'webp')).map(([h, p, e]) => `https://${h}/img/${p}.${e}`);

/** A number in [lo, hi] with two decimals: exact through JSON, never -0. */
export const decimal = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.integer({ min: Math.round(lo * 100), max: Math.round(hi * 100) }).map((n) => (n === 0 ? 0 : n / 100));

export const modelName = (prefix: string): fc.Arbitrary<string> => fc.constantFrom(`${prefix}-a`, `${prefix}-b-2025-01-01`, `${prefix}-latest`);

/** Signatures and redacted data are opaque base64 strings. */
export const opaque = (): fc.Arbitrary<string> => fc.uint8Array({ minLength: 12, maxLength: 64 }).map((b) => Buffer.from(b).toString('base64'));

/** Picks `n` distinct ids from an id arbitrary. */
export const distinctIds = (arb: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<string[]> =>
  fc.uniqueArray(arb, { minLength: min, maxLength: max });

/** A plain JSON copy: ordinary prototypes, no undefined values (what JSON.parse would give). */
export const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
