/**
 * The Camunda connectors' AgentCore mapper, envelope and store tests as vectors
 * (test/fixtures/agentcore-memory/camunda-vectors.json, reference §4.7-4.9). For each mapper case:
 * the event Camunda writes reads back as the canonical message, and is written back exactly; the
 * canonical message is written with Camunda's payloads in Camunda's order (its trailing metadata
 * blob only where the issue's rules need one), within CreateEvent's limits, and reads back exactly.
 * Deliberate differences from Camunda are the issue's: a lone TOOL text is a minimal result, a
 * system message is a loss rather than an exception, metadata goes to event metadata where it fits.
 */
import { describe, expect, it } from 'vitest';
import { eventToMessage, eventToMessages, messageToEvent } from '../../../src/formats/agentcore-memory/index.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Message } from '../../../src/model/message.js';
import { validateAgentcoreMemory } from '../../support/validators/agentcore-memory.js';
import { decode, encode, shape, VECTORS, withoutHints } from './helpers.js';

/** Hints that are part of what a Camunda message is in canonical terms (an ObjectContent, a result without id, a bare TOOL text). */
const FACT_HINTS = ['$object', '$id', '$minimal'];
const META = 'camunda.messageMetadata';

describe('AwsAgentCoreConversationMapperTest vectors', () => {
  it('has the 37 cases the reference lists', () => expect(VECTORS.mapper).toHaveLength(37));

  for (const v of VECTORS.mapper) {
    const payload = v.camunda?.payload;
    if (v.message === null || payload === undefined) continue;
    const message = v.message;
    it(`${v.name} ${v.test.split('#')[1]}`, () => {
      const read = eventToMessage({ payload });
      expect(withoutHints(read, FACT_HINTS)).toEqual(message);
      expect(messageToEvent(read)).toEqual({ event: { payload }, losses: [] });

      const ours = messageToEvent(message);
      expect(ours.losses).toEqual([]);
      const event = ours.event as JsonObject;
      const expected = payload.map(shape);
      if (!v.ourMetaBlob && expected[expected.length - 1] === META) expected.pop();
      expect((event['payload'] as JsonObject[]).map(shape)).toEqual(expected);
      const md = v.eventMetadata;
      expect(event['metadata']).toEqual(md === undefined ? undefined : Object.fromEntries(Object.entries(md).map(([k, s]) => [k, { stringValue: s }])));
      expect(eventToMessage(event)).toEqual(message);
      expect(validateAgentcoreMemory('request', { events: [event] })).toEqual([]);
      if (v.summaryJson !== undefined) {
        const text = ((event['payload'] as JsonObject[])[0]?.['conversational'] as JsonObject)['content'] as JsonObject;
        expect(JSON.parse(text['text'] as string)).toEqual(v.summaryJson);
      }
    });
  }

  it('22 shouldRejectSystemMessage: no event, a system-message loss naming the system role', () => {
    const v = VECTORS.mapper.find((x) => x.name === 22);
    const { event, losses } = messageToEvent(v?.message as Message);
    expect(event).toBeUndefined();
    expect(losses).toEqual([expect.objectContaining({ code: 'system-message', path: ['messages', 0], action: 'dropped' })]);
    expect(losses[0]?.message).toContain('system messages are not stored');
  });

  it('24 shouldHandleEventWithNoPayloads: no message, reported', () => {
    const losses: Loss[] = [];
    expect(eventToMessages({}, { losses })).toEqual([]);
    expect(losses.map((l) => l.code)).toEqual(['empty-event']);
    expect(() => eventToMessage({})).toThrow(ValidationError);
  });

  it('21 a lone TOOL text is a minimal tool result (the issue), not a skipped event (Camunda)', () => {
    const [m] = eventToMessages({ payload: [{ conversational: { role: 'TOOL', content: { text: 'Tool result text' } } }] });
    expect(m).toMatchObject({ role: 'tool', parts: [{ type: 'tool-result', callId: '', content: [{ type: 'text', text: 'Tool result text' }] }] });
  });
});

describe('BlobEnvelopeTest vectors', () => {
  it('has the 17 cases (one of them checks two content types)', () => {
    expect(new Set(VECTORS.envelope.map((e) => e.test)).size).toBe(17);
  });
  VECTORS.envelope.forEach((e, k) => {
    it(`${k} ${e.test.split('#')[1]}`, () => {
      const event = { payload: [{ blob: e.blob }] };
      if (e.ok) {
        const m = eventToMessage(event);
        expect(withoutHints(m.parts, FACT_HINTS)).toEqual(e.ok.parts);
        expect(m.ext?.['agentcore-memory']?.['metadata']).toEqual(e.ok.metadata);
        // The envelope is written back as it came.
        expect(messageToEvent(m).event).toEqual(event);
        return;
      }
      let error: unknown;
      try {
        eventToMessages(event);
      } catch (x) {
        error = x;
      }
      expect(error).toBeInstanceOf(ValidationError);
      const [issue] = (error as ValidationError).issues;
      expect(issue?.path).toEqual(['events', 0, 'payload', 0, 'blob', ...(e.path ?? [])]);
      for (const word of e.error ?? []) expect(issue?.message.toLowerCase()).toContain(word.toLowerCase());
    });
  });
});

describe('AwsAgentCoreConversationStoreTest vectors (the event mapping and order)', () => {
  for (const v of VECTORS.store) {
    it(v.test.split('#')[1] as string, () => {
      if (v.write === true) {
        const { body, losses } = encode({ messages: v.messages });
        expect(body).toEqual(v.body);
        expect(losses.map((l) => l.code)).toEqual(['system-message']);
        expect(validateAgentcoreMemory('request', body)).toEqual([]);
        return;
      }
      const { req, losses } = decode(v.body);
      expect(losses).toEqual([]);
      expect(withoutHints(req.messages.map((m) => ({ role: m.role, parts: m.parts, ...(m.name ? { name: m.name } : {}) })), FACT_HINTS)).toEqual(v.messages);
      expect(encode(req)).toEqual({ body: v.body, losses: [] });
      // Written from the plain messages, the blobs (other than the metadata blob) are Camunda's, byte for byte.
      const ours = encode({ messages: v.messages }).body['events'] as JsonObject[];
      const blobs = (events: JsonObject[]): unknown[] => events.flatMap((ev) => (ev['payload'] as JsonObject[]).filter((p) => typeof p['blob'] === 'string' && shape(p) !== META).map((p) => p['blob']));
      const listed = [...v.body.events];
      if (v.test.endsWith('loadsMessagesFromAgentCoreMemory') || v.test.endsWith('ordersEventsByTimestampThenBySeqMetadata')) listed.reverse();
      expect(blobs(ours)).toEqual(blobs(listed));
    });
  }
});
