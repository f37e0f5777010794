/**
 * Events written with their JSON text (shared/stream-written.ts): the text is exactly what
 * JSON.stringify of the event's data gives, and it is attached only when the caller says each event
 * is written as it comes, so a caller that changes an event in place writes what it changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { dataText, jsonString, Template, WrittenEvent } from '../../src/formats/shared/stream-written.js';
import { frameWriter } from '../../src/stream/framing.js';
import { Transcoder } from '../../src/stream/transcode.js';
import { localStreamCaptures } from '../support/streams.js';

const TARGETS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini', 'ag-ui', 'a2a'];
const [capture] = localStreamCaptures('anthropic-messages').sort((a, b) => b.events.length - a.events.length);

function transcodeAll(to: string, eventText: boolean): WireEvent[] {
  if (capture === undefined) throw new Error('no Anthropic stream capture in test/fixtures');
  const t = new Transcoder({ from: 'anthropic-messages', to, eventText });
  const out: WireEvent[] = [];
  for (const e of capture.events) out.push(...t.push(e));
  out.push(...t.end());
  return out;
}

describe('Template', () => {
  it('filled with JSON texts gives JSON.stringify of the same object, whatever the values hold', () => {
    const make = (a: string, b: string): JsonValue => ({ type: 'delta', text: a, seq: b, tail: [1, { x: 'y' }] });
    const tpl = Template.of(2, make, true);
    if (tpl === undefined) throw new Error('template refused');
    for (const [a, b] of [['plain', '7'], ['quote " and \\ and \n', 'x'], ['\u2028 \ud83d\ude00 \u0000', '']]) {
      expect(tpl.fill2(JSON.stringify(a), JSON.stringify(b))).toBe(JSON.stringify(make(a as string, b as string)));
    }
  });

  it('is refused when a hole is not written exactly once, and when the caller did not turn it on', () => {
    expect(Template.of(1, () => ({ none: true }), true)).toBeUndefined();
    expect(Template.of(1, (a) => ({ a, again: a }), true)).toBeUndefined();
    expect(Template.of(1, (a) => ({ a }), undefined)).toBeUndefined();
    expect(Template.of(1, (a) => ({ a }), false)).toBeUndefined();
  });

  it('jsonString gives what JSON.stringify gives for any string', () => {
    const strings = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\ud800', 'a\udc00b', '\ud83d\ude00', '"', '\\', '\u001f', '\u007f', '\u2028', ''));
    fc.assert(
      fc.property(strings, (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
      }),
    );
    for (let c = 0; c < 0x10000; c++) expect(jsonString(`a${String.fromCharCode(c)}b`)).toBe(JSON.stringify(`a${String.fromCharCode(c)}b`));
  });

  it('a written event whose data was replaced is serialized afresh', () => {
    const e = new WrittenEvent({ a: 1 }, '{"a":1}');
    expect(dataText(e)).toBe('{"a":1}');
    e.data = { a: 2 };
    expect(dataText(e)).toBe('{"a":2}');
  });
});

describe.each(TARGETS)('anthropic capture -> %s', (to) => {
  const write = frameWriter(getStreamCodec(to).framing);
  const text = (chunk: string | Uint8Array): string => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1'));

  it('with eventText, writes the same bytes as plain events, and some events carry their text', () => {
    const withText = transcodeAll(to, true);
    const plain = transcodeAll(to, false);
    expect(withText.map((e) => text(write(e)))).toEqual(plain.map((e) => text(write(e))));
    expect(plain.some((e) => e instanceof WrittenEvent)).toBe(false);
    expect(withText.some((e) => e instanceof WrittenEvent)).toBe(true);
    for (const e of withText) expect(dataText(e)).toBe(JSON.stringify(e.data));
  });

  it('without it (the default), an event changed in place is written as changed', () => {
    // An event that carries its text when eventText is on: the same one, by position, without it.
    const k = transcodeAll(to, true).findIndex((e) => e instanceof WrittenEvent);
    const event = transcodeAll(to, false)[k];
    if (event === undefined) throw new Error('no event written from a template');
    (event.data as JsonObject)['x-changed'] = 'by the caller';
    expect(text(write(event))).toContain('by the caller');
  });
});

describe('tool-call argument deltas (a Vertex capture streaming nested arguments)', () => {
  const args = localStreamCaptures('gemini').find((c) => c.name.includes('tool-call-arguments-nested'));
  const isArgs: Record<string, (data: JsonValue) => boolean> = {
    'openai-chat': (d) => JSON.stringify(d).includes('"tool_calls":[{"index":0,"function":{"arguments":'),
    'ag-ui': (d) => (d as JsonObject)['type'] === 'TOOL_CALL_ARGS',
  };

  it.each(Object.keys(isArgs))('-> %s: written from the block template, the same bytes as plain events', (to) => {
    if (args === undefined) throw new Error('no Gemini capture with streamed arguments in test/fixtures');
    const run = (eventText: boolean): WireEvent[] => {
      const t = new Transcoder({ from: 'gemini', to, eventText });
      return [...args.events.flatMap((e) => t.push(e)), ...t.end()];
    };
    const write = frameWriter(getStreamCodec(to).framing);
    const withText = run(true);
    expect(withText.map((e) => write(e))).toEqual(run(false).map((e) => write(e)));
    const templated = withText.filter((e) => e instanceof WrittenEvent && isArgs[to]?.(e.data));
    expect(templated.length).toBeGreaterThan(2);
    for (const e of templated) expect(dataText(e)).toBe(JSON.stringify(e.data));
  });
});
