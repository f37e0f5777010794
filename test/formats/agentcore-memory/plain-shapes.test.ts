/**
 * plain-shapes.ts answers "surely valid" without zod: it must never say so where the strict schema
 * (part-schema.ts) rejects the value. Checked on the contents this codec writes for random parts
 * and on every one-field edit of them, top level and inside the source.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeContent } from '../../../src/formats/agentcore-memory/content.js';
import { FormatIdSchema, ReasoningPayloadSchema, STRICT_PART, type CanonicalPartType } from '../../../src/formats/agentcore-memory/part-schema.js';
import { isFormatId, surelyReasoningPayload, surelyValidPart } from '../../../src/formats/agentcore-memory/plain-shapes.js';
import type { Part } from '../../../src/model/part.js';
import { message } from './arbitrary.js';
import { VECTORS } from './helpers.js';

type Obj = Record<string, unknown>;
const clone = <T>(v: T): T => structuredClone(v);

/** `v`, and each edit of one field of it (or of the object at `inner`): dropped, undefined, another type, another string; plus an extra key. */
function edits(v: Obj, inner?: string): Obj[] {
  const out: Obj[] = [v];
  const target = (c: Obj): Obj | undefined => (inner === undefined ? c : (c[inner] as Obj | undefined));
  const t = target(v);
  if (t === undefined || typeof t !== 'object' || t === null) return out;
  for (const k of Object.keys(t)) {
    for (const value of [undefined, 1, null, 'other', ['x'], { x: 1 }]) {
      const c = clone(v);
      (target(c) as Obj)[k] = value;
      out.push(c);
    }
    const c = clone(v);
    delete (target(c) as Obj)[k];
    out.push(c);
  }
  for (const [k, value] of [['extra', 'x'], ['ext', { a: { b: 1 } }], ['cache', { type: 'ephemeral' }], ['detail', 'low'], ['mediaType', 'image/png'], ['summary', ['a']], ['__proto__', 'x']] as const) {
    const c = clone(v);
    Object.defineProperty(target(c) as Obj, k, { value, enumerable: true, configurable: true, writable: true });
    out.push(c);
  }
  return out;
}

function contents(): Obj[] {
  const parts: Part[] = [];
  for (const m of fc.sample(message, { seed: 7, numRuns: 300 })) for (const p of m.parts) parts.push(p, ...(p.type === 'tool-result' ? p.content : []));
  for (const v of VECTORS.mapper) if (v.message) parts.push(...v.message.parts);
  const out: Obj[] = [];
  for (const p of parts) {
    const c = encodeContent(p) as Obj;
    out.push(...edits(c), ...(typeof c['source'] === 'object' ? edits(c, 'source') : []), ...(typeof c['payload'] === 'object' ? edits(c, 'payload') : []));
  }
  return out;
}

describe('plain-shapes: valid without zod only where zod agrees', () => {
  const all = contents();

  it('surelyValidPart', () => {
    let sure = 0;
    const wrong: string[] = [];
    for (const c of all) {
      const type = c['type'];
      if (typeof type !== 'string' || !(type in STRICT_PART)) continue;
      if (!surelyValidPart(type, c)) continue;
      sure++;
      if (!STRICT_PART[type as CanonicalPartType].safeParse(c).success) wrong.push(JSON.stringify(c).slice(0, 200));
    }
    expect(wrong).toEqual([]);
    expect(sure).toBeGreaterThan(100);
  });

  it('surelyReasoningPayload and isFormatId', () => {
    let sure = 0;
    const wrong: string[] = [];
    for (const c of all) {
      const payload = c['payload'];
      if (surelyReasoningPayload(payload)) {
        sure++;
        if (!ReasoningPayloadSchema.safeParse(payload).success) wrong.push(JSON.stringify(payload).slice(0, 200));
      }
      const origin = c['provider'] ?? c['origin'];
      if (isFormatId(origin) !== FormatIdSchema.safeParse(origin).success) wrong.push(`origin ${String(origin)}`);
    }
    for (const v of [undefined, null, 1, 'openai', 'gemini', 'anthropic-messages', 'toString', '__proto__']) if (isFormatId(v) !== FormatIdSchema.safeParse(v).success) wrong.push(`origin ${String(v)}`);
    expect(wrong).toEqual([]);
    expect(sure).toBeGreaterThan(20);
  });
});
