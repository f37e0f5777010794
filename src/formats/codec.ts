import type { FormatId, Kind } from '../model/format-id.js';
import type { Loss } from '../model/loss.js';
import type { Request } from '../model/request.js';
import type { Response } from '../model/response.js';

export interface Limits {
  /** Largest text block accepted, in UTF-8 bytes. The source design's default is 100 KB. */
  maxTextBytes: number;
}

export const DEFAULT_LIMITS: Limits = { maxTextBytes: 100 * 1024 };

/** Collects losses as a conversion goes; codecs only ever push. */
export interface LossSink {
  push(loss: Loss): void;
}

export interface DecodeContext {
  limits: Limits;
  /** Decoders report here what they had to set aside (e.g. a stale preserve stash). */
  losses: LossSink;
}

export interface EncodeContext {
  /** Embed what the target cannot hold in an `x-interlingua` extension, for an exact way back. */
  preserve: boolean;
  losses: LossSink;
}

/**
 * One direction pair for one kind. `decode` validates first and throws a ValidationError listing
 * every problem with its JSON path; `encode` returns a body the real API accepts (plus the stash
 * under `preserve`) and reports every loss to `ctx.losses`.
 */
export interface KindCodec<T> {
  decode(body: unknown, ctx: DecodeContext): T;
  encode(value: T, ctx: EncodeContext): unknown;
}

export interface Codec {
  id: FormatId;
  /** A human name for tables and help. */
  title: string;
  request?: KindCodec<Request>;
  response?: KindCodec<Response>;
}

export function codecKinds(codec: Codec): Kind[] {
  const kinds: Kind[] = [];
  if (codec.request) kinds.push('request');
  if (codec.response) kinds.push('response');
  return kinds;
}
