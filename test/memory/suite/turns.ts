/** lastTurns at event level: where turns start in every layout, k, order, long turns, isolation. */
import { describe, expect, it } from 'vitest';
import { ValidationError, type NewEvent } from '../../../src/memory/index.js';
import type { BackendUnderTest } from '../conformance.js';
import { assistant, camunda, conv, DOCUMENT_BLOB, metaBlob, TOOL_CALLS_BLOB, TOOL_RESULTS_BLOB, turnLabels, user } from '../events.js';
import { fresh } from './harness.js';

export function turnsSuite(backend: BackendUnderTest): void {
  describe('lastTurns', () => {
    it('one message per event (the hook sample layout): the last k turns, oldest first within and across', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3'), assistant('a3')]);
      expect(turnLabels(await store.lastTurns('alice', 's', 2))).toEqual([['u2', 'a2'], ['u3', 'a3']]);
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([['u1', 'a1'], ['u2', 'a2'], ['u3', 'a3']]);
      expect(turnLabels(await store.lastTurns('alice', 's', 1))).toEqual([['u3', 'a3']]);
      expect(await store.lastTurns('alice', 's', 0)).toEqual([]);
      expect(await store.lastTurns('alice', 'nothing-here')).toEqual([]);
    });

    it('the default k is 10', async () => {
      const { store } = await fresh(backend);
      for (let i = 1; i <= 12; i++) await store.appendEvents('alice', 's', [user(`u${i}`), assistant(`a${i}`)]);
      const turns = await store.lastTurns('alice', 's');
      expect(turns.length).toBe(10);
      expect(turnLabels(turns)[0]).toEqual(['u3', 'a3']);
    });

    it('events before the first user event are a turn of their own; a session may end mid-turn', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [assistant('greeting'), assistant('more greeting'), user('u1'), assistant('a1'), user('u2')]);
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([['greeting', 'more greeting'], ['u1', 'a1'], ['u2']]);
      expect(turnLabels(await store.lastTurns('alice', 's', 2))).toEqual([['u1', 'a1'], ['u2']]);
    });

    it("Camunda's layout: the trailing metadata blob's role decides, also for a document-only user message", async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [
        camunda.user('What is the weather?'),
        camunda.assistantWithCalls('Let me check the weather for you.'),
        camunda.toolResult(),
        { payload: [conv('ASSISTANT', 'Sunny'), { blob: '{"blobType":"camunda.messageMetadata","version":1,"metadata":{},"properties":{"role":"ASSISTANT"}}' }] },
        camunda.documentOnlyUser(),
        camunda.callsOnlyAssistant(),
        camunda.toolResult(),
        camunda.documentOnlyAssistant(),
        // The metadata blob as a JSON object rather than text (the format reads both).
        { payload: [conv('USER', 'thanks'), { blob: { blobType: 'camunda.messageMetadata', version: 1, metadata: {}, properties: { role: 'USER' } } }] },
      ]);
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([
        ['What is the weather?', 'Let me check the weather for you.', 'tool output', 'Sunny'],
        ['blob', 'blob', 'tool output', 'blob'],
        ['thanks'],
      ]);
    });

    it('without a metadata blob: the first speaking conversational role, else the blobs say', async () => {
      const { store } = await fresh(backend);
      const events: NewEvent[] = [
        user('u1'),
        { payload: [{ blob: TOOL_CALLS_BLOB }] }, // calls only: assistant
        { payload: [conv('TOOL', 'tool output'), { blob: TOOL_RESULTS_BLOB }] }, // results with summary: tool
        { payload: [conv('TOOL', 'bare tool text')] }, // a minimal tool result
        { payload: [{ blob: '[{"id":"c1","name":"f","arguments":{}}]' }] }, // the older bare array of calls
        { payload: [{ blob: DOCUMENT_BLOB }] }, // content only: a user message (an image, a document)
        { payload: [conv('OTHER', 'note'), conv('ASSISTANT', 'reply')] }, // OTHER says nothing
        { payload: [] }, // no message at all
        { payload: [conv('USER', 'u3'), conv('ASSISTANT', 'a3')] }, // a whole turn in one event (the Python SDK's layout)
      ];
      await store.appendEvents('alice', 's', events);
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([
        ['u1', 'blob', 'tool output', 'bare tool text', 'blob'],
        ['blob', 'note', '(empty)'],
        ['u3'],
      ]);
    });

    it('a user message of tool results only (Anthropic, Gemini, Bedrock) continues the turn of the calls it answers', async () => {
      const { store } = await fresh(backend);
      const resultsAsUser = (summary: string): NewEvent => ({ payload: [conv('TOOL', summary), { blob: TOOL_RESULTS_BLOB }, metaBlob('USER')] });
      await store.appendEvents('alice', 's', [
        user('u1'),
        { payload: [conv('ASSISTANT', 'checking'), { blob: TOOL_CALLS_BLOB }] },
        resultsAsUser('tool output'),
        assistant('a1'),
        user('u2'),
        { payload: [{ blob: TOOL_CALLS_BLOB }] },
        resultsAsUser('more output'),
        // Text of its own next to the results: a new turn.
        { payload: [conv('TOOL', 'late output'), { blob: TOOL_RESULTS_BLOB }, conv('USER', 'and now this'), metaBlob('USER')] },
      ]);
      expect(turnLabels(await store.lastTurns('alice', 's', 2))).toEqual([
        ['u2', 'blob', 'more output'],
        ['late output'],
      ]);
      expect(turnLabels(await store.lastTurns('alice', 's', 3))[0]).toEqual(['u1', 'checking', 'tool output', 'a1']);
    });

    it('a turn longer than a page, and turns beyond the first page, come back whole', async () => {
      const { store } = await fresh(backend);
      const tools = Array.from({ length: 150 }, () => camunda.toolResult());
      await store.appendEvents('alice', 's', [user('u1'), assistant('a1')]);
      await store.appendEvents('alice', 's', [user('u2'), ...tools.slice(0, 99)]);
      await store.appendEvents('alice', 's', tools.slice(99));
      await store.appendEvents('alice', 's', [assistant('a2'), user('u3'), assistant('a3')]);
      const turns = await store.lastTurns('alice', 's', 3);
      expect(turns.map((t) => t.length)).toEqual([2, 152, 2]);
      expect(turnLabels(turns)[1]?.[0]).toBe('u2');
      expect(turnLabels(turns)[1]?.at(-1)).toBe('a2');
      const flat = turns.flat().map((e) => e.sequence);
      expect(flat).toEqual([...flat].sort((a, b) => a - b));
      expect(turnLabels(await store.lastTurns('alice', 's', 2))[0]?.length).toBe(152);
    });

    it('read again after the session grew by a longer turn than the ones before: still whole, nothing more', async () => {
      const { store } = await fresh(backend);
      for (let i = 1; i <= 4; i++) await store.appendEvents('alice', 's', [user(`u${i}`), assistant(`a${i}`)]);
      expect(turnLabels(await store.lastTurns('alice', 's', 2))).toEqual([['u3', 'a3'], ['u4', 'a4']]);
      const calls = Array.from({ length: 12 }, (_, n) => assistant(`step${n}`));
      await store.appendEvents('alice', 's', [user('u5'), ...calls, assistant('a5')]);
      const again = turnLabels(await store.lastTurns('alice', 's', 2));
      expect(again.map((t) => t.length)).toEqual([2, 14]);
      expect(again[0]).toEqual(['u4', 'a4']);
      expect(again[1]?.[0]).toBe('u5');
      await store.appendEvents('alice', 's', [user('u6'), assistant('a6')]);
      expect(turnLabels(await store.lastTurns('alice', 's', 2)).map((t) => t[0])).toEqual(['u5', 'u6']);
      expect(turnLabels(await store.lastTurns('alice', 's', 1))).toEqual([['u6', 'a6']]);
    });

    it('lastTurnContents, where the store offers it, is lastTurns with only payload and metadata', async () => {
      const { store } = await fresh(backend);
      const withMeta: NewEvent = { payload: [conv('USER', 'tagged')], metadata: { source: { stringValue: 'hook' } } };
      await store.appendEvents('alice', 's', [user('u1'), camunda.assistantWithCalls('checking'), camunda.toolResult(), assistant('a1'), withMeta, assistant('a2')]);
      // agentcore:// reads its events from the service and offers only lastTurns: recall falls back to it.
      if (backend.name.startsWith('agentcore://')) {
        expect(store.lastTurnContents).toBeUndefined();
        return;
      }
      for (const k of [1, 2, 10]) {
        const events = await store.lastTurns('alice', 's', k);
        const contents = await store.lastTurnContents?.('alice', 's', k);
        expect(contents).toEqual(events.map((turn) => turn.map((e) => (e.metadata === undefined ? { payload: e.payload } : { payload: e.payload, metadata: e.metadata }))));
      }
      await expect(store.lastTurnContents?.('alice', 's', -1)).rejects.toThrow(ValidationError);
    });

    it('reads only its own session', async () => {
      const { store } = await fresh(backend);
      await store.appendEvents('alice', 's', [user('alice-s')]);
      await store.appendEvents('alice', 't', [user('alice-t'), assistant('alice-t-reply')]);
      await store.appendEvents('bob', 's', [user('bob-s')]);
      expect(turnLabels(await store.lastTurns('alice', 's'))).toEqual([['alice-s']]);
      expect(turnLabels(await store.lastTurns('bob', 's'))).toEqual([['bob-s']]);
    });

    it('k must be a whole number, 0 or more', async () => {
      const { store } = await fresh(backend);
      for (const k of [-1, 1.5, Number.NaN]) {
        const err = await store.lastTurns('alice', 's', k).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues[0]?.path).toEqual(['k']);
      }
    });
  });
}
