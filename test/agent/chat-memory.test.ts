/**
 * The source design's memory tests through POST /chat: a model that answers from what it is sent
 * recalls the user's name and food from earlier turns (sent in the system prompt), sessions and
 * actors are isolated, the conversation survives a restart on the same SQLite file, every message
 * of a turn is stored as AgentCore events, K turns means turns, expiry is honoured, and bad calls
 * are clear 400 / 404 / 500 errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openMemory } from '../../src/memory/index.js';
import { run } from '../../src/cli/main.js';
import { sentText, startHost, tempDb, type TestHost } from './host-helpers.js';

const open: TestHost[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function host(options: Parameters<typeof startHost>[0]): Promise<TestHost> {
  const h = await startHost(options);
  open.push(h);
  return h;
}

describe('POST /chat memory (the source design tests)', () => {
  it('remembers name and food across turns through the system prompt', async () => {
    const h = await host({ store: `sqlite:${tempDb()}` });
    const base = { agent_id: 'assistant', user_id: 'alice' };
    const first = await h.chat({ ...base, prompt: 'My name is Alice and I love pizza' });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ output: 'Noted: My name is Alice and I love pizza', agent_id: 'assistant', actor_id: 'alice', session_id: 'alice_assistant_default' });

    const second = await h.chat({ ...base, prompt: "What's my name?" });
    expect(second.json['output']).toBe('Your name is Alice.');
    const system = h.bodies[1]?.messages[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toBe('You are a helpful assistant.\n\nRecent conversation:\nuser: My name is Alice and I love pizza\nassistant: Noted: My name is Alice and I love pizza');

    const third = await h.chat({ ...base, prompt: 'What food do I like?' });
    expect(third.json['output']).toBe('You like pizza.');
  });

  it('isolates sessions and actors: their model calls contain nothing of session A', async () => {
    const h = await host({ store: `sqlite:${tempDb()}` });
    await h.chat({ agent_id: 'assistant', user_id: 'alice', session_id: 'A', prompt: 'My name is Alice and I love pizza' });
    const b = await h.chat({ agent_id: 'assistant', user_id: 'alice', session_id: 'B', prompt: "What's my name?" });
    expect(b.json['output']).toBe("I don't know your name.");
    expect(sentText(h.bodies[1])).not.toMatch(/Alice|pizza/);
    // Same session id, another actor.
    const bob = await h.chat({ agent_id: 'assistant', user_id: 'bob', session_id: 'A', prompt: "What's my name?" });
    expect(bob.json).toMatchObject({ output: "I don't know your name.", actor_id: 'bob', session_id: 'A' });
    expect(sentText(h.bodies[2])).not.toMatch(/Alice|pizza/);
    // actor_id apart from user_id.
    const other = await h.chat({ agent_id: 'assistant', user_id: 'alice', actor_id: 'alice-2', session_id: 'A', prompt: "What's my name?" });
    expect(other.json).toMatchObject({ output: "I don't know your name.", actor_id: 'alice-2' });
  });

  it('continues after a restart on the same SQLite file', async () => {
    const db = tempDb();
    const h1 = await startHost({ store: `sqlite:${db}` });
    await h1.chat({ agent_id: 'assistant', user_id: 'carol', prompt: 'My name is Carol and I love sushi' });
    await h1.close();
    const h2 = await host({ store: `sqlite:${db}` });
    expect((await h2.chat({ agent_id: 'assistant', user_id: 'carol', prompt: 'What food do I like?' })).json['output']).toBe('You like sushi.');
  });

  it('stores every message of a turn (user, tool call, tool result, answer) as AgentCore events', async () => {
    const db = tempDb();
    const h = await host({ store: `sqlite:${db}` });
    const r = await h.chat({ agent_id: 'assistant', user_id: 'dave', session_id: 'wx', prompt: 'What is the weather in Paris?' });
    expect(r.json['output']).toBe('The tool says: sunny, 21°C');
    const mem = await openMemory(`sqlite:${db}`);
    try {
      const { events } = await mem.listEvents('dave', 'wx');
      expect(events).toHaveLength(4);
      // One event per message; the readable conversational payload where the message has text (the
      // tool call is a blob only), the whole message in the blob envelope.
      expect(events.map((e) => e.payload.flatMap((p) => ('conversational' in p ? [`${p.conversational.role}: ${p.conversational.content.text}`] : [])))).toEqual([
        ['USER: What is the weather in Paris?'],
        [],
        ['TOOL: sunny, 21°C'],
        ['ASSISTANT: The tool says: sunny, 21°C'],
      ]);
      expect(events.every((e) => e.payload.some((p) => 'blob' in p))).toBe(true);
      const recalled = await mem.recall({ actorId: 'dave', sessionId: 'wx', format: 'openai-chat' });
      expect(recalled.messages).toMatchObject([
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', content: [{ type: 'text', text: 'sunny, 21°C' }] },
        { role: 'assistant' },
      ]);
    } finally {
      await mem.close();
    }
    // `interlingua memory show` prints the session.
    let out = '';
    const io = { readFile: async () => '', readStdin: async () => '', stdout: (t: string) => void (out += t), stderr: () => undefined };
    expect(await run(['memory', 'show', '--store', `sqlite:${db}`, '--actor', 'dave', '--session', 'wx', '--to', 'openai-chat'], io)).toBe(0);
    expect(out).toContain('What is the weather in Paris?');
    expect(out).toContain('get_weather');
    expect(out).toContain('The tool says: sunny, 21°C');
  });

  it('loads the last K turns, counted as turns (a tool turn is one turn of four messages)', async () => {
    const h = await host({ store: `sqlite:${tempDb()}`, agents: { memory: { turns: 2 } } });
    const base = { agent_id: 'assistant', user_id: 'erin', session_id: 'k' };
    await h.chat({ ...base, prompt: 'first message' });
    await h.chat({ ...base, prompt: 'What is the weather in London?' });
    await h.chat({ ...base, prompt: 'third message' });
    await h.chat({ ...base, prompt: 'fourth message' });
    const system = String(h.bodies.at(-1)?.messages[0]?.content);
    // Two turns before the fourth: the weather turn (all four messages) and the third.
    expect(system).toBe(
      [
        'You are a helpful assistant.',
        '',
        'Recent conversation:',
        'user: What is the weather in London?',
        'assistant: [tool call get_weather {"city":"London"}]',
        'tool: [tool result get_weather: light rain, 14°C]',
        'assistant: The tool says: light rain, 14°C',
        'user: third message',
        'assistant: Noted: third message',
      ].join('\n'),
    );
  });

  it('honours expiry: turns older than expiry_days are gone', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const db = tempDb();
    const h1 = await startHost({ store: `sqlite:${db}`, agents: { memory: { expiry_days: 7 } }, now: () => now });
    await h1.chat({ agent_id: 'assistant', user_id: 'fay', prompt: 'My name is Fay and I love soup' });
    now += 6 * 86_400_000;
    expect((await h1.chat({ agent_id: 'assistant', user_id: 'fay', prompt: "What's my name?" })).json['output']).toBe('Your name is Fay.');
    now += 7 * 86_400_000 + 1000;
    expect((await h1.chat({ agent_id: 'assistant', user_id: 'fay', prompt: "What's my name?" })).json['output']).toBe("I don't know your name.");
    await h1.close();
  });
});

describe('POST /chat errors', () => {
  it('400 names a missing or invalid field, 404 an unknown agent, 500 carries a request id only', async () => {
    const src = join(dirname(tempDb()), 'agents');
    mkdirSync(join(src, 'broken'), { recursive: true });
    writeFileSync(join(src, 'broken', 'agent.mjs'), 'export async function invoke() { throw new Error("secret detail"); }');
    mkdirSync(join(src, 'echo'), { recursive: true });
    writeFileSync(join(src, 'echo', 'agent.mjs'), 'export async function invoke(p) { return { output: p.prompt }; }');
    const h = await host({ store: 'memory:', source: src });
    expect(await h.chat({ agent_id: 'echo', prompt: 'hi' })).toEqual({ status: 400, json: { error: { code: 'invalid_request', message: 'user_id: required, a string', field: 'user_id' } } });
    expect((await h.chat({ agent_id: 'echo', user_id: 'u' })).json).toMatchObject({ error: { field: 'prompt' } });
    expect((await h.chat({ agent_id: 'echo', user_id: 'bad user!', prompt: 'x' })).json).toMatchObject({ error: { field: 'user_id' } });
    expect((await h.chat({ agent_id: 'echo', user_id: 'u', session_id: '-bad', prompt: 'x' })).json).toMatchObject({ error: { field: 'session_id' } });
    expect(await h.chat({ agent_id: 'nope', user_id: 'u', prompt: 'x' })).toEqual({ status: 404, json: { error: { code: 'agent_not_found', message: "no agent 'nope'", field: 'agent_id' } } });
    expect((await h.chat({ agent_id: '../echo', user_id: 'u', prompt: 'x' })).status).toBe(400);
    const failed = await h.chat({ agent_id: 'broken', user_id: 'u', prompt: 'x' });
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.json)).not.toMatch(/secret/);
    expect((failed.json['error'] as { request_id: string }).request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await h.chat({ agent_id: 'echo', user_id: 'u', prompt: 'hi' })).json).toEqual({ output: 'hi', agent_id: 'echo', actor_id: 'u', session_id: 'u_echo_default' });
  });

  it('requires the gateway key when keys are configured', async () => {
    const h = await host({ store: 'memory:', keys: ['k1'] });
    expect((await h.chat({ agent_id: 'assistant', user_id: 'u', prompt: 'hi' })).status).toBe(401);
    const ok = await h.chat({ agent_id: 'assistant', user_id: 'u', prompt: 'hi' }, { authorization: 'Bearer k1' });
    expect(ok).toMatchObject({ status: 200, json: { output: 'Noted: hi' } });
  });
});
