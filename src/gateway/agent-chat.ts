/**
 * `POST /chat` — the source design's chat API: `{ agent_id, user_id, actor_id?, session_id?, prompt }`
 * → `{ output, agent_id, actor_id, session_id }`. actor_id defaults to user_id, session_id to
 * `<user_id>_<agent_id>_default`. The agent's payload is the body with `question` (= prompt) and
 * `messages` (the prompt as one canonical user message) added.
 */
import type { Hono } from 'hono';
import { badField, jsonError, optionalString, readJsonObject, type AgentEndpoints } from './agent-common.js';

export function mountAgentChat(app: Hono, ep: AgentEndpoints): void {
  app.post('/chat', async (c) => {
    try {
      const body = await readJsonObject(c.req.raw, ep);
      const agentId = body['agent_id'];
      if (typeof agentId !== 'string' || agentId === '') throw badField('agent_id', 'required, a string');
      const userId = body['user_id'];
      if (typeof userId !== 'string' || userId === '') throw badField('user_id', 'required, a string');
      const prompt = body['prompt'];
      if (typeof prompt !== 'string' || prompt === '') throw badField('prompt', 'required, a non-empty string');
      const host = await ep.host();
      const out = await host.invoke({
        agentId,
        userId,
        actorId: optionalString(body, 'actor_id'),
        sessionId: optionalString(body, 'session_id'),
        channel: 'chat',
        payload: { ...body, question: prompt, messages: [{ role: 'user', parts: [{ type: 'text', text: prompt }], stringContent: true }] },
        signal: c.req.raw.signal,
      });
      return c.json({ output: out.output, agent_id: agentId, actor_id: out.actorId, session_id: out.sessionId });
    } catch (err) {
      return jsonError(err, ep.log);
    }
  });
}
