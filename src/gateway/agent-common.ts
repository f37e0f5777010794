/**
 * What the agent endpoints share: the host they call (opened once, asynchronously), the key check,
 * where a caller's user id comes from, reading a JSON body, and the JSON error every agent endpoint
 * but execute answers with: `{ error: { code, message, field?, request_id? } }` — 400 for a bad or
 * missing field (naming it), 404 for an unknown agent, 401 without a valid key, 500 with a request
 * id when the agent fails (the details go to the log, never to the caller).
 */
import type { Logger } from 'pino';
import { frameWriter, type StreamEncoder, type StreamEvent } from '../index.js';
import { formatPath } from '../model/loss.js';
import { ValidationError } from '../model/errors.js';
import { LockTimeoutError } from '../memory/locks.js';
import { AgentFailure, type AgentHost } from '../agent/host.js';
import { UnknownAgentError } from '../agent/loader.js';
import type { KeyCheck } from './auth.js';
import { readClientBody } from './body.js';
import { GatewayError } from './errors.js';

export interface AgentEndpoints {
  host(): Promise<AgentHost>;
  keys: KeyCheck;
  /** Lower-case header name that carries the user id (A2A, AG-UI, execute). */
  userHeader: string;
  log: Logger;
  bodyLimit: number;
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; request_id?: string };
}

export class EndpointError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody) {
    super(body.error.message);
  }
}

export const badField = (field: string, message: string): EndpointError => new EndpointError(400, { error: { code: 'invalid_request', message: `${field}: ${message}`, field } });

/** The status and body of an error, in the agent endpoints' shape. */
export function errorOf(err: unknown, log: Logger): { status: number; body: ErrorBody } {
  if (err instanceof EndpointError) return { status: err.status, body: err.body };
  if (err instanceof ValidationError) {
    const first = err.issues[0];
    const field = first === undefined ? '(root)' : formatPath(first.path);
    return { status: 400, body: { error: { code: 'invalid_request', message: err.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; '), field } } };
  }
  if (err instanceof UnknownAgentError) return { status: 404, body: { error: { code: 'agent_not_found', message: `no agent '${err.agentId}'`, field: 'agent_id' } } };
  if (err instanceof AgentFailure) {
    log.error({ requestId: err.requestId, err: describe(err.detail) }, 'agent failed');
    return { status: 500, body: { error: { code: 'agent_failed', message: 'the agent failed; see the server log for this request id', request_id: err.requestId } } };
  }
  if (err instanceof LockTimeoutError) return { status: 503, body: { error: { code: 'session_busy', message: err.message } } };
  const id = crypto.randomUUID();
  log.error({ requestId: id, err: describe(err) }, 'agent endpoint failed');
  return { status: 500, body: { error: { code: 'internal_error', message: 'internal error; see the server log for this request id', request_id: id } } };
}

export function describe(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return err.stack === undefined ? { message: err.message } : { message: err.message, stack: err.stack };
  return { message: String(err) };
}

export function jsonError(err: unknown, log: Logger): Response {
  const { status, body } = errorOf(err, log);
  return Response.json(body, { status });
}

/** Checks the gateway key (every endpoint) and reads the body as a JSON object. */
export async function readJsonObject(req: Request, ep: AgentEndpoints): Promise<Record<string, unknown>> {
  if (!ep.keys.allows(req.headers, req.url)) throw new EndpointError(401, { error: { code: 'unauthorized', message: 'invalid or missing API key' } });
  try {
    return (await readClientBody(req, ep.bodyLimit, { anyContentType: true })).json;
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // The same limits and parsing as the dialect endpoints, in these endpoints' own error body.
    if (err.status === 413) throw new EndpointError(413, { error: { code: 'too_large', message: `the body is over ${ep.bodyLimit} bytes` } });
    const issue = (Array.isArray(err.issues) ? err.issues[0] : undefined) as { code?: string } | undefined;
    if (issue?.code === 'invalid_json') throw new EndpointError(400, { error: { code: 'invalid_json', message: err.message } });
    throw new EndpointError(400, { error: { code: 'invalid_request', message: 'the body must be a JSON object', field: '(root)' } });
  }
}

/** The caller's user id: the configured header, else the body's `user_id`. */
export function userIdOf(req: Request, body: Record<string, unknown> | undefined, ep: AgentEndpoints, field = 'user_id'): string {
  const fromHeader = req.headers.get(ep.userHeader);
  const v = fromHeader ?? body?.[field];
  if (v === undefined || v === null || v === '') throw badField(field, `required (the ${ep.userHeader} header or the body's ${field})`);
  if (typeof v !== 'string') throw badField(field, 'must be a string');
  return v;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badField(field, 'must be a string');
  return v;
}

/** Canonical events as an SSE response in a dialect (its stream encoder), written as they come. */
export function sseResponse(events: AsyncGenerator<StreamEvent, void>, encoder: StreamEncoder): Response {
  const write = frameWriter('sse');
  const text = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Loop until something is written: a pull that enqueues nothing is not called again.
      for (;;) {
        const next = await events.next();
        const frames = next.done === true ? encoder.end() : encoder.push(next.value);
        for (const w of frames) controller.enqueue(text.encode(write(w) as string));
        if (next.done === true) {
          controller.close();
          return;
        }
        if (frames.length > 0) return;
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } });
}
