/**
 * Message-level memory and tool results, on the in-memory store, Postgres and Redis:
 * - an empty session recalls no messages in every format (no request placeholder);
 * - a result stored after its call (one append per message, as hooks store) is named after the
 *   call in its results blob, and reads back as it was;
 * - older events (bare calls array, lone TOOL text) recall with calls and results paired, reported.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/formats/convert.js';
import { createMemoryHooks, MESSAGE_FORMATS, openMemory, type Memory, type StoredEvent } from '../../src/memory/index.js';
import { dropSchema, schemaName, storeUrl as pgUrl } from './postgres-storage.js';

const REDIS_URL = process.env['MEMORY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 15);

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup) await c();
});

const BACKENDS: Record<string, () => Promise<Memory>> = {
  memory: () => openMemory('memory:'),
  postgres: async () => {
    const schema = schemaName();
    cleanup.push(() => dropSchema(schema));
    return openMemory(pgUrl(schema));
  },
  redis: async () => {
    const prefix = `il_test:${process.pid}:tools:${Math.random().toString(36).slice(2, 8)}:`;
    cleanup.push(async () => {
      const admin = new Redis(REDIS_URL);
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      admin.disconnect();
    });
    return openMemory(`${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`);
  },
};

async function open(backend: string): Promise<Memory> {
  const mem = await (BACKENDS[backend] as () => Promise<Memory>)();
  cleanup.unshift(() => mem.close());
  return mem;
}

const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] };
const toolResult = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] };

/** The entries of the results blobs of stored events. */
const resultEntries = (events: readonly StoredEvent[]): Record<string, unknown>[] =>
  events.flatMap((e) => e.payload.flatMap((p) => {
    const blob = (p as { blob?: unknown }).blob;
    return typeof blob === 'string' && blob.includes('"camunda.toolCallResults"') ? (JSON.parse(blob) as { results: Record<string, unknown>[] }).results : [];
  }));

describe.each(Object.keys(BACKENDS))('%s', (backend) => {
  it('an empty session recalls no messages, in every format', async () => {
    const mem = await open(backend);
    for (const format of MESSAGE_FORMATS) {
      expect(await mem.lastTurns({ actorId: 'a', sessionId: 'none', format }), format).toEqual([]);
      expect(await mem.recall({ actorId: 'a', sessionId: 'none', format }), format).toEqual({ messages: [], losses: [] });
    }
    // A session of a blank message only: Anthropic leaves it out, reported, and writes no placeholder.
    await mem.append({ actorId: 'a', sessionId: 'blank', messages: [{ role: 'user', content: ' ' }], format: 'openai-chat' });
    const blank = await mem.recall({ actorId: 'a', sessionId: 'blank', format: 'anthropic-messages' });
    expect(blank.messages).toEqual([]);
    expect(blank.losses.map((l) => [l.code, l.path])).toEqual([['empty-text', ['messages', 0, 'parts', 0]], ['empty-message', ['messages', 0]]]);
    // A request is still never empty in Anthropic: convert keeps its placeholder.
    const request = convert({ events: [] }, { from: 'agentcore-memory', to: 'anthropic-messages' }).value as { messages: unknown[] };
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '[empty message]' }] }]);
  });

  it('a result stored on its own after its call is named after it, and recalls as it was', async () => {
    const mem = await open(backend);
    const ids = { actorId: 'a', sessionId: 's1' };
    await mem.append({ ...ids, messages: [{ role: 'user', content: 'Weather in Paris?' }, toolUse], format: 'anthropic-messages' });
    // As a hook stores it: the message alone, decoded after the session's last turn.
    const { events, losses } = await createMemoryHooks(mem).onMessageAdded({ ...ids, message: toolResult, format: 'anthropic-messages' });
    expect(losses).toEqual([]);
    expect(resultEntries(events)).toEqual([{ id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], stringContent: true, name: 'get_weather' }]);
    const recalled = await mem.recall({ ...ids, format: 'anthropic-messages' });
    expect(recalled).toEqual({ messages: [{ role: 'user', content: 'Weather in Paris?' }, toolUse, toolResult], losses: [] });
    expect(await mem.lastTurns({ ...ids, format: 'bedrock-converse' })).toContainEqual({ role: 'user', content: [{ toolResult: { toolUseId: 'toolu_1', content: [{ text: 'sunny' }] } }] });
  });

  it('older events recall with the call and its result paired, in every format, the reading reported', async () => {
    const mem = await open(backend);
    const ids = { actorId: 'a', sessionId: 'old' };
    await mem.appendEvents(ids.actorId, ids.sessionId, [
      { payload: [{ conversational: { role: 'USER', content: { text: 'Weather in Paris?' } } }] },
      { payload: [{ conversational: { role: 'ASSISTANT', content: { text: 'Checking.' } } }, { blob: JSON.stringify([{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }]) }] },
      { payload: [{ conversational: { role: 'TOOL', content: { text: 'sunny' } } }] },
    ]);
    for (const format of MESSAGE_FORMATS) {
      const r = await mem.recall({ ...ids, format });
      const codes = r.losses.map((l) => l.code);
      expect(codes, format).toContain('older-tool-result');
      expect(codes, format).not.toContain('unanswered-tool-call');
      expect(codes, format).not.toContain('orphan-tool-result');
      expect(JSON.stringify(r.messages), format).toContain('sunny');
    }
    expect(await mem.lastTurns({ ...ids, format: 'openai-chat' })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }], tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
    ]);
  });
});

describe('generated tool conversations stored one message at a time', () => {
  const name = fc.stringMatching(/^[a-z][a-z_]{0,8}$/);
  const text = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9 .]{0,12}$/);
  const turn = fc.record({ question: text, calls: fc.array(fc.record({ name, answer: text }), { minLength: 1, maxLength: 4 }) });

  /** An event of tool results as an older writer stored it: one lone TOOL text per result. */
  function olderStyle(e: StoredEvent): StoredEvent[] {
    const entries = resultEntries([e]);
    if (entries.length === 0) return [e];
    return entries.map((r) => ({ ...e, payload: [{ conversational: { role: 'TOOL', content: { text: (r['content'] as { text: string }[])[0]?.text ?? '' } } }] }));
  }

  it('results carry their calls names; made older-style (lone TOOL texts), the session recalls paired', async () => {
    const mem = await open('memory');
    const hooks = createMemoryHooks(mem);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 3 }), async (turns) => {
        const ids = { actorId: 'gen', sessionId: `s${++n}` };
        // Anthropic: the results of a turn are one user message, stored after the calls' message.
        const messages = turns.flatMap((t, ti) => [
          { role: 'user', content: t.question },
          { role: 'assistant', content: t.calls.map((c, k) => ({ type: 'tool_use', id: `toolu_${ti}_${k}`, name: c.name, input: {} })) },
          { role: 'user', content: t.calls.map((c, k) => ({ type: 'tool_result', tool_use_id: `toolu_${ti}_${k}`, content: c.answer })) },
        ]);
        const stored: StoredEvent[] = [];
        for (const message of messages) stored.push(...(await hooks.onMessageAdded({ ...ids, message, format: 'anthropic-messages' })).events);
        const names = turns.flatMap((t) => t.calls.map((c) => c.name));
        expect(resultEntries(stored).map((e) => e['name'])).toEqual(names);
        expect(await mem.lastTurns({ ...ids, k: turns.length, format: 'anthropic-messages' })).toEqual(messages);

        // The same session as an older writer stored it: no results blobs, one TOOL event per result.
        const exported = await mem.exportSession(ids.actorId, ids.sessionId);
        const older = { actorId: ids.actorId, sessionId: `${ids.sessionId}-old`, events: exported.events.flatMap(olderStyle) };
        await mem.importSession(older);
        // Read as Chat (one tool message per result, as the older events hold them), both sessions are
        // the same conversation: every call answered by its own text.
        const r = await mem.recall({ actorId: older.actorId, sessionId: older.sessionId, k: turns.length, format: 'openai-chat' });
        expect(r.messages).toEqual(await mem.lastTurns({ ...ids, k: turns.length, format: 'openai-chat' }));
        expect(r.messages.filter((m) => (m as { role: string }).role === 'tool')).toHaveLength(names.length);
        expect(r.losses.map((l) => l.code)).toEqual(names.map(() => 'older-tool-result'));
      }),
      { numRuns: RUNS },
    );
  });
});
