/**
 * Bodies between the client's dialect and the upstream's, with `convert` (never `preserve`: what
 * goes to a provider must be a body it accepts). The gateway owns the transport fields (model and
 * stream switch, which live in the path for Gemini and Bedrock), so they are set here rather than
 * reported as losses. Same dialect in and out is validated and then passed on as the client's bytes.
 */
import { convert, decode, ValidationError, type Loss } from '../index.js';
import type { Dialect } from './config.js';
import { bodyModelKey, DIALECT_FACTS } from './dialects.js';
import { GatewayError } from './errors.js';

export interface RequestTranslation {
  client: Dialect;
  target: Dialect;
  json: Record<string, unknown>;
  bytes: Uint8Array;
  /** The body was changed after reading (memory turns placed in it): the bytes are stale. */
  changed: boolean;
  clientModel: string;
  upstreamModel: string;
  stream: boolean;
  strict: boolean;
  maxTextBytes: number;
}

export interface TranslatedRequest {
  body: string | Uint8Array;
  losses: Loss[];
}

/** A body the library refused, as a 400 with its issues and their JSON paths. */
export function invalidBody(err: ValidationError, what = 'the request body'): GatewayError {
  return new GatewayError(400, `${what} is not valid: ${err.message}`, undefined, {}, err.issues);
}

function lossy(losses: Loss[]): GatewayError {
  const list = losses.map((l) => `${l.path.join('.') || '(root)'}: ${l.message}`).join('; ');
  return new GatewayError(422, `x-interlingua-strict: the call would lose information (${losses.length}): ${list}`, undefined, {}, losses);
}

export function translateRequest(t: RequestTranslation): TranslatedRequest {
  const limits = { maxTextBytes: t.maxTextBytes };
  const clientFacts = DIALECT_FACTS[t.client];
  if (t.client === t.target) {
    try {
      decode(withPathModel(t.json, t.client, t.clientModel), { from: t.client, limits });
    } catch (err) {
      if (err instanceof ValidationError) throw invalidBody(err);
      throw err;
    }
    const field = clientFacts.modelField;
    if (field !== undefined && t.upstreamModel !== t.clientModel) return { body: JSON.stringify({ ...t.json, [field]: t.upstreamModel }), losses: [] };
    return { body: t.changed ? JSON.stringify(t.json) : t.bytes, losses: [] };
  }
  const input: Record<string, unknown> = withPathModel(t.json, t.client, t.clientModel);
  if (clientFacts.streamInBody) {
    delete input['stream'];
    delete input['stream_options'];
  }
  let value: Record<string, unknown>;
  let losses: Loss[];
  try {
    ({ value, losses } = convert<Record<string, unknown>>(input, { from: t.client, to: t.target, limits }));
  } catch (err) {
    if (err instanceof ValidationError) throw invalidBody(err);
    throw err;
  }
  const targetField = DIALECT_FACTS[t.target].modelField;
  delete value['model'];
  delete value['modelId'];
  if (targetField !== undefined) value = { [targetField]: t.upstreamModel, ...value };
  if (t.stream && DIALECT_FACTS[t.target].streamInBody) {
    value['stream'] = true;
    // Every other dialect reports usage in its stream: ask Chat for its optional usage chunk.
    if (t.target === 'openai-chat') value['stream_options'] = { include_usage: true };
  }
  if (t.strict && losses.length > 0) throw lossy(losses);
  return { body: JSON.stringify(value), losses };
}

/** Gemini and Bedrock bodies name no model (the path does): put it where their codec reads it. */
function withPathModel(json: Record<string, unknown>, client: Dialect, model: string): Record<string, unknown> {
  if (DIALECT_FACTS[client].modelField !== undefined) return { ...json };
  return { ...json, [bodyModelKey(client)]: model };
}

/** A provider's final answer in the client's dialect. */
export function translateResponse(from: Dialect, to: Dialect, body: unknown, strict: boolean): { value: unknown; losses: Loss[] } {
  try {
    const out = convert(body, { from, to, kind: 'response', limits: { maxTextBytes: Number.MAX_SAFE_INTEGER } });
    if (strict && out.losses.length > 0) throw lossy(out.losses);
    return out;
  } catch (err) {
    if (err instanceof ValidationError) throw new GatewayError(502, `the upstream's ${from} answer is not valid: ${err.message}`);
    throw err;
  }
}
