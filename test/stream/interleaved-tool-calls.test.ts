/**
 * Interleaved parallel tool calls, by example: a Chat Completions stream whose two calls'
 * argument fragments interleave, transcoded event by event. Anthropic and Bedrock get the first
 * call live and the second held until the first ends; Gemini gets whole calls in start order;
 * Chat, Responses and AG-UI pass the interleaving through. Cut-off and failing streams flush what
 * is held and stay cut off.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { SerialBlocks } from '../../src/formats/shared/serial-blocks.js';
import { accumulateStream, Transcoder } from '../../src/stream/transcode.js';
import { verifyStream } from '../../src/stream/verify.js';

const HEAD = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test' };
const chunk = (delta: JsonObject, finish: string | null = null): WireEvent => ({ data: { ...HEAD, choices: [{ index: 0, delta, finish_reason: finish }] } });
const start = (index: number, id: string, name: string): WireEvent => chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] });
const args = (index: number, text: string): WireEvent => chunk({ tool_calls: [{ index, function: { arguments: text } }] });

/**
 * Text, then call A and call B interleaved; B's arguments are whole before A's. Chat never says a
 * call is over: A ends when its arguments are whole (B started after it), B at the finish.
 */
const CHAT: WireEvent[] = [
  chunk({ role: 'assistant', content: 'Checking ' }), // 0
  chunk({ content: 'both.' }), // 1
  start(0, 'call_A', 'weather'), // 2
  args(0, '{"city":'), // 3
  start(1, 'call_B', 'time'), // 4
  args(1, '{"tz":"CET"}'), // 5: B is whole, A is not
  args(0, '"Paris"'), // 6
  args(0, '}'), // 7: A is whole: A ends, B goes out (still open)
  chunk({}, 'tool_calls'), // 8
  { data: { ...HEAD, choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } } }, // 9
  { data: '[DONE]' }, // 10
];

/** The target events each Chat event gives at once. */
function perEvent(to: string, wire: readonly WireEvent[] = CHAT): WireEvent[][] {
  const t = new Transcoder({ from: 'openai-chat', to });
  const out = wire.map((w) => t.push(w));
  out.push(t.end());
  return out;
}

const data = (w: WireEvent): JsonObject => w.data as JsonObject;
const types = (ws: readonly WireEvent[]): string[] => ws.map((w) => String(data(w)['type'] ?? w.event));

describe('Chat -> Anthropic: one block at a time, the first call live', () => {
  const steps = perEvent('anthropic-messages');

  it('text streams as it arrives; call A opens and grows live', () => {
    expect(types(steps[0] ?? [])).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(types(steps[1] ?? [])).toEqual(['content_block_delta']);
    expect(steps[2]?.map(data)).toEqual([
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_A', name: 'weather', input: {} } },
    ]);
    expect(steps[3]?.map(data)).toEqual([{ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }]);
  });

  it('call B is held while A is open, and goes out right after A ends', () => {
    expect(steps[4]).toEqual([]);
    expect(steps[5]).toEqual([]);
    expect(steps[6]?.map(data)).toEqual([{ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"' } }]);
    expect(steps[7]?.map(data)).toEqual([
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_B', name: 'time', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"tz":"CET"}' } },
    ]);
    expect(steps[8]?.map(data)).toEqual([{ type: 'content_block_stop', index: 2 }]);
    expect(types(steps.slice(9).flat())).toEqual(['message_delta', 'message_stop']);
  });

  it('accumulates to both calls, in order', () => {
    const acc = accumulateStream(steps.flat(), { from: 'anthropic-messages', to: 'anthropic-messages' });
    expect(acc.complete).toBe(true);
    expect(acc.response.choices[0]?.message.parts.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'call_A', name: 'weather', arguments: { city: 'Paris' } },
      { type: 'tool-call', id: 'call_B', name: 'time', arguments: { tz: 'CET' } },
    ]);
  });
});

describe('other targets', () => {
  it('Bedrock: A live, B released after A stops, contiguous', () => {
    const steps = perEvent('bedrock-converse');
    expect(steps[4]).toEqual([]);
    expect(steps[5]).toEqual([]);
    expect(steps[7]?.map((w) => w.event)).toEqual(['contentBlockDelta', 'contentBlockStop', 'contentBlockStart', 'contentBlockDelta']);
    expect(data(steps[7]?.[2] as WireEvent)).toEqual({ contentBlockIndex: 2, start: { toolUse: { toolUseId: 'call_B', name: 'time' } } });
  });

  it('Gemini: whole calls in start order, though B was whole first (AG-UI says when a call ends)', () => {
    const agui: WireEvent[] = [
      { data: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
      { data: { type: 'TOOL_CALL_START', toolCallId: 'call_A', toolCallName: 'weather' } },
      { data: { type: 'TOOL_CALL_START', toolCallId: 'call_B', toolCallName: 'time' } },
      { data: { type: 'TOOL_CALL_ARGS', toolCallId: 'call_B', delta: '{"tz":"CET"}' } },
      { data: { type: 'TOOL_CALL_END', toolCallId: 'call_B' } }, // 4: B is whole, A is not
      { data: { type: 'TOOL_CALL_ARGS', toolCallId: 'call_A', delta: '{"city":"Paris"}' } },
      { data: { type: 'TOOL_CALL_END', toolCallId: 'call_A' } }, // 6
      { data: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
    ];
    const t = new Transcoder({ from: 'ag-ui', to: 'gemini' });
    const steps = agui.map((w) => t.push(w));
    const call = (w: WireEvent | undefined): unknown => (((data(w as WireEvent)['candidates'] as JsonObject[])[0]?.['content'] as JsonObject)['parts'] as JsonObject[])[0]?.['functionCall'];
    expect(steps[4]).toEqual([]);
    expect(steps[6]?.map(call)).toEqual([
      { id: 'call_A', name: 'weather', args: { city: 'Paris' } },
      { id: 'call_B', name: 'time', args: { tz: 'CET' } },
    ]);
  });

  it('Chat, Responses and AG-UI pass the interleaving through', () => {
    const chat = perEvent('openai-chat');
    expect(chat[4]?.length).toBe(1);
    expect(chat[5]?.map((w) => (data(w)['choices'] as JsonObject[])[0]?.['delta'])).toEqual([{ tool_calls: [{ index: 1, function: { arguments: '{"tz":"CET"}' } }] }]);
    const responses = perEvent('openai-responses');
    expect(types(responses[5] ?? [])).toEqual(['response.function_call_arguments.delta']);
    expect(types(responses[6] ?? [])).toEqual(['response.function_call_arguments.delta']);
    const agui = perEvent('ag-ui');
    expect(agui[4]?.map((w) => data(w)['type'])).toEqual(['TOOL_CALL_START']);
    expect(agui[6]?.map((w) => [data(w)['type'], data(w)['toolCallId']])).toEqual([['TOOL_CALL_ARGS', 'call_A']]);
  });
});

describe('streams that end badly: what is held goes out, nothing is made up', () => {
  it('cut off while A is open: B goes out at the end as it came, and the stream stays cut off', () => {
    const steps = perEvent('anthropic-messages', CHAT.slice(0, 7));
    expect(steps[5]).toEqual([]);
    const last = steps.at(-1) ?? [];
    expect(last.map(data)).toEqual([
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_B', name: 'time', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"tz":"CET"}' } },
    ]);
    const acc = accumulateStream(steps.flat(), { from: 'anthropic-messages', to: 'anthropic-messages' });
    expect(acc.complete).toBe(false);
    expect(acc.losses.map((l) => l.code)).toContain('incomplete-stream');
  });

  it('an error while B is held: B goes out before the error', () => {
    const failing = [...CHAT.slice(0, 6), { data: { error: { message: 'overloaded', type: 'server_error' } } }];
    const steps = perEvent('anthropic-messages', failing);
    expect(types(steps[6] ?? [])).toEqual(['content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'error']);
  });

  it('Gemini reports a call the stream cut off (it sends calls whole)', () => {
    const t = new Transcoder({ from: 'openai-chat', to: 'gemini' });
    for (const w of CHAT.slice(0, 7)) t.push(w);
    expect(t.end()).toEqual([]);
    // One loss per call Gemini could not write whole, then the stream's own.
    expect(t.losses.filter((l) => l.code === 'incomplete-stream').map((l) => l.message)).toEqual([
      expect.stringContaining("'call_A'"),
      expect.stringContaining("'call_B'"),
      expect.stringContaining('ended before its end event'),
    ]);
  });
});

describe('SerialBlocks on canonical events', () => {
  const run = (events: StreamEvent[]): { out: StreamEvent[][]; end: StreamEvent[] } => {
    const s = new SerialBlocks();
    const out = events.map((e) => s.push(e).map((r) => r.event));
    return { out, end: s.end().map((r) => r.event) };
  };

  it('holds a block started while a call is open, releases it in start order, keeps each event’s position', () => {
    const s = new SerialBlocks();
    const events: StreamEvent[] = [
      { type: 'response-start' },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      { type: 'text-start', index: 2 },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', stopReason: { unified: 'tool-calls' } },
      { type: 'tool-call-end', index: 0 },
    ];
    const out = events.map((e) => s.push(e));
    expect(out.map((o) => o.length)).toEqual([1, 1, 0, 0, 0, 0, 5]);
    // The text block goes out open (no call holds it any more); the finish waited behind it.
    expect(out[6]?.map((r) => [r.event.type, r.at])).toEqual([['tool-call-end', 6], ['tool-call-start', 2], ['tool-call-end', 4], ['text-start', 3], ['finish', 5]]);
    expect(s.push({ type: 'text-end', index: 2 }).map((r) => r.at)).toEqual([7]);
  });

  it('pushDelta sends a delta exactly as push would, and leaves deltas of held blocks to push', () => {
    const events: StreamEvent[] = [
      { type: 'response-start' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'a' },
      { type: 'tool-call-start', index: 1, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 1, delta: '{' },
      { type: 'tool-call-start', index: 2, id: 'b', name: 'g' },
      { type: 'tool-call-delta', index: 2, delta: '{}' }, // held behind call a
      { type: 'text-delta', index: 0, delta: 'b' }, // its block went out: passes
      { type: 'reasoning-start', index: 3, origin: 'bedrock-converse' },
      { type: 'reasoning-delta', index: 3, text: 'r' }, // held
      { type: 'tool-call-delta', index: 1, delta: '}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-delta', index: 2, delta: ' ' }, // released and open now: passes
      { type: 'text-delta', index: 9, delta: 'x' }, // a block never started: as push reports it
      { type: 'tool-call-end', index: 2 },
      { type: 'response-end' },
    ];
    const plain = new SerialBlocks();
    const fast = new SerialBlocks();
    const taken: boolean[] = [];
    for (const e of events) {
      const want = plain.push(e).map((r) => [r.event, r.at]);
      const at = fast.pushDelta(e);
      taken.push(at >= 0);
      expect(at >= 0 ? [[e, at]] : fast.push(e).map((r) => [r.event, r.at])).toEqual(want);
    }
    expect(taken).toEqual(events.map((_e, i) => [2, 4, 7, 10, 12, 13].includes(i)));
  });

  it('text and reasoning blocks hold nothing back (a dialect may close them only at the end)', () => {
    const { out } = run([
      { type: 'reasoning-start', index: 0, origin: 'bedrock-converse' },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, delta: 'hi' },
      { type: 'tool-call-start', index: 2, id: 'a', name: 'f' },
    ]);
    expect(out.map((o) => o.length)).toEqual([1, 1, 1, 1]);
  });

  it('a stream verifyStream accepts stays valid, its calls contiguous', () => {
    const events: StreamEvent[] = [
      { type: 'response-start' },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      { type: 'tool-call-delta', index: 1, delta: '{}' },
      { type: 'tool-call-delta', index: 0, delta: '{' },
      { type: 'tool-call-start', index: 2, id: 'c', name: 'h' },
      { type: 'tool-call-end', index: 2 },
      { type: 'tool-call-delta', index: 0, delta: '}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', stopReason: { unified: 'tool-calls' } },
      { type: 'response-end' },
    ];
    expect(verifyStream(events)).toEqual([]);
    const { out, end } = run(events);
    const all = [...out.flat(), ...end];
    expect(verifyStream(all)).toEqual([]);
    expect(all.map((e) => ('index' in e ? `${e.type}:${e.index}` : e.type))).toEqual([
      'response-start',
      'tool-call-start:0', 'tool-call-delta:0', 'tool-call-delta:0', 'tool-call-end:0',
      'tool-call-start:1', 'tool-call-delta:1', 'tool-call-end:1',
      'tool-call-start:2', 'tool-call-end:2',
      'finish', 'response-end',
    ]);
  });
});
