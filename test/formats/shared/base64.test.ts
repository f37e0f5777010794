/**
 * base64.ts classifies text by BASE64_TEXT's rule whichever way it checks it: with a regexp
 * search for short text, with Node's decoder (which skips characters outside the alphabets and
 * reads a two-byte character as its low byte) for text of 256 characters or more, a 64 Ki-char
 * slice at a time. The reference here is the rule itself, as regexps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE64_TEXT, isBase64Text, isStandardBase64, standardBase64 } from '../../../src/formats/shared/base64.js';

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const isStandardRef = (s: string): boolean => BASE64_TEXT.test(s) && STANDARD.test(s) && s.length % 4 === 0;

/** Characters a corrupted text may hold: other alphabets' letters, padding, whitespace, Latin-1, two-byte (Ł reads as 'A' by its low byte), a lone surrogate. */
const ODD = ['-', '_', '=', ' ', '\n', '\t', '.', '!', 'é', 'ÿ', 'Ł', 'Ł', '\u0141', '\u4141', '\ud800', '\u00c1', '\u0100'];

function check(s: string): void {
  expect(isBase64Text(s), s.length < 80 ? s : `${s.length} chars`).toBe(BASE64_TEXT.test(s));
  expect(isStandardBase64(s)).toBe(isStandardRef(s));
  const std = standardBase64(s);
  if (!BASE64_TEXT.test(s)) expect(std).toBeUndefined();
  else expect(Buffer.from(std as string, 'base64').equals(Buffer.from(s, 'base64url'))).toBe(true);
}

const base64Of = (bytes: Uint8Array, url: boolean, pad: boolean): string => {
  const s = Buffer.from(bytes).toString(url ? 'base64url' : 'base64');
  return pad ? s : s.replace(/=+$/, '');
};

describe('base64 classification', () => {
  it('short and long text, valid and corrupted, against the rule', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 150, maxLength: 260 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ODD), fc.boolean()), { maxLength: 3 }),
        (bytes, url, pad, edits) => {
          let s = base64Of(bytes, url, pad);
          for (const [at, ch, replace] of edits) {
            const i = at % (s.length + 1);
            s = s.slice(0, i) + ch + s.slice(replace ? i + 1 : i);
          }
          check(s);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('text longer than one slice: a bad character anywhere, and at the slice edges', () => {
    const bytes = Buffer.alloc(110_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) & 0xff;
    const valid = bytes.toString('base64');
    check(valid);
    check(valid.replace(/=+$/, ''));
    check(bytes.toString('base64url'));
    for (const at of [0, 1, 65_535, 65_536, 65_537, 131_071, valid.length - 3]) {
      for (const ch of ['!', ' ', 'Ł', '\u4141', '-', 'é']) {
        check(valid.slice(0, at) + ch + valid.slice(at + 1)); // replaced
        check(valid.slice(0, at) + ch + valid.slice(at)); // inserted
      }
    }
  });
});
