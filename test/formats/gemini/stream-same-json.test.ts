/**
 * SameJson (src/formats/gemini/stream-same-json.ts) says "same" only where JSON.stringify gives
 * the kept text: the decoder then skips the comparison of JSON text it used to make per chunk.
 */
import { describe, expect, it } from 'vitest';
import { SameJson } from '../../../src/formats/gemini/stream-same-json.js';

const kept = { trafficType: 'ON_DEMAND', promptTokenCount: 31, details: [{ modality: 'TEXT', tokenCount: 31 }], flag: true, none: null };

class WithToJson {
  trafficType = 'ON_DEMAND';
  toJSON(): unknown {
    return { other: 1 };
  }
}

const VALUES: unknown[] = [
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
  { trafficType: 'ON_DEMAND' },
  'ON_DEMAND',
  31,
  null,
  [kept],
];

describe('SameJson', () => {
  it('matches only what JSON.stringify writes as the kept text', () => {
    for (const k of [kept, { trafficType: 'ON_DEMAND' }, 'ON_DEMAND', 31, null, [kept]]) {
      const same = new SameJson(JSON.stringify(k));
      expect(same.matches(k)).toBe(true);
      for (const v of VALUES) if (same.matches(v)) expect(JSON.stringify(v), JSON.stringify(k)).toBe(same.json);
    }
  });

  it('knows nothing of a value JSON leaves out', () => {
    const same = new SameJson(undefined);
    expect(same.matches(undefined)).toBe(false);
    expect(same.json).toBeUndefined();
  });
});
