/**
 * The read-back shortcut (written.ts): for an event just encoded, "the messages read back are the
 * ones it was encoded from" must never say yes where encoding them again and comparing
 * (mapping.ts writesBack, the full check) says no. Checked on messages in the form reading gives
 * (random messages and the Camunda vectors, encoded and read back), with and without call names,
 * and on every one-field edit of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/formats/agentcore-memory/agentcore-memory-api.js';
import type { CallNames } from '../../../src/formats/agentcore-memory/call-names.js';
import { messagesOf, parseEvent, type ParsedBlobs } from '../../../src/formats/agentcore-memory/event-decode.js';
import { encodeContent } from '../../../src/formats/agentcore-memory/content.js';
import { encodeEvent } from '../../../src/formats/agentcore-memory/event-encode.js';
import { sameJson, writesBack } from '../../../src/formats/agentcore-memory/mapping.js';
import { strandsMessages } from '../../../src/formats/agentcore-memory/strands.js';
import { isJsonClean, sameInput, writesBackAsWritten, type Written } from '../../../src/formats/agentcore-memory/written.js';
import { DEFAULT_LIMITS, type DecodeContext } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { Issue } from '../../../src/model/errors.js';
import type { Message } from '../../../src/model/message.js';
import { message as someMessage } from './arbitrary.js';
import { VECTORS } from './helpers.js';

interface Tally {
  cases: number;
  fast: number;
  fullFalse: number;
  wrong: string[];
}

/** Encodes `m` as encodeMessageGroup does under preserve, reads it back, and compares the two decisions. */
function check(m: Message, names: CallNames | undefined, tally: Tally): Message[] | undefined {
  const losses = new LossList();
  let event;
  try {
    event = encodeEvent(m, ['messages', 0], losses, losses, true, LIMITS.metadataEntries, 'text', names);
  } catch {
    return undefined;
  }
  if (event === undefined) return undefined;
  const issues: Issue[] = [];
  const ctx: DecodeContext = { limits: { ...DEFAULT_LIMITS, maxTextBytes: Number.MAX_SAFE_INTEGER }, losses: new LossList() };
  const blobs: ParsedBlobs = [];
  let read = strandsMessages(event, ['events', 0], ctx, issues);
  if (read === undefined) {
    const items = parseEvent(event, ['events', 0], ctx, issues, blobs);
    if (items === undefined || items.length === 0) return undefined;
    read = messagesOf(event, items, ['events', 0], ctx, issues);
  }
  if (issues.length > 0 || read.length === 0) return undefined;
  const written: Written = { messages: [m], names: [names], metadataEntries: LIMITS.metadataEntries, preserve: true };
  const fast = writesBackAsWritten(read, written);
  const full = writesBack(event, read, blobs, written, false);
  tally.cases++;
  if (fast) tally.fast++;
  if (!full) tally.fullFalse++;
  if (fast && !full) tally.wrong.push(JSON.stringify(m).slice(0, 400));
  return read;
}

/** The names a reader's conversation would give each nameless result: its call id with a prefix. */
function namesOf(m: Message): CallNames | undefined {
  const out = new Map<string, string>();
  for (const p of Array.isArray(m.parts) ? m.parts : []) if (p?.type === 'tool-result' && p.name === undefined) out.set(p.callId, `tool_${p.callId}`);
  return out.size > 0 ? out : undefined;
}

const clone = <T>(v: T): T => structuredClone(v);

/** Every one-field edit of a message: each key of it and of each part dropped, set undefined, changed, reordered; fields added. */
function edits(m: Message): Message[] {
  const out: Message[] = [];
  const editObject = (get: (c: Message) => Record<string, unknown> | undefined): void => {
    const target = get(m);
    if (target === undefined) return;
    for (const k of Object.keys(target)) {
      const drop = clone(m);
      delete (get(drop) as Record<string, unknown>)[k];
      const undef = clone(m);
      (get(undef) as Record<string, unknown>)[k] = undefined;
      out.push(drop, undef);
      const v = target[k];
      const changed = clone(m);
      const t = get(changed) as Record<string, unknown>;
      if (typeof v === 'string') t[k] = `${v}x`;
      else if (typeof v === 'boolean') t[k] = !v;
      else if (typeof v === 'number') t[k] = -0;
      else t[k] = { nested: v ?? null };
      out.push(changed);
    }
    const reordered = clone(m);
    const r = get(reordered) as Record<string, unknown>;
    const entries = Object.entries(r).reverse();
    for (const k of Object.keys(r)) delete r[k];
    for (const [k, v] of entries) r[k] = v;
    out.push(reordered);
    for (const [k, v] of [['ext', { 'openai-chat': { x: 1 } }], ['ext', { 'agentcore-memory': { $nameLast: true } }], ['name', 'n'], ['argumentsJson', '{}'], ['when', new Date(0)]] as const) {
      const added = clone(m);
      (get(added) as Record<string, unknown>)[k] = v;
      out.push(added);
    }
  };
  editObject((c) => c as unknown as Record<string, unknown>);
  m.parts.forEach((p, j) => {
    editObject((c) => c.parts[j] as unknown as Record<string, unknown>);
    if (p.type === 'tool-call') {
      for (const text of [JSON.stringify(p.arguments), JSON.stringify(p.arguments, null, 1)]) {
        const c = clone(m);
        Object.assign(c.parts[j] as object, { argumentsJson: text });
        out.push(c);
      }
    }
  });
  return out;
}

/** The message, as read back from its event (the form a decoded request has), then its edits; each with and without call names. */
function run(m: Message, tally: Tally): void {
  const read = check(m, undefined, tally);
  const bases = read?.length === 1 ? [m, read[0] as Message] : [m];
  for (const base of bases) {
    for (const c of [base, ...edits(base)]) {
      check(c, undefined, tally);
      const names = namesOf(c);
      if (names) check(c, names, tally);
    }
  }
}

describe('agentcore-memory read-back shortcut (written.ts)', () => {
  it('never says an event writes back where encoding again says it does not', () => {
    const tally: Tally = { cases: 0, fast: 0, fullFalse: 0, wrong: [] };
    for (const v of VECTORS.mapper) if (v.message) run(v.message, tally);
    for (const s of VECTORS.store) for (const m of s.messages) run(m, tally);
    for (const m of fc.sample(someMessage, { seed: 13, numRuns: 60 })) run(m, tally);
    expect(tally.wrong).toEqual([]);
    // Both answers occur often, so the comparison above has something to find.
    expect(tally.fast).toBeGreaterThan(tally.cases / 10);
    expect(tally.fullFalse).toBeGreaterThan(tally.cases / 50);
  });

  it('tells apart what the encoder sees: key order, prototypes, undefined, -0', () => {
    expect(sameInput({ a: 1, b: [1, 'x'] }, { a: 1, b: [1, 'x'] })).toBe(true);
    expect(sameInput({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameInput({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameInput([1, undefined], [1, undefined])).toBe(true);
    // eslint-disable-next-line no-sparse-arrays
    expect(sameInput([1, undefined], [1, ,])).toBe(false);
    expect(sameInput(0, -0)).toBe(false);
    expect(sameInput(new Date(0), new Date(1))).toBe(false);
    expect(sameInput({ a: 1 }, Object.assign(Object.create(null) as object, { a: 1 }))).toBe(false);
  });

  it('isJsonClean only where JSON text parses back to the same input (the read-back check reads the value instead of the text)', () => {
    const values: unknown[] = [];
    for (const m of fc.sample(someMessage, { seed: 5, numRuns: 200 })) for (const p of m.parts) values.push(encodeContent(p), p);
    class Box {
      a = 1;
    }
    // eslint-disable-next-line no-sparse-arrays
    const odd: unknown[] = [undefined, -0, NaN, Infinity, new Date(0), [1, , 2], [1, undefined], new Box(), { a: undefined }, { toJSON: () => 1 }, Object.create(null), JSON.parse('{"__proto__":{"x":1}}'), { 2: 'a', 1: 'b', x: 'c' }, 1n, () => 1, Symbol('s')];
    for (const o of odd) values.push(o, { v: o }, [o]);
    let clean = 0;
    const wrong: string[] = [];
    for (const v of values) {
      if (!isJsonClean(v)) continue;
      clean++;
      if (!sameInput(JSON.parse(JSON.stringify(v)), v)) wrong.push(String(JSON.stringify(v)).slice(0, 200));
    }
    expect(wrong).toEqual([]);
    expect(clean).toBeGreaterThan(100);
    for (const o of [undefined, -0, NaN, new Date(0), new Box(), { a: undefined }]) expect(isJsonClean({ v: o })).toBe(false);
  });
});

describe('sameJson (payload comparison of the read-back check)', () => {
  // The same value with object keys sorted and keys holding undefined left out: equal texts, equal values.
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if ((v as Record<string, unknown>)[k] !== undefined) out[k] = sorted((v as Record<string, unknown>)[k]);
    return out;
  };
  it('is equality of JSON values with key order ignored', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      expect(sameJson(a, b)).toBe(JSON.stringify(sorted(a)) === JSON.stringify(sorted(b)));
      expect(sameJson(a, structuredClone(a))).toBe(true);
    }), { numRuns: 500 });
  });
  it('reads only own keys', () => {
    const inherits = Object.assign(Object.create({ a: 1 }) as object, { b: 2 });
    expect(sameJson(inherits, { b: 2 })).toBe(true);
    expect(sameJson({ b: 2 }, inherits)).toBe(true);
    expect(sameJson(inherits, { a: 1, b: 2 })).toBe(false);
  });
});
