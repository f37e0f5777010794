/**
 * Vercel AI SDK prompt messages (`LanguageModelV4Prompt` of `@ai-sdk/provider` v4, what a
 * language-model middleware sees) <-> canonical messages. Types only from the SDK; no runtime import.
 *
 * - text, tool-call (`input` is parsed JSON), tool-result, file, reasoning map to their canonical
 *   parts. A file becomes an image / audio / video part by its media type's top level, else a
 *   document (`filename` is its name); its data (bytes, base64 text, URL, provider reference, text)
 *   becomes the matching source. Bytes are kept as base64 (hint `$bytes` to give bytes back).
 * - A tool result's `output` (`text`, `json`, `error-text`, `error-json`, `execution-denied`,
 *   `content`) becomes its content parts and isError; the output type is kept as the hint
 *   `$output` so the way back is exact.
 * - Reasoning: its signature travels in providerOptions (`anthropic: {signature | redactedData}`,
 *   `bedrock` / `amazonBedrock: {signature | redactedData}`); it becomes the canonical signature
 *   with that provider family as origin, so other dialects can replay it. Other reasoning takes the
 *   origin of the model's provider (`originOfProvider`).
 * - Everything else a part or message carries (providerOptions, providerExecuted, custom parts,
 *   reasoning files, tool approval responses, a URL's originalUrl) is kept in `ext['ai-sdk']`.
 * Back: canonical tool results in a user message (Anthropic's way) go into a tool message before it;
 * system messages are left out (the caller's own stay in the prompt); what the prompt cannot hold
 * is a loss. A part this module does not know is a ValidationError naming it.
 */
import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput, SharedV4FileData } from '@ai-sdk/provider';
import { ValidationError, type Issue } from '../../model/errors.js';
import type { FormatId } from '../../model/format-id.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ReasoningPart, ToolResultPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';

export const AI_SDK = 'ai-sdk';

type PromptPart = { type: string; providerOptions?: Record<string, unknown> } & Record<string, unknown>;
type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const json = (v: unknown): JsonValue => JSON.parse(JSON.stringify(v ?? null)) as JsonValue;

/** The canonical origin of reasoning a model of this provider id made (`anthropic.messages`, `amazon-bedrock` ...). */
export function originOfProvider(provider: string): FormatId {
  const p = provider.toLowerCase();
  if (p.startsWith('anthropic')) return 'anthropic-messages';
  if (p.includes('bedrock')) return 'bedrock-converse';
  if (p.startsWith('openai.responses')) return 'openai-responses';
  if (p.startsWith('openai')) return 'openai-chat';
  if (p.startsWith('google') || p.includes('vertex')) return 'gemini';
  // No provider family: plain reasoning text, as AG-UI's reasoning messages are.
  return 'ag-ui';
}

/** providerOptions keys that carry reasoning signatures, by the origin they belong to. */
const SIGNED: readonly (readonly [key: string, origin: FormatId])[] = [['anthropic', 'anthropic-messages'], ['bedrock', 'bedrock-converse'], ['amazonBedrock', 'bedrock-converse']];

function withExt<P extends { ext?: Message['ext'] }>(target: P, own: JsonObject): P {
  const entries = Object.entries(own).filter(([, v]) => v !== undefined);
  if (entries.length > 0) target.ext = { ...target.ext, [AI_SDK]: { ...target.ext?.[AI_SDK], ...Object.fromEntries(entries) } };
  return target;
}

const options = (p: { providerOptions?: unknown }): JsonObject => (p.providerOptions === undefined ? {} : { providerOptions: json(p.providerOptions) });

// ---- AI SDK -> canonical -----------------------------------------------------------------------

function decodeFileData(data: SharedV4FileData | Obj, mediaType: string): { source: Source; own: JsonObject } {
  const d = data as Obj;
  switch (d['type']) {
    case 'data':
      if (d['data'] instanceof Uint8Array) return { source: { kind: 'base64', mediaType, data: Buffer.from(d['data']).toString('base64') }, own: { $bytes: true } };
      return { source: { kind: 'base64', mediaType, data: d['data'] as string }, own: {} };
    case 'url':
      return { source: { kind: 'url', url: String(d['url']), mediaType }, own: d['originalUrl'] === undefined ? {} : { originalUrl: d['originalUrl'] as string } };
    case 'reference': {
      const ref = d['reference'] as Record<string, string>;
      return { source: { kind: 'file-id', fileId: Object.values(ref)[0] ?? '', mediaType }, own: { reference: ref } };
    }
    default:
      return { source: { kind: 'text', text: d['text'] as string, mediaType }, own: {} };
  }
}

function decodeFile(p: PromptPart): Part {
  const mediaType = p['mediaType'] as string;
  const { source, own } = decodeFileData(p['data'] as SharedV4FileData, mediaType);
  const top = mediaType.split('/')[0];
  const kind = top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
  const part = { type: kind, source } as Part;
  const filename = p['filename'];
  if (kind === 'document' && typeof filename === 'string') (part as { name?: string }).name = filename;
  else if (typeof filename === 'string') own['filename'] = filename;
  return withExt(part, { ...own, ...options(p) });
}

function decodeOutput(output: LanguageModelV4ToolResultOutput): { content: Part[]; isError: boolean; own: JsonObject } {
  const own: JsonObject = { $output: output.type, ...options(output as { providerOptions?: unknown }) };
  switch (output.type) {
    case 'text':
      return { content: [{ type: 'text', text: output.value }], isError: false, own };
    case 'error-text':
      return { content: [{ type: 'text', text: output.value }], isError: true, own };
    case 'json':
      return { content: [{ type: 'data', data: json(output.value) }], isError: false, own };
    case 'error-json':
      return { content: [{ type: 'data', data: json(output.value) }], isError: true, own };
    case 'execution-denied':
      return { content: output.reason === undefined ? [] : [{ type: 'text', text: output.reason }], isError: true, own };
    case 'content':
      return {
        content: output.value.map((item): Part => {
          if (item.type === 'text') return withExt<Part>({ type: 'text', text: item.text }, options(item));
          if (item.type === 'file') return decodeFile(item as unknown as PromptPart);
          return { type: 'data', data: {}, ext: { [AI_SDK]: { $custom: true, ...options(item) } } };
        }),
        isError: false,
        own,
      };
  }
}

function decodeReasoning(p: PromptPart, origin: FormatId): Part {
  const part: ReasoningPart = { type: 'reasoning', origin, text: p['text'] as string };
  const opts = isObject(p.providerOptions) ? { ...p.providerOptions } : undefined;
  for (const [key, o] of SIGNED) {
    const signed = opts?.[key];
    if (!isObject(signed) || (typeof signed['signature'] !== 'string' && typeof signed['redactedData'] !== 'string')) continue;
    part.origin = o;
    const { signature, redactedData, ...others } = signed;
    if (typeof signature === 'string') part.signature = signature;
    if (typeof redactedData === 'string') part.redactedData = redactedData;
    // The key is rebuilt from the canonical fields; only what else it held stays in ext.
    if (Object.keys(others).length > 0) (opts as Obj)[key] = others;
    else delete (opts as Obj)[key];
    withExt(part, { $signedBy: key });
    break;
  }
  return withExt(part, opts === undefined || Object.keys(opts).length === 0 ? {} : { providerOptions: json(opts) });
}

function decodePart(p: PromptPart, origin: FormatId): Part {
  switch (p.type) {
    case 'text':
      return withExt<Part>({ type: 'text', text: p['text'] as string }, options(p));
    case 'file':
      return decodeFile(p);
    case 'reasoning':
      return decodeReasoning(p, origin);
    case 'reasoning-file':
      return withExt(decodeFile(p), { $reasoningFile: true });
    case 'tool-call': {
      const part: Part = { type: 'tool-call', id: p['toolCallId'] as string, name: p['toolName'] as string, arguments: json(p['input']) };
      if (p['providerExecuted'] === true) part.providerExecuted = true;
      return withExt(part, options(p));
    }
    case 'tool-result': {
      const { content, isError, own } = decodeOutput(p['output'] as LanguageModelV4ToolResultOutput);
      const part: ToolResultPart = { type: 'tool-result', callId: p['toolCallId'] as string, name: p['toolName'] as string, content, isError };
      return withExt(part, { ...own, ...options(p) });
    }
    case 'custom':
      return { type: 'data', data: {}, ext: { [AI_SDK]: { $custom: true, kind: p['kind'] as string, ...options(p) } } };
    default: {
      // tool-approval-response: kept whole.
      const { type: _type, ...rest } = p;
      return { type: 'data', data: json(rest), ext: { [AI_SDK]: { $part: p.type } } };
    }
  }
}

const PARTS: Readonly<Record<string, readonly string[]>> = {
  user: ['text', 'file'],
  assistant: ['text', 'file', 'custom', 'reasoning', 'reasoning-file', 'tool-call', 'tool-result'],
  tool: ['tool-result', 'tool-approval-response'],
};

/** Prompt messages -> canonical messages, one each. Throws a ValidationError for a part it does not know. */
export function fromAiSdk(prompt: LanguageModelV4Prompt | readonly unknown[], origin: FormatId = 'ag-ui'): Message[] {
  const issues: Issue[] = [];
  const bad = (path: Path, message: string): void => void issues.push({ code: 'invalid_ai_sdk_prompt', path, message });
  prompt.forEach((m, i) => {
    if (!isObject(m)) return bad([i], 'expected a prompt message');
    const role = m['role'];
    if (role === 'system') return void (typeof m['content'] !== 'string' && bad([i, 'content'], 'a system message holds text'));
    const allowed = typeof role === 'string' ? PARTS[role] : undefined;
    if (allowed === undefined) return bad([i, 'role'], 'expected system, user, assistant or tool');
    if (!Array.isArray(m['content'])) return bad([i, 'content'], 'expected an array of parts');
    m['content'].forEach((p, j) => {
      if (!isObject(p) || !allowed.includes(p['type'] as string)) bad([i, 'content', j, 'type'], `a ${role} message holds ${allowed.join(', ')} parts`);
    });
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return (prompt as LanguageModelV4Message[]).map((m): Message => {
    const msg: Message = m.role === 'system' ? { role: 'system', parts: [{ type: 'text', text: m.content }] } : { role: m.role, parts: (m.content as unknown as PromptPart[]).map((p) => decodePart(p, origin)) };
    return withExt(msg, options(m));
  });
}

// ---- canonical -> AI SDK -----------------------------------------------------------------------

type Own = JsonObject | undefined;
const own = (p: { ext?: Message['ext'] }): Own => p.ext?.[AI_SDK];
function restoreOptions<T extends Obj>(out: T, from: Own): T {
  if (from?.['providerOptions'] !== undefined) out['providerOptions' as keyof T] = from['providerOptions'] as T[keyof T];
  return out;
}

function encodeFileData(source: Source, o: Own, path: Path, losses: Loss[]): Obj | undefined {
  switch (source.kind) {
    case 'base64':
      return { type: 'data', data: o?.['$bytes'] === true ? new Uint8Array(Buffer.from(source.data, 'base64')) : source.data };
    case 'url':
      return o?.['originalUrl'] === undefined ? { type: 'url', url: new URL(source.url) } : { type: 'url', url: new URL(source.url), originalUrl: o['originalUrl'] };
    case 'file-id':
      return { type: 'reference', reference: isObject(o?.['reference']) ? o['reference'] : { file: source.fileId } };
    case 'text':
      return { type: 'text', text: source.text };
    default:
      losses.push({ code: 'unsupported-media', path, message: `the AI SDK has no file from ${source.kind} sources`, action: 'dropped' });
      return undefined;
  }
}

function encodeFile(p: Part & { source: Source }, path: Path, losses: Loss[]): Obj | undefined {
  const o = own(p);
  const data = encodeFileData(p.source, o, path, losses);
  if (data === undefined) return undefined;
  const mediaType = 'mediaType' in p.source && p.source.mediaType !== undefined ? p.source.mediaType : p.type === 'document' ? 'text/plain' : p.type;
  const out: Obj = { type: o?.['$reasoningFile'] === true ? 'reasoning-file' : 'file', data, mediaType };
  const filename = p.type === 'document' ? p.name : o?.['filename'];
  if (typeof filename === 'string') out['filename'] = filename;
  return restoreOptions(out, o);
}

function encodeReasoning(p: ReasoningPart, path: Path, losses: Loss[]): Obj {
  const o = own(p);
  const opts: Obj = isObject(o?.['providerOptions']) ? { ...o['providerOptions'] } : {};
  const signed = SIGNED.find(([key, origin]) => origin === p.origin && (o?.['$signedBy'] === undefined || o['$signedBy'] === key));
  if (signed !== undefined && (p.signature !== undefined || p.redactedData !== undefined)) {
    const base = isObject(opts[signed[0]]) ? (opts[signed[0]] as Obj) : {};
    opts[signed[0]] = { ...base, ...(p.signature === undefined ? {} : { signature: p.signature }), ...(p.redactedData === undefined ? {} : { redactedData: p.redactedData }) };
  } else if (p.signature !== undefined || p.redactedData !== undefined || p.encryptedContent !== undefined) {
    losses.push({ code: 'foreign-reasoning', path, message: `the ${p.origin} reasoning signature has no AI SDK providerOptions form here: its text is kept, unsigned`, action: 'dropped' });
  }
  const out: Obj = { type: 'reasoning', text: p.text ?? p.summary?.join('\n') ?? '' };
  if (Object.keys(opts).length > 0) out['providerOptions'] = opts;
  return out;
}

function encodeOutput(p: ToolResultPart, path: Path, losses: Loss[]): Obj {
  const o = own(p);
  const hinted = o?.['$output'];
  const only = p.content.length === 1 ? p.content[0] : undefined;
  const wrap = (out: Obj): Obj => (isObject(o?.['providerOptions']) && hinted !== undefined ? { ...out, providerOptions: o['providerOptions'] } : out);
  if (hinted === 'execution-denied' && p.isError === true && p.content.length <= 1 && (only === undefined || only.type === 'text')) {
    return wrap(only === undefined ? { type: 'execution-denied' } : { type: 'execution-denied', reason: only.text });
  }
  if (only?.type === 'text' && hinted !== 'content') return wrap({ type: p.isError === true ? 'error-text' : 'text', value: only.text });
  if (only?.type === 'data' && hinted !== 'content' && only.ext?.[AI_SDK]?.['$custom'] === undefined) return wrap({ type: p.isError === true ? 'error-json' : 'json', value: only.data });
  if (p.isError === true) losses.push({ code: 'tool-error-content', path, message: 'an AI SDK error result holds one text or JSON value: sent as content', action: 'approximated' });
  const value = p.content.flatMap((c, k): Obj[] => {
    const at = [...path, 'content', k];
    if (c.type === 'text') return [restoreOptions({ type: 'text', text: c.text }, own(c))];
    if (c.type === 'data' && own(c)?.['$custom'] === true) return [restoreOptions({ type: 'custom' }, own(c))];
    if (c.type === 'image' || c.type === 'audio' || c.type === 'video' || c.type === 'document') {
      const file = encodeFile(c, at, losses);
      return file === undefined ? [] : [file];
    }
    losses.push({ code: 'unsupported-part', path: at, message: `an AI SDK tool result holds no ${c.type}: sent as JSON text`, action: 'approximated' });
    return [{ type: 'text', text: c.type === 'data' ? JSON.stringify(c.data) : JSON.stringify(c) }];
  });
  return wrap({ type: 'content', value });
}

function encodePart(p: Part, path: Path, names: ReadonlyMap<string, string>, losses: Loss[]): Obj | undefined {
  const o = own(p);
  switch (p.type) {
    case 'text':
      return restoreOptions({ type: 'text', text: p.text }, o);
    case 'reasoning':
      return encodeReasoning(p, path, losses);
    case 'tool-call': {
      const out: Obj = { type: 'tool-call', toolCallId: p.id, toolName: p.name, input: p.arguments };
      if (p.providerExecuted === true) out['providerExecuted'] = true;
      return restoreOptions(out, o);
    }
    case 'tool-result': {
      const name = p.name ?? names.get(p.callId);
      if (name === undefined) losses.push({ code: 'tool-name', path, message: `no tool name for result ${p.callId}: sent with an empty name`, action: 'approximated' });
      return restoreOptions({ type: 'tool-result', toolCallId: p.callId, toolName: name ?? '', output: encodeOutput(p, path, losses) }, o);
    }
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
      return encodeFile(p, path, losses);
    case 'data':
      if (o?.['$custom'] === true) return restoreOptions({ type: 'custom', kind: o['kind'] }, o);
      if (typeof o?.['$part'] === 'string' && isObject(p.data)) return { type: o['$part'], ...p.data };
      losses.push({ code: 'data-as-text', path, message: 'an AI SDK message holds no JSON part: sent as text', action: 'approximated' });
      return { type: 'text', text: JSON.stringify(p.data) };
    case 'refusal':
      losses.push({ code: 'refusal-as-text', path, message: 'the AI SDK has no refusal part: sent as text', action: 'approximated' });
      return { type: 'text', text: p.text };
    default:
      losses.push({ code: 'unsupported-part', path, message: `the AI SDK prompt has no ${p.type} part`, action: 'dropped' });
      return undefined;
  }
}

/** Canonical messages -> prompt messages; tool results of a user message go into a tool message before it. */
export function toAiSdk(messages: readonly Message[]): { messages: LanguageModelV4Message[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const names = new Map<string, string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call') names.set(p.id, p.name);
  const out: Obj[] = [];
  messages.forEach((m, i) => {
    const path: Path = ['messages', i];
    if (m.role === 'system' || m.role === 'developer') {
      losses.push({ code: 'system-message', path, message: 'recalled system messages are not sent (the caller gives its own)', action: 'dropped' });
      return;
    }
    const parts = m.parts.map((p, j) => ({ p, at: [...path, 'parts', j] as Path }));
    // A tool message keeps all its parts (approval responses too); a user message gives up its results.
    const results = m.role === 'tool' ? parts : m.role === 'user' ? parts.filter(({ p }) => p.type === 'tool-result') : [];
    const rest = m.role === 'tool' ? [] : m.role === 'user' ? parts.filter(({ p }) => p.type !== 'tool-result') : parts;
    const encode = (list: typeof parts): Obj[] => list.map(({ p, at }) => encodePart(p, at, names, losses)).filter((x): x is Obj => x !== undefined);
    if (results.length > 0) {
      const prev = out[out.length - 1];
      if (prev?.['role'] === 'tool') (prev['content'] as Obj[]).push(...encode(results));
      else out.push(restoreOptions({ role: 'tool', content: encode(results) }, m.role === 'tool' ? own(m) : undefined));
    }
    if (m.role === 'tool') return;
    const content = encode(rest);
    if (content.length === 0 && rest.length > 0) content.push({ type: 'text', text: `[omitted: ${[...new Set(rest.map(({ p }) => p.type))].join(', ')}]` });
    if (content.length > 0 || results.length === 0) out.push(restoreOptions({ role: m.role, content }, own(m)));
  });
  return { messages: out as unknown as LanguageModelV4Message[], losses };
}
