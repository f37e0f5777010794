/**
 * Helpers of the Gemini stream tests: run the stream codec over wire / canonical events, read our
 * SSE with the official @google/genai SDK (generateContentStream over a fake fetch, no network),
 * and the canonical facts an SDK reader must see (text, thoughts, calls, usage).
 */
import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { DEFAULT_LIMITS, type Limits } from '../../../src/formats/codec.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { encodeUsage } from '../../../src/formats/gemini/usage.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import type { Usage } from '../../../src/model/usage.js';
import { formatSse } from '../../../src/stream/sse.js';

const codec = gemini.stream!;

export function decodeStream(wire: readonly WireEvent[], limits: Partial<Limits> = {}): { events: StreamEvent[]; losses: Loss[] } {
  const losses = new LossList();
  const d = codec.decoder({ limits: { ...DEFAULT_LIMITS, ...limits }, losses });
  const events = wire.flatMap((w) => d.push(w));
  events.push(...d.end());
  return { events, losses: losses.items };
}

export function encodeStream(events: readonly StreamEvent[]): { wire: WireEvent[]; losses: Loss[] } {
  const losses = new LossList();
  const e = codec.encoder({ losses });
  const wire = events.flatMap((ev) => e.push(ev));
  wire.push(...e.end());
  return { wire, losses: losses.items };
}

export const toSse = (wire: readonly WireEvent[]): string => wire.map(formatSse).join('');

export interface SdkRead {
  chunks: GenerateContentResponse[];
  /** Concatenated `.text` of every chunk (the SDK's own getter: non-thought text of candidate 0). */
  text: string;
  thoughts: string;
  signatures: string[];
  calls: { name: string | undefined; args: unknown; id: string | undefined }[];
  usage: unknown;
}

/** Our SSE through `ai.models.generateContentStream`, as the SDK yields it (Gemini API or Vertex AI client). */
export async function sdkRead(sse: string, api: 'gemini' | 'vertex' = 'gemini'): Promise<SdkRead> {
  const fetch = async (): Promise<Response> =>
    new Response(new Blob([sse]).stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const ai = new GoogleGenAI({ apiKey: 'test-key', ...(api === 'vertex' ? { vertexai: true } : {}), httpOptions: { fetch } });
  const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
  const out: SdkRead = { chunks: [], text: '', thoughts: '', signatures: [], calls: [], usage: undefined };
  const warn = console.warn;
  console.warn = () => {}; // `.text` warns about function-call parts; not a failure
  try {
    for await (const chunk of stream) {
      out.chunks.push(chunk);
      // The SDK's getters read candidates[0]: facts of choice 0 come from chunks that lead with it.
      if ((chunk.candidates?.[0]?.index ?? 0) !== 0) continue;
      out.text += chunk.text ?? '';
      for (const p of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (p.thought === true && typeof p.text === 'string') out.thoughts += p.text;
        if (p.thoughtSignature !== undefined) out.signatures.push(p.thoughtSignature);
      }
      for (const c of chunk.functionCalls ?? []) out.calls.push({ name: c.name, args: c.args, id: c.id });
      if (chunk.usageMetadata !== undefined) out.usage = chunk.usageMetadata;
    }
  } finally {
    console.warn = warn;
  }
  return out;
}

/** What an SDK reader of choice 0 must see, from the canonical events we encoded. */
export function expectedFacts(events: readonly StreamEvent[]): { text: string; thoughts: string; signatures: string[]; calls: { name: string; args: JsonValue }[]; usage: unknown } {
  let text = '';
  let thoughts = '';
  const signatures: string[] = [];
  const calls: { name: string; args: JsonValue }[] = [];
  const reasoning = new Set<number>();
  const argText = new Map<number, string>();
  // Calls another provider ran itself are not sent to Gemini.
  const names = new Map<number, { name: string; dropped: boolean }>();
  let usage: Partial<Usage> | undefined;
  for (const e of events) {
    if ('choice' in e && (e.choice ?? 0) !== 0) continue;
    if (e.type === 'text-delta') text += e.delta;
    else if (e.type === 'reasoning-start' && e.origin === 'gemini') reasoning.add(e.index);
    else if (e.type === 'reasoning-delta' && reasoning.has(e.index)) {
      if (e.text !== undefined) thoughts += e.text;
      if (e.signature !== undefined) signatures.push(e.signature);
    } else if (e.type === 'text-start' || e.type === 'text-end' || e.type === 'tool-call-start') {
      const sig = e.ext?.['gemini']?.['thoughtSignature'];
      if (typeof sig === 'string') signatures.push(sig);
      if (e.type === 'tool-call-start') names.set(e.index, { name: e.name, dropped: e.providerExecuted === true && e.ext?.['gemini']?.['$server'] !== true });
    } else if (e.type === 'tool-call-delta') argText.set(e.index, (argText.get(e.index) ?? '') + e.delta);
    else if (e.type === 'tool-call-end') {
      const call = names.get(e.index);
      const raw = e.arguments ?? argText.get(e.index) ?? '';
      if (call !== undefined && !call.dropped) calls.push({ name: call.name, args: parsedOrEmpty(raw) });
    } else if (e.type === 'usage') usage = { ...usage, ...e.usage };
  }
  const wireUsage = usage === undefined ? undefined : encodeUsage({ inputTokens: 0, outputTokens: 0, ...usage }, new LossList()).value;
  return { text, thoughts, signatures, calls, usage: wireUsage };
}

/** Arguments text as the encoder sends it: parsed, or {} when it is not JSON (reported as invalid-arguments). */
function parsedOrEmpty(raw: string): JsonValue {
  try {
    return raw.trim() === '' ? {} : (JSON.parse(raw) as JsonValue);
  } catch {
    return {};
  }
}

/**
 * The canonical events with what a Gemini round trip may change set aside: usage events (compared
 * as the final usage apart), argument deltas and minted call ids (Gemini sends whole calls, and a
 * whole call's minted id hashes its arguments), arguments as parsed values.
 */
export function normalized(events: readonly StreamEvent[]): unknown[] {
  const ids = new Map<string, string>();
  return events
    .filter((e) => e.type !== 'usage' && e.type !== 'tool-call-delta')
    .map((e) => {
      if (e.type === 'tool-call-start' && e.id.startsWith('gemini_')) {
        if (!ids.has(e.id)) ids.set(e.id, `minted#${ids.size}`);
        return { ...e, id: ids.get(e.id) };
      }
      if (e.type === 'tool-call-end' && e.arguments !== undefined) return { ...e, arguments: JSON.parse(e.arguments) as JsonValue };
      return e;
    });
}

export function finalUsage(events: readonly StreamEvent[]): Partial<Usage> | undefined {
  let u: Partial<Usage> | undefined;
  for (const e of events) if (e.type === 'usage') u = { ...u, ...e.usage };
  return u;
}
