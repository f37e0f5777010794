import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../../src/formats/codec.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import type { Response } from '../../../src/model/response.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

export const FIXTURES = join(LOCAL_FIXTURES, 'openai-chat');
export const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

const req = openaiChat.request!;
const res = openaiChat.response!;

export function decodeRequest(body: unknown, limits: Partial<Limits> = {}): Request {
  return req.decode(body, { limits: { ...DEFAULT_LIMITS, ...limits }, losses: new LossList() });
}
export function encodeRequest(value: Request, preserve = false): { value: Record<string, unknown>; losses: Loss[] } {
  const losses = new LossList();
  const out = req.encode(value, { preserve, losses }) as Record<string, unknown>;
  return { value: out, losses: losses.items };
}
export function decodeResponse(body: unknown): Response {
  return res.decode(body, { limits: DEFAULT_LIMITS, losses: new LossList() });
}
export function encodeResponse(value: Response, preserve = false): { value: Record<string, unknown>; losses: Loss[] } {
  const losses = new LossList();
  const out = res.encode(value, { preserve, losses }) as Record<string, unknown>;
  return { value: out, losses: losses.items };
}

export const codes = (losses: Loss[]): string[] => losses.map((l) => l.code);

/** The issues of the ValidationError that `fn` throws (fails the test when it does not throw one). */
export function issuesOf(fn: () => unknown): { code: string; path: (string | number)[] }[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof Error && err.name === 'ValidationError') return (err as unknown as { issues: { code: string; path: (string | number)[] }[] }).issues;
    throw err;
  }
  throw new Error('expected a ValidationError');
}
