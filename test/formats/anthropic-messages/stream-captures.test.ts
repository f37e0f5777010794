/**
 * Every Anthropic stream capture (../shared/fixtures when present, test/fixtures/streams always):
 * decode -> order rules -> accumulate -> the response codec's body; the same accumulation read by
 * Anthropic's SDK from the original bytes is the twin it must match; decode -> encode -> decode
 * gives the same canonical events; the SDK reads our re-encoded stream to the same final message;
 * random chunk boundaries change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { frameReader } from '../../../src/stream/framing.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { decodeAll, encodeAll, messageStarts, sdkFinalMessage, stream, toSse } from './stream-helpers.js';

const response = anthropicMessages.response!;
const local = localStreamCaptures('anthropic-messages');
const shared = sharedStreamCaptures('anthropic-messages');

/** Hand-built: a second message starts while the first is open. Invalid, as Anthropic's SDK says too. */
const isSpliced = (c: StreamCapture): boolean => c.name.includes('spliced-message-start');

/** Whether decode -> encode -> decode must give the very same events (see `lifecycleDiffers`). */
function exactRoundTrip(c: StreamCapture, decodeLosses: Loss[]): boolean {
  return messageStarts(c.events) === 1 && !decodeLosses.some((l) => l.code === 'unclosed-block');
}

function checkCapture(c: StreamCapture): void {
  const losses: Loss[] = [];
  const events = decodeAll(c.events, losses);
  expect(verifyStream(events), c.name).toEqual([]);
  const acc = accumulate(events);
  expect(acc.complete, c.name).toBe(true);
  const body = response.encode(acc.response, { preserve: false, losses: [] as Loss[] });
  expect(() => response.decode(body, { limits: DEFAULT_LIMITS, losses: [] as Loss[] })).not.toThrow();

  // Same-dialect round trip. Where the wire lifecycle differs (several messages in one stream, a
  // repeated message_start, a block the message never stopped), our one well-formed message gives
  // the same final response instead of the same events.
  const again = decodeAll(encodeAll(events));
  if (exactRoundTrip(c, losses)) expect(again, c.name).toEqual(events);
  else {
    const a = accumulate(again).response;
    expect(a.choices, c.name).toEqual(acc.response.choices);
    expect(a.usage, c.name).toEqual(acc.response.usage);
    expect(a.id, c.name).toBe(acc.response.id);
  }
}

/** The SDK's snapshot of the original stream is the non-streaming twin of our accumulation. */
async function checkTwin(c: StreamCapture): Promise<void> {
  const events = decodeAll(c.events);
  const ours = response.encode(accumulate(events).response, { preserve: false, losses: [] as Loss[] }) as JsonObject;
  const sdk = (await sdkFinalMessage(toSse(c.events))).message;
  const toolInputCut = c.name.includes('incomplete_partial_json');
  const content = (sdk['content'] as JsonObject[]).map((b, i) =>
    // The SDK guesses an object from cut-off JSON; the canonical call keeps the text (and reports it).
    toolInputCut && b['type'] === 'tool_use' ? { ...b, input: (ours['content'] as JsonObject[])[i]?.['input'] ?? null } : b,
  );
  expect(ours['content'], c.name).toEqual(content);
  expect(ours['stop_reason'], c.name).toBe(sdk['stop_reason']);
  expect(ours['stop_sequence'] ?? null, c.name).toBe(sdk['stop_sequence'] ?? null);
  expect(ours['id'], c.name).toBe(sdk['id']);
  const u = sdk['usage'] as JsonObject;
  const mine = ours['usage'] as JsonObject;
  for (const k of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) {
    expect(mine[k] ?? null, `${c.name} usage.${k}`).toEqual(u[k] ?? null);
  }
  // After a fallback block the SDK relabels the model to the one that served; the canonical
  // response keeps message_start's (the fallback block, a provider part, names both).
  if (!(sdk['content'] as JsonObject[]).some((b) => b['type'] === 'fallback')) expect(ours['model'], c.name).toBe(sdk['model']);
}

/** Our re-encoding of the capture, read by the SDK, gives the SDK's reading of the original. */
async function checkOracle(c: StreamCapture): Promise<void> {
  const events = decodeAll(c.events);
  const mine = await sdkFinalMessage(toSse(encodeAll(events)));
  expect(mine.errors, c.name).toEqual([]);
  if (messageStarts(c.events) === 1) {
    const original = await sdkFinalMessage(toSse(c.events));
    expect(mine.message, c.name).toEqual(original.message);
  } else {
    // Several messages: the SDK reads one, and ours is the whole accumulated response.
    const body = response.encode(accumulate(events).response, { preserve: false, losses: [] as Loss[] }) as JsonObject;
    expect(mine.message['content'], c.name).toEqual(body['content']);
    expect(mine.message['stop_reason'], c.name).toBe(body['stop_reason']);
  }
}

function sweep(captures: StreamCapture[]): void {
  const valid = captures.filter((c) => !isSpliced(c));
  it.each(valid.map((c) => [c.name, c] as const))('decodes, verifies, accumulates and round-trips %s', (_name, c) => {
    checkCapture(c);
  });
  it.each(valid.filter((c) => messageStarts(c.events) === 1).map((c) => [c.name, c] as const))('accumulates %s as the SDK does', async (_name, c) => {
    await checkTwin(c);
  });
  it.each(valid.map((c) => [c.name, c] as const))('re-encodes %s so the SDK reads the same message', async (_name, c) => {
    await checkOracle(c);
  });
  it.each(captures.filter(isSpliced).map((c) => [c.name, c] as const))('refuses %s (a new message while one is open)', (_name, c) => {
    expect(() => decodeAll(c.events)).toThrow(ValidationError);
  });
}

describe('local Anthropic stream captures', () => {
  it('has its copies', () => {
    expect(local.length).toBeGreaterThanOrEqual(15);
  });
  sweep(local);
});

describe.skipIf(!hasSharedFixtures())('shared Anthropic stream captures (../shared/fixtures)', () => {
  it('finds them', () => {
    expect(shared.length).toBeGreaterThanOrEqual(50);
  });
  sweep(shared);
});
if (!hasSharedFixtures()) console.info('anthropic stream sweep: ../shared/fixtures is absent; only the local copies run');

/** Decoding SSE text cut into the given chunks, through the incremental framing reader. */
function decodeChunks(chunks: string[]): StreamEvent[] {
  const reader = frameReader('sse');
  const d = stream.decoder({ limits: DEFAULT_LIMITS, losses: [] as Loss[] });
  const out: StreamEvent[] = [];
  const take = (ws: WireEvent[]): void => {
    for (const w of ws) out.push(...d.push(w));
  };
  for (const chunk of chunks) take(reader.push(chunk));
  take(reader.end());
  out.push(...d.end());
  return out;
}

describe('chunk boundaries', () => {
  const picks = local.filter((c) => /basic_response|thinking_part_stream|tool-search-regex|compaction_response|tool_use_response/.test(c.name));
  it('has captures to cut', () => {
    expect(picks.length).toBe(5);
  });
  it.each(picks.map((c) => [c.name, c] as const))('cutting %s anywhere gives the same events', (_name, c) => {
    const text = toSse(c.events);
    const whole = decodeAll(c.events);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: text.length }), { maxLength: 40 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
        expect(decodeChunks(chunks)).toEqual(whole);
      }),
      { numRuns: 30 },
    );
  });
});
