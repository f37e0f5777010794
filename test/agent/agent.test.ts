/** The Agent: model loop, tools (zod and JSON Schema, parallel, errors), maxSteps, hooks with the memory hooks, streams. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentHooks } from '../../src/agent/index.js';
import { createMemoryHooks, openMemory } from '../../src/memory/index.js';
import { verifyStream, type Message, type StreamEvent, type ToolResultPart } from '../../src/index.js';
import { assistant, scriptedClient } from './scripted-model.js';

const call = (id: string, name: string, args: object) => ({ type: 'tool-call' as const, id, name, arguments: args as never });
const resultOf = (m: Message | undefined) => m?.parts[0] as ToolResultPart;

describe('Agent loop', () => {
  it('answers a prompt in one step', async () => {
    const client = scriptedClient(() => assistant([{ type: 'text', text: 'hello' }]));
    const agent = new Agent({ model: 'm', client, systemPrompt: 'be brief' });
    const r = await agent.invoke('hi');
    expect(r.text).toBe('hello');
    expect(r.stopReason.unified).toBe('stop');
    expect(r.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(client.requests[0]?.messages[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: 'be brief' }], stringContent: true });
    expect(client.requests[0]?.model).toBe('m');
  });

  it('runs independent tool calls in parallel and feeds results (and a throwing tool as an error) back', async () => {
    let running = 0;
    let overlapped = false;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = tool({
      name: 'slow',
      inputSchema: z.object({ n: z.number() }),
      run: async ({ n }) => {
        running++;
        if (running === 2) {
          overlapped = true;
          release();
        }
        await gate;
        return { doubled: n * 2 };
      },
    });
    const broken = tool({ name: 'broken', inputSchema: { type: 'object' }, run: () => { throw new Error('disk on fire'); } });
    const client = scriptedClient((req, n) =>
      n === 1
        ? assistant([call('a', 'slow', { n: 1 }), call('b', 'slow', { n: 2 }), call('c', 'broken', {})], 'tool-calls')
        : assistant([{ type: 'text', text: `saw ${req.messages.filter((m) => m.role === 'tool').length} results` }]),
    );
    const agent = new Agent({ model: 'm', client, tools: [slow, broken] });
    const r = await agent.invoke('go');
    expect(overlapped).toBe(true);
    expect(r.text).toBe('saw 3 results');
    expect(r.usage.inputTokens).toBe(6);
    const tools = r.messages.filter((m) => m.role === 'tool');
    expect(resultOf(tools[0])).toEqual({ type: 'tool-result', callId: 'a', name: 'slow', content: [{ type: 'text', text: '{"doubled":2}' }] });
    expect(resultOf(tools[2])).toMatchObject({ callId: 'c', isError: true, content: [{ type: 'text', text: 'Error: disk on fire' }] });
    // The model was shown the tools' schemas (zod converted to JSON Schema).
    const sent = client.requests[0]?.tools?.[0];
    expect(sent).toMatchObject({ type: 'function', name: 'slow', parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } });
  });

  it('a zod tool refuses bad arguments with an error naming the field, and an unknown tool is an error result', async () => {
    const add = tool({ name: 'add', inputSchema: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const client = scriptedClient((_req, n) => (n === 1 ? assistant([call('x', 'add', { a: 1, b: 'two' }), call('y', 'nope', {})], 'tool-calls') : assistant([{ type: 'text', text: 'ok' }])));
    const r = await new Agent({ model: 'm', client, tools: [add] }).invoke('add');
    const [bad, unknown] = r.messages.filter((m) => m.role === 'tool').map(resultOf);
    expect(bad?.isError).toBe(true);
    expect(JSON.stringify(bad?.content)).toMatch(/invalid arguments for add: b: /);
    expect(JSON.stringify(unknown?.content)).toMatch(/no tool named nope/);
  });

  it('stops after maxSteps model calls', async () => {
    const loop = tool({ name: 'again', run: () => 'more' });
    const client = scriptedClient((_r, n) => assistant([call(`c${n}`, 'again', {})], 'tool-calls'));
    const r = await new Agent({ model: 'm', client, tools: [loop], maxSteps: 3 }).invoke('loop');
    expect(client.requests).toHaveLength(3);
    expect(r.stopReason).toEqual({ unified: 'other', raw: 'max_steps' });
    // Every call has its result, so the conversation stays valid for the next turn.
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(() => new Agent({ model: 'm', client, maxSteps: 0 })).toThrow(/maxSteps/);
  });
});

describe('Agent hooks', () => {
  it('the memory hooks plug in unchanged: recent turns join the system prompt, every message is stored', async () => {
    const mem = await openMemory('memory:');
    const hooks = createMemoryHooks(mem);
    const state = { actor_id: 'alice', session_id: 's1' };
    const weather = tool({ name: 'get_weather', inputSchema: z.object({ city: z.string() }), run: ({ city }) => `sunny in ${city}` });
    const answer = (n: number) => (n === 1 ? assistant([call('w1', 'get_weather', { city: 'Paris' })], 'tool-calls') : assistant([{ type: 'text', text: 'It is sunny.' }]));
    const first = scriptedClient((_r, n) => answer(n));
    await new Agent({ model: 'm', client: first, hooks, state, tools: [weather], systemPrompt: 'You help.' }).invoke('Weather in Paris?');
    expect(first.requests[0]?.messages[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: 'You help.' }], stringContent: true });
    const events = (await mem.listEvents('alice', 's1')).events;
    expect(events).toHaveLength(4);
    const stored = await mem.recall({ actorId: 'alice', sessionId: 's1', format: 'openai-chat' });
    expect(stored.messages.map((m) => (m as { role: string }).role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    const second = scriptedClient(() => assistant([{ type: 'text', text: 'ok' }]));
    await new Agent({ model: 'm', client: second, hooks, state, systemPrompt: 'You help.' }).invoke('thanks');
    const system = second.requests[0]?.messages[0];
    expect(system?.role).toBe('system');
    expect((system?.parts[0] as { text: string }).text).toBe(
      ['You help.', '', 'Recent conversation:', 'user: Weather in Paris?', 'assistant: [tool call get_weather {"city":"Paris"}]', 'tool: [tool result get_weather: sunny in Paris]', 'assistant: It is sunny.'].join('\n'),
    );
    // Another session sees nothing of it.
    const other = scriptedClient(() => assistant([{ type: 'text', text: 'ok' }]));
    await new Agent({ model: 'm', client: other, hooks, state: { actor_id: 'alice', session_id: 's2' } }).invoke('hi');
    expect(other.requests[0]?.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('calls custom hooks with the session and each message in the hook dialect', async () => {
    const seen: unknown[] = [];
    const hooks: AgentHooks = {
      onAgentInitialized: (e) => void seen.push(['init', e.actorId, e.sessionId, e.format]),
      onMessageAdded: (e) => void seen.push(['added', e.message]),
    };
    const client = scriptedClient(() => assistant([{ type: 'text', text: 'yo' }]));
    await new Agent({ model: 'm', client, hooks, state: { actor_id: 'a', session_id: 's' } }).invoke('hey');
    expect(seen).toEqual([['init', 'a', 's', 'openai-chat'], ['added', { role: 'user', content: 'hey' }], ['added', { role: 'assistant', content: [{ type: 'text', text: 'yo' }] }]]);
  });

  it('a provider of canonical recent/store is called through them: messages stored as they are, reasoning included', async () => {
    const seen: unknown[] = [];
    const hooks: AgentHooks = {
      onAgentInitialized: () => void seen.push('onAgentInitialized'),
      onMessageAdded: () => void seen.push('onMessageAdded'),
      recent: (session, options) => (seen.push(['recent', session, options]), { prompt: 'Recent conversation:\nuser: earlier', losses: [] }),
      store: (session, messages) => void seen.push(['store', session, messages]),
    };
    const thought = { type: 'reasoning' as const, text: 'The user greets.', signature: 'sig-1', origin: 'anthropic-messages' as const };
    const client = scriptedClient(() => assistant([thought, { type: 'text', text: 'yo' }]));
    await new Agent({ model: 'm', client, hooks, state: { actor_id: 'a', session_id: 's' }, systemPrompt: 'Be brief.' }).invoke('hey');
    const session = { actorId: 'a', sessionId: 's' };
    expect(seen).toEqual([
      ['recent', session, { verbatim: false }],
      ['store', session, [{ role: 'user', parts: [{ type: 'text', text: 'hey' }], stringContent: true }]],
      ['store', session, [expect.objectContaining({ role: 'assistant', parts: [thought, { type: 'text', text: 'yo' }] })]],
    ]);
    expect((client.requests[0]?.messages[0]?.parts[0] as { text: string }).text).toBe('Be brief.\n\nRecent conversation:\nuser: earlier');
  });

  it('with the memory hooks, a reasoning signature survives into the next session load (OpenAI Chat would drop it)', async () => {
    const mem = await openMemory('memory:');
    const state = { actor_id: 'bob', session_id: 'r1' };
    const thought = { type: 'reasoning' as const, text: 'Short answer.', signature: 'sig-2', origin: 'anthropic-messages' as const };
    const client = scriptedClient(() => assistant([thought, { type: 'text', text: 'Hi Bob.' }]));
    await new Agent({ model: 'm', client, hooks: createMemoryHooks(mem), state }).invoke('hello');
    const recalled = await createMemoryHooks(mem).recent({ actorId: 'bob', sessionId: 'r1' });
    expect(recalled.messages[1]?.parts[0]).toMatchObject(thought);
    await mem.close();
  });
});

describe('Agent.stream', () => {
  it('streams a multi-step run as one valid canonical stream with tool results as parts', async () => {
    const weather = tool({ name: 'get_weather', run: () => 'rain' });
    const client = scriptedClient((_r, n) => (n === 1 ? assistant([{ type: 'text', text: 'Checking.' }, call('w', 'get_weather', {})], 'tool-calls') : assistant([{ type: 'text', text: 'It rains.' }])));
    const agent = new Agent({ model: 'm', client, tools: [weather] });
    const events: StreamEvent[] = [];
    const run = agent.stream('weather?');
    let next = await run.next();
    while (next.done !== true) {
      events.push(next.value);
      next = await run.next();
    }
    expect(verifyStream(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      'response-start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'tool-call-start', 'tool-call-delta', 'tool-call-end',
      'part', 'text-start', 'text-delta', 'text-delta', 'text-end', 'usage', 'finish', 'response-end',
    ]);
    expect(events.filter((e) => 'index' in e).map((e) => (e as { index: number }).index)).toEqual([0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 3]);
    expect(next.value.text).toBe('It rains.');
  });
});
