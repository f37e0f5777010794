/**
 * One agent, one session, four doors: POST /chat, the execute API (standard agent input), A2A
 * (the official @a2a-js/sdk client, and raw v0.3 JSON-RPC) and AG-UI (@ag-ui/client's HttpAgent,
 * whose event verifier runs on every event) all see one conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { HttpAgent } from '@ag-ui/client';
import { startHost, tempDb, type TestHost } from './host-helpers.js';

let h: TestHost;
const USER = { 'x-user-id': 'gina' };
const SESSION = 'shared-1';

beforeAll(async () => {
  h = await startHost({ store: `sqlite:${tempDb()}` });
});
afterAll(async () => {
  await h.close();
});

const inProcess = ((input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input, init);
  req.headers.set('x-user-id', 'gina');
  return h.gateway.fetch(req);
}) as typeof fetch;

async function a2aClient() {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: inProcess })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: inProcess }),
  });
  return new ClientFactory(options).createFromUrl('http://host.test/a2a/assistant/');
}

const userMessage = (text: string) => ({ messageId: `u-${Math.random()}`, contextId: SESSION, taskId: '', role: 1, parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] });

describe('the same agent and session over /chat, execute, A2A and AG-UI', () => {
  it('is one conversation', async () => {
    const chat = await h.chat({ agent_id: 'assistant', user_id: 'gina', session_id: SESSION, prompt: 'My name is Gina and I love tacos' });
    expect(chat.json['output']).toBe('Noted: My name is Gina and I love tacos');

    // Execute API, standard agent input, session as memory_id.
    const exec = await h.post('/_plugins/_ml/agents/assistant/_execute', { input: "What's my name?", parameters: { memory_id: SESSION } }, USER);
    expect(exec.status).toBe(200);
    expect(await exec.json()).toEqual({ inference_results: [{ output: [{ name: 'response', result: 'Your name is Gina.' }] }], memory_id: SESSION });

    // A2A through the official client: message/send (SendMessage) answers a Task.
    const client = await a2aClient();
    const sent = (await client.sendMessage({ tenant: '', message: userMessage('What food do I like?'), configuration: undefined, metadata: undefined } as never)) as unknown as { id: string; contextId: string; status: { state: number }; history: { role: number; parts: { content: { value: unknown } }[]; metadata: Record<string, unknown> }[] };
    expect(sent.contextId).toBe(SESSION);
    // The mapping design: user text is TextMessageContentEvent, the agent's final text TextMessageEndEvent.
    expect(sent.history.map((m) => m.metadata['canonical_type'])).toEqual(['TextMessageContentEvent', 'TextMessageEndEvent']);
    expect(sent.history[1]?.parts[0]?.content.value).toBe('You like tacos.');

    // tasks/get gives it back.
    const got = (await client.getTask({ tenant: '', id: sent.id, historyLength: undefined } as never)) as unknown as { id: string; history: unknown[] };
    expect(got.id).toBe(sent.id);
    expect(got.history).toHaveLength(2);

    // message/stream: task, working updates (tool call, tool result, text chunks and end), completed.
    const kinds: string[] = [];
    const types: unknown[] = [];
    for await (const ev of client.sendMessageStream({ tenant: '', message: userMessage('What is the weather in Paris?'), configuration: undefined, metadata: undefined } as never)) {
      const p = (ev as unknown as { payload: { $case: string; value: { status?: { state: number; message?: { metadata?: Record<string, unknown> } }; contextId?: string } } }).payload;
      kinds.push(p.$case);
      expect(p.value.contextId).toBe(SESSION);
      const t = p.value.status?.message?.metadata?.['canonical_type'];
      if (t !== undefined) types.push(t);
    }
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    expect(types).toEqual(expect.arrayContaining(['ToolCallStartEvent', 'ToolCallResultEvent', 'TextMessageChunkEvent', 'TextMessageEndEvent']));

    // AG-UI: HttpAgent runs (its verifier checks every event) with threadId = the session.
    const agent = new HttpAgent({ url: 'http://host.test/ag-ui/assistant', headers: USER, threadId: SESSION, fetch: inProcess as never });
    agent.messages = [{ id: 'm1', role: 'user', content: "What's my name?" }];
    const run = await agent.runAgent({ runId: 'run-1' });
    expect(run.newMessages).toMatchObject([{ role: 'assistant', content: 'Your name is Gina.' }]);

    // The model was sent everything of the session so far on the last call.
    const last = JSON.stringify(h.bodies.at(-1)?.messages[0]);
    for (const said of ['My name is Gina and I love tacos', "What's my name?", 'What food do I like?', 'What is the weather in Paris?', 'sunny, 21°C']) expect(last).toContain(said);
  });

  it('A2A v0.3 JSON-RPC (message/send, message/stream) and errors', async () => {
    const rpc = async (method: string, params: unknown) => h.post('/a2a/assistant', { jsonrpc: '2.0', id: 7, method, params }, USER);
    const send = await rpc('message/send', { message: { kind: 'message', messageId: 'v03-1', role: 'user', parts: [{ kind: 'text', text: "What's my name?" }], contextId: 'v03-session' } });
    const body = (await send.json()) as { id: number; result: { kind: string; contextId: string; status: { state: string }; history: { kind: string; role: string; metadata: Record<string, unknown> }[] } };
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({ kind: 'task', contextId: 'v03-session', status: { state: 'completed' } });
    expect(body.result.history.map((m) => [m.role, m.metadata['canonical_type']])).toEqual([['user', 'TextMessageContentEvent'], ['agent', 'TextMessageEndEvent']]);

    const stream = await rpc('message/stream', { message: { kind: 'message', messageId: 'v03-2', role: 'user', parts: [{ kind: 'text', text: 'hello' }], contextId: 'v03-session' } });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await stream.text()).split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => JSON.parse(f.slice(6)) as { id: number; result: { kind: string; final?: boolean; status?: { state: string } } });
    expect(frames[0]?.result.kind).toBe('task');
    expect(frames.at(-1)?.result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(frames.every((f) => f.id === 7)).toBe(true);

    expect(await (await rpc('tasks/get', { id: 'nope' })).json()).toMatchObject({ error: { code: -32001 } });
    expect(await (await rpc('message/fly', {})).json()).toMatchObject({ error: { code: -32601 } });
    expect((await h.post('/a2a/nope', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'x', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }, USER)).status).toBe(404);
    const card = await h.gateway.fetch(new Request('http://host.test/a2a/assistant/.well-known/agent-card.json'));
    expect(await card.json()).toMatchObject({ name: 'assistant', supportedInterfaces: [{ url: 'http://host.test/a2a/assistant', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: { streaming: true } });
  });

  it('execute: legacy parameters.question, invalid input as the design error body, messages in a dialect', async () => {
    const legacy = await h.post('/_plugins/_ml/agents/assistant/_execute', { parameters: { question: 'hello there', memory_id: 'exec-2' } }, USER);
    expect(await legacy.json()).toEqual({ inference_results: [{ output: [{ name: 'response', result: 'Noted: hello there' }] }], memory_id: 'exec-2' });
    const bad = await h.post('/_plugins/_ml/agents/assistant/_execute', { input: [{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }] }, USER);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: 'ValidationException', details: { field: expect.stringMatching(/^input/) } } });
    const noUser = await h.post('/_plugins/_ml/agents/assistant/_execute', { input: 'hi' });
    expect(noUser.status).toBe(400);
    expect(await noUser.json()).toMatchObject({ error: { type: 'ValidationException', details: { field: 'user_id' } } });
  });

  it('AG-UI: an unknown agent is a 404 and bad input a 400 naming the field', async () => {
    const input = { threadId: 't-1', runId: 'r-1', messages: [{ id: 'm', role: 'user', content: 'hi' }], tools: [], context: [], state: null, forwardedProps: null };
    expect((await h.post('/ag-ui/nope', input, USER)).status).toBe(404);
    const bad = await h.post('/ag-ui/assistant', { ...input, messages: 'no' }, USER);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: expect.stringContaining('messages') } });
  });
});
