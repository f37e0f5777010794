/** Shared helpers for the Anthropic stream codec tests: decode/encode whole streams, SSE text, the SDK oracle. */
import Anthropic from '@anthropic-ai/sdk';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { formatSse } from '../../../src/stream/sse.js';

export const stream = anthropicMessages.stream!;

export function decodeAll(wire: readonly WireEvent[], losses: Loss[] = []): StreamEvent[] {
  const d = stream.decoder({ limits: DEFAULT_LIMITS, losses });
  const out: StreamEvent[] = [];
  for (const w of wire) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

export function encodeAll(events: readonly StreamEvent[], losses: Loss[] = []): WireEvent[] {
  const e = stream.encoder({ losses });
  const out: WireEvent[] = [];
  for (const ev of events) out.push(...e.push(ev));
  out.push(...e.end());
  return out;
}

/** SSE text as Anthropic writes it: every event named by its type (captures in JSON lines have no names). */
export function toSse(wire: readonly WireEvent[]): string {
  return wire.map((w) => formatSse({ event: w.event ?? String((w.data as JsonObject)['type']), data: w.data })).join('');
}

export function messageStarts(wire: readonly WireEvent[]): number {
  return wire.filter((w) => (w.data as JsonObject)['type'] === 'message_start').length;
}

/**
 * The official SDK's reading of an SSE body: `client.messages.stream` (or the beta helper, which
 * knows compaction and MCP blocks) over a fake fetch, no network. Returns the final message, and
 * every error the stream reported.
 */
export async function sdkFinalMessage(sse: string, beta = true): Promise<{ message: Record<string, unknown>; errors: unknown[] }> {
  const client = new Anthropic({
    apiKey: 'test-key',
    maxRetries: 0,
    fetch: async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const params = { model: 'claude-test', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] };
  const errors: unknown[] = [];
  let message: unknown;
  if (beta) {
    const s = client.beta.messages.stream(params);
    s.on('error', (e) => errors.push(e));
    message = await s.finalMessage();
  } else {
    const s = client.messages.stream(params);
    s.on('error', (e) => errors.push(e));
    message = await s.finalMessage();
  }
  return { message: JSON.parse(JSON.stringify(message)) as Record<string, unknown>, errors };
}

/** Text of every text block, joined. */
export function textOf(content: unknown): string {
  return (content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('');
}
