/**
 * A2A for every agent: `GET /a2a/{agent_id}/.well-known/agent-card.json` and JSON-RPC at
 * `POST /a2a/{agent_id}`, in both wire versions the a2a codec knows (v1.0 method names SendMessage /
 * SendStreamingMessage / GetTask, v0.3 message/send / message/stream / tasks/get; the method says
 * which). The contextId is the session. message/send answers a completed Task whose history is the
 * user's message and every message of the run, each carrying `metadata.canonical_type` (the a2a
 * request codec's task form); message/stream is the a2a stream encoder's SSE (Task, working status
 * updates with TextMessageChunkEvent / TextMessageEndEvent / tool call and result messages, then
 * completed or failed). Tasks are kept in memory (the latest 1000) for tasks/get.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { decode, encode, streamEncoder, ValidationError, type Message, type Request as CanonicalRequest, type StreamEvent } from '../index.js';
import { RunRecorder } from '../agent/run-messages.js';
import { checkAgentId } from '../agent/loader.js';
import { errorOf, readJsonObject, sseResponse, type AgentEndpoints } from './agent-common.js';

type Version = '1.0' | '0.3';
const METHODS: Readonly<Record<string, { op: 'send' | 'stream' | 'get'; version: Version }>> = {
  SendMessage: { op: 'send', version: '1.0' },
  SendStreamingMessage: { op: 'stream', version: '1.0' },
  GetTask: { op: 'get', version: '1.0' },
  'message/send': { op: 'send', version: '0.3' },
  'message/stream': { op: 'stream', version: '0.3' },
  'tasks/get': { op: 'get', version: '0.3' },
};
const MAX_TASKS = 1000;

interface StoredTask {
  id: string;
  contextId: string;
  userId: string;
  agentId: string;
  messages: Message[];
  state: 'TASK_STATE_COMPLETED' | 'TASK_STATE_FAILED' | 'TASK_STATE_WORKING';
}

type RpcId = string | number | null;
const rpcError = (id: RpcId, code: number, message: string, status = 200): Response => Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });

/** The task as A2A writes it in `version`: its history through the a2a request codec's task form. */
function taskJson(t: StoredTask, version: Version): unknown {
  const req: CanonicalRequest = { messages: t.messages, ext: { a2a: { $form: 'task', ...(version === '0.3' ? { $version: '0.3' } : {}), task: { id: t.id, contextId: t.contextId, status: { state: t.state } } } } };
  return encode(req, { to: 'a2a' }).value;
}

const resultOf = (t: StoredTask, version: Version): unknown => (version === '1.0' ? { task: taskJson(t, version) } : taskJson(t, version));

export function agentCard(agentId: string, url: string, card: { name?: string; description?: string; skills?: unknown[] } | undefined): Record<string, unknown> {
  const description = card?.description ?? `interlingua agent ${agentId}`;
  return {
    name: card?.name ?? agentId,
    description,
    version: '1.0.0',
    // v1.0: where and how; v0.3 readers look at url / protocolVersion / preferredTransport.
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    url,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: card?.skills ?? [{ id: agentId, name: card?.name ?? agentId, description, tags: ['agent'] }],
  };
}

export function mountAgentA2a(app: Hono, ep: AgentEndpoints): void {
  const tasks = new Map<string, StoredTask>();
  const keep = (t: StoredTask): void => {
    tasks.delete(t.id);
    tasks.set(t.id, t);
    if (tasks.size > MAX_TASKS) tasks.delete(tasks.keys().next().value as string);
  };

  app.get('/a2a/:agent_id/.well-known/agent-card.json', async (c) => {
    try {
      if (!ep.keys.allows(c.req.raw.headers, c.req.url)) return c.json({ error: { code: 'unauthorized', message: 'invalid or missing API key' } }, 401);
      const agentId = checkAgentId(c.req.param('agent_id'));
      const host = await ep.host();
      const loaded = await host.loadAgent(agentId, c.req.header(ep.userHeader) ?? '');
      const url = new URL(c.req.url);
      return c.json(agentCard(agentId, `${url.origin}/a2a/${agentId}`, loaded.module.card));
    } catch (err) {
      const { status, body } = errorOf(err, ep.log);
      return c.json(body, status as 400);
    }
  });

  app.post('/a2a/:agent_id', async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await readJsonObject(c.req.raw, ep);
    } catch (err) {
      const { status, body: b } = errorOf(err, ep.log);
      return status === 400 ? rpcError(null, -32700, b.error.message) : c.json(b, status as 401);
    }
    const id = (typeof body['id'] === 'string' || typeof body['id'] === 'number' ? body['id'] : null) as RpcId;
    const method = METHODS[String(body['method'])];
    if (method === undefined) return rpcError(id, -32601, `method not found: ${String(body['method'])} (served: ${Object.keys(METHODS).join(', ')})`);
    const params = (typeof body['params'] === 'object' && body['params'] !== null ? body['params'] : {}) as Record<string, unknown>;
    const agentId = c.req.param('agent_id');

    if (method.op === 'get') {
      const t = typeof params['id'] === 'string' ? tasks.get(params['id']) : undefined;
      const user = c.req.header(ep.userHeader);
      if (t === undefined || t.agentId !== agentId || (user !== undefined && user !== t.userId)) return rpcError(id, -32001, `task not found: ${String(params['id'])}`);
      // GetTask answers the Task itself (only SendMessage wraps it).
      return Response.json({ jsonrpc: '2.0', id, result: taskJson(t, method.version) });
    }

    // The user's message, read by the a2a codec (its errors name the field).
    let input: Message[];
    try {
      input = (decode({ jsonrpc: '2.0', id: id ?? 1, method: String(body['method']), params }, { from: 'a2a' }).value as CanonicalRequest).messages;
    } catch (err) {
      if (err instanceof ValidationError) return rpcError(id, -32602, err.message);
      throw err;
    }
    // In the task's history the user's message is typed like the others (the codec marks a message
    // that came without a canonical_type to be written back without one).
    input = input.map((m) => {
      const hints = (m.ext?.['a2a'] ?? {}) as Record<string, unknown>;
      const kept = Object.fromEntries(Object.entries(hints).filter(([k]) => !k.startsWith('$')));
      const { ext: _ext, ...rest } = m;
      return Object.keys(kept).length > 0 ? { ...rest, ext: { a2a: kept as never } } : rest;
    });
    const message = (params['message'] ?? {}) as Record<string, unknown>;
    const meta = (typeof message['metadata'] === 'object' && message['metadata'] !== null ? message['metadata'] : {}) as Record<string, unknown>;
    const userId = c.req.header(ep.userHeader) ?? (typeof meta['user_id'] === 'string' ? meta['user_id'] : undefined);
    if (userId === undefined) return rpcError(id, -32602, `user_id: required (the ${ep.userHeader} header or message.metadata.user_id)`);
    const lastUser = [...input].reverse().find((m) => m.role === 'user');
    const prompt = (lastUser?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const contextId = typeof message['contextId'] === 'string' ? message['contextId'] : undefined;

    let run;
    try {
      const host = await ep.host();
      run = await host.stream({ agentId, userId, sessionId: contextId, channel: 'a2a', payload: { prompt, question: prompt, messages: input, a2a: { method: body['method'], params } } });
    } catch (err) {
      const { status, body: b } = errorOf(err, ep.log);
      if (status === 400) return rpcError(id, -32602, b.error.message);
      return c.json(b, status as 404);
    }
    const task: StoredTask = { id: randomUUID(), contextId: run.session.sessionId, userId, agentId, messages: input, state: 'TASK_STATE_WORKING' };
    const recorder = new RunRecorder();
    const events = async function* (): AsyncGenerator<StreamEvent, void> {
      for await (const e of run.events) {
        const out: StreamEvent = e.type === 'response-start' ? { type: 'response-start', id: task.id, ext: { a2a: { contextId: task.contextId } } } : e;
        recorder.push(out);
        yield out;
      }
      task.messages = [...input, ...recorder.messages()];
      task.state = recorder.failed ? 'TASK_STATE_FAILED' : 'TASK_STATE_COMPLETED';
      keep(task);
    };

    if (method.op === 'send') {
      for await (const e of events()) void e;
      if (task.state === 'TASK_STATE_FAILED') return rpcError(id, -32603, `the agent failed (request ${run.session.requestId})`);
      return Response.json({ jsonrpc: '2.0', id, result: resultOf(task, method.version) });
    }

    const encoder = streamEncoder('a2a', { context: { a2aVersion: method.version, rpcId: id ?? 1 } });
    return sseResponse(events(), encoder);
  });
}
