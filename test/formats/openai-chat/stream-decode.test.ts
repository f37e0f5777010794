/**
 * The decoder on what the captures show: parallel tool calls, n > 1, provider quirks (Azure filter
 * chunks, Groq/Mistral usage on the finish chunk, calls without index, ids on every fragment),
 * reasoning fields, logprobs, mid-stream errors, cut-off streams and malformed chunks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { decodeResponse, encodeResponse } from '../../../src/formats/openai-chat/response.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures } from '../../support/streams.js';
import { decodeWire, encodeEvents, sdkRead, toSse } from './stream-helpers.js';

const caps = localStreamCaptures('openai-chat');
function capture(file: string): WireEvent[] {
  const cap = caps.find((c) => c.name.endsWith(file));
  if (cap === undefined) throw new Error(`no local capture ${file}`);
  return structuredClone(cap.events);
}
const ERROR_BODY = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'streams/openai-chat/reasoning-model-legacy-parameter-error.body.txt'), 'utf8')) as JsonObject;

const ofType = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) => events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
const choicesOf = (w: WireEvent) => ((w.data as JsonObject)['choices'] ?? []) as JsonObject[];

function decodeError(events: WireEvent[]): ValidationError {
  try {
    decodeWire(events);
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('no ValidationError');
}

describe('blocks and indices', () => {
  it('parallel tool calls get distinct canonical indices, the first ends before the second starts', () => {
    const events = decodeWire(capture('parse-multiple-pydantic-tools.sse'));
    const starts = ofType(events, 'tool-call-start');
    expect(starts.map((s) => [s.index, s.name])).toEqual([
      [0, 'GetWeatherArgs'],
      [1, 'get_stock_price'],
    ]);
    expect(new Set(starts.map((s) => s.id)).size).toBe(2);
    const endFirst = events.findIndex((e) => e.type === 'tool-call-end' && e.index === 0);
    expect(endFirst).toBeLessThan(events.indexOf(starts[1] as StreamEvent));
    for (const s of starts) {
      const args = ofType(events, 'tool-call-delta').filter((d) => d.index === s.index).map((d) => d.delta).join('');
      expect(() => JSON.parse(args)).not.toThrow();
    }
  });

  it('a provider that reuses index 0 with a new id per call still gets one block per call', () => {
    const wire = capture('parse-multiple-pydantic-tools.sse');
    for (const w of wire) for (const c of choicesOf(w)) for (const t of ((c['delta'] as JsonObject)?.['tool_calls'] ?? []) as JsonObject[]) t['index'] = 0;
    const starts = ofType(decodeWire(wire), 'tool-call-start');
    expect(starts.map((s) => s.index)).toEqual([0, 1]);
    expect(starts.map((s) => s.id)).toEqual(ofType(decodeWire(capture('parse-multiple-pydantic-tools.sse')), 'tool-call-start').map((s) => s.id));
  });

  it('wire tool index 1 after text (Anthropic via a compatible API): text block 0 ends, call is block 1', () => {
    const events = decodeWire(capture('anthropic-fallback-tool-call.sse'));
    expect(events.map((e) => e.type + ('index' in e ? `:${e.index}` : ''))).toEqual([
      'response-start', 'text-start:0', 'text-delta:0', 'text-delta:0', 'text-end:0',
      'tool-call-start:1', 'tool-call-delta:1', 'tool-call-delta:1', 'tool-call-end:1', 'finish', 'response-end',
    ]);
  });

  it('n > 1: interleaved choices keep their own blocks and finish each', () => {
    const events = decodeWire(capture('parse-pydantic-model-multiple-choices.sse'));
    expect(verifyStream(events)).toEqual([]);
    expect(ofType(events, 'text-start').map((e) => [e.choice ?? 0, e.index])).toEqual([[0, 0], [1, 0], [2, 0]]);
    expect(ofType(events, 'finish').map((e) => e.choice ?? 0)).toEqual([0, 1, 2]);
  });

  it('empty content deltas between tool-call fragments open no text block', () => {
    const events = decodeWire(capture('stream_tool_empty_content.json'));
    expect(ofType(events, 'text-start')).toEqual([]);
    expect(ofType(events, 'tool-call-delta').map((d) => d.delta).join('')).toBe('{"command":"pwd"}');
  });
});

describe('provider quirks', () => {
  it('Azure: the filter chunk before the response adds its fields; per-choice filter results ride on the finish', () => {
    const events = decodeWire(capture('azure-model-router.1.chunks.txt'));
    const start = ofType(events, 'response-start')[0];
    expect(events[0]).toBe(start);
    expect(start?.id).toBe('chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt');
    expect(start?.model).toBe('gpt-5-nano-2025-08-07');
    expect(Object.keys(start?.ext?.['openai-chat'] ?? {})).toEqual(expect.arrayContaining(['prompt_filter_results', 'system_fingerprint']));
    expect(ofType(events, 'finish')[0]?.ext?.['openai-chat']).toMatchObject({ content_filter_results: {}, logprobs: null });
    expect(ofType(events, 'usage')[0]?.usage).toMatchObject({ inputTokens: 15, outputTokens: 78, reasoningTokens: 64, cacheReadTokens: 0 });
    // The final response keeps the prompt filter results at the top, as a non-streaming Azure body has them.
    expect(encodeResponse(accumulate(events).response, { preserve: false, losses: [] })).toHaveProperty('prompt_filter_results');
  });

  it('Groq: usage with the finish chunk; x_groq of the first and last chunks merged', () => {
    const events = decodeWire(capture('groq-tool-call.chunks.txt'));
    expect(ofType(events, 'usage')[0]?.usage).toMatchObject({ inputTokens: 210, outputTokens: 15, totalTokens: 225 });
    expect(ofType(events, 'response-start')[0]?.ext?.['openai-chat']?.['x_groq']).toEqual({ id: 'req_01kh52nj5yfcat8hrmvrk2j2hj', seed: 689520654 });
    const late = ofType(events, 'response-end')[0]?.ext?.['openai-chat'];
    expect(late?.['x_groq']).toMatchObject({ id: 'req_01kh52nj5yfcat8hrmvrk2j2hj', seed: 689520654, usage: { total_tokens: 225 } });
    expect(ofType(events, 'tool-call-delta').map((d) => d.delta)).toEqual(['{}']);
  });

  it('Mistral: a call without index or type, its whole arguments and finish in one chunk', () => {
    const events = decodeWire(capture('mistral-tool-call.chunks.txt'));
    expect(ofType(events, 'tool-call-start')[0]).toMatchObject({ id: 'gSIMJiOkT', name: 'weather', index: 0 });
    expect(ofType(events, 'tool-call-delta')[0]?.delta).toBe('{"location": "San Francisco"}');
    expect(events.map((e) => e.type).slice(-4)).toEqual(['tool-call-end', 'finish', 'usage', 'response-end']);
  });

  it('a continuation fragment with name "" and no id continues the call; stray delta fields become provider events', () => {
    const events = decodeWire(capture('mistral-incremental-tool-call.chunks.txt'));
    expect(ofType(events, 'tool-call-start')).toHaveLength(1);
    expect(ofType(events, 'tool-call-start')[0]?.name).toBe('webSearchTool');
    const extra = ofType(events, 'provider-event');
    expect(extra).toHaveLength(3);
    expect(choicesOf(extra[0]?.event as WireEvent)[0]?.['delta']).toEqual({ index: 0 });
  });

  it('Moonshot reasoning_content is reasoning of this codec\'s origin, as the response codec reads it', () => {
    const events = decodeWire(capture('moonshotai-stream.chunks.txt'));
    expect(ofType(events, 'reasoning-start')[0]).toEqual({ type: 'reasoning-start', index: 0, origin: 'openai-chat' });
    const res = accumulate(events).response;
    const back = decodeResponse(encodeResponse(res, { preserve: false, losses: [] }), { limits: DEFAULT_LIMITS, losses: [] });
    expect(back.choices[0]?.message.parts).toEqual(res.choices[0]?.message.parts);
    expect(res.choices[0]?.message.parts[0]).toEqual({ type: 'reasoning', origin: 'openai-chat', text: 'Thinking aloud. ' });
  });

  it('the `reasoning` field (OpenRouter, vLLM) is the same reasoning and goes back out under its own name', () => {
    const wire = capture('moonshotai-stream.chunks.txt');
    for (const w of wire) {
      const d = choicesOf(w)[0]?.['delta'] as JsonObject;
      if (d['reasoning_content'] !== undefined) {
        d['reasoning'] = d['reasoning_content'] as JsonValue;
        delete d['reasoning_content'];
      }
    }
    const events = decodeWire(wire);
    expect(ofType(events, 'reasoning-delta').map((d) => d.text).join('')).toBe('Thinking aloud. ');
    const out = encodeEvents(events).flatMap(choicesOf).map((c) => c['delta'] as JsonObject);
    expect(out.filter((d) => 'reasoning' in d).map((d) => d['reasoning'])).toEqual(['Thinking ', 'aloud. ']);
    expect(out.some((d) => 'reasoning_content' in d)).toBe(false);
  });

  it('logprobs are joined across chunks as the SDK does, and given with the finish', async () => {
    const wire = capture('stream-emits-refusal-logprobs-events-1.sse');
    const events = decodeWire(wire);
    const lp = ofType(events, 'finish')[0]?.ext?.['openai-chat']?.['logprobs'] as JsonObject;
    const { final } = await sdkRead(toSse(wire));
    expect(lp).toEqual(final.choices[0]?.logprobs);
    expect((lp['refusal'] as JsonValue[]).length).toBe(ofType(events, 'text-delta').length);
  });
});

describe('ends, errors and cut-off streams', () => {
  it('an error chunk mid-stream is a canonical error; nothing follows, a trailing [DONE] says nothing', () => {
    const wire = [...capture('stream-is-robust-against-leading-newline-chunks-1.sse').slice(0, 5), { data: ERROR_BODY }, { data: '[DONE]' }];
    const events = decodeWire(wire);
    expect(verifyStream(events)).toEqual([]);
    const last = events.at(-1);
    expect(last).toEqual({
      type: 'error',
      error: { message: (ERROR_BODY['error'] as JsonObject)['message'], type: 'invalid_request_error', code: 'unsupported_parameter', raw: ERROR_BODY['error'] },
    });
    expect(events.at(-2)).toMatchObject({ type: 'text-end', index: 0 });
    const acc = accumulate(events);
    expect(acc.error?.type).toBe('invalid_request_error');
    expect(decodeError([...wire, { data: (wire[1] as WireEvent).data }]).issues[0]).toMatchObject({ code: 'after_end', path: [7] });
  });

  it('an SSE `event: error` is an error whatever its data', () => {
    const events = decodeWire([{ event: 'error', data: { message: 'overloaded' } }]);
    expect(events).toEqual([{ type: 'response-start' }, { type: 'error', error: { message: 'overloaded', raw: { message: 'overloaded' } } }]);
  });

  it('a stream cut off before its finish is not completed: no finish, no end', () => {
    const wire = capture('parse-multiple-pydantic-tools.sse');
    const cut = wire.slice(0, wire.length - 4);
    const events = decodeWire(cut);
    expect(verifyStream(events)).toEqual([]);
    expect(events.some((e) => e.type === 'finish' || e.type === 'response-end')).toBe(false);
    const acc = accumulate(events);
    expect(acc.complete).toBe(false);
    expect(acc.losses.map((l) => l.code)).toContain('incomplete-stream');
  });

  it('without [DONE] the stream is complete only when every choice finished (what the SDK requires)', () => {
    const wire = capture('parse-pydantic-model-multiple-choices.sse').filter((w) => w.data !== '[DONE]');
    expect(decodeWire(wire).at(-1)).toEqual({ type: 'response-end', ext: { 'openai-chat': { $noDone: true } } });
    const lastFinish = wire.findLastIndex((w) => choicesOf(w).some((c) => typeof c['finish_reason'] === 'string'));
    expect(decodeWire(wire.slice(0, lastFinish)).some((e) => e.type === 'response-end')).toBe(false);
  });

  it('[DONE] closes open blocks and ends the response', () => {
    const events = decodeWire([...capture('moonshotai-stream.chunks.txt').slice(0, 3), { data: '[DONE]' }]);
    expect(events.slice(-2)).toEqual([{ type: 'text-end', index: 1 }, { type: 'response-end' }]);
    expect(verifyStream(events)).toEqual([]);
  });
});

describe('interleaved tool calls (fragments addressed by tool_calls[].index)', () => {
  const head = { id: 'chatcmpl-i', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const chunk = (delta: JsonObject, finish: string | null = null): WireEvent => ({ data: { ...head, choices: [{ index: 0, delta, finish_reason: finish }] } });
  const call = (index: number, fields: JsonObject): WireEvent => chunk({ tool_calls: [{ index, ...fields }] });
  const short = (events: StreamEvent[]) => events.map((e) => ('index' in e ? `${e.type}:${e.index}${e.type === 'tool-call-delta' ? `:${e.delta}` : ''}` : e.type));

  it('keep both calls open, in order of first appearance; a call ends once its arguments are whole and a later block opened', () => {
    const events = decodeWire([
      call(0, { id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }),
      call(0, { function: { arguments: '{"x":' } }),
      call(1, { id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"y":2}' } }),
      call(0, { function: { arguments: '1}' } }),
      chunk({ content: 'done' }),
      chunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ]);
    expect(short(events)).toEqual([
      'response-start',
      'tool-call-start:0', 'tool-call-delta:0:{"x":',
      'tool-call-start:1', 'tool-call-delta:1:{"y":2}',
      'tool-call-delta:0:1}', 'tool-call-end:0',
      // Text opens: call b is whole, and now something came after it.
      'tool-call-end:1', 'text-start:2', 'text-delta:2', 'text-end:2',
      'finish', 'response-end',
    ]);
    expect(verifyStream(events)).toEqual([]);
    const parts = accumulate(events).response.choices[0]?.message.parts;
    expect(parts?.filter((p) => p.type === 'tool-call').map((p) => [p.id, p.arguments])).toEqual([['call_a', { x: 1 }], ['call_b', { y: 2 }]]);
  });

  it('whitespace after a call ended is dropped with a loss; a call whose arguments are never whole ends at the finish', () => {
    const losses: Loss[] = [];
    const events = decodeWire([
      call(0, { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }),
      call(1, { id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"open":' } }),
      call(0, { function: { arguments: ' ' } }),
      chunk({}, 'tool_calls'),
    ], losses);
    expect(short(events)).toEqual(['response-start', 'tool-call-start:0', 'tool-call-delta:0:{}', 'tool-call-end:0', 'tool-call-start:1', 'tool-call-delta:1:{"open":', 'tool-call-end:1', 'finish', 'response-end']);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['late-arguments', [2]]]);
  });
});

describe('malformed chunks', () => {
  const base = () => capture('content-logprobs-events.sse');

  it('names the field and the wire event', () => {
    const wire = base();
    (choicesOf(wire[1] as WireEvent)[0] as JsonObject)['index'] = '0';
    expect(decodeError(wire).issues[0]).toMatchObject({ code: 'invalid_type', path: [1, 'choices', 0, 'index'] });
    const wire2 = base();
    ((choicesOf(wire2[1] as WireEvent)[0] as JsonObject)['delta'] as JsonObject)['tool_calls'] = { index: 0 };
    expect(decodeError(wire2).issues[0]?.path).toEqual([1, 'choices', 0, 'delta', 'tool_calls']);
    const wire3 = base();
    const usageChunk = wire3.findIndex((w) => (w.data as JsonObject)['usage'] !== undefined && (w.data as JsonObject)['usage'] !== null);
    delete ((wire3[usageChunk] as WireEvent).data as { usage: JsonObject }).usage['prompt_tokens'];
    expect(decodeError(wire3).issues[0]?.path).toEqual([usageChunk, 'usage', 'prompt_tokens']);
  });

  it('refuses data that is neither JSON nor [DONE], and content after the finish', () => {
    expect(decodeError([{ data: 'hello' }]).issues[0]).toMatchObject({ code: 'invalid_json', path: [0] });
    const wire = base().filter((w) => w.data !== '[DONE]');
    wire.push({ data: { ...(wire[1]?.data as JsonObject) } });
    expect(decodeError(wire).issues[0]).toMatchObject({ code: 'after_finish', path: [wire.length - 1, 'choices', 0, 'delta'] });
  });

  it('refuses arguments for a call whose arguments were already a whole object when the next call started', () => {
    const wire = capture('parse-multiple-pydantic-tools.sse');
    const late = wire.findIndex((w) => choicesOf(w).some((c) => ((c['delta'] as JsonObject)['tool_calls'] as JsonObject[] | undefined)?.[0]?.['index'] === 1));
    const first = wire.find((w) => choicesOf(w).some((c) => ((c['delta'] as JsonObject)['tool_calls'] as JsonObject[] | undefined)?.[0]?.['index'] === 0 && !('id' in (((c['delta'] as JsonObject)['tool_calls'] as JsonObject[])[0] as JsonObject))));
    wire.splice(late + 1, 0, structuredClone(first as WireEvent));
    expect(decodeError(wire).issues[0]).toMatchObject({ code: 'arguments_after_end', path: [late + 1, 'choices', 0, 'delta', 'tool_calls', 0, 'function', 'arguments'] });
  });

  it('a delta over the text size limit', () => {
    const wire = base();
    ((choicesOf(wire[1] as WireEvent)[0] as JsonObject)['delta'] as JsonObject)['content'] = 'x'.repeat(DEFAULT_LIMITS.maxTextBytes + 1);
    expect(decodeError(wire).issues[0]).toMatchObject({ code: 'too_large', path: [1, 'choices', 0, 'delta', 'content'] });
  });

  it('a call that never gets a name is kept with an empty name and reported', () => {
    const wire = base().slice(0, 1);
    wire.push({ data: { id: 'x', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{}' } }] }, finish_reason: 'tool_calls' }] } });
    const losses: Loss[] = [];
    const events = decodeWire(wire, losses);
    expect(ofType(events, 'tool-call-start')[0]).toMatchObject({ id: 'call_1', name: '' });
    expect(ofType(events, 'tool-call-delta')[0]?.delta).toBe('{}');
    expect(losses.map((l) => [l.code, l.path])).toEqual([['missing-tool-name', [1]]]);
  });
});

describe('annotations (search models send them in a late delta)', () => {
  it('become citations on the open text block, offsets relative to it, and go back out the same', () => {
    const wire = capture('stream-is-robust-against-leading-newline-chunks-1.sse');
    const text = decodeWire(wire).flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
    const finishAt = wire.findIndex((w) => choicesOf(w).some((c) => c['finish_reason'] === 'stop'));
    const annotation = { type: 'url_citation', url_citation: { url: 'https://example.org/sf', title: 'SF', start_index: 2, end_index: text.length } };
    wire.splice(finishAt, 0, { data: { id: 'x', choices: [{ index: 0, delta: { annotations: [annotation] }, finish_reason: null }] } });
    const events = decodeWire(wire);
    expect(ofType(events, 'citation')).toEqual([{ type: 'citation', index: 0, citation: { type: 'url', url: 'https://example.org/sf', title: 'SF', startIndex: 2, endIndex: text.length } }]);
    const out = encodeEvents(events).flatMap(choicesOf).flatMap((c) => ((c['delta'] as JsonObject)['annotations'] ?? []) as JsonObject[]);
    expect(out).toEqual([annotation]);
  });
});
