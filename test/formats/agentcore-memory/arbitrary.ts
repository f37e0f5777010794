/**
 * Random canonical messages of every role and part kind, with the fields AgentCore events have no
 * slot for (citations, cache breakpoints, other formats' ext, names, string content) and message
 * metadata of every shape (long values, characters outside AgentCore's set, JSON values, nulls).
 */
import fc from 'fast-check';
import { FORMAT_IDS } from '../../../src/model/format-id.js';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Message, Role } from '../../../src/model/message.js';
import type { Part, TextPart } from '../../../src/model/part.js';
import type { Source } from '../../../src/model/source.js';
import { base64Image, jsonValue, opaque, plain, text as someText } from '../../support/arbitraries/common.js';

const json = (): fc.Arbitrary<JsonValue> => jsonValue() as fc.Arbitrary<JsonValue>;
const str = fc.string({ maxLength: 12 });
/** Text of any kind: ordinary, blank, empty, or longer than a conversational payload holds. */
const anyText = fc.oneof({ weight: 8, arbitrary: someText() }, { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n') }, { weight: 1, arbitrary: fc.constant('z'.repeat(100_001)) });
const foreignExt = fc.record({ 'openai-chat': fc.dictionary(fc.constantFrom('refusal', 'x', '$id'), json(), { minKeys: 1, maxKeys: 2 }) }) as fc.Arbitrary<Record<string, JsonObject>>;
const cache = fc.constant({ type: 'ephemeral' as const });

const textPart: fc.Arbitrary<TextPart> = fc.record(
  { type: fc.constant('text' as const), text: anyText, citations: fc.array(fc.record({ type: fc.constant('url' as const), url: fc.webUrl() }), { minLength: 1, maxLength: 2 }), cache, ext: foreignExt },
  { requiredKeys: ['type', 'text'] },
);

const source: fc.Arbitrary<Source> = fc.oneof(
  base64Image().map(({ mediaType, data }) => ({ kind: 'base64' as const, mediaType, data })),
  fc.record({ kind: fc.constant('url' as const), url: fc.webUrl(), mediaType: fc.constantFrom('image/png', 'application/pdf') }, { requiredKeys: ['kind', 'url'] }),
  fc.record({ kind: fc.constant('file-id' as const), fileId: str }),
  fc.record({ kind: fc.constant('s3' as const), uri: fc.constant('s3://bucket/key.pdf'), bucketOwner: fc.constant('123456789012') }, { requiredKeys: ['kind', 'uri'] }),
  fc.record({ kind: fc.constant('text' as const), text: someText() }),
);

const leaf: fc.Arbitrary<Part> = fc.oneof(
  textPart,
  fc.record({ type: fc.constant('image' as const), source, detail: fc.constantFrom('low', 'high') }, { requiredKeys: ['type', 'source'] }),
  fc.record({ type: fc.constantFrom('audio' as const, 'video' as const), source }),
  fc.record({ type: fc.constant('document' as const), source, name: str, title: str, citations: fc.boolean() }, { requiredKeys: ['type', 'source'] }),
  fc.record({ type: fc.constant('data' as const), data: json() }),
  fc.record({ type: fc.constant('refusal' as const), text: someText() }),
  fc.record({ type: fc.constant('search-result' as const), source: fc.webUrl(), title: str, content: fc.array(fc.record({ type: fc.constant('text' as const), text: someText() }), { maxLength: 2 }) }, { requiredKeys: ['type', 'source', 'content'] }),
  fc.record({ type: fc.constant('provider-block' as const), origin: fc.constantFrom(...FORMAT_IDS), block: fc.dictionary(str, json(), { maxKeys: 3 }) as fc.Arbitrary<JsonObject> }),
);

const reasoning: fc.Arbitrary<Part> = fc.record(
  { type: fc.constant('reasoning' as const), origin: fc.constantFrom(...FORMAT_IDS), text: someText(), signature: opaque(), redactedData: opaque(), encryptedContent: opaque(), summary: fc.array(someText(), { maxLength: 2 }), id: str },
  { requiredKeys: ['type', 'origin'] },
);

const toolCall: fc.Arbitrary<Part> = fc
  .record({ id: str, name: str, arguments: json(), spaced: fc.boolean(), providerExecuted: fc.boolean(), cache: fc.option(cache, { nil: undefined }) })
  .map(({ id, name, arguments: args, spaced, providerExecuted, cache: c }) => {
    const p: Part = { type: 'tool-call', id, name, arguments: args };
    if (spaced) p.argumentsJson = JSON.stringify(args, null, 1);
    if (providerExecuted) p.providerExecuted = true;
    if (c) p.cache = c;
    return p;
  });

const toolResult: fc.Arbitrary<Part> = fc.record(
  { type: fc.constant('tool-result' as const), callId: str, name: str, content: fc.array(leaf, { maxLength: 3 }), stringContent: fc.constant(true as const), isError: fc.boolean(), providerExecuted: fc.boolean(), ext: foreignExt },
  { requiredKeys: ['type', 'callId', 'content'] },
);

const part: fc.Arbitrary<Part> = fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: reasoning }, { weight: 2, arbitrary: toolCall }, { weight: 2, arbitrary: toolResult });

/** Metadata keys and values of every kind: fitting AgentCore's event metadata or not. */
const metadata = fc.dictionary(
  fc.oneof(fc.constantFrom('user.id', 'seq', 'trace:id', 'k'), fc.string({ maxLength: 140 })),
  fc.oneof(fc.constantFrom('alice@example.com', '0.7', '2024-01-15'), fc.string({ maxLength: 300 }), json()),
  { maxKeys: 20 },
);

export const message: fc.Arbitrary<Message> = fc
  .record(
    {
      role: fc.constantFrom<Role>('user', 'user', 'assistant', 'assistant', 'tool', 'system', 'developer'),
      parts: fc.array(part, { maxLength: 6 }),
      name: str,
      stringContent: fc.constant(true as const),
      foreign: foreignExt,
      metadata,
    },
    { requiredKeys: ['role', 'parts'] },
  )
  .map(({ foreign, metadata: md, ...m }) => {
    const out = m as Message;
    if (foreign || md) out.ext = { ...foreign, ...(md ? { 'agentcore-memory': { metadata: md as JsonObject } } : {}) };
    return plain(out);
  });

/** Many parts: over what one event holds. */
export const bigMessage: fc.Arbitrary<Message> = fc.array(leaf, { minLength: 95, maxLength: 130 }).map((parts) => plain({ role: 'user' as const, parts }));
