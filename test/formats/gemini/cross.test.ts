/**
 * Cross-format round trips through Gemini with `preserve`, on the local fixtures (and the shared
 * corpus's Anthropic / OpenAI Chat bodies when ../shared is there):
 * - Gemini -> anthropic-messages -> Gemini and Gemini -> openai-chat -> Gemini give back exactly
 *   the Gemini body (the model, which Gemini carries in the URL, is put in the body first);
 * - every Anthropic and OpenAI Chat body -> Gemini -> back is exact;
 * and nothing is reported as `dropped` on the way there (everything lost was stashed).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { samples } from '../../cross/corpus.js';
import { validateGemini } from '../../support/validators/gemini.js';
import { localBodies, urlModel, type Body } from './helpers.js';

const counts: Record<string, { bodies: number; exact: number; valid: number }> = {};
const count = (key: string): { bodies: number; exact: number; valid: number } => (counts[key] ??= { bodies: 0, exact: 0, valid: 0 });

/** Gemini carries the model in the URL; other dialects need it in the body, so put it there. */
function withModel(b: Body): Record<string, unknown> {
  const model = b.url === undefined ? undefined : urlModel(b.url);
  return b.kind === 'request' && model !== undefined && !('model' in b.body) ? { model, ...b.body } : b.body;
}

function preserveExact(from: string, to: string, kind: 'request' | 'response', body: unknown): void {
  const there = convert(body, { from, to, kind, preserve: true });
  for (const loss of there.losses) expect(loss.action, `${loss.code} at ${loss.path.join('.')}`).not.toBe('dropped');
  const back = convert(there.value, { from: to, to: from, kind });
  expect(back.value).toEqual(body);
}

const gemini = localBodies();

for (const to of ['anthropic-messages', 'openai-chat'] as const) {
  describe(`gemini -> ${to} -> gemini (preserve)`, () => {
    it('has bodies of both kinds', () => {
      expect(gemini.filter((b) => b.kind === 'request').length).toBeGreaterThan(10);
      expect(gemini.filter((b) => b.kind === 'response').length).toBeGreaterThan(to === 'openai-chat' ? 1 : 5);
    });
    it.each(gemini.map((b) => [b.name, b] as const))('%s', (_name, b) => {
      count(`gemini -> ${to} (${b.kind})`).bodies++;
      preserveExact('gemini', to, b.kind, withModel(b));
      count(`gemini -> ${to} (${b.kind})`).exact++;
    });
  });
}

for (const from of ['anthropic-messages', 'openai-chat'] as const) {
  for (const kind of ['request', 'response'] as const) {
    const list = samples(from, kind);
    describe(`${from} -> gemini -> ${from} (${kind}, preserve)`, () => {
      it('has bodies', () => {
        expect(list.length).toBeGreaterThan(0);
      });
      it.each(list.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
        const key = `${from} -> gemini (${kind})`;
        count(key).bodies++;
        // Without preserve the Gemini body is one the API takes.
        const plain = convert(body, { from, to: 'gemini', kind });
        expect(validateGemini(kind, plain.value)).toEqual([]);
        count(key).valid++;
        preserveExact(from, 'gemini', kind, body);
        count(key).exact++;
      });
    });
  }
}

afterAll(() => {
  console.log('Round trips through gemini with preserve (exact / bodies; valid = plain Gemini output passes validateGemini)');
  console.table(counts);
});
