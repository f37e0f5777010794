/**
 * The `format: mock` upstream: a Web fetch handler that answers like a provider on every
 * provider dialect's real paths, in the dialect of the path, with no network and no key.
 *
 *   POST …/chat/completions                         OpenAI Chat       (`stream: true` streams)
 *   POST …/responses                                OpenAI Responses  (`stream: true` streams)
 *   POST …/messages                                 Anthropic         (`stream: true` streams)
 *   POST …/models/{model}:generateContent           Gemini
 *   POST …/models/{model}:streamGenerateContent     Gemini stream (SSE with `alt=sse`, else a JSON array)
 *   POST …/model/{modelId}/converse                 Bedrock Converse
 *   POST …/model/{modelId}/converse-stream          Bedrock stream (AWS event-stream binary)
 *
 * Each body is validated and decoded with the library's `decode`; the answer (mock/reply.ts says
 * the rule: the last user text echoed, or tool calls when the prompt names an offered tool) is
 * deterministic — ids follow from a hash of the body, `created` is fixed — and is written back
 * with the dialect's own codec, streams through the library's stream encoders and framing.
 *
 * Options: `error` answers every call with that error in the dialect's error shape (via
 * `encodeError`); `latencyMs` delays each answer (for a stream: its first event; headers go at once).
 * Answers are kept for the last 256 distinct requests, so a repeated request (a benchmark's) is
 * answered without decoding it again; being deterministic, a kept answer is the same bytes.
 * An invalid body gets a 400 in the dialect's error shape naming the endpoint and the JSON paths;
 * an unknown path a 404, a method other than POST a 405.
 */
import { decode, formatPath, ValidationError, type Request as ModelRequest } from '../index.js';
import type { JsonValue } from '../model/json.js';
import { delay, errorResponse, jsonResponse, shortHash } from './mock/http.js';
import { framingOf, renderBody, streamEvents } from './mock/render.js';
import { mockReply } from './mock/reply.js';
import { guessFormat, matchMockRoute, type MockRoute } from './mock/routes.js';

export interface MockUpstreamOptions {
  /** Answer every call with this error (`type` defaults to the dialect's own type for the status). */
  error?: { status: number; message: string; type?: string };
  /** Delay before each answer; for streams, before the first event. */
  latencyMs?: number;
}

/** How many distinct requests' answers are kept (see AnswerCache). */
const CACHE_SIZE = 256;

export type FetchHandler = (request: Request) => Promise<Response>;

export function createMockUpstream(options: MockUpstreamOptions = {}): FetchHandler {
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const cache = new AnswerCache(CACHE_SIZE);
  return async (request) => {
    const url = new URL(request.url);
    const route = matchMockRoute(url);
    if (route === undefined) return errorResponse(guessFormat(url), 404, `mock upstream: no endpoint at ${request.method} ${url.pathname}`);
    const where = `${request.method} ${url.pathname}`;
    if (request.method !== 'POST') return errorResponse(route.format, 405, `mock upstream: ${where}: only POST is answered here`);
    const text = await request.text();
    if (options.error !== undefined) {
      await delay(latencyMs, request.signal);
      const { status, message, type } = options.error;
      return errorResponse(route.format, status, message, type);
    }
    const key = `${url.pathname}${url.search}\n${text}`;
    let prepared = cache.get(key);
    if (prepared === undefined) {
      const parsed = parseBody(text, route, where);
      if (parsed instanceof Response) return parsed;
      prepared = prepare(route, parsed, shortHash(text), latencyMs);
      cache.set(key, prepared);
    }
    return respond(prepared, latencyMs, request.signal);
  };
}

interface ParsedBody {
  raw: JsonValue;
  request: ModelRequest;
}

function parseBody(text: string, route: MockRoute, where: string): ParsedBody | Response {
  let raw: JsonValue;
  try {
    raw = JSON.parse(text) as JsonValue;
  } catch {
    return errorResponse(route.format, 400, `${where}: the request body is not JSON`);
  }
  try {
    return { raw, request: decode(raw, { from: route.format }).value as ModelRequest };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const issues = err.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
    return errorResponse(route.format, 400, `${where}: invalid ${route.format} request: ${issues}`, 'invalid_request_error');
  }
}

/** A computed answer, kept so a repeated request (a load test's) is answered at once. */
type Prepared = { kind: 'json'; body: string } | { kind: 'stream'; contentType: string; chunks: Uint8Array[] };

function prepare(route: MockRoute, body: ParsedBody, seed: string, latencyMs: number): Prepared {
  const model = route.pathModel ?? body.request.model ?? 'mock';
  const reply = mockReply(body.request, { model, seed });
  if (!route.streamEndpoint && body.request.stream !== true) return { kind: 'json', body: JSON.stringify(renderBody(route.format, reply, seed, latencyMs)) };
  const events = streamEvents(reply, { format: route.format, includeUsage: includeUsage(route, body.raw) });
  if (route.jsonArray) return { kind: 'json', body: `[${events.map((e) => JSON.stringify(e.data)).join(',\r\n')}]` };
  const { contentType, write } = framingOf(route.format);
  const encoder = new TextEncoder();
  const chunks = events.map((e) => {
    const chunk = write(e);
    return typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
  });
  return { kind: 'stream', contentType, chunks };
}

async function respond(prepared: Prepared, latencyMs: number, signal: AbortSignal): Promise<Response> {
  if (prepared.kind === 'json') {
    await delay(latencyMs, signal);
    return jsonResponse(prepared.body);
  }
  // Headers go at once; the latency holds back the first event, as a provider's time to first token.
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      await delay(latencyMs, signal);
      for (const chunk of prepared.chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { 'content-type': prepared.contentType, 'cache-control': 'no-cache' } });
}

/** Answers by request (path and body text), oldest dropped first; the answers are deterministic, so this changes no byte. */
class AnswerCache {
  private readonly entries = new Map<string, Prepared>();
  constructor(private readonly size: number) {}

  get(key: string): Prepared | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Prepared): void {
    if (this.entries.size >= this.size) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}

/** OpenAI Chat sends its usage chunk only when asked; the other dialects always report usage. */
function includeUsage(route: MockRoute, raw: JsonValue): boolean {
  if (route.format !== 'openai-chat') return true;
  const options = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw['stream_options'] : undefined;
  return typeof options === 'object' && options !== null && !Array.isArray(options) && options['include_usage'] === true;
}
