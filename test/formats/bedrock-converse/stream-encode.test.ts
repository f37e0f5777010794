/**
 * The ConverseStream encoder on canonical sequences other dialects produce: no response-start ids,
 * reasoning of another origin, several choices, arguments only at the end, provider-run tools,
 * refusals, usage in pieces, cut-off streams and other origins' provider events.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { decode, encode } from './stream-helpers.js';

/** Loss codes, without 'missing-metrics' (every stream of another dialect has it: Bedrock's latency is unknown). */
const lossesOf = (events: StreamEvent[]): { code: string; path: (string | number)[] }[] => encode(events).losses.filter((l) => l.code !== 'missing-metrics');
const codes = (events: StreamEvent[]): string[] => lossesOf(events).map((l) => l.code);
const names = (events: StreamEvent[]): (string | undefined)[] => encode(events).wire.map((w) => w.event);
const end: StreamEvent[] = [{ type: 'usage', usage: { inputTokens: 5, outputTokens: 2 } }, { type: 'finish', stopReason: { unified: 'stop' } }, { type: 'response-end' }];

describe('lifecycle', () => {
  it('writes messageStart first even when the canonical stream has no response-start', () => {
    const { wire } = encode([{ type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'hi' }, { type: 'text-end', index: 0 }, ...end]);
    expect(wire.map((w) => w.event)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
    expect(wire[0]?.data).toEqual({ role: 'assistant' });
    expect(wire.at(-1)?.data).toEqual({ usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 }, metrics: { latencyMs: 0 } });
  });

  it('messageStop waits for response-end, then metadata carries the last usage given', () => {
    const { wire } = encode([
      { type: 'response-start', id: 'msg_1', model: 'claude' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 1 } },
      { type: 'finish', stopReason: { unified: 'length', raw: 'max_tokens' } },
      { type: 'usage', usage: { outputTokens: 30, cacheReadTokens: 4 } },
      { type: 'response-end' },
    ]);
    expect(wire.slice(1)).toEqual([
      { event: 'messageStop', data: { stopReason: 'max_tokens' } },
      // Bedrock's inputTokens excludes cache reads: 10 - 4.
      { event: 'metadata', data: { usage: { inputTokens: 6, outputTokens: 30, totalTokens: 40, cacheReadInputTokens: 4 }, metrics: { latencyMs: 0 } } },
    ]);
  });

  it('says what it had to make up or could not keep at the end', () => {
    expect(encode([{ type: 'response-start', id: 'x' }, { type: 'response-end' }]).losses.map((l) => l.code)).toEqual(['unsupported-field', 'missing-stop-reason', 'missing-usage', 'missing-metrics']);
  });

  it('a cut-off canonical stream stays cut off: no messageStop, no metadata, nothing at end()', () => {
    const events: StreamEvent[] = [{ type: 'response-start' }, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'par' }, { type: 'finish', stopReason: { unified: 'stop' } }];
    expect(names(events)).toEqual(['messageStart', 'contentBlockDelta']);
  });
});

describe('blocks from other origins', () => {
  it("drops another origin's reasoning (signature and all) and keeps Bedrock's indices contiguous", () => {
    const events: StreamEvent[] = [
      { type: 'response-start' },
      { type: 'reasoning-start', index: 0, origin: 'anthropic-messages' },
      { type: 'reasoning-delta', index: 0, text: 'thinking' },
      { type: 'reasoning-delta', index: 0, signature: 'sig' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, delta: 'answer' },
      { type: 'text-end', index: 1 },
      ...end,
    ];
    const { wire } = encode(events);
    expect(lossesOf(events).map((l) => [l.code, l.path])).toEqual([['foreign-reasoning', [1]]]);
    expect(wire.filter((w) => w.event === 'contentBlockDelta').map((w) => w.data)).toEqual([{ contentBlockIndex: 0, delta: { text: 'answer' } }]);
  });

  it('arguments that come only whole at the end are written as one delta', () => {
    const { wire } = encode([{ type: 'tool-call-start', index: 0, id: 'call_1', name: 'get_weather' }, { type: 'tool-call-end', index: 0, arguments: '{"city":"Paris"}' }, ...end]);
    expect(wire.slice(1, 4)).toEqual([
      { event: 'contentBlockStart', data: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'call_1', name: 'get_weather' } } } },
      { event: 'contentBlockDelta', data: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Paris"}' } } } },
      { event: 'contentBlockStop', data: { contentBlockIndex: 0 } },
    ]);
  });

  it('rewrites tool names and ids Bedrock refuses, the same way every time, and makes up missing ids from a counter', () => {
    const events: StreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'call with spaces', name: 'ns.tool' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: '', name: 'b' },
      { type: 'tool-call-end', index: 1 },
      ...end,
    ];
    const first = encode(events);
    expect(first.wire).toEqual(encode(events).wire);
    expect(codes(events)).toEqual(['tool-id', 'tool-name', 'missing-tool-id']);
    const ids = first.wire.filter((w) => w.event === 'contentBlockStart').map((w) => (w.data as { start: { toolUse: { toolUseId: string } } }).start.toolUse.toolUseId);
    expect(ids[0]).toMatch(/^[a-zA-Z0-9_.:-]{1,64}$/);
    expect(ids[1]).toBe('tooluse_0');
  });

  it('drops a tool call another provider ran itself, and a tool result that is not a Bedrock server tool result', () => {
    const events: StreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'srvtoolu_1', name: 'web_search', providerExecuted: true },
      { type: 'tool-call-delta', index: 0, delta: '{"query":"x"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'part', index: 1, part: { type: 'tool-result', callId: 'srvtoolu_1', providerExecuted: true, content: [{ type: 'text', text: 'results' }] } },
      ...end,
    ];
    expect(codes(events)).toEqual(['provider-tool-call', 'provider-tool-result']);
    expect(names(events)).toEqual(['messageStart', 'messageStop', 'metadata']);
  });

  it('writes a refusal as text and says so', () => {
    const events: StreamEvent[] = [{ type: 'text-start', index: 0, refusal: true }, { type: 'text-delta', index: 0, delta: 'No.' }, { type: 'text-end', index: 0 }, ...end];
    expect(codes(events)).toEqual(['refusal-as-text']);
  });

  it('holds one choice: the others are dropped, reported once', () => {
    const events: StreamEvent[] = [
      { type: 'text-start', index: 0 }, { type: 'text-start', choice: 1, index: 0 },
      { type: 'text-delta', index: 0, delta: 'a' }, { type: 'text-delta', choice: 1, index: 0, delta: 'b' },
      { type: 'text-end', index: 0 }, { type: 'text-end', choice: 1, index: 0 },
      { type: 'finish', choice: 1, stopReason: { unified: 'stop' } },
      ...end,
    ];
    const { wire } = encode(events);
    expect(codes(events)).toEqual(['extra-choices']);
    expect(wire.filter((w) => w.event === 'contentBlockDelta').map((w) => w.data)).toEqual([{ contentBlockIndex: 0, delta: { text: 'a' } }]);
  });

  it("re-emits its own provider events, skips others' keepalives silently and reports their meaningful ones", () => {
    const events: StreamEvent[] = [
      { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
      { type: 'provider-event', origin: 'openai-responses', event: { event: 'response.queued', data: {} } },
      { type: 'provider-event', origin: 'bedrock-converse', event: { event: 'somethingNew', data: { a: 1 } } },
      ...end,
    ];
    const { wire } = encode(events);
    expect(lossesOf(events).map((l) => [l.code, l.path])).toEqual([['provider-event', [1]]]);
    expect(wire.map((w) => w.event)).toEqual(['somethingNew', 'messageStart', 'messageStop', 'metadata']);
  });

  it('maps stop reasons Bedrock does not have to the nearest, with a loss', () => {
    expect(encode([{ type: 'finish', stopReason: { unified: 'refusal', raw: 'refusal' } }, { type: 'response-end' }]).wire[1]?.data).toEqual({ stopReason: 'content_filtered' });
    expect(codes([{ type: 'finish', stopReason: { unified: 'refusal', raw: 'refusal' } }, { type: 'response-end' }])).toContain('stop-reason');
  });

  it('an image part becomes contentBlockStart {format} + one delta {source} + stop, and decodes back to the same part', () => {
    const part = { type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/jpeg', data: '/9j/4AAQ' } };
    const { wire } = encode([{ type: 'part', index: 0, part }, ...end]);
    expect(wire.slice(1, 4).map((w) => w.data)).toEqual([
      { contentBlockIndex: 0, start: { image: { format: 'jpeg' } } },
      { contentBlockIndex: 0, delta: { image: { source: { bytes: '/9j/4AAQ' } } } },
      { contentBlockIndex: 0 },
    ]);
    expect(decode(wire).events.find((e) => e.type === 'part')).toEqual({ type: 'part', index: 0, part });
  });
});
