/**
 * The Anthropic stream encoder on canonical streams of any origin, with Anthropic's SDK
 * (`client.messages.stream` over a fake fetch) reading what it writes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toAnthropicId, toAnthropicName } from '../../../src/formats/anthropic-messages/tool-names.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getKindCodec, getStreamCodec } from '../../../src/formats/registry.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, type StreamDialect } from '../../support/streams.js';
import { decodeAll, encodeAll, sdkFinalMessage, textOf, toSse } from './stream-helpers.js';

const types = (wire: WireEvent[]): string[] => wire.map((w) => String((w.data as JsonObject)['type']));
const blocksOf = (m: Record<string, unknown>): JsonObject[] => m['content'] as JsonObject[];

describe('Anthropic stream encoder', () => {
  it('writes the whole lifecycle for a bare foreign stream (no ids, usage only at the end)', async () => {
    const losses: Loss[] = [];
    const events: StreamEvent[] = [
      { type: 'response-start' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Hel' },
      { type: 'text-delta', index: 0, delta: 'lo' },
      { type: 'text-end', index: 0 },
      { type: 'finish', stopReason: { unified: 'stop', raw: 'stop' } },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 4 } },
      { type: 'response-end' },
    ];
    const wire = encodeAll(events, losses);
    expect(types(wire)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(wire.every((w) => w.event === (w.data as JsonObject)['type'])).toBe(true);
    expect((wire[0]?.data as JsonObject)['message']).toMatchObject({ id: 'msg_interlingua_1', model: 'unknown', usage: { input_tokens: 0, output_tokens: 0 } });
    expect(losses.map((l) => [l.code, l.path])).toEqual([['missing-model', [1, 'model']]]);
    const { message, errors } = await sdkFinalMessage(toSse(wire), false);
    expect(errors).toEqual([]);
    expect(textOf(message['content'])).toBe('Hello');
    expect(message['stop_reason']).toBe('end_turn');
    expect(message['usage']).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 4, output_tokens: 3 });
    // Deterministic: the same input gives the same bytes.
    expect(toSse(encodeAll(events))).toBe(toSse(wire));
  });

  it('puts the usage reported right after response-start into message_start', () => {
    const wire = encodeAll([
      { type: 'response-start', id: 'msg_1', model: 'claude-x' },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 1 } },
      { type: 'usage', usage: { outputTokens: 9 } },
      { type: 'response-end' },
    ]);
    expect(types(wire)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect((wire[0]?.data as JsonObject)['message']).toMatchObject({ usage: { input_tokens: 30, output_tokens: 1 } });
    expect((wire[1]?.data as JsonObject)['usage']).toEqual({ input_tokens: 30, output_tokens: 9 });
  });

  it('sends end-only tool arguments as one input_json_delta and maps ids and names', async () => {
    const args = '{"city":"Paris","days":[1,2]}';
    const losses: Loss[] = [];
    const wire = encodeAll(
      [
        { type: 'response-start', id: 'msg_t', model: 'm' },
        { type: 'tool-call-start', index: 0, id: 'call.1', name: 'weather.get' },
        { type: 'tool-call-end', index: 0, arguments: args },
        { type: 'tool-call-start', index: 1, id: 'toolu_2', name: 'noop' },
        { type: 'tool-call-delta', index: 1, delta: '{"a":' },
        { type: 'tool-call-delta', index: 1, delta: '1}' },
        { type: 'tool-call-end', index: 1, arguments: '{"a":1}' },
        { type: 'finish', stopReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        { type: 'response-end' },
      ],
      losses,
    );
    const deltas = wire.map((w) => w.data as JsonObject).filter((d) => d['type'] === 'content_block_delta');
    expect(deltas.map((d) => [d['index'], (d['delta'] as JsonObject)['partial_json']])).toEqual([[0, args], [1, '{"a":'], [1, '1}']]);
    expect(losses.map((l) => l.code).sort()).toEqual(['missing-usage', 'tool-id', 'tool-name']);
    const { message } = await sdkFinalMessage(toSse(wire), false);
    expect(blocksOf(message)).toEqual([
      { type: 'tool_use', id: toAnthropicId('call.1'), name: toAnthropicName('weather.get'), input: { city: 'Paris', days: [1, 2] } },
      { type: 'tool_use', id: 'toolu_2', name: 'noop', input: { a: 1 } },
    ]);
    expect(message['stop_reason']).toBe('tool_use');
  });

  it('writes Anthropic thinking with one signature_delta and redacted thinking whole; drops foreign reasoning', async () => {
    const losses: Loss[] = [];
    const wire = encodeAll(
      [
        { type: 'response-start', id: 'msg_r', model: 'm' },
        { type: 'reasoning-start', index: 0, origin: 'openai-responses', encryptedContent: 'gAAA' },
        { type: 'reasoning-delta', index: 0, text: 'hidden' },
        { type: 'reasoning-end', index: 0 },
        { type: 'reasoning-start', index: 1, origin: 'anthropic-messages' },
        { type: 'reasoning-delta', index: 1, text: 'Let me ' },
        { type: 'reasoning-delta', index: 1, text: 'think.' },
        { type: 'reasoning-delta', index: 1, signature: 'EqQB+/ab' },
        { type: 'reasoning-delta', index: 1, signature: '==cd' },
        { type: 'reasoning-end', index: 1 },
        { type: 'reasoning-start', index: 2, origin: 'anthropic-messages', redactedData: 'EmwKAhgBEgy3' },
        { type: 'reasoning-end', index: 2 },
        { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(losses.map((l) => [l.code, l.path])).toEqual([['foreign-reasoning', [1]]]);
    const sigs = wire.map((w) => (w.data as JsonObject)['delta'] as JsonObject | undefined).filter((d) => d?.['type'] === 'signature_delta');
    expect(sigs).toEqual([{ type: 'signature_delta', signature: 'EqQB+/ab==cd' }]);
    const { message } = await sdkFinalMessage(toSse(wire), false);
    expect(blocksOf(message)).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'EqQB+/ab==cd' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
    ]);
  });

  it('keeps one choice, maps stop reasons it cannot hold exactly, and reports both', () => {
    const losses: Loss[] = [];
    const wire = encodeAll(
      [
        { type: 'response-start', id: 'r', model: 'm' },
        { type: 'text-start', index: 0 },
        { type: 'text-start', choice: 1, index: 0 },
        { type: 'text-delta', choice: 1, index: 0, delta: 'other' },
        { type: 'text-delta', index: 0, delta: 'kept' },
        { type: 'text-end', choice: 1, index: 0 },
        { type: 'text-end', index: 0 },
        { type: 'finish', stopReason: { unified: 'content-filter', raw: 'content_filter' } },
        { type: 'finish', choice: 1, stopReason: { unified: 'stop' } },
        { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['extra-choices', [2]],
      ['stop-reason', [7, 'stopReason']],
    ]);
    expect(decodeAll(wire).filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', index: 0, delta: 'kept' }]);
    expect((wire.at(-2)?.data as JsonObject)['delta']).toEqual({ stop_reason: 'refusal', stop_sequence: null });
  });

  it("writes Anthropic's error event, mapping other providers' error types", async () => {
    const losses: Loss[] = [];
    const wire = encodeAll(
      [
        { type: 'response-start', id: 'r', model: 'm' },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'par' },
        { type: 'error', error: { message: 'Too many requests', type: 'throttlingException' } },
        { type: 'text-end', index: 0 },
      ],
      losses,
    );
    expect(wire.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } } });
    expect(types(wire)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['error-type', [3, 'error', 'type']]]);
    await expect(sdkFinalMessage(toSse(wire), false)).rejects.toMatchObject({ type: 'rate_limit_error' });
    // An error with nothing before it is sent bare, as Anthropic does.
    expect(types(encodeAll([{ type: 'response-start' }, { type: 'error', error: { message: 'x', type: 'overloaded_error' } }]))).toEqual(['error']);
  });

  it('re-emits its own provider events, skips foreign keepalives, reports the rest', () => {
    const losses: Loss[] = [];
    const wire = encodeAll(
      [
        { type: 'response-start', id: 'r', model: 'm' },
        { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
        { type: 'provider-event', origin: 'gemini', event: { data: { x: 1 } }, keepalive: true },
        { type: 'provider-event', origin: 'openai-responses', event: { event: 'response.in_progress', data: { type: 'response.in_progress' } } },
        { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'message_stop', data: { type: 'message_stop' } } },
        { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(types(wire)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    expect(losses.map((l) => [l.code, l.path[0]])).toEqual([
      ['provider-event', 3],
      ['provider-event', 4],
    ]);
  });

  it('leaves a cut-off stream cut off', () => {
    const wire = encodeAll([
      { type: 'response-start', id: 'r', model: 'm' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'x' },
    ]);
    expect(types(wire)).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
  });

  it('writes compaction as Anthropic streams it and other whole parts in content_block_start', () => {
    const block = { type: 'compaction', content: 'summary', encrypted_content: 'enc' };
    const wire = encodeAll([
      { type: 'response-start', id: 'r', model: 'm' },
      { type: 'part', index: 0, part: { type: 'provider-block', origin: 'anthropic-messages', block } },
      { type: 'part', index: 1, part: { type: 'provider-block', origin: 'gemini', block: { executableCode: {} } } },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
      { type: 'response-end' },
    ]);
    expect(wire.slice(1, 4).map((w) => w.data)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null, encrypted_content: null } },
      { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: 'summary', encrypted_content: 'enc' } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(types(wire).filter((t) => t === 'content_block_start')).toHaveLength(1);
  });
});

const ANTHROPIC_RESPONSES = readdirSync(join(LOCAL_FIXTURES, 'anthropic-messages/response')).filter((f) => f.endsWith('.json'));

describe('Anthropic final responses as streams (SDK oracle)', () => {
  it.each(ANTHROPIC_RESPONSES)('%s streams back to the same message', async (file) => {
    const body = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'anthropic-messages/response', file), 'utf8')) as JsonObject;
    const res = getKindCodec('anthropic-messages', 'response').decode(body, { limits: DEFAULT_LIMITS, losses: [] as Loss[] }) as Response;
    const losses: Loss[] = [];
    const { message, errors } = await sdkFinalMessage(toSse(encodeAll(responseToEvents(res), losses)));
    expect(errors).toEqual([]);
    expect(losses).toEqual([]);
    for (const k of ['id', 'model', 'content', 'stop_reason', 'stop_sequence']) expect(message[k], k).toEqual(body[k]);
    // Usage reaches message_delta only (responseToEvents gives it last), where the SDK keeps the counters it knows.
    const usage = body['usage'] as JsonObject;
    for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'server_tool_use', 'iterations']) {
      expect((message['usage'] as JsonObject)[k], k).toEqual(usage[k]);
    }
  });
});

/** Other dialects' final responses (their local fixtures), streamed through responseToEvents. */
const FOREIGN: [string, string][] = [
  ['openai-chat', 'openai-chat/responses/groq-tool-call.json'],
  ['openai-chat', 'openai-chat/responses/deepseek-reasoning.json'],
  ['openai-chat', 'openai-chat/responses/parse-pydantic-model-refusal.json'],
  ['openai-responses', 'openai-responses/responses/vercel-ai/openai-reasoning-encrypted-content.1.json'],
  ['openai-responses', 'openai-responses/responses/vercel-ai/openai-web-search-tool.1.json'],
  ['gemini', 'gemini/responses/google-reasoning-gemini3.json'],
  ['gemini', 'gemini/responses/google-tool-call.json'],
  ['bedrock-converse', 'bedrock-converse/responses/amazon-bedrock-reasoning.json'],
  ['bedrock-converse', 'bedrock-converse/responses/amazon-bedrock-tool-call.1.json'],
  ['bedrock-converse', 'bedrock-converse/responses/agentgateway-cache_write.json'],
];

/** What the SDK must read back from our stream of a canonical response. */
async function checkWithSdk(res: Response, events: StreamEvent[], label: string): Promise<Loss[]> {
  const losses: Loss[] = [];
  const wire = encodeAll(events, losses);
  const { message, errors } = await sdkFinalMessage(toSse(wire), false);
  expect(errors, label).toEqual([]);
  const parts = res.choices[0]?.message.parts ?? [];
  const text = parts.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join('');
  expect(textOf(message['content']), label).toBe(text);
  const calls = parts.flatMap((p) => (p.type === 'tool-call' && !p.providerExecuted ? [{ type: 'tool_use', id: toAnthropicId(p.id), name: toAnthropicName(p.name), input: p.arguments }] : []));
  expect(blocksOf(message).filter((b) => b['type'] === 'tool_use'), label).toEqual(calls);
  const reasoning = parts.filter((p) => p.type === 'reasoning');
  expect(losses.filter((l) => l.code === 'foreign-reasoning'), label).toHaveLength(reasoning.filter((p) => p.type === 'reasoning' && p.origin !== 'anthropic-messages').length);
  const u = res.usage;
  if (u) {
    const usage = message['usage'] as JsonObject;
    expect(usage['output_tokens'], label).toBe(u.outputTokens);
    expect(usage['input_tokens'], label).toBe(u.inputTokens - (u.cacheReadTokens ?? 0) - (u.cacheWriteTokens ?? 0));
    expect(usage['cache_read_input_tokens'] ?? undefined, label).toBe(u.cacheReadTokens);
  }
  return losses;
}

describe("encoding other dialects' responses as Anthropic streams (SDK oracle)", () => {
  it.each(FOREIGN)('%s %s', async (id, file) => {
    const body: unknown = JSON.parse(readFileSync(join(LOCAL_FIXTURES, file), 'utf8'));
    const res = getKindCodec(id, 'response').decode(body, { limits: DEFAULT_LIMITS, losses: [] as Loss[] }) as Response;
    const events = responseToEvents(res);
    expect(verifyStream(events)).toEqual([]);
    await checkWithSdk(res, events, file);
  });
});

/** Other dialects' stream captures, decoded by their own stream codecs, then written by ours. */
const DIALECTS: StreamDialect[] = ['openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];
const foreignStreams = DIALECTS.flatMap((d) => {
  let codec;
  try {
    codec = getStreamCodec(d);
  } catch {
    return [];
  }
  return localStreamCaptures(d).map((c) => ({ dialect: d, codec, capture: c }));
});

describe('transcoding other dialects\u2019 stream captures to Anthropic (SDK oracle)', () => {
  it('has some to transcode', () => {
    expect(foreignStreams.length).toBeGreaterThan(0);
  });
  it.each(foreignStreams.map((f) => [f.capture.name, f] as const))('%s', async (_name, { dialect, codec, capture }) => {
    const d = codec.decoder({ limits: DEFAULT_LIMITS, losses: [] as Loss[] });
    let events: StreamEvent[];
    try {
      events = [...capture.events.flatMap((w) => d.push(w)), ...d.end()];
    } catch (e) {
      // A capture its own decoder refuses (the corpus keeps broken streams on purpose) is not ours to write.
      console.info(`${dialect} ${capture.name}: its decoder refuses it (${(e as Error).message})`);
      return;
    }
    const losses: Loss[] = [];
    const wire = encodeAll(events, losses);
    const ended = events.some((e) => e.type === 'response-end');
    const errored = events.some((e) => e.type === 'error');
    if (errored) {
      await expect(sdkFinalMessage(toSse(wire), false)).rejects.toBeDefined();
      return;
    }
    if (!ended) return; // Cut off: there is no final message to read.
    // Re-decoding our output gives a valid canonical stream.
    expect(verifyStream(decodeAll(wire))).toEqual([]);
    // Text, tool calls, dropped foreign reasoning and usage, as the SDK reads them.
    await checkWithSdk(accumulate(events).response, events, capture.name);
  });
});
