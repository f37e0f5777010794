import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../../src/formats/codec.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import type { Response } from '../../../src/model/response.js';
import { LOCAL_FIXTURES, listFiles, readExchanges, type Exchange } from '../../support/captures.js';

export const FIXTURES = join(LOCAL_FIXTURES, 'gemini');
export const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

const req = gemini.request!;
const res = gemini.response!;

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
export function issuesOf(fn: () => unknown): { code: string; path: (string | number)[]; message: string }[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof Error && err.name === 'ValidationError') return (err as unknown as { issues: { code: string; path: (string | number)[]; message: string }[] }).issues;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

/** The model a recorded exchange named in its URL (`.../models/<model>:generateContent`). */
export function urlModel(url: string): string | undefined {
  return /models\/([^:/?]+):/.exec(url)?.[1];
}

export interface Body {
  name: string;
  kind: 'request' | 'response';
  body: Record<string, unknown>;
  url?: string;
}

/** Every local Gemini body: the request and non-streaming response of each exchange, bare bodies. */
export function localBodies(): Body[] {
  const out: Body[] = [];
  for (const file of listFiles(join(FIXTURES, 'exchanges'), ['.json', '.yaml'])) {
    for (const ex of readExchanges(file, FIXTURES) as Exchange[]) {
      if (!/:(stream)?[gG]enerateContent/.test(ex.url)) continue;
      out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request as Record<string, unknown>, url: ex.url });
      if (!ex.url.includes('stream') && ex.response !== undefined) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response as Record<string, unknown>, url: ex.url });
    }
  }
  for (const file of listFiles(join(FIXTURES, 'requests'), ['.json'])) out.push({ name: file.slice(FIXTURES.length + 1), kind: 'request', body: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> });
  for (const file of listFiles(join(FIXTURES, 'responses'), ['.json'])) out.push({ name: file.slice(FIXTURES.length + 1), kind: 'response', body: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> });
  return out;
}
