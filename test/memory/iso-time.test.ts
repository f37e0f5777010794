/** Event timestamps: isoTime must be exactly Date's toISOString wherever a store may hold a time. */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/memory/iso-time.js';

const DAY = 86_400_000;

describe('isoTime', () => {
  it('gives toISOString for every millisecond of a day, in and out of order', () => {
    const start = Date.UTC(2026, 10, 28);
    // A step prime to the day's length visits hours, minutes, seconds and milliseconds of every size.
    for (let t = start - DAY; t < start + 2 * DAY; t += 7_919) expect(isoTime(t)).toBe(new Date(t).toISOString());
    for (const t of [start + DAY - 1, start, start - 1, start + DAY, start + 999, start + 1_000, start + 59_999, start + 3_600_000]) {
      expect(isoTime(t)).toBe(new Date(t).toISOString());
    }
  });

  it('gives toISOString across Date\'s whole range: before 1970, before year 0, six-digit years', () => {
    // A fixed-seed generator: the same 20,000 times on every run.
    let seed = 0x2545f491;
    const next = (): number => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let i = 0; i < 20_000; i++) {
      const t = Math.round((next() * 2 - 1) * 8.64e15);
      expect(isoTime(t)).toBe(new Date(t).toISOString());
    }
    for (const t of [0, -1, 1, -DAY, -DAY - 1, 8.64e15, -8.64e15, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001]) {
      expect(isoTime(t)).toBe(new Date(t).toISOString());
    }
  });

  it('leaves what is not a whole millisecond in range to Date: truncated, or the same RangeError', () => {
    expect(isoTime(1_700_000_000_123.9)).toBe(new Date(1_700_000_000_123.9).toISOString());
    expect(isoTime(-0.5)).toBe(new Date(-0.5).toISOString());
    for (const t of [8.64e15 + 1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => isoTime(t)).toThrow(RangeError);
  });
});
