/** Memory hooks: recent turns on agent start (messages + prompt), each added message stored whole. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryHooks, MESSAGE_FORMATS, openMemory, sessionIds, UsageError, ValidationError, type StoredEvent } from '../../src/memory/index.js';
import type { Message } from '../../src/model/message.js';
import { tempDir } from './sqlite-storage.js';
import { anthropic, memoryFixtures, openaiChat } from './message-fixtures.js';

const { cleanup, fresh } = memoryFixtures();

const payloads = (events: StoredEvent[]) => events.map((e) => ({ payload: e.payload, metadata: e.metadata }));

describe('onAgentInitialized', () => {
  it('an empty session gives no messages and an empty prompt', async () => {
    const hooks = createMemoryHooks(await fresh());
    expect(await hooks.onAgentInitialized({ actorId: 'alice', sessionId: 's', format: 'openai-chat' })).toEqual({ messages: [], prompt: '', losses: [] });
  });

  it('gives the last turns as messages in the format asked and as the prompt text', async () => {
    const mem = await fresh();
    await mem.append({ actorId: 'alice', sessionId: 's', messages: anthropic, format: 'anthropic-messages' });
    const hooks = createMemoryHooks(mem, { k: 10 });
    const loaded = await hooks.onAgentInitialized({ actorId: 'alice', sessionId: 's', format: 'anthropic-messages' });
    expect(loaded.messages).toEqual(anthropic);
    expect(loaded.losses).toEqual([]);
    expect(loaded.prompt).toBe(
      [
        'Recent conversation:',
        'user: What is the largest city in the user country?',
        'assistant: [reasoning: The user is asking about the largest city in "the user country". To answer this question, I first need to determine what country the user is from. I have access to a function called "get_user_country" that can help me find out the user\'s country. Once I know the country, I can then provide information about its largest city.',
        '  ',
        '  Let me call the get_user_country function first.] I\'ll help you find the largest city in your country. First, let me determine which country you\'re from. [tool call get_user_country {}]',
        'user: [tool result get_user_country: Mexico]',
      ].join('\n'),
    );
    // The same turns in another dialect: the loss of the signed thinking is reported.
    const chat = await hooks.onAgentInitialized({ actorId: 'alice', sessionId: 's', format: 'openai-chat' });
    expect(chat.prompt).toBe(loaded.prompt);
    expect(chat.losses.map((l) => l.code)).toContain('foreign-reasoning');
  });

  it('k counts turns, oldest first', async () => {
    const mem = await fresh();
    for (let i = 0; i < 4; i++) {
      await mem.append({ actorId: 'a', sessionId: 's', messages: [{ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` }], format: 'openai-chat' });
    }
    const loaded = await createMemoryHooks(mem, { k: 2 }).onAgentInitialized({ actorId: 'a', sessionId: 's', format: 'gemini' });
    expect(loaded.messages).toEqual([
      { role: 'user', parts: [{ text: 'q2' }] },
      { role: 'model', parts: [{ text: 'a2' }] },
      { role: 'user', parts: [{ text: 'q3' }] },
      { role: 'model', parts: [{ text: 'a3' }] },
    ]);
    expect(loaded.prompt).toBe('Recent conversation:\nuser: q2\nassistant: a2\nuser: q3\nassistant: a3');
    expect(() => createMemoryHooks(mem, { k: 0 })).toThrow(UsageError);
  });
});

describe('onMessageAdded', () => {
  it('stores each message whole: the session equals appending the conversation at once', async () => {
    const mem = await fresh();
    const hooks = createMemoryHooks(mem);
    for (const message of anthropic) {
      const r = await hooks.onMessageAdded({ actorId: 'bob', sessionId: 'one-by-one', message, format: 'anthropic-messages' });
      expect(r.events).toHaveLength(1);
      expect(r.losses).toEqual([]);
    }
    await mem.append({ actorId: 'bob', sessionId: 'at-once', messages: anthropic, format: 'anthropic-messages' });
    const oneByOne = await mem.exportSession('bob', 'one-by-one');
    const atOnce = await mem.exportSession('bob', 'at-once');
    expect(payloads(oneByOne.events)).toEqual(payloads(atOnce.events));
    // Thinking with its signature, text and the tool call are all in the assistant's event.
    expect(JSON.stringify(oneByOne.events[1]?.payload)).toContain((anthropic[1] as { content: { signature?: string }[] }).content[0]?.signature);
    expect((await hooks.onAgentInitialized({ actorId: 'bob', sessionId: 'one-by-one', format: 'anthropic-messages' })).messages).toEqual(anthropic);
  });

  it.each(MESSAGE_FORMATS)('%s: a tool result added alone is stored, answering the call stored before it', async (format) => {
    const mem = await fresh();
    await mem.append({ actorId: 'a', sessionId: 'src', messages: openaiChat, format: 'openai-chat' });
    const shaped = await mem.lastTurns({ actorId: 'a', sessionId: 'src', format });
    expect(shaped).toHaveLength(3);
    const hooks = createMemoryHooks(mem);
    for (const message of shaped) await hooks.onMessageAdded({ actorId: 'a', sessionId: 'one-by-one', message, format });
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 'one-by-one', format })).toEqual(shaped);
    await mem.append({ actorId: 'a', sessionId: 'at-once', messages: shaped, format });
    expect(payloads((await mem.exportSession('a', 'one-by-one')).events)).toEqual(payloads((await mem.exportSession('a', 'at-once')).events));
  });

  it.each(MESSAGE_FORMATS)('%s: results of parallel calls added one at a time are each stored, the first while the other call is pending', async (format) => {
    const mem = await fresh();
    const call = (id: string, city: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } });
    const chat = [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: null, tool_calls: [call('call_paris', 'Paris'), call('call_rome', 'Rome')] },
      { role: 'tool', tool_call_id: 'call_paris', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_rome', content: 'rain' },
      { role: 'assistant', content: 'Sunny in Paris, rain in Rome.' },
    ];
    await mem.append({ actorId: 'a', sessionId: 'src', messages: chat, format: 'openai-chat' });
    const shaped = await mem.lastTurns({ actorId: 'a', sessionId: 'src', format });
    const hooks = createMemoryHooks(mem);
    for (const message of shaped) await hooks.onMessageAdded({ actorId: 'a', sessionId: 'one-by-one', message, format });
    expect(await mem.lastTurns({ actorId: 'a', sessionId: 'one-by-one', format })).toEqual(shaped);
    // Responses items added one at a time are one event each (two function_call items, two events),
    // where appended at once they group into one assistant message; the turns read back the same.
    if (format === 'openai-responses') return;
    await mem.append({ actorId: 'a', sessionId: 'at-once', messages: shaped, format });
    expect(payloads((await mem.exportSession('a', 'one-by-one')).events)).toEqual(payloads((await mem.exportSession('a', 'at-once')).events));
  });

  it('a tool result that answers no stored call is refused, naming its own fields; nothing is stored', async () => {
    const mem = await fresh();
    const hooks = createMemoryHooks(mem);
    const orphan = { role: 'tool', tool_call_id: 'call_nowhere', content: 'x' };
    const alone = hooks.onMessageAdded({ actorId: 'a', sessionId: 's', message: orphan, format: 'openai-chat' });
    await expect(alone).rejects.toThrow(ValidationError);
    await expect(alone).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ['messages', 0, 'tool_call_id'] })] });
    // After a conversation whose last turn has other calls: still refused, with the same path.
    await mem.append({ actorId: 'a', sessionId: 's', messages: openaiChat, format: 'openai-chat' });
    await expect(hooks.onMessageAdded({ actorId: 'a', sessionId: 's', message: orphan, format: 'openai-chat' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ['messages', 0, 'tool_call_id'] })],
    });
    expect((await mem.listEvents('a', 's')).events).toHaveLength(3);
  });

  it('a system message is reported, not stored', async () => {
    const mem = await fresh();
    const r = await createMemoryHooks(mem).onMessageAdded({ actorId: 'a', sessionId: 's', message: { role: 'system', content: 'Be brief.' }, format: 'openai-chat' });
    expect(r.events).toEqual([]);
    expect(r.losses.map((l) => l.code)).toEqual(['system-message']);
    expect((await mem.listEvents('a', 's')).events).toEqual([]);
  });
});

describe('session identifiers', () => {
  it('actor = user, session = <user>_<agent>_default unless given', () => {
    expect(sessionIds({ userId: 'alice', agentId: 'travel' })).toEqual({ actorId: 'alice', sessionId: 'alice_travel_default' });
    expect(sessionIds({ userId: 'alice', agentId: 'travel', sessionId: 'trip-2' })).toEqual({ actorId: 'alice', sessionId: 'trip-2' });
  });

  it('bad identifiers are errors naming the field given', () => {
    const issuesOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return (e as ValidationError).issues.map((i) => i.path);
      }
      throw new Error('expected a ValidationError');
    };
    expect(issuesOf(() => sessionIds({ userId: '-alice', agentId: 'x' }))).toEqual([['userId']]);
    // A valid actorId (colons are allowed there) that makes an invalid session id.
    expect(issuesOf(() => sessionIds({ userId: 'org:alice', agentId: 'x' }))).toEqual([['agentId']]);
    expect(issuesOf(() => sessionIds({ userId: 'alice', agentId: 'x'.repeat(100) }))).toEqual([['agentId']]);
    expect(issuesOf(() => sessionIds({ userId: 'alice', agentId: 'x', sessionId: 'a/b' }))).toEqual([['sessionId']]);
    expect(issuesOf(() => sessionIds({ userId: 'alice', agentId: '' }))).toEqual([['agentId']]);
    expect(sessionIds({ userId: 'org:alice', agentId: 'x', sessionId: 'ok' })).toEqual({ actorId: 'org:alice', sessionId: 'ok' });
  });

  it('hooks take { userId, agentId }; sessions are isolated', async () => {
    const mem = await fresh();
    const hooks = createMemoryHooks(mem);
    const say = (text: string) => ({ role: 'user', content: text });
    await hooks.onMessageAdded({ userId: 'alice', agentId: 'travel', message: say('alice travel'), format: 'openai-chat' });
    await hooks.onMessageAdded({ userId: 'alice', agentId: 'cooking', message: say('alice cooking'), format: 'openai-chat' });
    await hooks.onMessageAdded({ userId: 'bob', agentId: 'travel', message: say('bob travel'), format: 'openai-chat' });
    await hooks.onMessageAdded({ userId: 'alice', agentId: 'travel', sessionId: 'other', message: say('alice other'), format: 'openai-chat' });

    const prompt = async (ref: Parameters<typeof hooks.recent>[0]) => (await hooks.recent(ref)).prompt;
    expect(await prompt({ userId: 'alice', agentId: 'travel' })).toBe('Recent conversation:\nuser: alice travel');
    expect(await prompt({ actorId: 'alice', sessionId: 'alice_travel_default' })).toBe('Recent conversation:\nuser: alice travel');
    expect(await prompt({ userId: 'alice', agentId: 'cooking' })).toBe('Recent conversation:\nuser: alice cooking');
    expect(await prompt({ userId: 'bob', agentId: 'travel' })).toBe('Recent conversation:\nuser: bob travel');
    expect(await prompt({ userId: 'alice', agentId: 'travel', sessionId: 'other' })).toBe('Recent conversation:\nuser: alice other');
    expect(await prompt({ userId: 'bob', agentId: 'cooking' })).toBe('');
    expect((await mem.listSessions('alice')).map((s) => s.sessionId)).toEqual(['alice_cooking_default', 'alice_travel_default', 'other']);

    const both = { actorId: 'alice', sessionId: 's', userId: 'alice', agentId: 'x' } as unknown as { actorId: string; sessionId: string };
    await expect(hooks.recent(both)).rejects.toThrow(UsageError);
    await expect(hooks.recent({ actorId: 'alice' } as unknown as { actorId: string; sessionId: string })).rejects.toThrow(UsageError);
  });
});

describe('the prompt shows every kind of part, readably', () => {
  it('tool calls and results, reasoning, media, documents, data, refusals; line breaks indented', async () => {
    const mem = await fresh();
    const hooks = createMemoryHooks(mem);
    const conversation: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Look at this:\nline two' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', origin: 'anthropic-messages', text: 'Check the weather.', signature: 'c2ln' },
          { type: 'reasoning', origin: 'anthropic-messages', redactedData: 'b3BhcXVl' },
          { type: 'tool-call', id: 't1', name: 'weather', arguments: { city: 'Paris' } },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool-result', callId: 't1', content: [{ type: 'text', text: '18°C' }, { type: 'data', data: { wind: 3 } }] }] },
      { role: 'tool', parts: [{ type: 'tool-result', callId: 't2', isError: true, content: [{ type: 'text', text: 'timeout' }] }] },
      {
        role: 'assistant',
        parts: [
          { type: 'document', name: 'notes.txt', source: { kind: 'text', text: 'bring an umbrella', mediaType: 'text/plain' } },
          { type: 'document', source: { kind: 'url', url: 'https://example.com/r.pdf', mediaType: 'application/pdf' } },
          { type: 'refusal', text: 'I cannot book flights.' },
        ],
      },
    ];
    const { events, losses } = await hooks.store({ actorId: 'a', sessionId: 's' }, conversation);
    expect(events).toHaveLength(5);
    expect(losses).toEqual([]);
    const recent = await hooks.recent({ actorId: 'a', sessionId: 's' });
    expect(recent.messages).toEqual(conversation);
    expect(recent.prompt).toBe(
      [
        'Recent conversation:',
        'user: Look at this:',
        '  line two [image image/png]',
        'assistant: [reasoning: Check the weather.] [reasoning (redacted)] [tool call weather {"city":"Paris"}]',
        'tool: [tool result weather: 18°C [data {"wind":3}]]',
        'tool: [tool error t2: timeout]',
        'assistant: [document "notes.txt" text/plain: bring an umbrella] [document https://example.com/r.pdf] [refusal: I cannot book flights.]',
      ].join('\n'),
    );
  });
});

describe('across a restart', () => {
  it('a second process on the same sqlite file starts with the first one\'s conversation', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'memory.db')}`;
    const first = await openMemory(url);
    for (const message of openaiChat) await createMemoryHooks(first).onMessageAdded({ userId: 'carol', agentId: 'geo', message, format: 'openai-chat' });
    await first.close();

    const second = await openMemory(url);
    cleanup.push(() => second.close());
    const loaded = await createMemoryHooks(second).onAgentInitialized({ userId: 'carol', agentId: 'geo', format: 'openai-chat' });
    expect(loaded.messages).toEqual(openaiChat);
    expect(loaded.prompt).toBe('Recent conversation:\nuser: What is the largest city in the user country?\nassistant: [tool call get_user_country {}]\ntool: [tool result get_user_country: Mexico]');
  });
});
