/**
 * schemaCheck answers exactly as the plain schema does: [] for what safeParse accepts, and
 * safeParse's own issues for what it refuses, on fixture bodies and on generated edits of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { schemaCheck } from '../../../src/formats/shared/zod-fast.js';
import * as anthropic from '../../../src/formats/anthropic-messages/schema.js';
import * as chat from '../../../src/formats/openai-chat/schema.js';
import * as responses from '../../../src/formats/openai-responses/schema.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
let invalidSeen = 0;

function bodies(dir: string): unknown[] {
  const at = join('test/fixtures', dir);
  return readdirSync(at, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(at, f), 'utf8')) as unknown);
}

const CASES: [string, z.ZodType, unknown[]][] = [
  ['anthropic-messages request', anthropic.requestSchema, bodies('anthropic-messages/requests')],
  ['openai-chat request', chat.RequestSchema, bodies('openai-chat/requests')],
  ['openai-responses request', responses.RequestSchema, bodies('openai-responses/requests')],
];

const expected = (schema: z.ZodType, value: unknown): unknown => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues;
};

/** Replaces the value at a path chosen by `pick` (or deletes it), walking down from the root. */
function edit(root: unknown, picks: number[], replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(root);
  let node = copy as Record<string, unknown> | unknown[];
  for (let d = 0; d < picks.length; d++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[(picks[d] as number) % keys.length] as string;
    const child = (node as Record<string, unknown>)[key];
    const last = d === picks.length - 1 || child === null || typeof child !== 'object';
    if (last) {
      if (remove && !Array.isArray(node)) delete (node as Record<string, unknown>)[key];
      else (node as Record<string, unknown>)[key] = replacement;
      break;
    }
    node = child as Record<string, unknown>;
  }
  return copy;
}

describe('schemaCheck', () => {
  for (const [name, schema, list] of CASES) {
    it(`${name}: agrees with safeParse on the fixtures`, () => {
      expect(list.length).toBeGreaterThan(0);
      const check = schemaCheck(schema);
      for (const body of list) expect(check(body)).toEqual(expected(schema, body));
    });

    it(`${name}: agrees with safeParse on edited fixtures`, () => {
      const check = schemaCheck(schema);
      fc.assert(
        fc.property(
          fc.constantFrom(...list),
          fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
          fc.boolean(),
          (body, picks, replacement, remove) => {
            const changed = edit(body, picks, replacement, remove);
            const want = expected(schema, changed);
            if ((want as unknown[]).length > 0) invalidSeen++;
            expect(check(changed)).toEqual(want);
          },
        ),
        { numRuns: RUNS * 3 },
      );
    });
  }
});

// The edits must reach invalid bodies too, or the second test would only ever compare [] with [].
describe('schemaCheck edits', () => {
  it('include invalid bodies', () => {
    expect(invalidSeen).toBeGreaterThan(RUNS / 2);
  });
});
