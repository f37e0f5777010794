/**
 * The fast schema check answers exactly as zod's runtime does: fastCheck says "valid" for what
 * safeParse accepts and only for that, and schemaCheck gives safeParse's own issues for what it
 * refuses; on fixture bodies, on the bench conversation in each dialect, and on generated edits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { convert } from '../../../src/index.js';
import { fastCheck } from '../../../src/formats/shared/zod-fast-check.js';
import { schemaCheck } from '../../../src/formats/shared/zod-fast.js';
import * as anthropic from '../../../src/formats/anthropic-messages/schema.js';
import * as chat from '../../../src/formats/openai-chat/schema.js';
import * as responses from '../../../src/formats/openai-responses/schema.js';
import * as agui from '../../../src/formats/ag-ui/schema.js';
import * as a2a from '../../../src/formats/a2a/schema.js';
import * as agentInput from '../../../src/formats/agent-input/schema.js';
import * as gemini from '../../../src/formats/gemini/schema.js';
import { anthropicConversation } from '../../../bench/conversation.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
let invalidSeen = 0;

function bodies(dir: string): unknown[] {
  const at = join('test/fixtures', dir);
  return readdirSync(at, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(at, f), 'utf8')) as unknown);
}

const conversation = anthropicConversation({ images: false });
const inDialect = (to: string): unknown => convert(conversation, { from: 'anthropic-messages', to }).value;

const CASES: [string, z.ZodType, unknown[]][] = [
  ['anthropic-messages request', anthropic.requestSchema, [...bodies('anthropic-messages/requests'), conversation]],
  ['anthropic-messages response', anthropic.responseSchema, bodies('anthropic-messages/response')],
  ['openai-chat request', chat.RequestSchema, [...bodies('openai-chat/requests'), inDialect('openai-chat')]],
  ['openai-chat response', chat.ResponseSchema, bodies('openai-chat/responses')],
  ['openai-responses request', responses.RequestSchema, [...bodies('openai-responses/requests'), inDialect('openai-responses')]],
  ['ag-ui request', agui.RunAgentInputSchema, [inDialect('ag-ui')]],
  ['gemini request', gemini.requestSchema, [...bodies('gemini/requests'), inDialect('gemini')]],
];

/** Small schemas with refinements, checks and loose / strict objects, with values around their edges. */
const EDGES: [string, z.ZodType, unknown[]][] = [
  ['chat tool call (superRefine)', chat.ToolCallSchema, [{ id: 'a', type: 'custom' }, { id: 'a', type: 'custom', custom: { name: 'x', input: '' } }, { id: 'a', function: { name: 'f', arguments: '{}' } }, { id: 'a' }]],
  ['agent-input tool call', agentInput.ToolCallSchema, [{ id: ' ', function: { name: 'f', arguments: '{}' } }, { id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }]],
  ['agent-input media source', agentInput.mediaSourceSchema('image'), [{ type: 'BASE64', format: 'png', data: 'aGk=' }, { type: 'base64', format: 'png', data: '!!' }, { type: 'url', format: 'gif', data: 'x' }, { type: '', format: 'png', data: 'x' }]],
  ['a2a v1 part (one content key)', a2a.V1PartSchema, [{ text: 'a' }, { text: 'a', url: 'b' }, {}, { data: null }]],
  ['ag-ui content part (refine)', agui.ContentPartSchema, [{ type: 'binary', mimeType: 'a' }, { type: 'binary', mimeType: 'a', id: 'x' }, { type: 'text', text: 't', extra: 1 }]],
  ['strict object', z.strictObject({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }, JSON.parse('{"a":"x","__proto__":1}')]],
  ['int, min, nullish', z.object({ n: z.number().int().min(2), s: z.string().min(1).nullish(), l: z.array(z.string()).min(1) }), [{ n: 2, l: ['a'] }, { n: 2.5, l: ['a'] }, { n: 1, l: ['a'] }, { n: 3, s: '', l: ['a'] }, { n: 3, s: null, l: [] }]],
  // One payload serves every check run: a failing check must leave it clean for the next value.
  ['checks in turn (one payload)', z.array(z.string().min(2).refine((v) => v !== 'no')), [['ab', 'no'], ['ab', 'cd'], ['a'], ['abc'], ['no'], ['ok']]],
  ['record and default', z.object({ r: z.record(z.string(), z.number()), d: z.string().default('x') }), [{ r: { a: 1 } }, { r: { a: 'x' } }, { r: [] }, { r: {}, d: 1 }]],
];

const valid = (schema: z.ZodType, value: unknown): boolean => schema.safeParse(value).success;
const expected = (schema: z.ZodType, value: unknown): unknown => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues;
};

/** Replaces the value at a path chosen by `picks` (or deletes it), walking down from the root. */
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

describe('fastCheck and schemaCheck', () => {
  for (const [name, schema, list] of [...CASES, ...EDGES]) {
    it(`${name}: agree with safeParse on the given values`, () => {
      expect(list.length).toBeGreaterThan(0);
      const fast = fastCheck(schema);
      const check = schemaCheck(schema);
      for (const body of list) {
        expect(fast(body)).toBe(valid(schema, body));
        expect(check(body)).toEqual(expected(schema, body));
      }
    });
  }

  for (const [name, schema, list] of CASES) {
    const small = list.filter((b) => JSON.stringify(b).length < 50_000);
    if (small.length === 0) continue;
    it(`${name}: agree with safeParse on edited fixtures`, () => {
      const fast = fastCheck(schema);
      const check = schemaCheck(schema);
      fc.assert(
        fc.property(
          fc.constantFrom(...small),
          fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
          fc.boolean(),
          (body, picks, replacement, remove) => {
            const changed = edit(body, picks, replacement, remove);
            const ok = valid(schema, changed);
            if (!ok) invalidSeen++;
            expect(fast(changed)).toBe(ok);
            expect(check(changed)).toEqual(expected(schema, changed));
          },
        ),
        { numRuns: RUNS * 2 },
      );
    });
  }

  // The edits must reach invalid bodies too, or the test above would only compare valid ones.
  it('edits include invalid bodies', () => {
    expect(invalidSeen).toBeGreaterThan(RUNS);
  });
});

describe('fastCheck without generated code (hosts that forbid eval)', () => {
  it('answers as safeParse on the given values', async () => {
    vi.resetModules();
    const gen = await import('../../../src/formats/shared/zod-fast-gen.js');
    gen.setCodeGeneration(false);
    const walker = await import('../../../src/formats/shared/zod-fast-check.js');
    for (const [, schema, list] of [...CASES, ...EDGES]) {
      const fast = walker.fastCheck(schema);
      for (const body of list) expect(fast(body)).toBe(valid(schema, body));
    }
    gen.setCodeGeneration(true);
  });
});
