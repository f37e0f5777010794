/**
 * Stream conversion through the canonical stream: a dialect's wire events are decoded one at a
 * time, and each canonical event is encoded into the target dialect at once, so output flows as
 * input arrives. `transcode` works on raw bytes/text (framing included) as a TransformStream, bytes out;
 * `accumulateStream` folds a stream into the final response of any dialect; `responseToStream`
 * re-emits a final response as a stream.
 */
import type { Loss } from '../model/loss.js';
import type { Response } from '../model/response.js';
import type { StreamError, WireEvent } from '../model/stream-event.js';
import { DEFAULT_LIMITS } from '../formats/codec.js';
import { getKindCodec, getStreamCodec } from '../formats/registry.js';
import { Accumulator } from './accumulate.js';
import { ByteTranscoder, type ByteStreamOptions } from './byte-transcoder.js';
import { responseToEvents } from './from-response.js';
import { sink, Transcoder, type StreamOptions } from './transcoder.js';

export { Transcoder, type StreamOptions } from './transcoder.js';
export type { ByteStreamOptions } from './byte-transcoder.js';

/** Wire events to wire events as a TransformStream. */
export function transcodeEvents(options: StreamOptions): TransformStream<WireEvent, WireEvent> {
  const t = new Transcoder(options);
  return new TransformStream({
    transform(event, controller) {
      for (const w of t.push(event)) controller.enqueue(w);
    },
    flush(controller) {
      for (const w of t.end()) controller.enqueue(w);
    },
  });
}

/**
 * Raw stream to raw stream as a TransformStream: SSE text or AWS event-stream bytes in the source
 * dialect's framing (or JSON lines with `lines`), out as UTF-8 bytes of the target's framing (one
 * chunk out for each chunk in that completed an event, holding all it completed), so
 * `new Response(upstream.body.pipeThrough(transcode(...)))` serves it. A body that is not the
 * framing errors the stream with a ValidationError naming what arrived; a JSON error body of the
 * source dialect comes out as the target's error event; a stream cut before its end reports
 * `incomplete-stream` (a LossError under `strict`).
 */
export function transcode(options: ByteStreamOptions): TransformStream<Uint8Array | string, Uint8Array> {
  const t = new ByteTranscoder(options);
  return new TransformStream({
    // One enqueue per input chunk, however many events it completed (pack.ts).
    transform(chunk, controller) {
      const bytes = t.push(chunk);
      if (bytes !== undefined) controller.enqueue(bytes);
    },
    flush(controller) {
      const bytes = t.end();
      if (bytes !== undefined) controller.enqueue(bytes);
    },
  });
}

export interface AccumulatedBody {
  /** The final (non-streaming) response body in the target dialect. */
  value: unknown;
  /** The canonical response it was encoded from. */
  response: Response;
  complete: boolean;
  error?: StreamError;
  losses: Loss[];
}

/** Folds the wire events of a `from` stream into `to`'s final response body. */
export function accumulateStream(events: Iterable<WireEvent>, options: StreamOptions & { preserve?: boolean }): AccumulatedBody {
  const losses: Loss[] = [];
  const s = sink(losses, options);
  const decoder = getStreamCodec(options.from).decoder({ limits: DEFAULT_LIMITS, losses: s });
  const acc = new Accumulator();
  for (const w of events) for (const e of decoder.push(w)) acc.push(e);
  for (const e of decoder.end()) acc.push(e);
  const result = acc.result();
  for (const l of result.losses) s.push(l);
  const value = getKindCodec(options.to, 'response').encode(result.response, { preserve: options.preserve === true, losses: s });
  const out: AccumulatedBody = { value, response: result.response, complete: result.complete, losses };
  if (result.error !== undefined) out.error = result.error;
  return out;
}

/** A final response body of `from` as the wire events of a `to` stream. */
export function responseToStream(body: unknown, options: StreamOptions): { events: WireEvent[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const s = sink(losses, options);
  const res = getKindCodec(options.from, 'response').decode(body, { limits: DEFAULT_LIMITS, losses: s }) as Response;
  const encoder = getStreamCodec(options.to).encoder({ losses: s, ...(options.includeUsage === undefined ? {} : { includeUsage: options.includeUsage }) });
  const events: WireEvent[] = [];
  for (const e of responseToEvents(res)) events.push(...encoder.push(e));
  events.push(...encoder.end());
  return { events, losses };
}
