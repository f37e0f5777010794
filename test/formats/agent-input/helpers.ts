/** Shared helpers for the agent input codec tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentInput } from '../../../src/formats/agent-input/index.js';
import { DEFAULT_LIMITS, type Limits } from '../../../src/formats/codec.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { ValidationError, type Issue } from '../../../src/model/errors.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

export const codec = agentInput;

export function decodeReq(body: unknown, limits: Limits = DEFAULT_LIMITS): Request {
  return codec.request!.decode(body, { limits, losses: new LossList() });
}

export function decodeWithLosses(body: unknown): { value: Request; losses: Loss[] } {
  const losses = new LossList();
  const value = codec.request!.decode(body, { limits: DEFAULT_LIMITS, losses });
  return { value, losses: losses.items };
}

export function encodeReq(req: Request, preserve = false): { value: Record<string, unknown>; losses: Loss[] } {
  const losses = new LossList();
  const value = codec.request!.encode(req, { preserve, losses }) as Record<string, unknown>;
  return { value, losses: losses.items };
}

/** The ValidationError `fn` throws (fails the test if it throws anything else or nothing). */
export function errorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('expected a ValidationError, nothing was thrown');
}

export const issuesOf = (body: unknown): Issue[] => errorOf(() => decodeReq(body)).issues;
export const codes = (losses: Loss[]): string[] => losses.map((l) => l.code);

export interface Vector {
  name: string;
  from: string;
  body: unknown;
  canonical?: Request;
  question?: string;
  mlCommonsQuestion?: string;
  error?: { path: (string | number)[]; message: string };
  mlCommonsError?: string;
}

export const vectors: Vector[] = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'agent-input/ml-commons-vectors.json'), 'utf8')) as Vector[];
