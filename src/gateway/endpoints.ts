/**
 * The real paths of each dialect, so an official SDK needs only a base URL:
 * OpenAI Chat and Responses under /v1, Anthropic /v1/messages, Gemini
 * /v1beta/models/{model}:generateContent | :streamGenerateContent, Bedrock
 * /model/{modelId}/converse | /converse-stream. Also `GET /v1/models` in the caller's dialect, and
 * which dialect an unknown path's error should be written in.
 */
import type { Hono } from 'hono';
import type { Dialect } from './config.js';
import { GatewayError } from './errors.js';
import type { DialectCall } from './pipeline.js';

export type CallHandler = (call: DialectCall, req: Request) => Promise<Response>;

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new GatewayError(400, `the path segment '${s}' is not valid percent-encoding`);
  }
}

export function mountDialectEndpoints(app: Hono, handle: CallHandler): void {
  app.post('/v1/chat/completions', (c) => handle({ dialect: 'openai-chat' }, c.req.raw));
  app.post('/v1/responses', (c) => handle({ dialect: 'openai-responses' }, c.req.raw));
  app.post('/v1/messages', (c) => handle({ dialect: 'anthropic-messages' }, c.req.raw));
  // Gemini: `{model}:{method}` is one path segment (the Gen AI SDK writes v1beta; v1 is the same API).
  for (const version of ['v1beta', 'v1']) {
    app.post(`/${version}/models/*`, (c, next) => {
      const m = /^\/v1(?:beta)?\/models\/([^/]+):(generateContent|streamGenerateContent)$/.exec(new URL(c.req.url).pathname);
      if (m === null) return next();
      const model = decodeSegment(m[1] as string).replace(/^models\//, '');
      return handle({ dialect: 'gemini', pathModel: model, pathStream: m[2] === 'streamGenerateContent' }, c.req.raw);
    });
  }
  // Bedrock: the model id is one percent-encoded segment (ARNs hold ':' and '/').
  app.post('/model/*', (c, next) => {
    const m = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(new URL(c.req.url).pathname);
    if (m === null) return next();
    return handle({ dialect: 'bedrock-converse', pathModel: decodeSegment(m[1] as string), pathStream: m[2] === 'converse-stream' }, c.req.raw);
  });
}

/** The dialect a request most likely speaks, from its path and headers (for errors on paths no endpoint serves). */
export function guessDialect(req: Request): Dialect {
  const path = new URL(req.url).pathname;
  if (path.startsWith('/v1beta/') || req.headers.has('x-goog-api-key') || req.headers.has('x-goog-api-client')) return 'gemini';
  if (path.startsWith('/model/') || req.headers.has('x-amz-date') || (req.headers.get('authorization') ?? '').startsWith('AWS4-')) return 'bedrock-converse';
  if (path.startsWith('/v1/messages') || req.headers.has('anthropic-version') || req.headers.has('x-api-key')) return 'anthropic-messages';
  if (path.startsWith('/v1/responses')) return 'openai-responses';
  return 'openai-chat';
}

/** `GET /v1/models` (OpenAI or Anthropic, by the caller's headers) and `GET /v1beta/models` (Gemini). */
export function modelList(dialect: Dialect, models: readonly string[]): unknown {
  const created = 0;
  switch (dialect) {
    case 'anthropic-messages':
      return {
        data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: new Date(created).toISOString() })),
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models[models.length - 1] ?? null,
      };
    case 'gemini':
      return { models: models.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] })) };
    case 'bedrock-converse':
      return { modelSummaries: models.map((modelId) => ({ modelId, modelName: modelId })) };
    default:
      return { object: 'list', data: models.map((id) => ({ id, object: 'model', created, owned_by: 'interlingua' })) };
  }
}
