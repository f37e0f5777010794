/**
 * blob-text.ts answers exactly what `JSON.stringify` does: `isOwnJsonText(JSON.parse(t), t)` is
 * `JSON.stringify(JSON.parse(t)) === t`, `sameJsonText(w, p)` is `JSON.stringify(w) === JSON.stringify(p)`,
 * on texts written by JSON.stringify, respaced, re-escaped, with other number spellings and duplicate keys.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJsonText } from '../../../src/formats/agentcore-memory/blob-text.js';
import { isOwnJsonText } from '../../../src/formats/shared/json-text.js';
import type { JsonValue } from '../../../src/model/json.js';

const own = (t: string): boolean => JSON.stringify(JSON.parse(t)) === t;

/** A JSON text of `v` spelled otherwise in places: spaces, escapes JSON.stringify does not write, number forms. */
function respelled(v: JsonValue, rnd: () => number): string {
  const pick = (n: number): boolean => rnd() < 1 / n;
  const str = (s: string): string => {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
      const ch = s.charAt(i);
      const c = s.charCodeAt(i);
      if (pick(8)) out += `\\u${c.toString(16).padStart(4, '0')}`;
      else if (ch === '/' && pick(2)) out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return `${out}"`;
  };
  const sp = (): string => (pick(30) ? ' ' : '');
  if (v === null || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') return pick(6) && Number.isInteger(v) && v !== 0 && Math.abs(v) < 1e15 ? `${v}.0` : pick(6) && v > 1e3 ? v.toExponential().replace('+', '') : JSON.stringify(v);
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) return `[${sp()}${v.map((x) => respelled(x, rnd)).join(`${sp()},`)}]`;
  const members = Object.keys(v).map((k) => `${str(k)}${sp()}:${respelled(v[k] as JsonValue, rnd)}`);
  if (members.length > 0 && pick(10)) members.unshift(`${str(Object.keys(v)[0] as string)}:"dup"`);
  return `{${members.join(',')}${sp()}}`;
}

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;
const tricky = fc.constantFrom('a"b', 'a\\b', 'ends\\', 'two\\\\', 'tab\tand\\n', '\b\f\r', 'x/y', 'line\nbreak', '\u0001', '\ud800', '😀', '', 'plain text', 'é', '\\"', '""');
const value: fc.Arbitrary<JsonValue> = fc.oneof(json, fc.dictionary(fc.oneof(fc.string(), tricky), fc.oneof(json, tricky)), fc.array(fc.oneof(tricky, json)));

describe('isOwnJsonText', () => {
  it('is true of JSON.stringify output', () => {
    fc.assert(fc.property(value, (v) => {
      const t = JSON.stringify(v);
      expect(isOwnJsonText(JSON.parse(t) as JsonValue, t)).toBe(true);
    }), { numRuns: 500 });
  });
  it('says what JSON.stringify(JSON.parse(text)) === text says of texts spelled otherwise', () => {
    fc.assert(fc.property(value, fc.integer(), (v, seed) => {
      let x = seed;
      const rnd = (): number => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      const t = respelled(v, rnd);
      expect(isOwnJsonText(JSON.parse(t) as JsonValue, t)).toBe(own(t));
    }), { numRuns: 1000 });
  });
  it('catches the spellings a plain string may hide', () => {
    const cases: string[] = ['{"a":"xy","a":"zw"}', '{"a":"x\\/","b":1}', '["ab\\u0063"]', '["a\\\\"]', '{"k":"v" }', '{"a":{"b":"xx"},"a":{"b":"yy"}}', '["a","b"]', '{"n":1E3}', '{"n":1e+21}', '["\\u001F"]', '["\\u001f"]', '["a\\\\"]', '["a\\\\\\\\"]', '["a\\n\\\\"]', '["a\\u000a"]', '["a\\u005c"]', '{"a":"x\\\\","a":"y"}'];
    // Raw lone surrogates and a raw pair: JSON.parse takes them, JSON.stringify escapes only the lone ones.
    cases.push('["a\ud800b"]', '["\udc00"]', '["\ud83d\ude00"]', '{"\ud800":1}');
    for (const t of cases) expect(isOwnJsonText(JSON.parse(t) as JsonValue, t), t).toBe(own(t));
  });
});

describe('sameJsonText', () => {
  it('is JSON.stringify equality', () => {
    fc.assert(fc.property(value, value, (a, b) => {
      expect(sameJsonText(a, JSON.parse(JSON.stringify(b)) as JsonValue)).toBe(JSON.stringify(a) === JSON.stringify(b));
      expect(sameJsonText(a, JSON.parse(JSON.stringify(a)) as JsonValue)).toBe(true);
    }), { numRuns: 500 });
  });
  it('leaves out undefined keys and reads non-finite numbers and undefined items as null', () => {
    expect(sameJsonText({ a: 1, b: undefined } as unknown as JsonValue, { a: 1 })).toBe(true);
    expect(sameJsonText([Number.NaN, undefined] as unknown as JsonValue, [null, null])).toBe(true);
    expect(sameJsonText({ b: 1, a: 2 }, { a: 2, b: 1 })).toBe(false);
  });
  it('reads only own keys, as JSON.stringify writes them', () => {
    const inherits = Object.assign(Object.create({ a: 1 }) as object, { b: 2 }) as JsonValue;
    expect(sameJsonText(inherits, { b: 2 })).toBe(true);
    expect(sameJsonText(inherits, { a: 1, b: 2 })).toBe(false);
  });
});
