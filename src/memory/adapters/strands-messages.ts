/**
 * Strands Agents messages (`@strands-agents/sdk` v1, the JSON form `Message.toJSON()` gives and
 * `Message.fromJSON()` takes: `{ role, content: [blocks], trackingId?, metadata? }`, bytes as base64
 * text) <-> canonical messages. No runtime import of the SDK: this is data only.
 *
 * The blocks look like Bedrock Converse's but are not (`reasoning` instead of `reasoningContent`,
 * `cachePoint.cacheType`, `location.type`, image URLs, `jpg`/`3gp`/`json`/`xml` formats, a
 * `reasoningSignature` on tool use), so they map here, block by block:
 * - text; toolUse -> tool-call (`reasoningSignature` in `ext.strands`); toolResult -> tool-result
 *   (`status` -> isError; content text / json -> text / data parts, media -> media parts);
 * - reasoning `{text, signature, redactedContent}` -> reasoning with `origin` (the provider family
 *   that minted the signature: the agent's model; Bedrock unless told) and the signature byte-exact;
 * - image / video / audio / document -> media parts (strands-media.ts);
 * - cachePoint -> the cache hint of the part before it; guardContent and citations -> text (or image)
 *   parts whose `ext.strands` keeps what makes them guarded / cited, for the way back;
 * - the message's trackingId and metadata (usage, metrics) -> `ext.strands.$trackingId / $metadata`.
 * Back to Strands: tool messages become (part of) the next user message, as Strands keeps results;
 * what Strands cannot hold is a loss (system messages, reasoning of another origin, refusals and data
 * as text, search results, provider blocks, file-id sources). A block this module does not know is a
 * ValidationError naming it; nothing is skipped.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import type { FormatId } from '../../model/format-id.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, TextPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { decodeMedia, encodeMedia, formatsOf, mediaTypeOf, STRANDS, type MediaKind } from './strands-media.js';

/** A Strands message in its JSON form (`MessageData` with bytes as base64). */
export interface StrandsMessageJson {
  role: 'user' | 'assistant';
  content: JsonObject[];
  trackingId?: string;
  metadata?: JsonObject;
}

export interface StrandsMappingOptions {
  /** The provider family whose reasoning signatures the agent's model makes; default bedrock-converse. */
  origin?: FormatId;
}

const MEDIA: readonly MediaKind[] = ['image', 'video', 'audio', 'document'];
const BLOCKS = new Set(['text', 'toolUse', 'toolResult', 'reasoning', 'cachePoint', 'guardContent', 'citations', ...MEDIA]);
const RESULT_BLOCKS = new Set(['text', 'json', 'image', 'video', 'document']);

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- validation -------------------------------------------------------------------------------

function checkMedia(kind: MediaKind, v: unknown, path: Path, issues: Issue[]): void {
  const bad = (p: Path, message: string): void => void issues.push({ code: 'invalid_strands_block', path: p, message });
  if (!isObject(v)) return bad(path, `a ${kind} block holds an object`);
  if (typeof v['format'] !== 'string' || mediaTypeOf(kind, v['format']) === undefined) bad([...path, 'format'], `expected one of ${formatsOf(kind).join(', ')}`);
  if (kind === 'document' && typeof v['name'] !== 'string') bad([...path, 'name'], 'a document needs a name');
  const src = v['source'];
  const allowed = kind === 'image' ? ['bytes', 'url', 'location'] : kind === 'document' ? ['bytes', 'text', 'content', 'location'] : ['bytes', 'location'];
  const key = isObject(src) ? Object.keys(src) : [];
  if (!isObject(src) || key.length !== 1 || !allowed.includes(key[0] as string)) return bad([...path, 'source'], `expected exactly one of ${allowed.join(', ')}`);
  const s = src[key[0] as string];
  if (key[0] === 'location' && !(isObject(s) && s['type'] === 's3' && typeof s['uri'] === 'string')) bad([...path, 'source', 'location'], "expected { type: 's3', uri, bucketOwner? }");
  if (key[0] === 'content' && !(Array.isArray(s) && s.every((c) => isObject(c) && typeof c['text'] === 'string'))) bad([...path, 'source', 'content'], 'expected [{ text }]');
  if ((key[0] === 'bytes' || key[0] === 'url' || key[0] === 'text') && typeof s !== 'string') bad([...path, 'source', key[0] as string], 'expected text (bytes as base64)');
}

function checkBlock(block: unknown, path: Path, issues: Issue[], known: ReadonlySet<string>): void {
  const bad = (p: Path, message: string): void => void issues.push({ code: 'invalid_strands_block', path: p, message });
  const keys = isObject(block) ? Object.keys(block) : [];
  const kind = keys[0];
  if (!isObject(block) || keys.length !== 1 || kind === undefined || !known.has(kind)) return bad(path, `expected a block with exactly one of ${[...known].join(', ')}`);
  const v = block[kind];
  const at = [...path, kind];
  switch (kind) {
    case 'text':
      if (typeof v !== 'string') bad(at, 'expected text');
      return;
    case 'json':
      return;
    case 'toolUse':
      if (!isObject(v) || typeof v['name'] !== 'string' || typeof v['toolUseId'] !== 'string' || !('input' in v)) return bad(at, 'expected { name, toolUseId, input }');
      if (v['reasoningSignature'] !== undefined && typeof v['reasoningSignature'] !== 'string') bad([...at, 'reasoningSignature'], 'expected text');
      return;
    case 'toolResult':
      if (!isObject(v) || typeof v['toolUseId'] !== 'string' || (v['status'] !== 'success' && v['status'] !== 'error') || !Array.isArray(v['content'])) {
        return bad(at, "expected { toolUseId, status: 'success' | 'error', content: [...] }");
      }
      v['content'].forEach((c, j) => checkBlock(c, [...at, 'content', j], issues, RESULT_BLOCKS));
      return;
    case 'reasoning':
      if (!isObject(v) || ['text', 'signature', 'redactedContent'].some((k) => v[k] !== undefined && typeof v[k] !== 'string')) bad(at, 'expected { text?, signature?, redactedContent? } (text)');
      return;
    case 'cachePoint':
      if (!isObject(v) || v['cacheType'] !== 'default' || (v['ttl'] !== undefined && typeof v['ttl'] !== 'string')) bad(at, "expected { cacheType: 'default', ttl? }");
      return;
    case 'guardContent': {
      const t = isObject(v) ? v['text'] : undefined;
      const img = isObject(v) ? v['image'] : undefined;
      if (isObject(t) && typeof t['text'] === 'string' && Array.isArray(t['qualifiers'])) return;
      if (isObject(img)) return checkMedia('image', img, [...at, 'image'], issues);
      return bad(at, 'expected { text: { text, qualifiers } } or { image }');
    }
    case 'citations':
      if (!isObject(v) || !Array.isArray(v['citations']) || !Array.isArray(v['content']) || !v['content'].every((c) => isObject(c) && typeof c['text'] === 'string')) {
        bad(at, 'expected { citations: [...], content: [{ text }] }');
      }
      return;
    default:
      return checkMedia(kind as MediaKind, v, at, issues);
  }
}

// ---- Strands -> canonical ----------------------------------------------------------------------

function decodeResultContent(c: JsonObject): Part {
  if ('text' in c) return { type: 'text', text: c['text'] as string };
  if ('json' in c) return { type: 'data', data: c['json'] as JsonValue };
  const kind = Object.keys(c)[0] as MediaKind;
  return decodeMedia(kind, c[kind] as JsonObject);
}

function decodeBlock(block: JsonObject, origin: FormatId): Part {
  const kind = Object.keys(block)[0] as string;
  const v = block[kind] as JsonObject;
  switch (kind) {
    case 'text':
      return { type: 'text', text: block['text'] as string };
    case 'toolUse': {
      const part: Part = { type: 'tool-call', id: v['toolUseId'] as string, name: v['name'] as string, arguments: v['input'] as JsonValue };
      if (typeof v['reasoningSignature'] === 'string') part.ext = { [STRANDS]: { reasoningSignature: v['reasoningSignature'] } };
      return part;
    }
    case 'toolResult':
      return { type: 'tool-result', callId: v['toolUseId'] as string, isError: v['status'] === 'error', content: (v['content'] as JsonObject[]).map(decodeResultContent) };
    case 'reasoning': {
      const part: Part = { type: 'reasoning', origin };
      if (typeof v['text'] === 'string') part.text = v['text'];
      if (typeof v['signature'] === 'string') part.signature = v['signature'];
      if (typeof v['redactedContent'] === 'string') part.redactedData = v['redactedContent'];
      return part;
    }
    case 'guardContent': {
      const t = v['text'];
      if (isObject(t)) return { type: 'text', text: t['text'] as string, ext: { [STRANDS]: { guardContent: { qualifiers: t['qualifiers'] as JsonValue } } } };
      const image = decodeMedia('image', v['image'] as JsonObject);
      image.ext = { [STRANDS]: { ...image.ext?.[STRANDS], guardContent: true } };
      return image;
    }
    case 'citations': {
      const text = (v['content'] as JsonObject[]).map((c) => c['text'] as string).join('');
      return { type: 'text', text, ext: { [STRANDS]: { citations: v } } };
    }
    default:
      return decodeMedia(kind as MediaKind, v);
  }
}

/**
 * A Strands message (JSON form) -> a canonical message. Throws a ValidationError naming every bad
 * block under `path` (default `[]`: `['content', 2, 'toolUse']`).
 */
export function fromStrands(data: unknown, options: StrandsMappingOptions & { path?: Path; losses?: Loss[] } = {}): Message {
  const path = options.path ?? [];
  const issues: Issue[] = [];
  const m = data as Partial<StrandsMessageJson> | null;
  if (!isObject(m)) throw new ValidationError([{ code: 'invalid_strands_message', path, message: 'expected a Strands message { role, content }' }]);
  if (m.role !== 'user' && m.role !== 'assistant') issues.push({ code: 'invalid_strands_message', path: [...path, 'role'], message: "expected 'user' or 'assistant'" });
  if (!Array.isArray(m.content)) issues.push({ code: 'invalid_strands_message', path: [...path, 'content'], message: 'expected an array of content blocks' });
  else m.content.forEach((b, j) => checkBlock(b, [...path, 'content', j], issues, BLOCKS));
  if (m.trackingId !== undefined && typeof m.trackingId !== 'string') issues.push({ code: 'invalid_strands_message', path: [...path, 'trackingId'], message: 'expected text' });
  if (m.metadata !== undefined && !isObject(m.metadata)) issues.push({ code: 'invalid_strands_message', path: [...path, 'metadata'], message: 'expected an object' });
  if (issues.length > 0) throw new ValidationError(issues);

  const origin = options.origin ?? 'bedrock-converse';
  const parts: Part[] = [];
  (m.content as JsonObject[]).forEach((block, j) => {
    const point = block['cachePoint'];
    if (isObject(point)) {
      const prev = parts[parts.length - 1];
      if (prev !== undefined && prev.cache === undefined) {
        prev.cache = typeof point['ttl'] === 'string' ? { type: 'ephemeral', ttl: point['ttl'] } : { type: 'ephemeral' };
      } else {
        options.losses?.push({ code: 'cache-point', path: [...path, 'content', j], message: 'a cache point with no block before it to mark', action: 'dropped' });
      }
      return;
    }
    parts.push(decodeBlock(block, origin));
  });
  const message: Message = { role: m.role as 'user' | 'assistant', parts };
  const own: JsonObject = {};
  if (m.trackingId !== undefined) own['$trackingId'] = m.trackingId;
  if (m.metadata !== undefined) own['$metadata'] = m.metadata;
  if (Object.keys(own).length > 0) message.ext = { [STRANDS]: own };
  return message;
}

// ---- canonical -> Strands ----------------------------------------------------------------------

type Media = Part & { source: Source };
const isMedia = (p: Part): p is Media => p.type === 'image' || p.type === 'video' || p.type === 'audio' || p.type === 'document';

function encodeResultContent(p: Part, path: Path, losses: Loss[]): JsonObject | undefined {
  if (p.type === 'text') return { text: p.text };
  if (p.type === 'data') return { json: p.data };
  if (isMedia(p) && p.type !== 'audio') return encodeMedia(p, path, losses);
  losses.push({ code: 'unsupported-part', path, message: `a Strands tool result cannot hold ${p.type}: kept as JSON text`, action: 'approximated' });
  return { text: JSON.stringify(p) };
}

function encodeText(p: TextPart): JsonObject {
  const own = p.ext?.[STRANDS];
  const guard = own?.['guardContent'];
  if (isObject(guard)) return { guardContent: { text: { text: p.text, qualifiers: guard['qualifiers'] as JsonValue } } };
  const cited = own?.['citations'];
  if (isObject(cited) && Array.isArray(cited['content']) && cited['content'].map((c) => (c as JsonObject)['text']).join('') === p.text) return { citations: cited };
  return { text: p.text };
}

function encodePart(p: Part, path: Path, origin: FormatId, losses: Loss[]): JsonObject | undefined {
  const lose = (code: string, message: string, action: Loss['action'] = 'dropped'): void => void losses.push({ code, path, message, action });
  switch (p.type) {
    case 'text':
      return encodeText(p);
    case 'tool-call': {
      const toolUse: JsonObject = { name: p.name, toolUseId: p.id, input: p.arguments };
      const sig = p.ext?.[STRANDS]?.['reasoningSignature'];
      if (typeof sig === 'string') toolUse['reasoningSignature'] = sig;
      if (p.providerExecuted === true) lose('provider-executed', 'Strands has no server-side tools: sent as an ordinary tool call', 'approximated');
      return { toolUse };
    }
    case 'tool-result': {
      const content = p.content.map((c, k) => encodeResultContent(c, [...path, 'content', k], losses)).filter((c) => c !== undefined);
      return { toolResult: { toolUseId: p.callId, status: p.isError === true ? 'error' : 'success', content } };
    }
    case 'reasoning': {
      if (p.origin !== origin || p.encryptedContent !== undefined) {
        lose('foreign-reasoning', `reasoning from ${p.origin} cannot go to a ${origin} model`);
        return undefined;
      }
      const reasoning: JsonObject = {};
      if (p.text !== undefined) reasoning['text'] = p.text;
      if (p.signature !== undefined) reasoning['signature'] = p.signature;
      if (p.redactedData !== undefined) reasoning['redactedContent'] = p.redactedData;
      return { reasoning };
    }
    case 'image':
    case 'video':
    case 'audio':
    case 'document': {
      const block = encodeMedia(p, path, losses);
      if (block !== undefined && p.type === 'image' && p.ext?.[STRANDS]?.['guardContent'] === true) return { guardContent: { image: block['image'] as JsonValue } };
      return block;
    }
    case 'refusal':
      lose('refusal-as-text', 'Strands has no refusal block: sent as text', 'approximated');
      return { text: p.text };
    case 'data':
      lose('data-as-text', 'Strands messages hold JSON only inside tool results: sent as text', 'approximated');
      return { text: JSON.stringify(p.data) };
    default:
      lose('unsupported-part', `Strands has no ${p.type} block`);
      return undefined;
  }
}

function encodeParts(parts: readonly Part[], path: Path, origin: FormatId, losses: Loss[]): JsonObject[] {
  const out: JsonObject[] = [];
  parts.forEach((p, j) => {
    const block = encodePart(p, [...path, 'parts', j], origin, losses);
    if (block === undefined) return;
    out.push(block);
    if (p.cache !== undefined) out.push({ cachePoint: p.cache.ttl === undefined ? { cacheType: 'default' } : { cacheType: 'default', ttl: p.cache.ttl } });
  });
  // A message left with nothing Strands holds says what was left out, so the turn is not lost.
  if (out.length === 0 && parts.length > 0) out.push({ text: `[omitted: ${[...new Set(parts.map((p) => p.type))].join(', ')}]` });
  return out;
}

/**
 * Canonical messages -> Strands messages (JSON form). Tool messages join the user message after
 * them (or form one), results first; system and developer messages are left out (`system-message`).
 */
export function toStrands(messages: readonly Message[], options: StrandsMappingOptions = {}): { messages: StrandsMessageJson[]; losses: Loss[] } {
  const origin = options.origin ?? 'bedrock-converse';
  const losses: Loss[] = [];
  const out: StrandsMessageJson[] = [];
  let results: StrandsMessageJson | undefined;
  messages.forEach((m, i) => {
    const path: Path = ['messages', i];
    if (m.role === 'system' || m.role === 'developer') {
      losses.push({ code: 'system-message', path, message: 'a Strands conversation has no system messages (the agent has its systemPrompt)', action: 'dropped' });
      return;
    }
    const content = encodeParts(m.parts, path, origin, losses);
    if (m.role === 'tool') {
      if (results === undefined) out.push((results = { role: 'user', content: [] }));
      results.content.push(...content);
      return;
    }
    let msg: StrandsMessageJson;
    if (m.role === 'user' && results !== undefined) {
      msg = results;
      msg.content.push(...content);
    } else out.push((msg = { role: m.role, content }));
    const own = m.ext?.[STRANDS];
    if (typeof own?.['$trackingId'] === 'string') msg.trackingId = own['$trackingId'];
    if (isObject(own?.['$metadata'])) msg.metadata = own['$metadata'];
    results = undefined;
  });
  return { messages: out, losses };
}
