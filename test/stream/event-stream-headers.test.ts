/**
 * The event-stream reader takes every header value type as Smithy's codec writes it, the same
 * again once its short strings are known, and its messages are the same read whole, split, or as
 * payload views.
 */
import { EventStreamCodec, Int64 } from '@smithy/eventstream-codec';
import type { MessageHeaders } from '@smithy/types';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser } from '../../src/stream/event-stream.js';

const smithy = new EventStreamCodec(toUtf8, fromUtf8);

const headerValue = fc.oneof(
  fc.boolean().map((value) => ({ type: 'boolean' as const, value })),
  fc.integer({ min: -128, max: 127 }).map((value) => ({ type: 'byte' as const, value })),
  fc.integer({ min: -32768, max: 32767 }).map((value) => ({ type: 'short' as const, value })),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ type: 'integer' as const, value })),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map((value) => ({ type: 'long' as const, value: Int64.fromNumber(value) })),
  fc.uint8Array({ maxLength: 20 }).map((value) => ({ type: 'binary' as const, value })),
  fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.constantFrom('event', 'application/json')).map((value) => ({ type: 'string' as const, value })),
  fc.integer({ min: 0, max: 2 ** 41 }).map((ms) => ({ type: 'timestamp' as const, value: new Date(ms) })),
  fc.uuid().map((value) => ({ type: 'uuid' as const, value })),
);

function expected(h: MessageHeaders): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, { type, value }] of Object.entries(h)) {
    if (type === 'long') out[name] = (value as Int64).valueOf();
    else if (type === 'timestamp') out[name] = (value as Date).getTime();
    else if (type === 'uuid') out[name] = Uint8Array.from(Buffer.from((value as string).replace(/-/g, ''), 'hex'));
    else out[name] = value;
  }
  return out;
}

describe('event-stream headers', () => {
  it('reads every header type as Smithy writes it, twice alike', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom(':event-type', ':message-type')), headerValue, { maxKeys: 5 }), fc.uint8Array({ maxLength: 30 }), (headers, body) => {
        fc.pre(!('__proto__' in headers));
        const bytes = smithy.encode({ headers, body });
        for (let round = 0; round < 2; round++) {
          const [m, ...rest] = new EventStreamParser().push(bytes);
          expect(rest).toEqual([]);
          expect(m?.headers).toEqual(expected(headers));
          expect(m?.payload).toEqual(body);
        }
      }),
    );
  });

  it('gives the same messages for payload views, whole or split', () => {
    const frames = ['a', 'bé', 'c'].map((t) => smithy.encode({ headers: { ':event-type': { type: 'string', value: t } }, body: fromUtf8(JSON.stringify({ t })) }));
    const all = Uint8Array.from(frames.flatMap((f) => [...f]));
    const whole = new EventStreamParser().push(all);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), (size) => {
        const p = new EventStreamParser();
        const got = [];
        for (let i = 0; i < all.length; i += size) got.push(...p.pushViews(all.subarray(i, i + size)).map((m) => ({ headers: m.headers, payload: m.payload.slice() })));
        expect(got).toEqual(whole);
      }),
    );
  });

  it('leaves a message with invalid UTF-8 in a header unread, as it does a corrupt one', () => {
    const good = smithy.encode({ headers: { ':event-type': { type: 'string', value: 'ok' } }, body: new Uint8Array() });
    const bad = smithy.encode({ headers: { ':event-type': { type: 'binary', value: new Uint8Array([0xff]) } }, body: new Uint8Array() });
    bad[bad.indexOf(6, 13)] = 7; // the value's type byte: now a string of invalid UTF-8 (CRC fixed below)
    new DataView(bad.buffer, bad.byteOffset).setUint32(bad.length - 4, crc(bad.subarray(0, bad.length - 4)));
    const p = new EventStreamParser();
    expect(() => p.push(Uint8Array.from([...good, ...bad]))).toThrow(TypeError);
    expect(p.cutTail()).toBe(`a message (${bad.length} bytes left)`);
  });
});

function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
