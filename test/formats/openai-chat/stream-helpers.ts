/**
 * Shared steps of the openai-chat stream tests: decode / encode whole streams, SSE text, the
 * official SDK's ChatCompletionStream over a fake fetch (the oracle), and a comparable summary of
 * a Chat completion body (ours or the SDK's).
 */
import OpenAI from 'openai';
import type { Loss } from '../../../src/model/loss.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { formatSse } from '../../../src/stream/sse.js';

const codec = openaiChat.stream!;

export function decodeWire(events: readonly WireEvent[], losses: Loss[] = []): StreamEvent[] {
  const d = codec.decoder({ limits: DEFAULT_LIMITS, losses });
  const out: StreamEvent[] = [];
  for (const w of events) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

export function encodeEvents(events: readonly StreamEvent[], losses: Loss[] = [], includeUsage?: boolean): WireEvent[] {
  const e = codec.encoder({ losses, ...(includeUsage === undefined ? {} : { includeUsage }) });
  const out: WireEvent[] = [];
  for (const ev of events) out.push(...e.push(ev));
  out.push(...e.end());
  return out;
}

export function toSse(events: readonly WireEvent[]): string {
  return events.map(formatSse).join('');
}

/** The SSE text as a fetch Response body, cut into the given pieces (default: one). */
function body(text: string, cuts: number[] = []): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.slice(from, p));
    from = p;
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

/** What the official SDK's ChatCompletionStream makes of an SSE text: its final completion. */
export async function sdkFinal(text: string, cuts?: number[]): Promise<OpenAI.Chat.ChatCompletion> {
  return (await sdkRead(text, cuts)).final;
}

/**
 * The SDK's final completion, plus each choice's reasoning joined from the chunks the SDK parsed
 * (its snapshot keeps only the last `reasoning_content` fragment: it is not an OpenAI field).
 */
export async function sdkRead(text: string, cuts?: number[]): Promise<{ final: OpenAI.Chat.ChatCompletion; reasoning: Map<number, string> }> {
  const client = new OpenAI({
    apiKey: 'test-key',
    baseURL: 'http://localhost/v1',
    maxRetries: 0,
    fetch: async () => new Response(body(text, cuts), { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.chat.completions.stream({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
  const reasoning = new Map<number, string>();
  stream.on('chunk', (chunk) => {
    for (const c of chunk.choices) {
      const r = (c.delta as { reasoning_content?: unknown }).reasoning_content;
      if (typeof r === 'string') reasoning.set(c.index, (reasoning.get(c.index) ?? '') + r);
    }
  });
  return { final: await stream.finalChatCompletion(), reasoning };
}

export interface Summary {
  choices: { index: number; content: string | null; refusal: string | null; calls: { id: string; name: string; arguments: string }[]; finish: string | null }[];
  usage: unknown;
}

/** The comparable parts of a Chat completion: text, refusal, tool calls, finish reasons, usage. */
export function summarize(body: unknown): Summary {
  const b = body as { choices: JsonObject[]; usage?: unknown };
  const choices = [...b.choices]
    .sort((x, y) => (x['index'] as number) - (y['index'] as number))
    .map((c) => {
      const m = c['message'] as JsonObject;
      const calls = ((m['tool_calls'] ?? []) as JsonObject[]).map((t) => {
        const fn = t['function'] as JsonObject;
        return { id: t['id'] as string, name: fn['name'] as string, arguments: fn['arguments'] as string };
      });
      const content = typeof m['content'] === 'string' && m['content'] !== '' ? m['content'] : null;
      const refusal = typeof m['refusal'] === 'string' && m['refusal'] !== '' ? m['refusal'] : null;
      return { index: c['index'] as number, content, refusal, calls, finish: (c['finish_reason'] ?? null) as string | null };
    });
  return { choices, usage: b.usage ?? null };
}

/** The captures' own text, straight from the wire: each choice's content, refusal and reasoning deltas joined. */
export function foldWire(events: readonly WireEvent[]): Map<number, { content: string; refusal: string; reasoning: string }> {
  const out = new Map<number, { content: string; refusal: string; reasoning: string }>();
  for (const w of events) {
    const choices = (w.data as JsonObject | null)?.['choices'];
    if (!Array.isArray(choices)) continue;
    for (const c of choices as JsonObject[]) {
      const d = (c['delta'] ?? {}) as JsonObject;
      const acc = out.get(c['index'] as number) ?? { content: '', refusal: '', reasoning: '' };
      out.set(c['index'] as number, acc);
      if (typeof d['content'] === 'string') acc.content += d['content'];
      if (typeof d['refusal'] === 'string') acc.refusal += d['refusal'];
      const r = d['reasoning_content'] ?? d['reasoning'];
      if (typeof r === 'string') acc.reasoning += r;
    }
  }
  return out;
}
