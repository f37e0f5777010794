/** The Anthropic stream decoder on the local captures and on edge cases built from them. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { localStreamCaptures } from '../../support/streams.js';
import { issuesOf } from './helpers.js';
import { decodeAll } from './stream-helpers.js';

const captures = localStreamCaptures('anthropic-messages');
function capture(part: string): WireEvent[] {
  const c = captures.find((x) => x.name.includes(part));
  if (!c) throw new Error(`no local capture ${part}`);
  return c.events;
}
const data = (w: WireEvent): JsonObject => w.data as JsonObject;
const ofType = <T extends StreamEvent['type']>(events: StreamEvent[], type: T): Extract<StreamEvent, { type: T }>[] =>
  events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
/** Every wire delta of a given type, its field joined in order. */
function joined(wire: WireEvent[], deltaType: string, field: string): string {
  return wire
    .map(data)
    .filter((d) => d['type'] === 'content_block_delta' && (d['delta'] as JsonObject)['type'] === deltaType)
    .map((d) => (d['delta'] as JsonObject)[field] as string)
    .join('');
}

describe('Anthropic stream decoder on captures', () => {
  it('decodes a text stream event by event', () => {
    const events = decodeAll(capture('anthropic-sdk-typescript/basic_response'));
    expect(events.map((e) => e.type)).toEqual([
      'response-start', 'usage', 'text-start', 'provider-event', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'usage', 'finish', 'response-end',
    ]);
    expect(events[0]).toEqual({ type: 'response-start', id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK', model: 'claude-opus-4-8' });
    expect(events[1]).toMatchObject({ type: 'usage', usage: { inputTokens: 11, outputTokens: 1, totalTokens: 12 } });
    expect(events[3]).toMatchObject({ type: 'provider-event', origin: 'anthropic-messages', keepalive: true, event: { event: 'ping' } });
    expect(ofType(events, 'text-delta').map((e) => e.delta).join('')).toBe('Hello there!');
    expect(events[8]).toMatchObject({ type: 'usage', usage: { inputTokens: 11, outputTokens: 6 } });
    expect(events[9]).toEqual({ type: 'finish', stopReason: { unified: 'stop', raw: 'end_turn' } });
  });

  it('keeps tool input fragments and gives the whole text at the end', () => {
    const wire = capture('anthropic-sdk-typescript/tool_use_response');
    const events = decodeAll(wire);
    expect(verifyStream(events)).toEqual([]);
    const [start] = ofType(events, 'tool-call-start');
    expect(start).toMatchObject({ id: expect.stringMatching(/^toolu_/), name: expect.any(String) });
    const text = joined(wire, 'input_json_delta', 'partial_json');
    expect(ofType(events, 'tool-call-delta').map((e) => e.delta).join('')).toBe(text);
    expect(ofType(events, 'tool-call-end')[0]?.arguments).toBe(text);
    expect(ofType(events, 'finish')[0]?.stopReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
  });

  it('gives a call with no argument deltas its start input as text', () => {
    const events = decodeAll(capture('anthropic-tool-no-args'));
    const start = ofType(events, 'tool-call-start')[0];
    const deltas = ofType(events, 'tool-call-delta').filter((e) => e.index === start?.index);
    expect(deltas.map((d) => d.delta)).toEqual(['{}']);
    expect(ofType(events, 'tool-call-end').find((e) => e.index === start?.index)?.arguments).toBe('{}');
  });

  it('keeps thinking text and signature byte-exact', () => {
    const wire = capture('test_anthropic_model_thinking_part_stream');
    const events = decodeAll(wire);
    const reasoning = ofType(events, 'reasoning-delta');
    expect(ofType(events, 'reasoning-start')[0]).toMatchObject({ origin: 'anthropic-messages' });
    expect(reasoning.map((e) => e.text ?? '').join('')).toBe(joined(wire, 'thinking_delta', 'thinking'));
    const signature = joined(wire, 'signature_delta', 'signature');
    expect(signature.length).toBeGreaterThan(100);
    expect(reasoning.map((e) => e.signature ?? '').join('')).toBe(signature);
    const part = accumulate(events).response.choices[0]?.message.parts[0];
    expect(part).toMatchObject({ type: 'reasoning', origin: 'anthropic-messages', signature });
  });

  it('keeps redacted thinking whole', () => {
    const wire = capture('thinking_part_redacted_stream');
    const redacted = wire.map(data).find((d) => (d['content_block'] as JsonObject | undefined)?.['type'] === 'redacted_thinking');
    const events = decodeAll(wire);
    const start = ofType(events, 'reasoning-start').find((e) => e.redactedData !== undefined);
    expect(start?.redactedData).toBe((redacted?.['content_block'] as JsonObject)['data']);
    expect(ofType(events, 'reasoning-delta').filter((e) => e.index === start?.index)).toEqual([]);
  });

  it('turns citations_delta into citations and server tool blocks into calls and parts', () => {
    const wire = capture('test_anthropic_model_web_search_tool_stream');
    const events = decodeAll(wire);
    const count = wire.map(data).filter((d) => (d['delta'] as JsonObject | undefined)?.['type'] === 'citations_delta').length;
    expect(count).toBeGreaterThan(0);
    const citations = ofType(events, 'citation');
    expect(citations).toHaveLength(count);
    expect(citations[0]?.citation).toMatchObject({ type: 'url', url: expect.stringMatching(/^https?:/), encryptedIndex: expect.any(String) });
    const server = ofType(events, 'tool-call-start').find((e) => e.name === 'web_search');
    expect(server).toMatchObject({ providerExecuted: true, ext: { 'anthropic-messages': { $type: 'server_tool_use' } } });
    const result = ofType(events, 'part').find((e) => e.part.type === 'tool-result');
    expect(result?.part).toMatchObject({ type: 'tool-result', callId: server?.id, providerExecuted: true });
    expect(result?.part.type === 'tool-result' && result.part.content[0]?.type).toBe('search-result');
  });

  it('holds a compaction block until its compaction_delta, then gives it whole', () => {
    const events = decodeAll(capture('compaction_response'));
    const parts = ofType(events, 'part');
    expect(parts).toHaveLength(1);
    expect(parts[0]).toEqual({
      type: 'part',
      index: 0,
      part: {
        type: 'provider-block',
        origin: 'anthropic-messages',
        block: { type: 'compaction', content: 'Earlier conversation summarized.', encrypted_content: 'EpwBCioIDxgCEAEYASJALd_opaque_compaction_payload' },
      },
    });
    expect(ofType(events, 'text-start')[0]?.index).toBe(1);
  });

  it('decodes MCP calls and results and the fallback block', () => {
    const mcp = decodeAll(capture('anthropic-mcp.1'));
    expect(ofType(mcp, 'tool-call-start')[0]).toMatchObject({ providerExecuted: true, ext: { 'anthropic-messages': { $type: 'mcp_tool_use', server_name: 'echo' } } });
    expect(ofType(mcp, 'part')[0]?.part).toMatchObject({ type: 'tool-result', providerExecuted: true });
    const fallback = decodeAll(capture('anthropic-fallback'));
    expect(ofType(fallback, 'part')[0]?.part).toMatchObject({ type: 'provider-block', block: { type: 'fallback', to: { model: 'claude-opus-4-8' } } });
  });

  it("takes message_delta's usage as whole-message totals and keeps stop details", () => {
    const usage = ofType(decodeAll(capture('anthropic-message-delta-input-tokens')), 'usage');
    expect(usage.map((u) => [u.usage.inputTokens, u.usage.outputTokens])).toEqual([[43, 1], [61, 2]]);
    const refusal = decodeAll(capture('anthropic-refusal'));
    expect(ofType(refusal, 'finish')[0]?.stopReason).toEqual({ unified: 'refusal', raw: 'refusal' });
    const end = ofType(refusal, 'response-end')[0];
    expect(end?.ext?.['anthropic-messages']?.['stop_details']).toMatchObject({ type: 'refusal', category: 'cyber' });
    expect(accumulate(refusal).response.ext?.['anthropic-messages']?.['stop_details']).toMatchObject({ category: 'cyber' });
  });

  it('decodes several messages in one stream as one response', () => {
    const wire = capture('anthropic-tool-search-regex.1');
    const events = decodeAll(wire);
    expect(verifyStream(events)).toEqual([]);
    expect(ofType(events, 'response-start')).toEqual([{ type: 'response-start', id: 'msg_01A4vjL51mNRof8JMvA9CFph', model: 'claude-sonnet-4-5-20250929' }]);
    // The first message's end and the second's start are kept as provider events, in wire order.
    const lifecycle = ofType(events, 'provider-event').filter((e) => !e.keepalive).map((e) => (e.event.data as JsonObject)['type']);
    expect(lifecycle).toEqual(['message_delta', 'message_stop', 'message_start']);
    // The second message's block 0 is the response's fifth part.
    const secondStart = events.findIndex((e) => e.type === 'provider-event' && (e.event.data as JsonObject)['type'] === 'message_start');
    expect(events.slice(secondStart).find((e) => e.type === 'text-start')).toMatchObject({ index: 4 });
    expect(ofType(events, 'finish')).toEqual([{ type: 'finish', stopReason: { unified: 'stop', raw: 'end_turn' } }]);
    expect(accumulate(events).response.usage).toMatchObject({ inputTokens: 1071, outputTokens: 67 });
    expect(accumulate(events).response.choices[0]?.message.parts.map((p) => p.type)).toEqual(['tool-call', 'tool-result', 'text', 'tool-call', 'text']);
  });

  it('treats a repeated message_start of the open message as a keepalive and refuses another message while one is open', () => {
    const events = decodeAll(capture('duplicate-message-start'));
    expect(ofType(events, 'response-start')).toHaveLength(1);
    expect(events[2]).toMatchObject({ type: 'provider-event', keepalive: true });
    const issues = issuesOf(() => decodeAll(capture('spliced-message-start')));
    expect(issues[0]).toMatchObject({ path: [7, 'message', 'id'] });
    expect(issues[0]?.message).toContain("'msg_first' is still open");
  });

  it('closes a block its message stopped without, and reports it', () => {
    const losses: Loss[] = [];
    const wire = capture('anthropic-sdk-typescript/incomplete_partial_json_response');
    const events = decodeAll(wire, losses);
    expect(losses.map((l) => l.code)).toEqual(['unclosed-block']);
    expect(verifyStream(events)).toEqual([]);
    const end = ofType(events, 'tool-call-end')[0];
    expect(end?.arguments).toBe(joined(wire, 'input_json_delta', 'partial_json'));
    const acc = accumulate(events);
    expect(acc.losses.map((l) => l.code)).toEqual(['invalid-arguments']);
    expect(acc.response.choices[0]?.stopReason?.raw).toBe('max_tokens');
  });
});

describe('Anthropic stream decoder edge cases', () => {
  const basic = (): WireEvent[] => capture('anthropic-sdk-typescript/basic_response');

  it('leaves a cut-off stream cut off', () => {
    const cut = basic().slice(0, 5);
    const events = decodeAll(cut);
    expect(events.some((e) => e.type === 'finish' || e.type === 'response-end')).toBe(false);
    expect(accumulate(events).complete).toBe(false);
    // A stream cut after message_delta has its stop reason but still no end.
    const noStop = decodeAll(basic().slice(0, -1));
    expect(noStop.some((e) => e.type === 'response-end' || e.type === 'finish')).toBe(false);
  });

  it('maps a mid-stream error event to the canonical error; nothing but pings may follow', () => {
    const error: WireEvent = { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
    const events = decodeAll([...basic().slice(0, 5), error, { event: 'ping', data: { type: 'ping' } }]);
    expect(events.at(-1)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded', raw: error.data } });
    expect(verifyStream(events)).toEqual([]);
    expect(accumulate(events).error?.type).toBe('overloaded_error');
    const issues = issuesOf(() => decodeAll([...basic().slice(0, 5), error, basic()[5] as WireEvent]));
    expect(issues[0]).toMatchObject({ path: [6, 'type'] });
  });

  it('opens an empty response for an error that comes first', () => {
    const events = decodeAll([{ event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'boom' } } }]);
    expect(events.map((e) => e.type)).toEqual(['response-start', 'error']);
    expect(verifyStream(events)).toEqual([]);
  });

  it('keeps unknown events and delta types as provider events, at the canonical index', () => {
    const wire = capture('anthropic-tool-search-regex.1');
    const k = wire.findIndex((w, i) => i > 30 && data(w)['type'] === 'content_block_start');
    const future: WireEvent = { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'future_delta', x: 1 } } };
    const newer: WireEvent = { event: 'message_annotation', data: { type: 'message_annotation', note: 'n' } };
    const events = decodeAll([...wire.slice(0, k + 1), future, newer, ...wire.slice(k + 1)]);
    expect(verifyStream(events)).toEqual([]);
    const kept = ofType(events, 'provider-event').filter((e) => ['content_block_delta', 'message_annotation'].includes((e.event.data as JsonObject)['type'] as string));
    expect(kept).toEqual([
      { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'content_block_delta', data: { type: 'content_block_delta', index: 4, delta: { type: 'future_delta', x: 1 } } } },
      { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'message_annotation', data: { type: 'message_annotation', note: 'n' } } },
    ]);
  });

  it('refuses malformed events with the path of the problem', () => {
    const b = basic();
    const at = (wire: WireEvent[]): unknown => issuesOf(() => decodeAll(wire))[0];
    expect(at([{ data: '[DONE]' }])).toMatchObject({ path: [0] });
    expect(at([b[1] as WireEvent])).toMatchObject({ path: [0, 'type'], message: expect.stringContaining('no message_start') });
    expect(at([{ data: { type: 'message_start', message: { id: 'm', model: 'x', content: [] } } }])).toMatchObject({ path: [0, 'message', 'usage'] });
    const toolStart = { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'f', input: {} } };
    expect(at([b[0] as WireEvent, b[1] as WireEvent, { data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{' } } }])).toMatchObject({
      path: [2, 'delta', 'type'],
    });
    expect(at([b[0] as WireEvent, { data: toolStart }, { data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta' } } }])).toMatchObject({
      path: [2, 'delta', 'partial_json'],
    });
    expect(at([b[0] as WireEvent, { data: { ...toolStart, content_block: { type: 'tool_use', name: 'f', input: {} } } }])).toMatchObject({ path: [1, 'content_block', 'id'] });
    expect(at([b[0] as WireEvent, b[1] as WireEvent, b[1] as WireEvent])).toMatchObject({ path: [2, 'index'] });
    expect(at([b[0] as WireEvent, b[1] as WireEvent, { data: { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } } } }])).toMatchObject({
      path: [2, 'delta', 'citation', 'document_index'],
    });
    expect(at([b[0] as WireEvent, { data: { type: 'content_block_stop', index: 3 } }])).toMatchObject({ path: [1, 'index'] });
    expect(() => decodeAll([b[0] as WireEvent, { data: { type: 'message_stop' } }, { data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } }])).toThrow(ValidationError);
  });

  it('accepts a thinking start without a signature field (hand-built streams leave it out)', () => {
    const events = decodeAll(capture('spliced-message-start').slice(0, 5));
    expect(ofType(events, 'reasoning-delta').map((e) => e.signature ?? e.text)).toEqual(['I will call the tool.', 'sig-first']);
  });
});
