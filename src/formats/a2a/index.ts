/**
 * The A2A codec (`a2a`): A2A v1.0 (as @a2a-js/sdk speaks it) and v0.3 (`kind`-tagged), detected on
 * input and chosen on output (`a2aVersion` in the context, default: the source's, else v1.0).
 * Request kind: a task's history or a list of messages, compacted (compact.ts), and any request as
 * A2A messages carrying their canonical types; under `preserve` what A2A cannot hold rides in the
 * messages' (and the send request's or task's) `metadata` (stash.ts). Stream kind: A2A's JSON-RPC
 * SSE stream of task events, with the source design's canonical_type mapping (stream-decode.ts,
 * stream-encode.ts).
 */
import type { Codec, StreamCodec } from '../codec.js';
import type { A2aVersion } from './a2a-api.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { A2aStreamDecoder } from './stream-decode.js';
import { A2aStreamEncoder } from './stream-encode.js';

export interface A2aOptions {
  /** The version to write when the context does not say; default: the source's, else 1.0. */
  version?: A2aVersion;
  /** The JSON-RPC id stream events answer (the request's id); default 1. */
  rpcId?: string | number;
}

/** An A2A codec whose encoders write `options.version` unless their context says otherwise. */
export function a2aCodec(options: A2aOptions = {}): Codec {
  const version = options.version === undefined ? {} : { a2aVersion: options.version };
  const stream: StreamCodec = {
    framing: 'sse',
    decoder: (ctx) => new A2aStreamDecoder(ctx),
    encoder: (ctx) => new A2aStreamEncoder({ ...version, ...(options.rpcId !== undefined ? { rpcId: options.rpcId } : {}), ...ctx }),
  };
  return {
    id: 'a2a',
    title: 'A2A (Agent2Agent) v1.0 / v0.3',
    request: { decode: decodeRequest, encode: (req, ctx) => encodeRequest(req, { ...version, ...ctx }) },
    stream,
  };
}

export const a2a: Codec = a2aCodec();

export { compactHistory, type CompactTarget } from './compact-history.js';
export type { A2aEncodeContext } from './request-encode.js';
export type { A2aStreamEncodeContext } from './stream-encode.js';
export type { A2aVersion, V1Message, V1Part, V1Task, V1StatusUpdate, V1ArtifactUpdate, V1StreamResponse, V03Message, V03Part, V03Task, V03StatusUpdate, V03ArtifactUpdate } from './a2a-api.js';
