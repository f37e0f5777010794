/**
 * Local models for the agent tests.
 * - `scriptedClient(answer)`: a ModelClient whose answer is computed from the canonical request.
 * - `recallModel()`: an OpenAI Chat endpoint (a gateway mock upstream handler) that answers from
 *   what it is sent: it reads every text it was sent (system prompt included), remembers
 *   "My name is X" / "I love Y" statements, answers "What's my name?" / "What food do I like?" from
 *   them, calls `get_weather` when asked about the weather and tools are offered, and records every
 *   request body so tests can see what a model call contained.
 */
import { responseToEvents, type Message, type Request, type Response, type StreamEvent } from '../../src/index.js';
import type { ModelClient } from '../../src/agent/index.js';

export function assistant(parts: Message['parts'], stop: 'stop' | 'tool-calls' = 'stop'): Response {
  return { id: 'r', choices: [{ index: 0, message: { role: 'assistant', parts }, stopReason: { unified: stop } }], usage: { inputTokens: 3, outputTokens: 2 } };
}

export function scriptedClient(answer: (req: Request, n: number) => Response | Promise<Response>): ModelClient & { requests: Request[] } {
  const requests: Request[] = [];
  return {
    requests,
    async complete(req) {
      requests.push(structuredClone(req));
      return answer(req, requests.length);
    },
    async *stream(req): AsyncIterable<StreamEvent> {
      requests.push(structuredClone(req));
      const res = await answer(req, requests.length);
      // Text in two deltas, so streams carry real chunks.
      for (const e of responseToEvents(res)) {
        if (e.type === 'text-delta' && e.delta.length > 1) {
          const half = Math.ceil(e.delta.length / 2);
          yield { ...e, delta: e.delta.slice(0, half) };
          yield { ...e, delta: e.delta.slice(half) };
        } else yield e;
      }
    },
  };
}

interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

const textOf = (m: ChatMessage): string => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text ?? '').join('') : '');

/** The answer of the recall model to a chat body. */
export function recallAnswer(body: { messages: ChatMessage[]; tools?: unknown[] }): { content?: string; toolCall?: { name: string; arguments: string } } {
  const msgs = body.messages;
  const last = msgs[msgs.length - 1];
  if (last?.role === 'tool') return { content: `The tool says: ${textOf(last)}` };
  const earlier = msgs.slice(0, -1).map(textOf).join('\n');
  const question = last === undefined ? '' : textOf(last);
  const name = /my name is (\w+)/i.exec(earlier)?.[1];
  const food = /I love (\w+)/i.exec(earlier)?.[1];
  if (/what'?s my name/i.test(question)) return { content: name === undefined ? "I don't know your name." : `Your name is ${name}.` };
  if (/what food/i.test(question)) return { content: food === undefined ? "I don't know what you like." : `You like ${food}.` };
  const city = /weather in (\w+)/i.exec(question)?.[1];
  const tools = (body.tools ?? []).map((t) => (t as { function?: { name?: string } }).function?.name);
  if (city !== undefined && tools.includes('get_weather')) return { toolCall: { name: 'get_weather', arguments: JSON.stringify({ city }) } };
  if (city !== undefined && tools.includes('handoff')) return { toolCall: { name: 'handoff', arguments: JSON.stringify({ specialist: 'travel', task: question }) } };
  return { content: `Noted: ${question}` };
}

let callCounter = 0;

/** The recall model as a gateway mock upstream: OpenAI Chat in, OpenAI Chat out (stream or not). */
export function recallUpstream(): { handler: (req: globalThis.Request) => Promise<globalThis.Response>; bodies: { messages: ChatMessage[]; tools?: unknown[]; stream?: boolean }[] } {
  const bodies: { messages: ChatMessage[]; tools?: unknown[]; stream?: boolean }[] = [];
  const handler = async (req: globalThis.Request): Promise<globalThis.Response> => {
    const body = (await req.json()) as { model: string; messages: ChatMessage[]; tools?: unknown[]; stream?: boolean };
    bodies.push(body);
    const a = recallAnswer(body);
    const id = `call_${++callCounter}`;
    const message = a.toolCall === undefined ? { role: 'assistant', content: a.content ?? '' } : { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: a.toolCall }] };
    const finish = a.toolCall === undefined ? 'stop' : 'tool_calls';
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (body.stream !== true) {
      return Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
    }
    const chunk = (delta: unknown, finish_reason: string | null, extra: object = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason, logprobs: null }], ...extra })}\n\n`;
    const frames: string[] = [chunk({ role: 'assistant', content: '' }, null)];
    if (a.toolCall !== undefined) frames.push(chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: a.toolCall.name, arguments: a.toolCall.arguments } }] }, null));
    else for (const piece of (a.content ?? '').split(/(?<= )/)) frames.push(chunk({ content: piece }, null));
    frames.push(chunk({}, finish));
    frames.push(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage })}\n\n`, 'data: [DONE]\n\n');
    return new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  };
  return { handler, bodies };
}
