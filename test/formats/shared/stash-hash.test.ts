import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { STASH_KEY, takeMessageStash } from '../../../src/formats/shared/stash.js';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';
import * as zlib from 'node:zlib';
import { stashHash, stashHashMatches, stringCrc32, tableStringCrc32 } from '../../../src/formats/shared/stash-hash.js';
import { sameValue } from '../../../src/formats/shared/same-value.js';

const long = (c: string, n = 300): string => c.repeat(n);

describe('stashHash', () => {
  it('is 8 hex digits, and ignores key order and keys holding undefined', () => {
    expect(stashHash({ a: 1 })).toMatch(/^[0-9a-f]{8}$/);
    expect(stashHash({ a: 1, b: [1, long('x')] })).toBe(stashHash({ b: [1, long('x')], a: 1, c: undefined }));
    expect(stashHash({ a: NaN })).toBe(stashHash({ a: null }));
    expect(stashHash([-0, Infinity])).toBe(stashHash([0, null]));
  });

  it('tells apart what stableHash tells apart: order, types, lengths, where long strings stand', () => {
    const values: unknown[] = [
      [1, 2], [2, 1], ['1'], [1], [''], [], {}, [null], [undefined], ['a,b'], ['a', 'b'], { a: 'b' }, { ab: '' },
      [long('x'), long('y')], [long('y'), long('x')], [long('x') + long('y'), ''], [long('x', 301), long('y', 299)],
      { [long('k')]: long('v') }, [long('x'), 'short'], ['short', long('x')], ['\uD800' + long('x')], ['\uD801' + long('x')],
      [long('x') + '\uD83D', '\uDE00' + long('x')], [long('x') + '\uD83D\uDE00', long('x')],
      [true], [false], [undefined, 1], [1.5], [15], [2147483648], [1e21], ['true'], ['null'], [-1], ['-1'], [0.1, 2], [0.12],
    ];
    const seen = new Map<string, unknown>();
    for (const v of values) {
      const h = stashHash(v);
      expect(seen.has(h), `${JSON.stringify(v)} collides with ${JSON.stringify(seen.get(h))}`).toBe(false);
      seen.set(h, v);
    }
  });

  it('gives equal values equal hashes, as sameValue sees them (JSON round trip included)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary', minLength: 60, maxLength: 400 }), (v, s) => {
        const value = { v, s, list: [s, v, s] };
        expect(stashHash(JSON.parse(JSON.stringify(value)))).toBe(stashHash(value));
      }),
    );
  });

  it('detects a one-char edit in a long string, however many are joined', () => {
    const big = Array.from({ length: 40 }, (_, i) => long(String.fromCharCode(97 + (i % 26)), 40_000));
    const edited = [...big];
    edited[39] = `${(edited[39] as string).slice(0, -1)}!`;
    expect(stashHash(big)).not.toBe(stashHash(edited));
    expect(stashHash(big)).toBe(stashHash([...big]));
  });

  it('accepts both its own hash and the stableHash earlier versions wrote, nothing else', () => {
    const v = { role: 'user', content: [{ text: long('hi ') }] };
    expect(stashHashMatches(v, stashHash(v))).toBe(true);
    expect(stashHashMatches(v, stableHash(v))).toBe(true);
    expect(stashHashMatches(v, 'deadbeef')).toBe(false);
    expect(stashHashMatches(v, 1)).toBe(false);
    expect(sameValue(v, JSON.parse(JSON.stringify(v)))).toBe(true);
  });

  it('accepts the hash the SHA-1 versions wrote (value pinned from that code)', () => {
    const v = { role: 'user', content: [{ text: 'hi '.repeat(100) }, { image: 'QUJD'.repeat(50) }] };
    expect(stashHash(v)).not.toBe('1e8b3514');
    expect(stashHashMatches(v, '1e8b3514')).toBe(true);
    expect(stashHashMatches({ ...v, role: 'assistant' }, '1e8b3514')).toBe(false);
  });

  it('computes the same CRC-32 without node:zlib (the table, for Node before 20.15) as with it', () => {
    expect(tableStringCrc32('123456789')).toBe(0xcbf43926); // the CRC-32 check value
    expect(stringCrc32('123456789')).toBe(0xcbf43926);
    const native = (zlib as unknown as { crc32?: (s: string) => number }).crc32;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        expect(tableStringCrc32(s)).toBe(stringCrc32(s));
        if (native !== undefined) expect(stringCrc32(s)).toBe(native(s));
      }),
    );
  });

  it('lets a message stash written with the old stableHash still apply', () => {
    const wire = [{ role: 'assistant', content: long('a') }];
    const old = [{ ...wire[0], [STASH_KEY]: { v: 1, span: 1, hash: stableHash(wire), messages: [{ role: 'assistant', parts: [] }] } }];
    const losses = new LossList();
    expect(takeMessageStash(old, 0, { limits: { maxTextBytes: 1e6 }, losses }, ['messages'])).toEqual({ messages: [{ role: 'assistant', parts: [] }], span: 1 });
    expect(losses.length).toBe(0);
  });
});
