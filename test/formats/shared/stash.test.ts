import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { JsonObject } from '../../../src/model/json.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { putTopStash, STASH_KEY, stashGroup, takeMessageStash, takeTopStash } from '../../../src/formats/shared/stash.js';
import type { EncodeContext } from '../../../src/formats/codec.js';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';

const thinking: Message = {
  role: 'assistant',
  parts: [
    { type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig==' },
    { type: 'text', text: 'hi' },
  ],
};

/** One group as an encoder writes it: its wire messages into a private loss list, then stashGroup. */
function encodeGroup(messages: Message[], ctx: EncodeContext, encode: (losses: LossList) => JsonObject[]): JsonObject[] {
  const local = new LossList();
  return stashGroup(messages, ctx, local, encode(local), false);
}

function lossyEncode(losses: LossList): JsonObject[] {
  losses.push({ code: 'foreign-reasoning', path: ['messages', 0, 'content', 0], message: 'no slot', action: 'dropped' });
  return [{ role: 'assistant', content: 'hi' }];
}

describe('message stash', () => {
  it('stashes a lossy group only under preserve, marking its losses stashed', () => {
    const plain = new LossList();
    const wire = encodeGroup([thinking], { preserve: false, losses: plain }, lossyEncode);
    expect(wire[0]).not.toHaveProperty(STASH_KEY);
    expect(plain.items.map((l) => l.action)).toEqual(['dropped']);

    const kept = new LossList();
    const stashed = encodeGroup([thinking], { preserve: true, losses: kept }, lossyEncode);
    expect(kept.items.map((l) => l.action)).toEqual(['stashed']);
    expect(stashed[0]?.[STASH_KEY]).toMatchObject({ v: 1, span: 1, messages: [thinking] });
  });

  it('leaves a lossless group untouched even under preserve', () => {
    const losses = new LossList();
    const wire = encodeGroup([thinking], { preserve: true, losses }, () => [{ role: 'assistant', content: 'hi' }]);
    expect(wire[0]).toEqual({ role: 'assistant', content: 'hi' });
    expect(losses.length).toBe(0);
  });

  it('gives the stashed messages back while the wire messages are unchanged', () => {
    const wire = encodeGroup([thinking], { preserve: true, losses: new LossList() }, lossyEncode);
    const roundTripped = JSON.parse(JSON.stringify(wire)) as unknown[];
    const losses = new LossList();
    const got = takeMessageStash(roundTripped, 0, { limits: { maxTextBytes: 1e5 }, losses }, ['messages']);
    expect(got).toEqual({ messages: [thinking], span: 1 });
    expect(losses.length).toBe(0);
  });

  it('ignores and reports a stash whose wire messages were edited since', () => {
    const wire = encodeGroup([thinking], { preserve: true, losses: new LossList() }, lossyEncode);
    (wire[0] as JsonObject)['content'] = 'edited';
    const losses = new LossList();
    expect(takeMessageStash(wire, 0, { limits: { maxTextBytes: 1e5 }, losses }, ['messages'])).toBeUndefined();
    expect(losses.items[0]).toMatchObject({ code: 'stale-stash', path: ['messages', 0, STASH_KEY] });
  });

  it('reports a malformed stash instead of trusting it', () => {
    const losses = new LossList();
    const list = [{ role: 'user', content: 'x', [STASH_KEY]: { v: 1, span: 5, hash: 'x', messages: [] } }];
    expect(takeMessageStash(list, 0, { limits: { maxTextBytes: 1e5 }, losses }, ['messages'])).toBeUndefined();
    expect(losses.items[0]?.code).toBe('stale-stash');
  });

  it('round-trips top-level fields and ignores a malformed top-level stash', () => {
    const out: JsonObject = {};
    putTopStash(out, { topK: 5 }, { preserve: true, losses: new LossList() });
    expect(takeTopStash(out, { limits: { maxTextBytes: 1 }, losses: new LossList() })).toEqual({ topK: 5 });
    const none: JsonObject = {};
    putTopStash(none, { topK: 5 }, { preserve: false, losses: new LossList() });
    expect(none).toEqual({});
    const losses = new LossList();
    expect(takeTopStash({ [STASH_KEY]: { v: 2 } }, { limits: { maxTextBytes: 1 }, losses })).toBeUndefined();
    expect(losses.length).toBe(1);
  });
});

describe('patch stash (v: 2)', () => {
  /** A format's span decoder: the wire message's string content as one text part. */
  const decodeSpan = (wire: readonly JsonObject[]): Message[] =>
    wire.map((w) => ({ role: w['role'] as Message['role'], parts: [{ type: 'text', text: w['content'] as string }] }));
  const ctx = (losses: LossList) => ({ limits: { maxTextBytes: 1e5 }, losses });
  const write = (span = decodeSpan): JsonObject[] => {
    const local = new LossList();
    return stashGroup([thinking], { preserve: true, losses: new LossList() }, local, lossyEncode(local), false, span);
  };

  it('holds only what the decode does not give back, and reads back exactly', () => {
    const wire = JSON.parse(JSON.stringify(write())) as JsonObject[];
    const stash = wire[0]?.[STASH_KEY] as JsonObject;
    expect(stash).toMatchObject({ v: 2, span: 1 });
    expect(stash).not.toHaveProperty('messages');
    expect(JSON.stringify(stash)).toContain('sig==');
    expect(JSON.stringify(stash)).not.toContain('"hi"');
    const losses = new LossList();
    expect(takeMessageStash(wire, 0, ctx(losses), ['messages'], decodeSpan)).toEqual({ messages: [thinking], span: 1 });
    expect(losses.length).toBe(0);
  });

  it('is whole messages (v: 1) when the decode of the wire fails', () => {
    const wire = write(() => {
      throw new Error('over the limits');
    });
    expect(wire[0]?.[STASH_KEY]).toMatchObject({ v: 1, messages: [thinking] });
  });

  it('is reported and ignored by a reader without the span decoder, when edited, or when it does not fit', () => {
    const noDecoder = new LossList();
    expect(takeMessageStash(write(), 0, ctx(noDecoder), ['messages'])).toBeUndefined();
    expect(noDecoder.items[0]).toMatchObject({ code: 'stale-stash', message: expect.stringContaining('malformed') });

    const edited = write();
    (edited[0] as JsonObject)['content'] = 'edited';
    const stale = new LossList();
    expect(takeMessageStash(edited, 0, ctx(stale), ['messages'], decodeSpan)).toBeUndefined();
    expect(stale.items[0]).toMatchObject({ code: 'stale-stash', message: expect.stringContaining('changed') });

    const misfit = write();
    ((misfit[0] as JsonObject)[STASH_KEY] as JsonObject)['patch'] = [[[7, 'role'], 'user']];
    const refused = new LossList();
    expect(takeMessageStash(misfit, 0, ctx(refused), ['messages'], decodeSpan)).toBeUndefined();
    expect(refused.items[0]).toMatchObject({ code: 'stale-stash', message: expect.stringContaining('does not fit') });
  });
});

describe('stableHash', () => {
  it('ignores key order but not values or array order', () => {
    expect(stableHash({ a: 1, b: [1, 2] })).toBe(stableHash({ b: [1, 2], a: 1 }));
    expect(stableHash({ a: 1, b: [1, 2] })).not.toBe(stableHash({ a: 1, b: [2, 1] }));
    expect(stableHash({ a: '1' })).not.toBe(stableHash({ a: 1 }));
  });
});
