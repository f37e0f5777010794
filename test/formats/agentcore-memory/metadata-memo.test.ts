/**
 * Metadata envelopes read from text are remembered by text (envelope.ts): the same blob in many
 * events reads as it did the first time, and no message read from one shares an object with
 * another message or with what is remembered, so changing one read changes nothing else.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Message } from '../../../src/model/message.js';
import { decode, json } from './helpers.js';

const metaBlob = (metadata: JsonObject, properties: JsonObject): string =>
  JSON.stringify({ blobType: 'camunda.messageMetadata', version: 1, metadata, properties });

const event = (text: string, blob: string): JsonObject => ({
  payload: [{ conversational: { role: 'USER', content: { text } } }, { blob }],
});

/** Reads the events, each time as a new body (as memory reads a session on every call). */
const read = (events: JsonObject[]): Message[] => decode({ events: json(events) }).req.messages;

/** Every object a message holds changed in place: a new key in each. */
function scribble(v: unknown): void {
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    for (const x of v) scribble(x);
    return;
  }
  for (const x of Object.values(v)) scribble(x);
  (v as Record<string, JsonValue>)['scribbled'] = true;
}

describe('metadata envelopes read from the same text', () => {
  const cases: [string, string][] = [
    ['primitives only (remembered)', metaBlob({ topic: 'cities', turn: 3 }, { role: 'USER', userName: 'ana', 'interlingua.message': { stringContent: true }, source: 'web' })],
    ['a nested metadata value (read each time)', metaBlob({ nested: { a: 1 } }, { role: 'USER' })],
    ['message ext (read each time)', metaBlob({}, { role: 'USER', 'interlingua.message': { ext: { other: { k: [1, 2] } } } })],
    ['a property holding an object (read each time)', metaBlob({}, { role: 'USER', extra: { deep: ['x'] } })],
  ];

  for (const [name, blob] of cases) {
    it(`${name}: reads the same every time, and a read changed in place leaves the next read alone`, () => {
      const events = [event('first', blob), event('second', blob)];
      const before = read(events);
      expect(before).toHaveLength(2);
      const expected = json(before);
      // The two messages of one read share nothing either.
      scribble(before[0]);
      expect(json(before[1])).toEqual(expected[1]);
      scribble(before[1]);
      expect(read(events)).toEqual(expected);
    });
  }

  it('keeps what the blob says: name, stringContent, metadata and other properties', () => {
    const [m] = read([event('hi', cases[0]![1])]);
    expect(m).toMatchObject({ role: 'user', name: 'ana', stringContent: true, parts: [{ type: 'text', text: 'hi' }] });
    expect(m?.ext?.['agentcore-memory']).toMatchObject({ metadata: { topic: 'cities', turn: 3 }, properties: { source: 'web' } });
  });

  it('still reports what is wrong in a remembered envelope, at each event', () => {
    const bad = metaBlob({}, { role: 'ROBOT' });
    for (let i = 0; i < 2; i++) {
      expect(() => read([event('a', bad), event('b', bad)])).toThrow(/metadata role "ROBOT" is not a message role/);
    }
  });
});
