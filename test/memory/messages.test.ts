/** The message-level memory API: append / lastTurns in chat dialects, export / import across backends. */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_FORMATS, openMemory, UsageError, ValidationError, type StoredEvent } from '../../src/memory/index.js';
import { withMessages } from '../../src/memory/messages.js';
import { dropSchema, schemaName, storeUrl } from './postgres-storage.js';
import { tempDir } from './sqlite-storage.js';
import { anthropic, memoryFixtures, openaiChat, REPO } from './message-fixtures.js';

const { cleanup, fresh } = memoryFixtures();

describe('append and lastTurns', () => {
  it('OpenAI Chat messages come back the same in openai-chat, and as Anthropic tool_use / tool_result', async () => {
    const mem = await fresh();
    const { events, losses } = await mem.append({ actorId: 'alice', sessionId: 's1', messages: openaiChat, format: 'openai-chat' });
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect(losses).toEqual([]);

    expect(await mem.lastTurns({ actorId: 'alice', sessionId: 's1', format: 'openai-chat' })).toEqual(openaiChat);

    const asAnthropic = await mem.lastTurns({ actorId: 'alice', sessionId: 's1', format: 'anthropic-messages' });
    expect(asAnthropic).toEqual([
      { role: 'user', content: 'What is the largest city in the user country?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_iXFttys57ap0o16JSlC8yhYo', name: 'get_user_country', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_iXFttys57ap0o16JSlC8yhYo', content: 'Mexico' }] },
    ]);

    // Back the other way: the Anthropic messages stored, read as OpenAI Chat, give the capture.
    await mem.append({ actorId: 'alice', sessionId: 's2', messages: asAnthropic, format: 'anthropic-messages' });
    expect(await mem.lastTurns({ actorId: 'alice', sessionId: 's2', format: 'openai-chat' })).toEqual(openaiChat);
  });

  it('tool calls, tool results and signed reasoning of a real Anthropic request survive', async () => {
    const mem = await fresh();
    const { losses } = await mem.append({ actorId: 'bob', sessionId: 'x', messages: anthropic, format: 'anthropic-messages' });
    expect(losses).toEqual([]);
    const recalled = await mem.recall({ actorId: 'bob', sessionId: 'x', format: 'anthropic-messages' });
    expect(recalled.messages).toEqual(anthropic);
    expect(recalled.losses).toEqual([]);

    // Into a dialect without Anthropic's signed thinking: the loss is reported, not silent.
    const chat = await mem.recall({ actorId: 'bob', sessionId: 'x', format: 'openai-chat' });
    expect(chat.losses.map((l) => l.code)).toContain('foreign-reasoning');
    expect(chat.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'toolu_01YGzqpRE16Vricda3Aqcejo', function: { name: 'get_user_country' } }] });
    expect(chat.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_01YGzqpRE16Vricda3Aqcejo', content: 'Mexico' });
  });

  it('the last turn of a tool exchange keeps the calls with their results, in every dialect', async () => {
    const mem = await fresh();
    await mem.append({ actorId: 'bob', sessionId: 'x', messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi, how can I help?' }], format: 'anthropic-messages' });
    await mem.append({ actorId: 'bob', sessionId: 'x', messages: anthropic, format: 'anthropic-messages' });
    // The Anthropic tool_result is a user message, but it answers the assistant: one turn of three messages.
    const last = await mem.recall({ actorId: 'bob', sessionId: 'x', k: 1, format: 'anthropic-messages' });
    expect(last.messages).toEqual(anthropic);
    expect(last.losses).toEqual([]);
    for (const format of MESSAGE_FORMATS) {
      const r = await mem.recall({ actorId: 'bob', sessionId: 'x', k: 1, format });
      expect(r.losses.map((l) => l.code)).not.toContain('orphan-tool-result');
    }
  });

  it("a session Strands' AgentCore session manager wrote: its tool-result message continues the turn", async () => {
    const mem = await fresh();
    const strands = JSON.parse(readFileSync(join(REPO, 'test/fixtures/agentcore-memory/strands-session-events.json'), 'utf8')) as { events: StoredEvent[] };
    const events = strands.events.slice(0, 4).map(({ payload, eventTimestamp }) => ({ payload, eventTimestamp }));
    await mem.appendEvents('user-42', 'session-7', events);
    const last = await mem.recall({ actorId: 'user-42', sessionId: 'session-7', k: 1, format: 'bedrock-converse' });
    expect((last.messages as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(last.losses.map((l) => l.code)).not.toContain('orphan-tool-result');
  });

  it.each(MESSAGE_FORMATS.filter((f) => f !== 'openai-chat'))('%s: messages read in it and appended back give the conversation again', async (format) => {
    const mem = await fresh();
    await mem.append({ actorId: 'a', sessionId: 'src', messages: openaiChat, format: 'openai-chat' });
    const shaped = await mem.lastTurns({ actorId: 'a', sessionId: 'src', format });
    expect(shaped).toHaveLength(3);
    const { losses } = await mem.append({ actorId: 'a', sessionId: 'dst', messages: shaped, format });
    expect(losses).toEqual([]);
    // Converse has no plain-string content: its text comes back as one text part.
    const expected =
      format === 'bedrock-converse'
        ? openaiChat.map((m) => {
            const { content, ...rest } = m as { content?: unknown };
            return typeof content === 'string' ? { ...rest, content: [{ type: 'text', text: content }] } : m;
          })
        : openaiChat;
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 'dst', format: 'openai-chat' })).toEqual(expected);
  });

  it('read through lastTurns (a store without lastTurnContents), the same messages and losses', async () => {
    const mem = await fresh();
    await mem.append({ actorId: 'bob', sessionId: 'x', messages: anthropic, format: 'anthropic-messages' });
    await mem.append({ actorId: 'bob', sessionId: 'x', messages: openaiChat, format: 'openai-chat' });
    expect(mem.lastTurnContents).toBeTypeOf('function');
    // The same store with only the event-level calls: recall reads lastTurns and leaves the rest out itself.
    const { lastTurnContents: _c, ...eventsOnly } = mem;
    const plain = withMessages({ ...eventsOnly, backend: mem.backend, expiryDays: mem.expiryDays, lastTurns: (a: string, s: string, k?: number) => mem.lastTurns(a, s, k) });
    for (const format of MESSAGE_FORMATS) {
      for (const k of [1, 3, 10]) {
        const options = { actorId: 'bob', sessionId: 'x', k, format };
        expect(await plain.recall(options)).toEqual(await mem.recall(options));
      }
    }
  });

  it('a system message is not stored, and says so', async () => {
    const mem = await fresh();
    const messages = [{ role: 'system', content: 'Be brief.' }, ...openaiChat];
    const { events, losses } = await mem.append({ actorId: 'a', sessionId: 's', messages, format: 'openai-chat' });
    expect(events).toHaveLength(3);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['system-message', ['messages', 0]]]);
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 's', format: 'openai-chat' })).toEqual(openaiChat);
  });

  it('sessions and actors are isolated', async () => {
    const mem = await fresh();
    const say = (text: string) => [{ role: 'user', content: text }, { role: 'assistant', content: `re: ${text}` }];
    await mem.append({ actorId: 'alice', sessionId: 'one', messages: say('alice one'), format: 'openai-chat' });
    await mem.append({ actorId: 'alice', sessionId: 'two', messages: say('alice two'), format: 'openai-chat' });
    await mem.append({ actorId: 'bob', sessionId: 'one', messages: say('bob one'), format: 'openai-chat' });
    expect(await mem.lastTurns({ actorId: 'alice', sessionId: 'one', format: 'openai-chat' })).toEqual(say('alice one'));
    expect(await mem.lastTurns({ actorId: 'alice', sessionId: 'two', format: 'openai-chat' })).toEqual(say('alice two'));
    expect(await mem.lastTurns({ actorId: 'bob', sessionId: 'one', format: 'openai-chat' })).toEqual(say('bob one'));
    expect(await mem.lastTurns({ actorId: 'bob', sessionId: 'two', format: 'openai-chat' })).toEqual([]);
  });

  it('k is respected, 10 by default, oldest first', async () => {
    const mem = await fresh();
    const turns = Array.from({ length: 12 }, (_, i) => [{ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` }]);
    // Appended in several calls, as an agent would.
    for (const t of turns) await mem.append({ actorId: 'a', sessionId: 's', messages: t, format: 'openai-chat' });
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 's', k: 2, format: 'openai-chat' })).toEqual(turns.slice(10).flat());
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 's', format: 'gemini' })).toEqual(
      turns.slice(2).flatMap(([q, a]) => [
        { role: 'user', parts: [{ text: q!.content }] },
        { role: 'model', parts: [{ text: a!.content }] },
      ]),
    );
    // The event-level call is unchanged.
    const byEvents = await mem.lastTurns('a', 's', 3);
    expect(byEvents.map((t) => t.length)).toEqual([2, 2, 2]);
  });

  it('refuses what it cannot read, naming where', async () => {
    const mem = await fresh();
    await expect(mem.append({ actorId: 'a', sessionId: 's', messages: openaiChat, format: 'a2a' })).rejects.toThrow(UsageError);
    await expect(mem.append({ actorId: 'a', sessionId: 's', messages: { role: 'user' }, format: 'openai-chat' })).rejects.toThrow(/must be an array/);
    const bad = mem.append({ actorId: 'a', sessionId: 's', messages: [{ role: 'user', content: 'ok' }, { role: 'wizard', content: 'x' }], format: 'openai-chat' });
    await expect(bad).rejects.toThrow(ValidationError);
    await expect(bad).rejects.toMatchObject({ issues: [expect.objectContaining({ path: expect.arrayContaining(['messages', 1]) })] });
    await expect(mem.append({ actorId: 'bad id!', sessionId: 's', messages: openaiChat, format: 'openai-chat' })).rejects.toThrow(/actorId/);
    // Nothing of a refused append was stored.
    expect((await mem.listEvents('a', 's')).events).toEqual([]);
    await expect(mem.lastTurns({ actorId: 'a', sessionId: 's', format: 'nope' })).rejects.toThrow(UsageError);
  });
});

const withoutId = (events: StoredEvent[]) => events.map(({ eventId: _id, ...rest }) => rest);

async function roundTrip(fromUrl: string, toUrl: string): Promise<void> {
  const from = await openMemory(fromUrl);
  const to = await openMemory(toUrl);
  try {
    await from.append({ actorId: 'alice', sessionId: 'trip', messages: anthropic, format: 'anthropic-messages' });
    await from.append({ actorId: 'alice', sessionId: 'trip', messages: [{ role: 'user', content: 'And the second largest?' }], format: 'openai-chat' });
    await from.appendEvents('alice', 'trip', [{ payload: [{ conversational: { role: 'ASSISTANT', content: { text: 'Guadalajara' } } }], metadata: { tag: { stringValue: 'v1' } } }]);
    const exported = await from.exportSession('alice', 'trip');
    expect(exported.events).toHaveLength(5);

    const imported = await to.importSession(JSON.parse(JSON.stringify(exported)) as typeof exported);
    expect(withoutId(imported)).toEqual(withoutId(exported.events));
    const again = await to.exportSession('alice', 'trip');
    expect(withoutId(again.events)).toEqual(withoutId(exported.events));
    expect(await to.lastTurns({ actorId: 'alice', sessionId: 'trip', format: 'anthropic-messages' })).toEqual(
      await from.lastTurns({ actorId: 'alice', sessionId: 'trip', format: 'anthropic-messages' }),
    );
    // Importing again into the now full session is refused, and adds nothing.
    await expect(to.importSession(exported)).rejects.toThrow(/already holds events/);
    expect((await to.exportSession('alice', 'trip')).events).toHaveLength(5);
    // Under another session name.
    await to.importSession(exported, { sessionId: 'copy' });
    expect(withoutId((await to.exportSession('alice', 'copy')).events)).toEqual(withoutId(exported.events).map((e) => ({ ...e, sessionId: 'copy' })));
  } finally {
    await from.close();
    await to.close();
  }
}

describe('exportSession / importSession', () => {
  it('memory: -> sqlite: gives the same events', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    await roundTrip('memory:', `sqlite:${join(dir, 'm.db')}`);
  });

  it('sqlite: -> postgres:// gives the same events', async () => {
    const dir = tempDir();
    const schema = schemaName();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanup.push(() => dropSchema(schema));
    await roundTrip(`sqlite:${join(dir, 'm.db')}`, storeUrl(schema));
  });

  it('refuses an export that is not one, naming where', async () => {
    const mem = await fresh();
    await expect(mem.importSession({ actorId: 'a', sessionId: 's', events: [{ payload: 'x' }] } as never)).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ['events', 0, 'payload'] }), expect.objectContaining({ path: ['events', 0, 'eventTimestamp'] })],
    });
  });
});
