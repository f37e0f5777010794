/**
 * Helpers of the ConverseStream codec tests: run the decoder and encoder, frame events as
 * event-stream bytes, and read bytes with the official SDK (ConverseStreamCommand over a request
 * handler that answers with our bytes: no network), reduced to what both sides must agree on.
 */
import { Readable } from 'node:stream';
import { BedrockRuntimeClient, ConverseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { bedrockConverse } from '../../../src/formats/bedrock-converse/index.js';
import { encodeStopReason } from '../../../src/formats/bedrock-converse/stop-reason.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { wireEventToMessage } from '../../../src/stream/event-stream.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';

export const stream = bedrockConverse.stream!;

/** Every ConverseStream capture: ../shared (when present) and the local copies. */
export function allCaptures(): StreamCapture[] {
  return [...sharedStreamCaptures('bedrock-converse'), ...localStreamCaptures('bedrock-converse')];
}

export function decode(wire: readonly WireEvent[]): { events: StreamEvent[]; losses: Loss[] } {
  const losses = new LossList();
  const d = stream.decoder({ limits: DEFAULT_LIMITS, losses });
  const events: StreamEvent[] = [];
  for (const w of wire) events.push(...d.push(w));
  events.push(...d.end());
  return { events, losses: losses.items };
}

export function encode(events: readonly StreamEvent[]): { wire: WireEvent[]; losses: Loss[] } {
  const losses = new LossList();
  const e = stream.encoder({ losses });
  const wire: WireEvent[] = [];
  for (const ev of events) wire.push(...e.push(ev));
  wire.push(...e.end());
  return { wire, losses: losses.items };
}

export function toBytes(wire: readonly WireEvent[]): Uint8Array {
  return Buffer.concat(wire.map((w) => wireEventToMessage(w)));
}

/** What the SDK yields for these bytes (blobs back to base64), and the error it throws, if any. */
export async function sdkRead(bytes: Uint8Array, chunk = 4096): Promise<{ events: Record<string, JsonValue>[]; error?: { name: string; message: string } }> {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) pieces.push(Buffer.from(bytes.subarray(i, i + chunk)));
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' },
    requestHandler: {
      handle: async () => ({ response: { statusCode: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: Readable.from(pieces) } }),
    } as never,
  });
  const out = await client.send(new ConverseStreamCommand({ modelId: 'test-model', messages: [] }));
  const events: Record<string, JsonValue>[] = [];
  try {
    for await (const e of out.stream as AsyncIterable<ConverseStreamOutput>) {
      events.push(JSON.parse(JSON.stringify(e, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v))) as Record<string, JsonValue>);
    }
  } catch (err) {
    const e = err as Error;
    return { events, error: { name: e.name, message: e.message } };
  }
  return { events };
}

/** What a reader of a stream sees: block texts, tool calls, reasoning, stop reason, usage. */
export interface Digest {
  texts: string[];
  tools: { id: string; name: string; input: JsonValue }[];
  reasoning: { text: string; signature?: string; redacted?: string }[];
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
}

type Obj = Record<string, JsonValue>;

/** Tool input text as a reader gets it: the JSON value, or the text itself when it is not JSON (a cut-off call). */
function parsed(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return { notJson: text };
  }
}
const obj = (v: JsonValue | undefined): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});

/** The digest of the SDK's events, built by block index as an SDK user would. */
export function digestSdk(events: readonly Record<string, JsonValue>[]): Digest {
  const blocks = new Map<number, { kind: string; text: string; id?: string; name?: string; signature?: string; redacted?: string }>();
  const block = (i: number, kind: string): { kind: string; text: string; id?: string; name?: string; signature?: string; redacted?: string } => {
    let b = blocks.get(i);
    if (b === undefined) blocks.set(i, (b = { kind, text: '' }));
    return b;
  };
  const d: Digest = { texts: [], tools: [], reasoning: [] };
  for (const e of events) {
    const start = obj(obj(e['contentBlockStart'])['start']);
    const startIndex = obj(e['contentBlockStart'])['contentBlockIndex'] as number;
    if (start['toolUse'] !== undefined) Object.assign(block(startIndex, 'tool'), { id: obj(start['toolUse'])['toolUseId'], name: obj(start['toolUse'])['name'] });
    const cbd = obj(e['contentBlockDelta']);
    const delta = obj(cbd['delta']);
    const i = cbd['contentBlockIndex'] as number;
    if (typeof delta['text'] === 'string') block(i, 'text').text += delta['text'];
    if (delta['toolUse'] !== undefined) block(i, 'tool').text += obj(delta['toolUse'])['input'] as string;
    const r = obj(delta['reasoningContent']);
    if (delta['reasoningContent'] !== undefined) {
      const b = block(i, 'reasoning');
      if (typeof r['text'] === 'string') b.text += r['text'];
      if (typeof r['signature'] === 'string') b.signature = (b.signature ?? '') + r['signature'];
      if (typeof r['redactedContent'] === 'string') b.redacted = (b.redacted ?? '') + r['redactedContent'];
    }
    if (e['messageStop'] !== undefined) d.stopReason = obj(e['messageStop'])['stopReason'] as string;
    if (e['metadata'] !== undefined) {
      const u = obj(obj(e['metadata'])['usage']);
      d.usage = { inputTokens: u['inputTokens'] as number, outputTokens: u['outputTokens'] as number, totalTokens: u['totalTokens'] as number };
    }
  }
  for (const [, b] of [...blocks].sort((x, y) => x[0] - y[0])) {
    if (b.kind === 'text') d.texts.push(b.text);
    else if (b.kind === 'tool') d.tools.push({ id: b.id ?? '', name: b.name ?? '', input: b.text === '' ? {} : parsed(b.text) });
    else d.reasoning.push({ text: b.text, ...(b.signature !== undefined ? { signature: b.signature } : {}), ...(b.redacted !== undefined ? { redacted: b.redacted } : {}) });
  }
  return d;
}

/**
 * What a Bedrock reader should see of a canonical response: its text blocks, tool calls (ids and
 * names as Bedrock takes them when they already fit), Bedrock reasoning, stop reason and usage in
 * Bedrock's accounting (input excludes cache reads and writes).
 */
export function digestCanonical(res: Response): Digest {
  const d: Digest = { texts: [], tools: [], reasoning: [] };
  const choice = res.choices[0];
  for (const p of choice?.message.parts ?? []) {
    if (p.type === 'text' || p.type === 'refusal') d.texts.push(p.text);
    else if (p.type === 'tool-call' && (!p.providerExecuted || p.ext?.['bedrock-converse']?.['type'] === 'server_tool_use')) {
      d.tools.push({ id: p.id, name: p.name, input: p.argumentsJson === undefined ? p.arguments : parsed(p.argumentsJson) });
    }
    else if (p.type === 'reasoning' && p.origin === 'bedrock-converse') {
      d.reasoning.push({ text: p.text ?? '', ...(p.signature !== undefined ? { signature: p.signature } : {}), ...(p.redactedData !== undefined ? { redacted: p.redactedData } : {}) });
    }
  }
  if (choice?.stopReason) d.stopReason = encodeStopReason(choice.stopReason).value;
  const u = res.usage;
  if (u) {
    const input = u.inputTokens - (u.cacheReadTokens ?? 0) - (u.cacheWriteTokens ?? 0);
    d.usage = { inputTokens: Math.max(0, input), outputTokens: u.outputTokens, totalTokens: u.totalTokens ?? u.inputTokens + u.outputTokens };
  }
  return d;
}
