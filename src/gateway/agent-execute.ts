/**
 * `POST /_plugins/_ml/agents/{agent_id}/_execute` — the execute API the standard agent input was
 * designed for. The body is `{ input }` (text, content blocks or messages) or the legacy
 * `{ parameters: { question, memory_id? } }`; it is validated and mapped by the `agent-input`
 * codec, and a bad one is a 400 with the design's body (`toAgentInputErrorBody`). The agent's
 * payload has `question` (deriveQuestion), `prompt` (the same), `messages` (the input as canonical
 * messages) and, when `parameters.messages_format` names a chat dialect, `wire_messages` (them in
 * that dialect). The session is `memory_id` (parameters' or the body's), else the default one.
 * Answer: `{ inference_results: [{ output: [{ name: "response", result }] }], memory_id }`.
 */
import type { Hono } from 'hono';
import { decode, deriveQuestion, toAgentInputErrorBody, ValidationError, type Request as CanonicalRequest } from '../index.js';
import { encodeMessages, MESSAGE_FORMATS } from '../memory/index.js';
import { badField, EndpointError, jsonError, readJsonObject, userIdOf, type AgentEndpoints } from './agent-common.js';

function paramsOf(body: Record<string, unknown>): Record<string, unknown> {
  const p = body['parameters'];
  return typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

function stringParam(body: Record<string, unknown>, params: Record<string, unknown>, field: string): string | undefined {
  const v = params[field] ?? body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badField(params[field] !== undefined ? `parameters.${field}` : field, 'must be a string');
  return v;
}

export function mountAgentExecute(app: Hono, ep: AgentEndpoints): void {
  app.post('/_plugins/_ml/agents/:agent_id/_execute', async (c) => {
    try {
      const agentId = c.req.param('agent_id');
      const body = await readJsonObject(c.req.raw, ep);
      const params = paramsOf(body);
      // Only what the agent-input codec reads: identity and session fields are ours, not the input's.
      const input: Record<string, unknown> = body['input'] !== undefined ? { input: body['input'] } : { parameters: { question: params['question'] } };
      let question: string;
      let request: CanonicalRequest;
      try {
        request = decode(input, { from: 'agent-input' }).value as CanonicalRequest;
        question = deriveQuestion(input);
        // ml-commons' AgentInputProcessor rule: a conversation handed to an agent ends with what it answers.
        const last = request.messages[request.messages.length - 1];
        if (Array.isArray(input['input']) && last !== undefined && last.role !== 'user' && last.role !== 'tool') {
          throw new ValidationError([{ code: 'invalid_value', path: ['input', request.messages.length - 1, 'role'], message: "Last message must be from role 'user' or 'tool'", expected: 'user or tool', received: last.role }]);
        }
      } catch (err) {
        if (err instanceof ValidationError) return c.json(toAgentInputErrorBody(err), 400);
        throw err;
      }
      const format = stringParam(body, params, 'messages_format');
      if (format !== undefined && !MESSAGE_FORMATS.includes(format)) throw badField('parameters.messages_format', `one of ${MESSAGE_FORMATS.join(', ')}`);
      const userId = userIdOf(c.req.raw, { user_id: params['user_id'] ?? body['user_id'] }, ep);
      const payload: Record<string, unknown> = { question, prompt: question, messages: request.messages, parameters: params };
      if (format !== undefined) payload['wire_messages'] = encodeMessages(request.messages, format, 'execute').messages;
      const host = await ep.host();
      const out = await host.invoke({ agentId, userId, sessionId: stringParam(body, params, 'memory_id'), actorId: stringParam(body, params, 'actor_id'), channel: 'execute', payload, signal: c.req.raw.signal });
      const result = typeof out.output === 'string' ? out.output : JSON.stringify(out.output);
      return c.json({ inference_results: [{ output: [{ name: 'response', result }] }], memory_id: out.sessionId });
    } catch (err) {
      if (err instanceof ValidationError || err instanceof EndpointError) {
        // Identity errors in the execute API's own error shape too.
        const { status, body } = err instanceof EndpointError ? { status: err.status, body: err.body } : { status: 400, body: undefined };
        if (status === 400) {
          const v = err instanceof ValidationError ? err : new ValidationError([{ code: 'invalid_request', path: [body?.error.field ?? '(root)'], message: body?.error.message ?? 'invalid request' }]);
          return c.json(toAgentInputErrorBody(v), 400);
        }
      }
      return jsonError(err, ep.log);
    }
  });
}
