/**
 * The patch form of a message stash (stash-patch.ts): a patch written as JSON and applied to the
 * decoded messages gives the canonical messages exactly, whatever the two hold; applying never
 * changes the decoded messages; a patch that does not fit is refused, not half applied.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import { applyPatch, messagesPatch } from '../../../src/formats/shared/stash-patch.js';
import { sameValue } from '../../../src/formats/shared/same-value.js';

const part = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'image', 'tool-call'), text: fc.string() }, { requiredKeys: ['type'] }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
);
const message = fc.record(
  { role: fc.constantFrom('user', 'assistant', 'tool'), parts: fc.array(part, { maxLength: 5 }), ext: fc.jsonValue(), stringContent: fc.boolean() },
  { requiredKeys: ['role', 'parts'] },
) as fc.Arbitrary<Message>;
const messages = fc.array(message, { maxLength: 4 });

/** As written and read: the stash is JSON. */
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

const thinking: Message = {
  role: 'assistant',
  parts: [
    { type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig==' },
    { type: 'text', text: 'hi' },
  ],
};

describe('messagesPatch / applyPatch', () => {
  it('turns any decoded messages into any canonical ones, through JSON, without touching the decoded', () => {
    fc.assert(
      fc.property(messages, messages, (decoded, canonical) => {
        const patch = json(messagesPatch(decoded, canonical));
        const frozen = deepFreeze(json(decoded));
        const got = applyPatch(frozen, patch.shape, patch.ops);
        expect(got).toBeDefined();
        expect(sameValue(got, canonical)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes only what differs: a dropped part is one insert, the text the decode gives is not written', () => {
    const decoded: Message[] = [{ role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }];
    const patch = messagesPatch(decoded, [thinking]);
    expect(patch).toEqual({ ops: [[[0, 'parts', 0], thinking.parts[0], 1]] });
    expect(applyPatch(decoded, undefined, patch.ops)).toEqual([thinking]);
  });

  it('regroups parts when the decode splits one message into several (and merges back the other way)', () => {
    const user: Message = {
      role: 'user',
      parts: [
        { type: 'tool-result', callId: 'c1', content: [] },
        { type: 'text', text: 'next?' },
      ],
    };
    const split: Message[] = [
      { role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', content: [] }] },
      { role: 'user', parts: [{ type: 'text', text: 'next?' }] },
    ];
    const patch = messagesPatch(split, [user]);
    expect(patch.shape).toEqual([2]);
    expect(JSON.stringify(patch.ops)).not.toContain('next?');
    expect(applyPatch(split, patch.shape, patch.ops)).toEqual([user]);
    const merged = messagesPatch([user], split);
    expect(merged.shape).toEqual([1, 1]);
    expect(applyPatch([user], merged.shape, merged.ops)).toEqual(split);
  });

  it('takes a key the decode no longer gives as deleted already (a stash written before a decoder left a default out)', () => {
    const decoded: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'a' }] }];
    expect(applyPatch(decoded, undefined, [[[0, 'parts', 0, 'detail']], [[0, 'nope']]])).toEqual(decoded);
    expect(applyPatch(decoded, undefined, [[[0, 'parts', 1, 'detail']]])).toBeUndefined(); // no such part: does not fit
  });

  it('refuses a patch that does not fit the decoded messages', () => {
    const decoded: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'a' }] }];
    for (const [shape, ops] of [
      [undefined, 'x'],
      [undefined, [[[]]]],
      [undefined, [[[3, 'role'], 'user']]],
      [undefined, [[[0, 'parts', 5], {}]]],
      [undefined, [[[0, 'parts', 2], {}, 1]]],
      [undefined, [[[0, 'missing', 'deeper'], 1]]],
      [undefined, [[[0, 'parts', 0, 'text'], 'b', 2]]],
      [[5], []],
      ['1', []],
    ] as const) {
      expect(applyPatch(decoded, shape, ops)).toBeUndefined();
    }
  });

  it('sets a __proto__ key as a plain key, never as the prototype', () => {
    const decoded: Message[] = [{ role: 'user', parts: [] }];
    const got = applyPatch(decoded, undefined, JSON.parse('[[[0, "__proto__"], {"polluted": true}]]'));
    expect(Object.getPrototypeOf(got?.[0])).toBe(Object.prototype);
    expect(Object.hasOwn(got?.[0] as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
