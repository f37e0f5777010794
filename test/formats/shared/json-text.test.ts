/** jsonTextEquals agrees with `JSON.stringify(value) === text` on generated values and near-miss texts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/model/json.js';
import { jsonTextEquals } from '../../../src/formats/shared/json-text.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
// Full unicode strings, lone surrogates and control characters included.
const value = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }) as fc.Arbitrary<JsonValue>;

describe('jsonTextEquals', () => {
  it('is true for the JSON text of the value', () => {
    fc.assert(fc.property(value, (v) => {
        expect(jsonTextEquals(v, JSON.stringify(v))).toBe(true);
      }), { numRuns: RUNS * 5 });
  });

  it('is false for a text one edit away (unless that text is the same JSON after all)', () => {
    fc.assert(
      fc.property(value, fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.string({ minLength: 1, maxLength: 1 }), (v, at, edit, ch) => {
        const text = JSON.stringify(v);
        const i = at % (text.length + 1);
        const other = edit === 'delete' ? text.slice(0, i) + text.slice(i + 1) : edit === 'insert' ? text.slice(0, i) + ch + text.slice(i) : text.slice(0, i) + ch + text.slice(i + 1);
        expect(jsonTextEquals(v, other)).toBe(other === text);
      }),
      { numRuns: RUNS * 5 },
    );
  });

  it('follows JSON.stringify where it is particular', () => {
    const cases: [JsonValue, string][] = [
      [{ b: 1, a: [true, null, -0, 1e21, 0.1] }, '{"b":1,"a":[true,null,0,1e+21,0.1]}'],
      [{ '2': 'x', '1': 'y', k: 'z' }, '{"1":"y","2":"x","k":"z"}'],
      ['quote " backslash \\ newline \n tab \t nul \u0000 line sep \u2028', JSON.stringify('quote " backslash \\ newline \n tab \t nul \u0000 line sep \u2028')],
      ['lone \ud800 surrogate and pair \ud83d\ude00', '"lone \\ud800 surrogate and pair \ud83d\ude00"'],
      [{ skip: undefined, keep: 1 } as unknown as JsonValue, '{"keep":1}'],
    ];
    for (const [v, text] of cases) {
      expect(JSON.stringify(v)).toBe(text);
      expect(jsonTextEquals(v, text)).toBe(true);
    }
    expect(jsonTextEquals({ a: 1 }, '{ "a": 1 }')).toBe(false);
    expect(jsonTextEquals({ a: 1, b: 2 }, '{"b":2,"a":1}')).toBe(false);
    expect(jsonTextEquals('abc', '"abc"x')).toBe(false);
    expect(jsonTextEquals([1], '[1')).toBe(false);
  });

  it('agrees on long strings (compared natively) and short ones (compared in a loop), and skips inherited keys', () => {
    const long = 'x'.repeat(100);
    const cases: JsonValue[] = [long, `${long}"`, `${long}\n`, 'é'.repeat(64), 'é'.repeat(65), `${'a'.repeat(63)}\u0001`, { [long]: long }];
    for (const v of cases) {
      const text = JSON.stringify(v);
      expect(jsonTextEquals(v, text)).toBe(true);
      expect(jsonTextEquals(v, text.slice(0, -2) + text.slice(-1))).toBe(false);
    }
    // A long string written raw into the text: equal only when JSON.stringify would not escape it.
    for (const raw of [`${long}\n`, `${long}\u0001`, `${long}"`, `${long}\\`, `${long}\ud800`]) expect(jsonTextEquals(raw, `"${raw}"`)).toBe(false);
    expect(jsonTextEquals(`${long}é`, `"${long}é"`)).toBe(true);
    const inherited = Object.create({ hidden: 1 }) as Record<string, JsonValue>;
    inherited['own'] = 2;
    expect(jsonTextEquals(inherited, JSON.stringify(inherited))).toBe(true);
  });

  it('is true only where JSON.stringify writes the text, for near values and objects that are not plain', () => {
    // The Gemini stream decoder keeps usageMetadata's JSON text and compares each chunk's with it.
    const kept = { trafficType: 'ON_DEMAND', promptTokenCount: 31, details: [{ modality: 'TEXT', tokenCount: 31 }], flag: true, none: null };
    class WithToJson {
      trafficType = 'ON_DEMAND';
      toJSON(): unknown {
        return { other: 1 };
      }
    }
    const values: unknown[] = [
      kept,
      JSON.parse(JSON.stringify(kept)),
      { ...kept, trafficType: 'PROVISIONED' },
      { ...kept, promptTokenCount: 32 },
      { ...kept, details: [{ modality: 'TEXT', tokenCount: 31 }, { modality: 'IMAGE', tokenCount: 1 }] },
      { promptTokenCount: 31, trafficType: 'ON_DEMAND', details: kept.details, flag: true, none: null },
      { ...kept, extra: undefined },
      { ...kept, extra: 1 },
      { ...kept, none: undefined },
      { ...kept, promptTokenCount: NaN },
      { ...kept, promptTokenCount: -0 },
      { ...kept, details: [undefined] },
      Object.assign(Object.create(null) as object, kept),
      new WithToJson(),
      new Date(0),
      { trafficType: 'ON_DEMAND' },
      'ON_DEMAND',
      31,
      null,
      [kept],
    ];
    for (const k of [kept, { trafficType: 'ON_DEMAND' }, 'ON_DEMAND', 31, null, [kept]]) {
      const text = JSON.stringify(k);
      expect(jsonTextEquals(k as JsonValue, text)).toBe(true);
      for (const v of values) if (jsonTextEquals(v as JsonValue, text)) expect(JSON.stringify(v), text).toBe(text);
    }
    expect(jsonTextEquals(new WithToJson() as unknown as JsonValue, '{"trafficType":"ON_DEMAND"}')).toBe(false);
  });
});

