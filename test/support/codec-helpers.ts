/**
 * The calls every format's unit tests make on its codec, in one place: decode / encode of the
 * request and response kinds with a fresh loss list, loss codes, and the issues of a thrown
 * ValidationError.
 */
import { DEFAULT_LIMITS, type Codec, type Limits } from '../../src/formats/codec.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import type { Loss } from '../../src/model/loss.js';
import type { Request } from '../../src/model/request.js';
import type { Response } from '../../src/model/response.js';

export interface Encoded {
  value: Record<string, unknown>;
  losses: Loss[];
}

export function codecCalls(codec: Codec) {
  const req = codec.request;
  const res = codec.response;
  if (req === undefined || res === undefined) throw new Error(`${codec.id} has no request or response codec`);
  return {
    decodeRequest: (body: unknown, limits: Partial<Limits> = {}): Request => req.decode(body, { limits: { ...DEFAULT_LIMITS, ...limits }, losses: new LossList() }),
    encodeRequest: (value: Request, preserve = false): Encoded => {
      const losses = new LossList();
      return { value: req.encode(value, { preserve, losses }) as Record<string, unknown>, losses: losses.items };
    },
    decodeResponse: (body: unknown): Response => res.decode(body, { limits: DEFAULT_LIMITS, losses: new LossList() }),
    encodeResponse: (value: Response, preserve = false): Encoded => {
      const losses = new LossList();
      return { value: res.encode(value, { preserve, losses }) as Record<string, unknown>, losses: losses.items };
    },
  };
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
