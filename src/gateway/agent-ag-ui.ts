/**
 * AG-UI for every agent: `POST /ag-ui/{agent_id}` takes a RunAgentInput (checked by the ag-ui
 * codec) and answers SSE AG-UI events (RUN_STARTED, text / reasoning / tool call events, tool
 * results, RUN_FINISHED, or RUN_ERROR) from the agent's run through the ag-ui stream encoder.
 * threadId is the session and runId the run's id. AG-UI clients send the whole conversation each
 * run; the session's memory already holds it, so the agent gets only what follows the last
 * assistant message (`messages`), and `prompt` is the last user message's text.
 */
import type { Hono } from 'hono';
import { decode, streamEncoder, ValidationError, type Message, type Request as CanonicalRequest, type StreamEvent } from '../index.js';
import { jsonError, readJsonObject, sseResponse, userIdOf, type AgentEndpoints } from './agent-common.js';

function newMessages(messages: readonly Message[]): Message[] {
  let start = 0;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') start = i + 1;
  });
  return messages.slice(start).filter((m) => m.role !== 'system' && m.role !== 'developer');
}

export function mountAgentAgUi(app: Hono, ep: AgentEndpoints): void {
  app.post('/ag-ui/:agent_id', async (c) => {
    try {
      const agentId = c.req.param('agent_id');
      const body = await readJsonObject(c.req.raw, ep);
      const request = decode(body, { from: 'ag-ui' }).value as CanonicalRequest;
      const threadId = body['threadId'] as string;
      const runId = body['runId'] as string;
      const fwd = body['forwardedProps'];
      const userId = userIdOf(c.req.raw, typeof fwd === 'object' && fwd !== null ? (fwd as Record<string, unknown>) : undefined, ep);
      const messages = newMessages(request.messages);
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      const prompt = (lastUser?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      const host = await ep.host();
      const run = await host.stream({ agentId, userId, sessionId: threadId, channel: 'ag-ui', payload: { prompt, question: prompt, messages, state: body['state'] ?? null, context: body['context'] ?? [] } });
      const events = async function* (): AsyncGenerator<StreamEvent, void> {
        for await (const e of run.events) yield e.type === 'response-start' ? { type: 'response-start', id: runId, ext: { 'ag-ui': { threadId } } } : e;
      };
      return sseResponse(events(), streamEncoder('ag-ui'));
    } catch (err) {
      if (err instanceof ValidationError && err.issues[0]?.path[0] !== 'user_id' && err.issues[0]?.path[0] !== 'session_id') {
        return c.json({ error: { code: 'invalid_request', message: err.message, field: err.issues.map((i) => i.path.join('.')).join(', ') } }, 400);
      }
      return jsonError(err, ep.log);
    }
  });
}
