/**
 * Calls to providers: one kept-alive undici pool for all of them, each provider's real path and
 * auth header (Bedrock signed with SigV4 from the standard AWS credential chain, or a bearer API
 * key), the client's disconnect aborting the call, and the answer's body as a Web stream read on
 * demand (back-pressure reaches the provider's socket). Keys live only in the outgoing headers.
 */
import { Agent, errors as undiciErrors } from 'undici';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { DEFAULT_UPSTREAM_TIMEOUT, type Dialect, type UpstreamConfig } from './config.js';
import { GatewayError } from './errors.js';

export interface UpstreamCall {
  /** The model as the provider's path names it (Gemini, Bedrock). */
  model: string;
  stream: boolean;
  body: string | Uint8Array;
  /** Client headers passed on (e.g. anthropic-beta) for a same-dialect call. */
  headers?: Record<string, string>;
  signal: AbortSignal;
}

/** A response header lookup (names in lower case). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/**
 * A provider's answer. The body is read once: either whole (`text`) or as chunks pulled on demand
 * (`chunks`; ending the iteration early releases the connection). Neither wraps the socket in a
 * Web stream: on the gateway's hot path that wrapper cost more than the conversion.
 */
export interface UpstreamAnswer {
  status: number;
  headers: AnswerHeaders;
  chunks: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

type Credentials = NonNullable<ConstructorParameters<typeof SignatureV4>[0]['credentials']>;
type CredentialProvider = Extract<Credentials, (...args: never[]) => unknown>;

export interface UpstreamOptions {
  /** AWS credentials for SigV4 (tests); the default credential chain otherwise. */
  awsCredentials?: Credentials;
}

function join(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

/** The provider's endpoint path for a call, after the configured base URL. */
export function upstreamPath(format: Dialect, model: string, stream: boolean): string {
  switch (format) {
    case 'openai-chat':
      return '/chat/completions';
    case 'openai-responses':
      return '/responses';
    case 'anthropic-messages':
      return '/v1/messages';
    case 'gemini':
      return `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
    case 'bedrock-converse':
      return `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`;
  }
}

function authHeaders(format: Dialect, key: string | undefined): Record<string, string> {
  if (key === undefined) return {};
  switch (format) {
    case 'openai-chat':
    case 'openai-responses':
    case 'bedrock-converse':
      return { authorization: `Bearer ${key}` };
    case 'anthropic-messages':
      return { 'x-api-key': key };
    case 'gemini':
      return { 'x-goog-api-key': key };
  }
}

/** undici's header record (lower-case names; repeated headers as arrays) as a lookup. */
class RecordHeaders implements AnswerHeaders {
  constructor(private readonly record: Record<string, string | string[] | undefined>) {}

  get(name: string): string | null {
    const v = this.record[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }
}

/** An undici failure as the gateway's answer: 504 for a timeout, 502 for anything unreachable. */
export function transportError(name: string, err: unknown): GatewayError {
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError(504, `upstream '${name}' did not answer in time`);
  }
  const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  return new GatewayError(502, `upstream '${name}' is unreachable${code === undefined ? '' : ` (${code})`}`);
}

export class UpstreamClient {
  private readonly signer: SignatureV4 | undefined;
  private readonly base: URL;

  constructor(
    readonly name: string,
    readonly config: UpstreamConfig & { format: Dialect },
    private readonly agent: Agent,
    options: UpstreamOptions = {},
  ) {
    this.base = new URL(config.url as string);
    if (config.format === 'bedrock-converse' && config.apiKey === undefined) {
      this.signer = new SignatureV4({
        service: 'bedrock',
        region: config.region as string,
        sha256: Sha256,
        credentials: options.awsCredentials ?? lazyDefaultChain(),
      });
    }
  }

  async call(call: UpstreamCall): Promise<UpstreamAnswer> {
    const { format } = this.config;
    const url = new URL(join(this.base.href, upstreamPath(format, call.model, call.stream)));
    let headers: Record<string, string> = {
      ...call.headers,
      ...this.config.headers,
      'content-type': 'application/json',
      accept: call.stream ? (format === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream') : 'application/json',
      ...authHeaders(format, this.config.apiKey),
    };
    if (format === 'anthropic-messages' && headers['anthropic-version'] === undefined) headers['anthropic-version'] = '2023-06-01';
    if (this.signer !== undefined) headers = await this.sign(url, headers, call.body);
    const timeout = this.config.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT;
    try {
      const res = await this.agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers,
        body: call.body,
        signal: call.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const body = res.body;
      return { status: res.statusCode, headers: new RecordHeaders(res.headers), chunks: body, text: () => body.text() };
    } catch (err) {
      if (call.signal.aborted) throw err;
      throw transportError(this.name, err);
    }
  }

  private async sign(url: URL, headers: Record<string, string>, body: string | Uint8Array): Promise<Record<string, string>> {
    const request = new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...headers, host: url.host },
      body,
    });
    try {
      const signed = await (this.signer as SignatureV4).sign(request);
      return signed.headers;
    } catch (err) {
      throw new GatewayError(500, `cannot sign the request for upstream '${this.name}': ${(err as Error).message}`);
    }
  }
}

/** The standard AWS credential chain, loaded on first use (the gateway may never call Bedrock). */
function lazyDefaultChain(): CredentialProvider {
  let provider: CredentialProvider | undefined;
  return async () => {
    if (provider === undefined) provider = (await import('@aws-sdk/credential-provider-node')).defaultProvider();
    return provider();
  };
}

export function createAgent(): Agent {
  // Kept-alive connections, pooled per origin; pipelining off (providers answer streams slowly).
  return new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 256, pipelining: 1 });
}
