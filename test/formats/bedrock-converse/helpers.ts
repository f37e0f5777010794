/** Shared helpers for the Bedrock Converse codec tests. */
import { bedrockConverse } from '../../../src/formats/bedrock-converse/index.js';
import { DEFAULT_LIMITS, type Limits } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { ValidationError, type Issue } from '../../../src/model/errors.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import type { Response } from '../../../src/model/response.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { bedrockSamples } from './samples.js';

export const codec = bedrockConverse;

export function decodeReq(body: unknown, limits: Limits = DEFAULT_LIMITS): Request {
  return codec.request!.decode(body, { limits, losses: new LossList() });
}
export function decodeRes(body: unknown): Response {
  return codec.response!.decode(body, { limits: DEFAULT_LIMITS, losses: new LossList() });
}
export function encodeReq(req: Request, preserve = false): { value: Record<string, unknown>; losses: Loss[] } {
  const losses = new LossList();
  const value = codec.request!.encode(req, { preserve, losses }) as Record<string, unknown>;
  return { value, losses: losses.items };
}
export function encodeRes(res: Response, preserve = false): { value: Record<string, unknown>; losses: Loss[] } {
  const losses = new LossList();
  const value = codec.response!.encode(res, { preserve, losses }) as Record<string, unknown>;
  return { value, losses: losses.items };
}

/** The issues of the ValidationError `fn` throws (fails the test if it throws anything else). */
export function issuesOf(fn: () => unknown): Issue[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  throw new Error('expected a ValidationError, nothing was thrown');
}

export const codes = (losses: Loss[]): string[] => losses.map((l) => l.code);

/** The Bedrock bodies copied into test/fixtures/bedrock-converse (always there). */
export const local = bedrockSamples(LOCAL_FIXTURES, {
  exchanges: ['bedrock-converse/exchanges'],
  responses: ['bedrock-converse/responses'],
  snaps: ['bedrock-converse/requests'],
});

/** A local sample by (part of) its name. */
export function sample(kind: 'request' | 'response', name: string): unknown {
  const s = (kind === 'request' ? local.requests : local.responses).find((x) => x.name.includes(name));
  if (!s) throw new Error(`no local ${kind} sample named like ${name}`);
  return structuredClone(s.body);
}
