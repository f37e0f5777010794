import { LossError, UsageError } from '../model/errors.js';
import type { Kind } from '../model/format-id.js';
import type { Loss } from '../model/loss.js';
import { DEFAULT_LIMITS, type Limits } from './codec.js';
import { getKindCodec } from './registry.js';
import { readsHints } from './shared/hint-readers.js';
import { LossList } from './shared/loss-list.js';

export interface ConvertOptions {
  from: string;
  to: string;
  kind?: 'request' | 'response';
  /** Embed what the target cannot hold so converting back is exact (not for sending to a provider). */
  preserve?: boolean;
  /** Throw a LossError instead of returning a lossy result. */
  strict?: boolean;
  limits?: Partial<Limits>;
}

export interface ConvertResult<T = unknown> {
  value: T;
  losses: Loss[];
}

/**
 * Converts a request or response body from one format to another through the canonical model.
 * Validates first: invalid input throws a ValidationError whose `issues` carry JSON paths.
 * `from === to` is a validated round trip.
 */
export function convert<T = unknown>(body: unknown, options: ConvertOptions): ConvertResult<T> {
  const kind: Kind = options.kind ?? 'request';
  if (kind !== 'request' && kind !== 'response') {
    throw new UsageError(`convert handles kinds 'request' and 'response', not '${String(kind)}'`);
  }
  const source = getKindCodec(options.from, kind);
  const target = getKindCodec(options.to, kind);
  const losses = new LossList();
  // No copy when the caller sets no limits (nearly every call): codecs only read them.
  const limits: Limits = options.limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...options.limits };
  // The source's private hints only matter to a target that reads them, or on the way back.
  const canonical = source.decode(body, { limits, losses, hints: options.preserve === true || readsHints(options.to) });
  const value = target.encode(canonical, { preserve: options.preserve === true, losses });
  if (options.strict === true && losses.length > 0) throw new LossError(losses.items);
  return { value: value as T, losses: losses.items };
}

/** Decodes a body into the canonical model (validating it), for callers who work on the model. */
export function decode(body: unknown, options: { from: string; kind?: 'request' | 'response'; limits?: Partial<Limits> }): ConvertResult {
  const losses = new LossList();
  const value = getKindCodec(options.from, options.kind ?? 'request').decode(body, {
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    losses,
  });
  return { value, losses: losses.items };
}

/** Encodes a canonical request or response into a format. */
export function encode(value: unknown, options: { to: string; kind?: 'request' | 'response'; preserve?: boolean }): ConvertResult {
  const losses = new LossList();
  const out = getKindCodec(options.to, options.kind ?? 'request').encode(value, {
    preserve: options.preserve === true,
    losses,
  });
  return { value: out, losses: losses.items };
}
