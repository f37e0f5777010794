/**
 * The event-stream writer's bytes are Smithy's for the same headers and payload (its codec is the
 * oracle), whatever the payload text (ASCII, non-ASCII, astral, lone surrogates) and event type;
 * and CRC-32 matches known vectors at every length and offset the sliced loop can meet.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../src/model/stream-event.js';
import { Crc32Over, crc32, crc32Update } from '../../src/formats/shared/crc32.js';
import { encodeEventStreamMessage, wireEventToMessage } from '../../src/stream/event-stream.js';

const smithy = new EventStreamCodec(toUtf8, fromUtf8);
const utf8 = new TextEncoder();

/** Bitwise CRC-32, the definition itself. */
function crcBitwise(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function smithyBytes(headers: [string, string][], payload: Uint8Array): Uint8Array {
  return smithy.encode({ headers: Object.fromEntries(headers.map(([n, v]) => [n, { type: 'string' as const, value: v }])), body: payload });
}

describe('crc32', () => {
  it('matches known vectors', () => {
    expect(crc32(utf8.encode(''))).toBe(0);
    expect(crc32(utf8.encode('a'))).toBe(0xe8b7be43);
    expect(crc32(utf8.encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(utf8.encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('equals the bitwise definition on any range, and continues across splits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        expect(crc32(bytes, start, end)).toBe(crcBitwise(bytes.subarray(start, end)));
        expect(crc32Update(crc32(bytes, 0, start), bytes, start, bytes.length)).toBe(crcBitwise(bytes));
      }),
    );
  });

  it('steps over a fixed run of bytes (Crc32Over) as crc32Update does over them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 120 }), (before, run) => {
        const over = new Crc32Over(run);
        expect(over.update(crc32(before))).toBe(crcBitwise(Uint8Array.from([...before, ...run])));
      }),
    );
    // Every bit of the register in, on its own.
    const run = utf8.encode(':event-type contentBlockDelta');
    const over = new Crc32Over(run);
    for (let bit = 0; bit < 32; bit++) expect(over.update((1 << bit) >>> 0)).toBe(crc32Update((1 << bit) >>> 0, run, 0, run.length));
  });
});

describe('event-stream writer', () => {
  const texts = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\ud800', 'a\udc00b', '\ud83d\ude00', 'é', ''));

  it('writes events as Smithy encodes the same headers and JSON payload', () => {
    fc.assert(
      fc.property(texts, texts, fc.boolean(), fc.boolean(), (type, text, exception, named) => {
        const data = { text, n: 1 };
        const event = named ? type : undefined;
        const wire: WireEvent = { ...(event === undefined ? {} : { event }), data, ...(exception ? { exception: true as const } : {}) };
        const bytes = wireEventToMessage(wire);
        const t = exception ? (event ?? 'internalServerException') : (event ?? '');
        const headers: [string, string][] = exception
          ? [[':exception-type', t], [':content-type', 'application/json'], [':message-type', 'exception']]
          : [[':event-type', t], [':content-type', 'application/json'], [':message-type', 'event']];
        expect(bytes).toEqual(smithyBytes(headers, utf8.encode(JSON.stringify(data))));
        // Again, from the header cache.
        expect(wireEventToMessage(wire)).toEqual(bytes);
      }),
    );
  });

  it('writes string and non-object payloads', () => {
    for (const data of ['a\u2028b', 3, null, [1, 'x'], true]) {
      expect(wireEventToMessage({ event: 'e', data })).toEqual(smithyBytes([[':event-type', 'e'], [':content-type', 'application/json'], [':message-type', 'event']], utf8.encode(JSON.stringify(data))));
    }
  });

  it('writes any headers and payload as Smithy does', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), texts, { maxKeys: 4 }), fc.uint8Array({ maxLength: 64 }), (headers, payload) => {
        expect(encodeEventStreamMessage(headers, payload)).toEqual(smithyBytes(Object.entries(headers), payload));
      }),
    );
  });

  it('never rewrites a message it handed out, across slabs and for messages too large to share one', () => {
    // Sizes from a few bytes to past the shared-slab limit, enough of them to fill many slabs.
    const written: { bytes: Uint8Array; copy: Uint8Array; text: string }[] = [];
    for (let i = 0; i < 600; i++) {
      const text = 'x'.repeat((i * 37) % 3000);
      const bytes = wireEventToMessage({ event: `e${i % 7}`, data: { i, text } });
      written.push({ bytes, copy: bytes.slice(), text });
    }
    for (const [i, w] of written.entries()) {
      expect(w.bytes).toEqual(w.copy);
      const decoded = smithy.decode(w.bytes);
      expect(JSON.parse(toUtf8(decoded.body))).toEqual({ i, text: w.text });
      expect(decoded.headers[':event-type']?.value).toBe(`e${i % 7}`);
    }
  });
});

