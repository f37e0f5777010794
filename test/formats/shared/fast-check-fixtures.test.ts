/**
 * The fast check's contract (zod-fast-check.ts, with the Bedrock and Gemini schemas): when it says yes, zod says yes (it may say no where zod says yes; zod
 * then decides). Checked on tricky values for each modelled kind, and on the Gemini and Bedrock
 * bodies of the fixtures, each mutated many times. It must also say yes to the valid captures,
 * or the fast path is never taken.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as bedrock from '../../../src/formats/bedrock-converse/schema.js';
import * as gemini from '../../../src/formats/gemini/schema.js';
import { isJsonData } from '../../../src/formats/shared/json-data.js';
import { fastCheck } from '../../../src/formats/shared/zod-fast-check.js';
import { local } from '../bedrock-converse/helpers.js';
import { localBodies } from '../gemini/helpers.js';

/** quick(v) implies zod success. */
function agrees(schema: z.ZodType, value: unknown): boolean {
  return !fastCheck(schema)(value) || schema.safeParse(value).success;
}

const TRICKY: unknown[] = [
  undefined, null, true, 0, -1, 1.5, 2 ** 60, NaN, Infinity, '', 'a', 'ab', '\uD83D\uDE00', '\uD83D', 'x'.repeat(300),
  [], [1], ['a', 'b'], {}, { a: 1 }, { a: 'x' }, Object.create({ a: 1 }) as unknown, Object.create(null) as unknown,
  { [Symbol('s')]: 1 }, new Date(0), new Map(), { text: 'x', thought: true }, { a: undefined }, { __proto__: null, a: 'x' },
];

const SCHEMAS: [string, z.ZodType][] = [
  ['string', z.string()],
  ['string min/max', z.string().min(2).max(3)],
  ['string regex', z.string().regex(/^[a-z]+$/)],
  ['number', z.number()],
  ['int', z.int()],
  ['int min', z.int().min(0)],
  ['number().int() bounds', z.number().int().nonnegative().max(10)],
  ['number gt', z.number().gt(0)],
  ['boolean', z.boolean()],
  ['enum', z.enum(['a', 'ab'])],
  ['literal', z.literal('x')],
  ['optional', z.string().optional()],
  ['nullish', z.string().nullish()],
  ['exactOptional', z.object({ a: z.string().exactOptional() })],
  ['array bounds', z.array(z.string()).min(1).max(1)],
  ['object', z.object({ a: z.string() })],
  ['object optional', z.object({ a: z.string().optional(), text: z.string().optional() })],
  ['strict object', z.object({ a: z.string().optional() }).strict()],
  ['loose object', z.object({ a: z.string().optional() }).loose()],
  ['refined object', z.object({ a: z.string().optional() }).refine((o) => o.a !== 'x')],
  ['record', z.record(z.string(), z.unknown())],
  ['record key bounds', z.record(z.string().min(1).max(1), z.string())],
  ['record enum keys', z.record(z.enum(['a']), z.number())],
  ['union', z.union([z.string(), z.number()])],
  ['xor', z.xor([z.string(), z.string().min(1)])],
  ['json', z.json()],
  ['refined string', z.string().refine((s) => s !== 'a')],
  ['transform', z.string().transform((s) => s.length)],
];

describe('fastCheck on single kinds', () => {
  it.each(SCHEMAS)('%s: never yes where zod says no', (_name, schema) => {
    for (const v of TRICKY) expect(agrees(schema, v), typeof v).toBe(true);
  });

  it('isJsonData: never yes where z.json() says no', () => {
    const json = z.json();
    for (const v of [...TRICKY, [undefined], [1, , 2], { a: [NaN] }, { a: { b: new Date(0) } }]) expect(!isJsonData(v) || json.safeParse(v).success, typeof v).toBe(true);
    expect(isJsonData({ a: [1, 'x', null, { b: true }] })).toBe(true);
  });

  it('says yes to plain valid values', () => {
    expect(fastCheck(z.object({ a: z.string(), b: z.int().min(0).optional() }))({ a: 'x', b: 3 })).toBe(true);
    expect(fastCheck(z.json())({ a: [1, 'x', null, { b: true }] })).toBe(true);
    expect(fastCheck(z.string().min(2))('\uD83D\uDE00')).toBe(false); // one code point: zod decides
  });
});

/** Deterministic mutations of a body: one node replaced, removed or given a new key. */
function* mutations(body: unknown, count: number, seed: number): Generator<unknown> {
  let s = seed >>> 0;
  const rand = (n: number): number => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
  const REPLACEMENTS: unknown[] = [null, 1.5, -1, 'x', '', true, [], {}, 2 ** 60, 'AAA=', 'a b', ['x'], { text: 'x' }];
  const KEYS = ['text', 'thought', 'inline_data', 'inlineData', 'functionCall', 'function_call', 'toolUse', 'bytes', 'role', 'x-interlingua', 'mime_type'];
  for (let k = 0; k < count; k++) {
    const copy = structuredClone(body) as unknown;
    const nodes: [Record<string, unknown> | unknown[], string | number][] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach((x, i) => (nodes.push([v, i]), walk(x)));
      else if (typeof v === 'object' && v !== null) for (const key of Object.keys(v)) (nodes.push([v as Record<string, unknown>, key]), walk((v as Record<string, unknown>)[key]));
    };
    walk(copy);
    const [parent, key] = nodes[rand(nodes.length)] ?? [undefined, 0];
    if (parent === undefined) continue;
    const what = rand(3);
    const slot = parent as Record<string | number, unknown>;
    if (what === 0) slot[key] = REPLACEMENTS[rand(REPLACEMENTS.length)];
    else if (what === 1) delete slot[key];
    else {
      const target = slot[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[KEYS[rand(KEYS.length)] as string] = REPLACEMENTS[rand(REPLACEMENTS.length)];
    }
    yield copy;
  }
}

const cases: [string, z.ZodType, unknown][] = [
  ...localBodies().map((b): [string, z.ZodType, unknown] => [`gemini ${b.name}`, b.kind === 'request' ? gemini.requestSchema : gemini.responseSchema, b.body]),
  ...local.requests.map((b): [string, z.ZodType, unknown] => [`bedrock ${b.name}`, bedrock.requestSchema, b.body]),
  ...local.responses.map((b): [string, z.ZodType, unknown] => [`bedrock ${b.name}`, bedrock.responseSchema, b.body]),
];

describe('fastCheck on the codecs’ schemas', () => {
  it.each(cases)('%s: yes when zod says yes, and never yes on a mutation zod refuses', (_name, schema, body) => {
    expect(fastCheck(schema)(body)).toBe(schema.safeParse(body).success);
    let n = 0;
    for (const m of mutations(body, 150, n + 7)) {
      expect(agrees(schema, m), JSON.stringify(m)).toBe(true);
      n++;
    }
  });
});
