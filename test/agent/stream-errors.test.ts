/** Streams of agents without `stream` (their answer whole) and of agents that throw (RUN_ERROR, a failed A2A task). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { startHost, tempDb, type TestHost } from './host-helpers.js';

let h: TestHost;
beforeAll(async () => {
  const src = join(dirname(tempDb()), 'agents');
  mkdirSync(join(src, 'echo'), { recursive: true });
  writeFileSync(join(src, 'echo', 'agent.mjs'), 'export async function invoke(p) { return { output: `echo: ${p.prompt}` }; }');
  mkdirSync(join(src, 'broken'), { recursive: true });
  writeFileSync(join(src, 'broken', 'agent.mjs'), 'export async function invoke() { throw new Error("secret detail"); }');
  h = await startHost({ store: 'memory:', source: src });
});
afterAll(async () => {
  await h.close();
});

const agUi = (agent: string) =>
  new HttpAgent({ url: `http://host.test/ag-ui/${agent}`, headers: { 'x-user-id': 'kim' }, threadId: 'thread-1', fetch: ((i: string, init: RequestInit) => h.gateway.fetch(new Request(i, init))) as never });

describe('agent streams', () => {
  it('an agent without stream() answers AG-UI with its output as one text message', async () => {
    const a = agUi('echo');
    a.messages = [{ id: 'm1', role: 'user', content: 'hello' }];
    const r = await a.runAgent({ runId: 'r1' });
    expect(r.newMessages).toMatchObject([{ role: 'assistant', content: 'echo: hello' }]);
  });

  it('a throwing agent ends the AG-UI run with RUN_ERROR (no detail) and the A2A stream with a failed task', async () => {
    const a = agUi('broken');
    a.messages = [{ id: 'm1', role: 'user', content: 'hello' }];
    const err = await a.runAgent({ runId: 'r2' }).then(() => undefined, (e: unknown) => e as Error);
    expect(err?.message ?? '').not.toMatch(/secret/);
    const sse = await h.post('/ag-ui/broken', { threadId: 't', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hi' }], tools: [], context: [], state: null, forwardedProps: null }, { 'x-user-id': 'kim' });
    const events = (await sse.text()).split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => JSON.parse(f.slice(6)) as { type: string; message?: string });
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events[1]?.message).toMatch(/the agent failed \(request [0-9a-f-]{36}\)/);

    const a2a = await h.post('/a2a/broken', { jsonrpc: '2.0', id: 3, method: 'message/stream', params: { message: { kind: 'message', messageId: 'x', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }, { 'x-user-id': 'kim' });
    const frames = (await a2a.text()).split('\n\n').filter((f) => f.includes('data: ')).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { result?: { kind: string; status?: { state: string }; final?: boolean } });
    expect(frames.at(-1)?.result).toMatchObject({ kind: 'status-update', status: { state: 'failed' }, final: true });
    const send = await h.post('/a2a/broken', { jsonrpc: '2.0', id: 4, method: 'message/send', params: { message: { kind: 'message', messageId: 'y', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }, { 'x-user-id': 'kim' });
    expect(await send.json()).toMatchObject({ id: 4, error: { code: -32603, message: expect.stringMatching(/^the agent failed \(request/) } });
  });
});
