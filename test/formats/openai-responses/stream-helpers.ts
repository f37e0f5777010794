/**
 * Shared pieces of the Responses stream tests: captures split into one stream per response,
 * decode / encode runs, the official SDK's stream reader over a fake fetch, and what the SDK's
 * final response and a canonical response say (text, calls, reasoning, usage) side by side.
 */
import OpenAI from 'openai';
import type { Response as SdkResponse } from 'openai/resources/responses/responses';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { ResponsesStreamDecoder } from '../../../src/formats/openai-responses/stream-decode.js';
import { ResponsesStreamEncoder } from '../../../src/formats/openai-responses/stream-encode.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { formatSse } from '../../../src/stream/sse.js';
import type { StreamCapture } from '../../support/streams.js';

const END = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export const typeOf = (w: WireEvent): string | undefined => {
  const d = w.data;
  return d !== null && typeof d === 'object' && !Array.isArray(d) && typeof d['type'] === 'string' ? d['type'] : undefined;
};

/** Some capture files hold several responses one after the other: one stream each. */
export function streams(captures: StreamCapture[]): StreamCapture[] {
  const out: StreamCapture[] = [];
  for (const c of captures) {
    let cur: WireEvent[] = [];
    let ended = false;
    const parts: WireEvent[][] = [cur];
    for (const w of c.events) {
      if (ended && typeOf(w) === 'response.created') {
        parts.push((cur = []));
        ended = false;
      }
      if (END.has(typeOf(w) ?? '')) ended = true;
      cur.push(w);
    }
    parts.forEach((events, k) => out.push({ name: parts.length > 1 ? `${c.name}#${k}` : c.name, events }));
  }
  return out;
}

export function decodeStream(wire: readonly WireEvent[], losses: Loss[] = []): StreamEvent[] {
  const d = new ResponsesStreamDecoder({ limits: DEFAULT_LIMITS, losses });
  const out: StreamEvent[] = [];
  for (const w of wire) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

export function encodeStream(events: readonly StreamEvent[], losses: Loss[] = []): WireEvent[] {
  const e = new ResponsesStreamEncoder({ losses });
  const out: WireEvent[] = [];
  for (const x of events) out.push(...e.push(x));
  out.push(...e.end());
  return out;
}

export const sseText = (wire: readonly WireEvent[]): string => wire.map(formatSse).join('');

export interface SdkRun {
  final?: SdkResponse;
  error?: Error;
  /** Every event the SDK's stream emitted, by type. */
  seen: string[];
}

/** The openai SDK's Responses stream helper reading `body` as the HTTP response of its request. */
export async function sdkRead(body: string): Promise<SdkRun> {
  const client = new OpenAI({
    apiKey: 'test',
    maxRetries: 0,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.responses.stream({ model: 'test-model', input: 'hi' });
  const seen: string[] = [];
  stream.on('event', (e) => seen.push(e.type));
  try {
    return { final: await stream.finalResponse(), seen };
  } catch (error) {
    return { error: error as Error, seen };
  }
}

export interface Said {
  text: string;
  calls: { id: string; name: string; args: unknown }[];
  reasoning: { summary: string[]; text: string; encrypted?: string }[];
  usage?: { input: number; output: number };
}

/** What a canonical response says, as the SDK's final response would show it. */
export function canonicalSays(res: Response): Said {
  const out: Said = { text: '', calls: [], reasoning: [] };
  for (const p of res.choices[0]?.message.parts ?? []) {
    if (p.type === 'text') out.text += p.text;
    if (p.type === 'tool-call' && p.providerExecuted !== true) out.calls.push({ id: p.id, name: p.name, args: parse(p.argumentsJson ?? JSON.stringify(p.arguments)) });
    if (p.type === 'reasoning' && p.origin === 'openai-responses') {
      out.reasoning.push({ summary: p.summary ?? [], text: p.text ?? '', ...(p.encryptedContent !== undefined ? { encrypted: p.encryptedContent } : {}) });
    }
  }
  if (res.usage) out.usage = { input: res.usage.inputTokens, output: res.usage.outputTokens };
  return out;
}

/** What the SDK's final response says. */
export function sdkSays(res: SdkResponse): Said {
  const out: Said = { text: res.output_text, calls: [], reasoning: [] };
  for (const item of res.output as unknown as JsonObject[]) {
    if (item['type'] === 'function_call') out.calls.push({ id: String(item['call_id']), name: String(item['name']), args: parse(String(item['arguments'])) });
    if (item['type'] === 'reasoning') {
      const summary = (item['summary'] as JsonObject[]).map((s) => String(s['text']));
      const content = (item['content'] as JsonObject[] | undefined) ?? [];
      const r: Said['reasoning'][number] = { summary, text: content.map((c) => String(c['text'])).join('') };
      if (typeof item['encrypted_content'] === 'string') r.encrypted = item['encrypted_content'];
      out.reasoning.push(r);
    }
  }
  if (res.usage) out.usage = { input: res.usage.input_tokens, output: res.usage.output_tokens };
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
}
