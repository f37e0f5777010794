/**
 * The Gemini stream decoder reads the common shapes of JSON.parse's objects directly (a plain text
 * or thought part, usage and residue repeated unchanged) and leaves anything else to the general
 * path. Each stream here is decoded twice: as it is, and with every object rebuilt on another
 * prototype, which no shortcut takes. The events and losses must be the same. Streamed arguments
 * are written as they are where JSON needs no escape: the text must still be JSON.stringify's.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { WireEvent } from '../../../src/model/stream-event.js';
import { syntheticWire } from '../../../bench/stream/synthetic.js';
import { localStreamCaptures, sharedStreamCaptures } from '../../support/streams.js';
import { decodeStream } from './stream-support.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';

/** An object's own fields on a prototype of its own (still an object to every check, plain to none of the shortcuts). */
function reproto(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reproto);
  if (typeof v !== 'object' || v === null) return v;
  const out = Object.create(Object.create(Object.prototype) as object) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: reproto(x), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Both decodes as JSON text, or the error each threw. */
function decoded(wire: WireEvent[]): string {
  try {
    return JSON.stringify(decodeStream(wire));
  } catch (e) {
    return `throws ${JSON.stringify(e)} ${String(e)}`;
  }
}

const chunk = (parts: unknown[], extra: JsonObject = {}): WireEvent => ({ data: { candidates: [{ content: { role: 'model', parts }, index: 0 }], ...extra } as JsonObject });

/** Text parts in the shapes a shortcut must tell apart from the ones it must leave alone. */
const HANDMADE: Record<string, WireEvent[]> = {
  'text, signed text, thought, signed thought, empty parts': [
    chunk([{ text: 'a' }], { responseId: 'r', createTime: 't', usageMetadata: { trafficType: 'ON_DEMAND' } }),
    chunk([{ text: 'b', thoughtSignature: 'sig1' }], { createTime: 't', usageMetadata: { trafficType: 'ON_DEMAND' } }),
    chunk([{ text: '', thoughtSignature: 'sig2' }], { createTime: 't2', usageMetadata: { promptTokenCount: 3, trafficType: 'ON_DEMAND' } }),
    chunk([{ text: 'think', thought: true }, { thought: true, text: 'more', thoughtSignature: 's' }, { text: '' }], { usageMetadata: { trafficType: 'ON_DEMAND', promptTokenCount: 3 } }),
    chunk([{ text: 'x', thought: false }, { text: 'y', thoughtSignature: null }, { text: 'z', thought_signature: 'snake' }]),
    chunk([{ text: 'w', 'x-interlingua': { a: 1 } }, { text: 'v', mediaResolution: 'LOW' }, { text: 'u', thought: true, partMetadata: { k: 1 } }]),
    { data: { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, totalTokenCount: 9 } } },
  ],
  'the plain text chunk and its borders': [
    { data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, index: 0 }], responseId: 'r', modelVersion: 'm' } },
    { data: { candidates: [{ content: { parts: [{ text: 'b' }, { text: 'c', thought: true }], role: 'model' }, index: 0 }], responseId: 'r', modelVersion: 'm2' } },
    { data: { candidates: [{ content: { parts: [{ text: 'd' }], role: 'model' }, index: 0, finishMessage: 'x' }], responseId: 'r', createTime: 't' } },
    { data: { candidates: [{ content: { parts: [{ text: 'e' }], role: 'model', extra: 1 }, index: 0, avgLogprobs: -0.5 }], usage_metadata: { total_token_count: 1 } } },
    { data: { candidates: [{ content: { parts: [{ text: 'f' }], role: 'model' }, index: 1 }, { content: { parts: [], role: 'model' } }], responseId: null } },
    { data: { candidates: [{ content: { parts: [{ text: 'g' }], role: 'model' }, index: 0, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1, totalTokenCount: 2 }, modelVersion: 'm' } },
    { data: { candidates: [{ content: { parts: [{ text: 'h' }], role: 'model' }, index: 1, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1, trafficType: 'ON_DEMAND' } } },
  ],
  'parts of a thought or a signature without text (kept whole)': [
    chunk([{ text: 'a' }]),
    chunk([{ thought: true }, { thoughtSignature: 's' }, { text: 'b', thought: true }]),
    chunk([{ thoughtSignature: 's2' }, { text: 'c' }]),
  ],
  'a chunk with index 1.5': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, index: 1.5 }] } }],
  'a chunk with role system': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'system' }, index: 0 }] } }],
  'a chunk with a text that is a number': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }, { text: 5 }], role: 'model' }, index: 0 }] } }],
  'a chunk with a thought that is not a boolean': [{ data: { candidates: [{ content: { parts: [{ text: 'a', thought: 'yes' }], role: 'model' } }] } }],
  'a chunk with a negative count': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' } }], usageMetadata: { promptTokenCount: -1 } } }],
  'a chunk with a null usageMetadata': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' } }], usageMetadata: null } }],
  'a chunk with a numeric responseId': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' } }], responseId: 7 } }],
  'a chunk with a text and a call in one part': [{ data: { candidates: [{ content: { parts: [{ text: 'a', functionCall: { name: 'f' } }], role: 'model' } }] } }],
  'a chunk with a finishReason that is a number': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, finishReason: 1 }] } }],
  'plain streamed-call chunks and their borders': [
    { data: { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', willContinue: true, partialArgs: [{ jsonPath: '$.a', stringValue: 'x', willContinue: true }] }, thoughtSignature: 's' }] } }], createTime: 't', usageMetadata: { trafficType: 'ON_DEMAND' } } },
    { data: { candidates: [{ content: { role: 'model', parts: [{ functionCall: { partialArgs: [{ jsonPath: '$.a', stringValue: 'y' }], willContinue: true } }] } }], createTime: 't' } },
    { data: { candidates: [{ content: { role: 'model', parts: [{ functionCall: { partial_args: [{ json_path: '$.b', number_value: 1 }], will_continue: true }, extra: 1 }] } }], createTime: 't2' } },
    { data: { candidates: [{ content: { role: 'model', parts: [{ functionCall: {} }] }, finishReason: 'STOP' }], createTime: 't2' } },
    { data: { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'g', id: 'c1' } }, { functionCall: { name: 'h', args: { a: 1 } } }] }, finishReason: 'STOP' }] } },
  ],
  'a call part with a numeric name': [{ data: { candidates: [{ content: { parts: [{ functionCall: { name: 1 } }] } }] } }],
  'a call part with a numeric id': [{ data: { candidates: [{ content: { parts: [{ functionCall: { name: 'f', id: 1 } }] } }] } }],
  'a call part with a numeric signature': [{ data: { candidates: [{ content: { parts: [{ functionCall: { name: 'f' }, thoughtSignature: 1 }] } }] } }],
  'a call part with a text too': [{ data: { candidates: [{ content: { parts: [{ functionCall: { name: 'f' }, text: 'a' }] } }] } }],
  'a call that is an array': [{ data: { candidates: [{ content: { parts: [{ functionCall: [] }] } }] } }],
  'a numeric createTime': [{ data: { candidates: [{ content: { parts: [{ text: 'a' }] } }], createTime: 1 } }],
  'a text block over the size limit': [chunk([{ text: 'é'.repeat(40) }]), chunk([{ text: 'é'.repeat(40) }])],
};

const captures = [...localStreamCaptures('gemini'), ...sharedStreamCaptures('gemini')];
const streams: [string, WireEvent[]][] = [
  ...captures.map((c) => [c.name, c.events] as [string, WireEvent[]]),
  ['bench generated stream', syntheticWire('gemini')],
  ...Object.entries(HANDMADE),
];

describe('gemini stream decoder shortcuts', () => {
  it.each(streams)('%s: decodes as the general path does', (_name, wire) => {
    const general = decoded(wire.map((w) => ({ ...w, data: reproto(w.data) }) as WireEvent));
    expect(decoded(wire)).toBe(general);
  });

  it('the size limit is checked on the shortcut too', () => {
    expect(() => decodeStream(HANDMADE['a text block over the size limit'] as WireEvent[], { maxTextBytes: 100 })).toThrow(/the text block is 160 bytes so far/);
  });
});

describe('streamed arguments with characters JSON escapes', () => {
  const call = (fc: JsonObject): WireEvent => chunk([{ functionCall: fc }]);
  const NASTY = ['plain', 'quote "', 'back\\slash', 'tab\t nl\n nul\u0000', 'lone \ud800 high', 'lone \udc00 low', 'pair 😀', 'é ü', ''];

  it('writes each value and name as JSON.stringify does', () => {
    const expected: Record<string, string> = {};
    const args = NASTY.map((s, i) => {
      expected[`k${i} ${s}`] = s + s;
      return [
        { jsonPath: `$['k${i} ${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`, stringValue: s, willContinue: true },
        { jsonPath: `$['k${i} ${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`, stringValue: s },
      ];
    });
    const wire = [call({ name: 'f', willContinue: true, partialArgs: args.flat() }), call({ partialArgs: [] })];
    const { events } = decodeStream(wire);
    const end = events.find((e): e is Extract<StreamEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end');
    expect(end?.arguments).toBe(JSON.stringify(expected));
  });
});

describe('repeated usageMetadata and createTime', () => {
  const usages = (wire: WireEvent[]): unknown[] => decodeStream(wire).events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
  const late = (wire: WireEvent[]): unknown => decodeStream(wire).events.find((e) => e.type === 'response-end')?.ext;
  const end: WireEvent = { data: { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }] } };

  it('the same counts again give no usage event; counts in another order, another value or another key do', () => {
    const u = (usage: JsonObject): WireEvent => chunk([{ text: 'a' }], { usageMetadata: usage });
    expect(usages([u({ promptTokenCount: 3, trafficType: 'ON_DEMAND' }), u({ promptTokenCount: 3, trafficType: 'ON_DEMAND' }), end])).toHaveLength(1);
    expect(usages([u({ promptTokenCount: 3, trafficType: 'ON_DEMAND' }), u({ trafficType: 'ON_DEMAND', promptTokenCount: 3 }), end])).toHaveLength(2);
    expect(usages([u({ promptTokenCount: 3 }), u({ promptTokenCount: 4 }), end])).toHaveLength(2);
    expect(usages([u({ promptTokenCount: 3 }), u({ promptTokenCount: 3, candidatesTokenCount: 1 }), end])).toHaveLength(2);
    expect(usages([u({ promptTokenCount: 3, candidatesTokenCount: 1 }), u({ promptTokenCount: 3 }), end])).toHaveLength(2);
    // Nested details are compared as text, as before.
    const details = { promptTokenCount: 3, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }] };
    expect(usages([u(details), u(structuredClone(details)), end])).toHaveLength(1);
  });

  it('a usage object changed by the caller after it was pushed is not taken as the one seen', () => {
    const first: JsonObject = { promptTokenCount: 3 };
    const wire = [chunk([{ text: 'a' }], { usageMetadata: first }), chunk([{ text: 'b' }], { usageMetadata: { promptTokenCount: 4 } }), end];
    // decodeStream pushes the chunks one by one: change the first one's usage once it has been read.
    const pushed = wire.map((w, k) => (k === 1 ? { ...w, get data() { first['promptTokenCount'] = 4; return w.data; } } : w));
    expect(usages(pushed)).toHaveLength(2);
  });

  it('a usage object with inherited keys is compared as JSON.stringify writes it (own keys only)', () => {
    const u = (usage: JsonObject): WireEvent => chunk([{ text: 'a' }], { usageMetadata: usage });
    const inherited = Object.assign(Object.create({ candidatesTokenCount: 1 }) as JsonObject, { promptTokenCount: 3 });
    expect(usages([u(inherited), u({ promptTokenCount: 3, candidatesTokenCount: 1 }), end])).toHaveLength(2);
    expect(usages([u({ promptTokenCount: 3, candidatesTokenCount: 1 }), u(inherited), end])).toHaveLength(2);
    expect(usages([u({ promptTokenCount: 3 }), u(inherited), end])).toHaveLength(1);
  });

  it('a createTime that changes after the first chunk comes back on the response end; the same one does not', () => {
    const t = (createTime: string): WireEvent => chunk([{ text: 'a' }], { createTime });
    expect(late([t('2026-01-01T00:00:00Z'), t('2026-01-01T00:00:00Z'), end])).toBeUndefined();
    expect(late([t('2026-01-01T00:00:00Z'), t('2026-01-01T00:00:01Z'), end])).toEqual({ gemini: { createTime: '2026-01-01T00:00:01Z' } });
  });
});
