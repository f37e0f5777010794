/**
 * `gatewayModelClient(fetch)`: a ModelClient that speaks a provider dialect to a gateway's fetch
 * handler, in process (a Request object handed to `fetch`, no socket). The canonical request is
 * encoded with the library's public codecs, the answer decoded back; a stream is read frame by
 * frame and decoded as it arrives. Errors come back as ModelCallError with the upstream's status.
 */
import { decode, decodeError, encode, frameReader, streamDecoder, type Loss, type Request, type Response, type StreamEvent } from '../index.js';
import { UsageError } from '../model/errors.js';
import { ModelCallError, type ModelCallOptions, type ModelClient } from './model-client.js';

export type FetchLike = (request: globalThis.Request) => Promise<globalThis.Response>;

/** The dialects the client can speak to the gateway, and where each one's endpoint is. */
const PATHS: Readonly<Record<string, (model: string, stream: boolean) => string>> = {
  'openai-chat': () => '/v1/chat/completions',
  'openai-responses': () => '/v1/responses',
  'anthropic-messages': () => '/v1/messages',
  gemini: (model, stream) => `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  'bedrock-converse': (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`,
};

export interface GatewayClientOptions {
  /** The dialect spoken to the gateway; default openai-chat. */
  dialect?: string;
  /** Base of the URLs handed to fetch (never dialed in process); default http://interlingua.internal. */
  baseUrl?: string;
  /** Headers sent with every call (the gateway key, a request id ...). */
  headers?: Record<string, string>;
  /** Called with each loss of translating to and from the dialect. */
  onLoss?: (loss: Loss) => void;
}

export function gatewayModelClient(fetch: FetchLike, options: GatewayClientOptions = {}): ModelClient {
  const dialect = options.dialect ?? 'openai-chat';
  const pathOf = PATHS[dialect];
  if (pathOf === undefined) throw new UsageError(`gatewayModelClient: dialect must be one of ${Object.keys(PATHS).join(', ')} (got ${JSON.stringify(dialect)})`);
  const base = (options.baseUrl ?? 'http://interlingua.internal').replace(/\/$/, '');
  const report = (losses: readonly Loss[]): void => {
    if (options.onLoss !== undefined) for (const l of losses) options.onLoss(l);
  };

  function build(request: Request, stream: boolean, call: ModelCallOptions | undefined): globalThis.Request {
    if (typeof request.model !== 'string' || request.model === '') throw new UsageError('gatewayModelClient: the request names no model');
    const encoded = encode({ ...request, stream }, { to: dialect });
    report(encoded.losses);
    const body = encoded.value as Record<string, unknown>;
    if (stream && dialect === 'openai-chat') body['stream_options'] = { include_usage: true };
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}), ...options.headers },
      body: JSON.stringify(body),
    };
    if (call?.signal !== undefined) init.signal = call.signal;
    return new globalThis.Request(base + pathOf!(request.model, stream), init);
  }

  async function failure(res: globalThis.Response): Promise<ModelCallError> {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the text is the message
    }
    const known = decodeError(dialect, body, res.status, res.headers);
    return new ModelCallError(known ?? { message: text.slice(0, 500) || res.statusText, status: res.status });
  }

  async function complete(request: Request, call?: ModelCallOptions): Promise<Response> {
    const res = await fetch(build(request, false, call));
    if (!res.ok) throw await failure(res);
    const decoded = decode(await res.json(), { from: dialect, kind: 'response' });
    report(decoded.losses);
    return decoded.value as Response;
  }

  async function* stream(request: Request, call?: ModelCallOptions): AsyncIterable<StreamEvent> {
    const res = await fetch(build(request, true, call));
    if (!res.ok) throw await failure(res);
    if (res.body === null) throw new ModelCallError({ message: 'the gateway answered a stream call with no body', status: res.status });
    const frames = frameReader(dialect === 'bedrock-converse' ? 'aws-event-stream' : 'sse');
    const decoder = streamDecoder(dialect, options.onLoss === undefined ? {} : { onLoss: options.onLoss });
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const w of frames.push(value)) yield* decoder.push(w);
      }
      for (const w of frames.end()) yield* decoder.push(w);
      yield* decoder.end();
    } finally {
      reader.releaseLock();
    }
  }

  return { complete, stream };
}
