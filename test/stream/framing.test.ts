/**
 * Stream framing: SSE (WHATWG rules, any chunk split) and AWS event-stream binary (CRCs), checked
 * against real Bedrock bytes and against Smithy's own event-stream codec as the oracle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/model/errors.js';
import { crc32, EventStreamParser, parseEventStream, wireEventToMessage } from '../../src/stream/event-stream.js';
import { formatSse, parseSse, SseParser } from '../../src/stream/sse.js';
import { LOCAL_FIXTURES } from '../support/captures.js';

const bin = (name: string): Uint8Array => new Uint8Array(readFileSync(join(LOCAL_FIXTURES, 'streams/bedrock-converse', name)));
const smithy = new EventStreamCodec(toUtf8, fromUtf8);

describe('SSE', () => {
  it('parses events with names, multi-line data, comments, and raw non-JSON data', () => {
    const text = ': keepalive\nevent: message_start\ndata: {"type":"message_start"}\n\ndata: {"a":\ndata: 1}\n\ndata: [DONE]\n\n';
    expect(parseSse(text)).toEqual([{ event: 'message_start', data: { type: 'message_start' } }, { data: { a: 1 } }, { data: '[DONE]' }]);
  });

  it('takes CRLF and CR line ends (Gemini sends CRLF)', () => {
    expect(parseSse('data: {"x":1}\r\n\r\ndata: {"y":2}\r\rdata: 3\n\n')).toEqual([{ data: { x: 1 } }, { data: { y: 2 } }, { data: '3' }]);
  });

  it('gives the same events however the text is split into chunks', () => {
    const text = 'event: a\r\ndata: {"k":"v\\u00e9"}\r\n\r\n: c\ndata: [DONE]\r\n\r\nevent: b\ndata: {"n":[1,2]}\n\n';
    const whole = parseSse(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const p = new SseParser();
        const got = [];
        let last = 0;
        for (const c of [...points, text.length]) {
          got.push(...p.push(text.slice(last, c)));
          last = c;
        }
        got.push(...p.end());
        expect(got).toEqual(whole);
      }),
    );
  });

  it('writes LF-terminated events that parse back to themselves', () => {
    const events = [{ event: 'response.created', data: { type: 'response.created', text: 'a\nb' } }, { data: '[DONE]' }];
    const text = events.map(formatSse).join('');
    expect(text).not.toContain('\r');
    expect(text.startsWith('event: response.created\ndata: {')).toBe(true);
    expect(parseSse(text)).toEqual(events);
  });
});

describe('AWS event-stream', () => {
  it('crc32 is the IEEE checksum', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it.each(['basic.bin', 'reasoning.bin', 'tool.bin'])('reads real Bedrock bytes (%s) as Smithy does', (name) => {
    const bytes = bin(name);
    const ours = parseEventStream(bytes);
    expect(ours.length).toBeGreaterThan(2);
    expect(ours[0]?.event).toBe('messageStart');
    // Oracle: Smithy's codec, message by message.
    let offset = 0;
    for (const e of ours) {
      const total = new DataView(bytes.buffer, bytes.byteOffset + offset).getUint32(0);
      const m = smithy.decode(bytes.subarray(offset, offset + total));
      expect(m.headers[':event-type']?.value).toBe(e.event);
      expect(JSON.parse(toUtf8(m.body))).toEqual(e.data);
      offset += total;
    }
    expect(offset).toBe(bytes.length);
  });

  it('writes messages Smithy reads, and reads them back, split anywhere', () => {
    const events = [
      { event: 'messageStart', data: { role: 'assistant' } },
      { event: 'contentBlockDelta', data: { contentBlockIndex: 0, delta: { text: 'héllo' } } },
      { event: 'throttlingException', data: { message: 'slow down' }, exception: true as const },
    ];
    const frames = events.map(wireEventToMessage);
    for (const [i, f] of frames.entries()) {
      const m = smithy.decode(f);
      expect(m.headers[':message-type']?.value).toBe(i === 2 ? 'exception' : 'event');
      expect(JSON.parse(toUtf8(m.body))).toEqual(events[i]?.data);
    }
    const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of frames) {
      all.set(f, at);
      at += f.length;
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), (size) => {
        const p = new EventStreamParser();
        const got = [];
        for (let i = 0; i < all.length; i += size) got.push(...p.push(all.subarray(i, i + size)));
        p.end();
        expect(got.length).toBe(3);
      }),
    );
    expect(parseEventStream(all)).toEqual(events);
  });

  it('refuses corrupt or cut-off bytes with a ValidationError naming the byte offset', () => {
    const bytes = bin('basic.bin');
    const flipped = bytes.slice();
    flipped[20] = (flipped[20] as number) ^ 0xff;
    expect(() => parseEventStream(flipped)).toThrow(/CRC does not match/);
    expect(() => parseEventStream(bytes.subarray(0, bytes.length - 3))).toThrow(ValidationError);
    expect(() => parseEventStream(new Uint8Array(readFileSync(join(LOCAL_FIXTURES, 'streams/invalid/bedrock-broken.bin'))))).toThrow(ValidationError);
  });
});
