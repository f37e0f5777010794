/**
 * Cross-format round trips on real bodies, with `preserve`:
 * - every local Responses capture -> anthropic-messages / openai-chat -> Responses is exact;
 * - every Anthropic Messages and OpenAI Chat capture (local copies, examples/, and ../shared when
 *   present) -> Responses -> back is exact, nothing is dropped, and the Responses body written
 *   without preserve is valid against the closed OpenAPI schema (no key the spec does not define).
 * Counts are printed as a table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { samples } from '../../cross/corpus.js';
import { validateOpenaiResponsesClosed } from '../../support/validators/openai-responses.js';
import { localBodies } from './helpers.js';

const OTHERS = ['anthropic-messages', 'openai-chat'] as const;
const tally: Record<string, { bodies: number; exact: number; schemaValid?: number }> = {};
const count = (key: string): { bodies: number; exact: number; schemaValid?: number } => (tally[key] ??= { bodies: 0, exact: 0 });

describe.each(OTHERS)('openai-responses -> %s -> openai-responses (preserve)', (to) => {
  const bodies = localBodies();
  it.each(bodies.map((b) => [b.name, b] as const))('%s', (_name, b) => {
    const c = count(`responses -> ${to} -> responses (${b.kind})`);
    c.bodies++;
    const there = convert(b.body, { from: 'openai-responses', to, kind: b.kind, preserve: true });
    const back = convert(there.value, { from: to, to: 'openai-responses', kind: b.kind }).value as Record<string, unknown>;
    expect(there.losses.filter((l) => l.action === 'dropped')).toEqual([]);
    expect(back).toEqual(b.body);
    c.exact++;
  });
});

describe.each(OTHERS)('%s -> openai-responses -> back (preserve)', (from) => {
  for (const kind of ['request', 'response'] as const) {
    const list = samples(from, kind);
    it(`has ${kind} bodies`, () => expect(list.length).toBeGreaterThan(3));
    it.each(list.map((s) => [s.name, s.body] as const))(`${kind} %s`, (_name, body) => {
      const c = count(`${from} -> responses -> ${from} (${kind})`);
      c.bodies++;
      const plain = convert(body, { from, to: 'openai-responses', kind });
      expect(validateOpenaiResponsesClosed(kind, plain.value)).toEqual([]);
      c.schemaValid = (c.schemaValid ?? 0) + 1;
      const there = convert(body, { from, to: 'openai-responses', kind, preserve: true });
      expect(there.losses.filter((l) => l.action === 'dropped')).toEqual([]);
      expect(convert(there.value, { from: 'openai-responses', to: from, kind }).value).toEqual(body);
      c.exact++;
    });
  }
});

afterAll(() => {
  console.log('openai-responses cross round trips with preserve');
  console.table(tally);
});
