/**
 * The ConverseStream decoder on the cases captures do not show: bad wire events (a ValidationError
 * naming the wire event and field), exceptions, cut-off streams, a missing metadata event, unknown
 * events and fields, citations, images, tool results and redacted reasoning in several chunks.
 */
import { describe, expect, it } from 'vitest';
import { ID } from '../../../src/formats/bedrock-converse/wire-util.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { encodeRes } from './helpers.js';
import { decode, encode } from './stream-helpers.js';

const ev = (event: string, data: WireEvent['data']): WireEvent => ({ event, data });
const start = ev('messageStart', { role: 'assistant' });
const stop = ev('messageStop', { stopReason: 'end_turn' });
const meta = ev('metadata', { usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 }, metrics: { latencyMs: 9 } });
const text = (i: number, t: string): WireEvent => ev('contentBlockDelta', { contentBlockIndex: i, delta: { text: t } });
const blockStop = (i: number): WireEvent => ev('contentBlockStop', { contentBlockIndex: i });

function failure(wire: WireEvent[]): { path: (string | number)[]; message: string } {
  try {
    decode(wire);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const issue = e.issues[0];
    return { path: issue?.path ?? [], message: issue?.message ?? '' };
  }
  throw new Error('expected a ValidationError');
}

describe('bad wire events are refused, naming the event and the field', () => {
  const cases: [string, WireEvent[], (string | number)[], RegExp][] = [
    ['a payload that is not an object', [start, ev('contentBlockDelta', 'text')], [1, 'data'], /not an object/],
    ['no contentBlockIndex', [start, ev('contentBlockDelta', { delta: { text: 'a' } })], [1, 'contentBlockIndex'], /non-negative integer/],
    ['a negative contentBlockIndex', [start, ev('contentBlockStop', { contentBlockIndex: -1 })], [1, 'contentBlockIndex'], /non-negative/],
    ['a text delta that is not text', [start, ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 5 } })], [1, 'delta', 'text'], /string/],
    ['a toolUse delta with no contentBlockStart', [start, ev('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{}' } } })], [1, 'contentBlockIndex'], /no contentBlockStart/],
    ['a reasoning delta for a text block', [start, text(0, 'a'), ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'b' } } })], [2, 'delta'], /text block/],
    ['a delta after its block stopped', [start, text(0, 'a'), blockStop(0), text(0, 'b')], [3, 'contentBlockIndex'], /already stopped/],
    ['a stop for a block that never began', [start, blockStop(2)], [1, 'contentBlockIndex'], /never began/],
    ['a toolUse start without a name', [start, ev('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'x' } } })], [1, 'start', 'toolUse', 'name'], /string/],
    ['a toolUse id used by an earlier block', [start, ev('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't1', name: 'f' } } }), blockStop(0), ev('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't1', name: 'g' } } })], [3, 'start', 'toolUse', 'toolUseId'], /'t1' was used by an earlier call/],
    ['content after messageStop', [start, stop, text(0, 'late')], [2], /after messageStop/],
    ['anything after the end', [start, stop, meta, text(0, 'x')], [3], /after the stream ended/],
    ['a second messageStart', [start, start], [1], /messageStart after/],
    ['a stop reason that is not a string', [start, ev('messageStop', { stopReason: null })], [1, 'stopReason'], /string/],
    ['usage without its numbers', [start, stop, ev('metadata', { usage: { inputTokens: 1 } })], [2, 'usage', 'outputTokens'], /number/],
    ['a toolResult delta item of no known kind', [start, ev('contentBlockStart', { contentBlockIndex: 0, start: { toolResult: { toolUseId: 't' } } }), ev('contentBlockDelta', { contentBlockIndex: 0, delta: { toolResult: [{ image: {} }] } })], [2, 'delta', 'toolResult', 0], /text\} or \{json/],
  ];
  for (const [name, wire, path, message] of cases) {
    it(name, () => {
      const f = failure(wire);
      expect(f.path).toEqual(path);
      expect(f.message).toMatch(message);
    });
  }
});

describe('the end of a stream', () => {
  it('response-end waits for both messageStop and metadata, in either order', () => {
    expect(decode([start, text(0, 'a'), stop, meta]).events.slice(-4).map((e) => e.type)).toEqual(['text-end', 'finish', 'usage', 'response-end']);
    expect(decode([start, text(0, 'a'), meta, stop]).events.slice(-4).map((e) => e.type)).toEqual(['usage', 'text-end', 'finish', 'response-end']);
  });

  it('a stream cut off mid-block is reported as cut off, not completed', () => {
    const { events } = decode([start, text(0, 'half a sen')]);
    expect(events.map((e) => e.type)).toEqual(['response-start', 'text-start', 'text-delta']);
    const acc = accumulate(events);
    expect(acc.complete).toBe(false);
    expect(acc.response.choices[0]?.stopReason).toBeUndefined();
    expect(acc.losses.map((l) => l.code)).toEqual(['incomplete-stream']);
  });

  it('metadata but no messageStop is cut off too (no stop reason was said)', () => {
    expect(accumulate(decode([start, text(0, 'a'), meta]).events).complete).toBe(false);
  });

  it('an exception ends the stream as a canonical error, with its own fields kept raw', () => {
    const exc: WireEvent = { event: 'modelStreamErrorException', data: { message: 'stream failed', originalStatusCode: 503, originalMessage: 'busy' }, exception: true };
    const { events } = decode([start, text(0, 'a'), exc]);
    expect(events.at(-1)).toEqual({ type: 'error', error: { message: 'stream failed', type: 'modelStreamErrorException', code: 503, raw: exc.data } });
    expect(verifyStream(events)).toEqual([]);
    expect(accumulate(events).error?.type).toBe('modelStreamErrorException');
  });

  it('an exception as the very first message still opens the response first', () => {
    const { events } = decode([ev('throttlingException', { message: 'slow down' })]);
    expect(events).toEqual([{ type: 'response-start' }, { type: 'error', error: { message: 'slow down', type: 'throttlingException', raw: { message: 'slow down' } } }]);
  });
});

describe('events and fields with no canonical slot', () => {
  it('an unknown event type is a provider event, re-emitted by this encoder only', () => {
    const odd = ev('newKindOfEvent', { x: 1 });
    const { events } = decode([start, odd, text(0, 'a'), stop, meta]);
    expect(events[1]).toEqual({ type: 'provider-event', origin: ID, event: odd });
    expect(encode(events).wire[1]).toEqual(odd);
  });

  it('a field beside a union member is reported as a loss; the padding p never is', () => {
    const wire = [start, ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'a', extra: 1 }, p: 'abcdef' }), stop, meta];
    expect(decode(wire).losses).toEqual([{ code: 'unknown-field', path: [1, 'delta', 'extra'], message: "the delta union field 'extra' has no canonical slot", action: 'dropped' }]);
  });
});

describe('blocks beyond text, reasoning and tool use', () => {
  it('citations attach to their text block; the response codec writes them as citationsContent', () => {
    const citation = { title: 'Doc', sourceContent: [{ text: 'quoted' }], location: { documentChar: { documentIndex: 0, start: 3, end: 9 } } };
    const { events } = decode([start, text(0, 'The answer.'), ev('contentBlockDelta', { contentBlockIndex: 0, delta: { citation } }), blockStop(0), stop, meta]);
    expect(events.find((e) => e.type === 'citation')).toEqual({ type: 'citation', index: 0, citation: { type: 'document', documentTitle: 'Doc', documentIndex: 0, location: { unit: 'char', start: 3, end: 9 }, citedText: 'quoted' } });
    const body = encodeRes(accumulate(events).response).value as { output: { message: { content: unknown[] } } };
    expect(body.output.message.content).toEqual([{ citationsContent: { content: [{ text: 'The answer.' }], citations: [citation] } }]);
    // And back out as a stream: the same citation delta.
    expect(encode(events).wire.find((w) => JSON.stringify(w.data).includes('citation'))?.data).toEqual({ contentBlockIndex: 0, delta: { citation } });
  });

  it('an image block arrives whole at its stop, byte chunks joined into the same bytes', () => {
    const bytes = Buffer.from('0123456789abcdef');
    const [a, b] = [bytes.subarray(0, 5).toString('base64'), bytes.subarray(5).toString('base64')];
    const img = (s: string): WireEvent => ev('contentBlockDelta', { contentBlockIndex: 0, delta: { image: { source: { bytes: s } } } });
    const { events } = decode([start, ev('contentBlockStart', { contentBlockIndex: 0, start: { image: { format: 'png' } } }), img(a), img(b), blockStop(0), stop, meta]);
    expect(events[1]).toEqual({ type: 'part', index: 0, part: { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: bytes.toString('base64') } } });
    const again = decode(encode(events).wire).events;
    expect(again).toEqual(events);
  });

  it('redacted reasoning in two chunks: the start carries the first, the end the whole; encoding writes the rest', () => {
    const all = Buffer.from('redacted-bytes-of-thinking');
    const chunks = [all.subarray(0, 7).toString('base64'), all.subarray(7).toString('base64')];
    const red = (s: string): WireEvent => ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: s } } });
    const { events } = decode([start, red(chunks[0] as string), red(chunks[1] as string), blockStop(0), stop, meta]);
    expect(events.slice(1, 3)).toEqual([
      { type: 'reasoning-start', index: 0, origin: ID, redactedData: chunks[0] },
      { type: 'reasoning-end', index: 0, redactedData: all.toString('base64') },
    ]);
    const wire = encode(events).wire.filter((w) => w.event === 'contentBlockDelta');
    expect(wire.map((w) => w.data)).toEqual([0, 1].map((k) => ({ contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: chunks[k] } } })));
  });

  it('redacted data after reasoning text is not lost: it comes whole on reasoning-end', () => {
    const wire = [start, ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hm' } } }), ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: 'AAEC' } } }), stop, meta];
    const { events } = decode(wire);
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', index: 0, redactedData: 'AAEC' });
    expect(accumulate(events).response.choices[0]?.message.parts[0]).toEqual({ type: 'reasoning', origin: ID, text: 'hm', redactedData: 'AAEC' });
  });

  it('a delta kind newer than the codec is a provider event, and its block may stop', () => {
    const odd = ev('contentBlockDelta', { contentBlockIndex: 0, delta: { hologram: { frames: 3 } } });
    const { events } = decode([start, odd, blockStop(0), text(1, 'ok'), stop, meta]);
    expect(events[1]).toEqual({ type: 'provider-event', origin: ID, event: odd });
    expect(verifyStream(events)).toEqual([]);
  });

  it('an empty contentBlockStart (AI SDK test streams) leaves the block to its first delta', () => {
    const { events } = decode([start, ev('contentBlockStart', { contentBlockIndex: 0, start: {} }), text(0, 'hi'), blockStop(0), ev('contentBlockStart', { contentBlockIndex: 1, start: {} }), blockStop(1), stop, meta]);
    expect(events.filter((e) => 'index' in e).map((e) => e.type)).toEqual(['text-start', 'text-delta', 'text-end']);
    expect(verifyStream(events)).toEqual([]);
  });
});
