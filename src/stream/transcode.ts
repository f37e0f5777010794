/**
 * Stream conversion through the canonical stream: a dialect's wire events are decoded one at a
 * time, and each canonical event is encoded into the target dialect at once, so output flows as
 * input arrives. `transcode` works on raw bytes/text (framing included) as a TransformStream;
 * `accumulateStream` folds a stream into the final response of any dialect; `responseToStream`
 * re-emits a final response as a stream.
 */
import { LossError } from '../model/errors.js';
import type { Loss } from '../model/loss.js';
import type { Response } from '../model/response.js';
import type { StreamError, StreamEvent, WireEvent } from '../model/stream-event.js';
import { DEFAULT_LIMITS, type LossSink, type StreamDecoder, type StreamEncoder } from '../formats/codec.js';
import { getKindCodec, getStreamCodec } from '../formats/registry.js';
import { Accumulator } from './accumulate.js';
import { frameReader, frameWriter } from './framing.js';
import { responseToEvents } from './from-response.js';

export interface StreamOptions {
  from: string;
  to: string;
  /** Include usage where the target makes it optional (OpenAI Chat usage chunk); default true. */
  includeUsage?: boolean;
  /** Called with each loss as it happens (they are also collected in `losses`). */
  onLoss?: (loss: Loss) => void;
  /** Throw a LossError at the first loss instead. */
  strict?: boolean;
}

function sink(losses: Loss[], options: Pick<StreamOptions, 'onLoss' | 'strict'>): LossSink {
  return {
    push(loss) {
      if (options.strict === true) throw new LossError([loss]);
      losses.push(loss);
      options.onLoss?.(loss);
    },
  };
}

/** Wire events of `from` in, wire events of `to` out, one event at a time. */
export class Transcoder {
  readonly losses: Loss[] = [];
  private readonly decoder: StreamDecoder;
  private readonly encoder: StreamEncoder;

  constructor(options: StreamOptions) {
    const losses = sink(this.losses, options);
    this.decoder = getStreamCodec(options.from).decoder({ limits: DEFAULT_LIMITS, losses });
    this.encoder = getStreamCodec(options.to).encoder({ losses, ...(options.includeUsage === undefined ? {} : { includeUsage: options.includeUsage }) });
  }

  push(event: WireEvent): WireEvent[] {
    return this.encode(this.decoder.push(event));
  }

  end(): WireEvent[] {
    return [...this.encode(this.decoder.end()), ...this.encoder.end()];
  }

  private encode(events: StreamEvent[]): WireEvent[] {
    const out: WireEvent[] = [];
    for (const e of events) for (const w of this.encoder.push(e)) out.push(w);
    return out;
  }
}

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
 * dialect's framing (or JSON lines with `lines`), out in the target's (SSE text as strings,
 * event-stream as bytes).
 */
export function transcode(options: StreamOptions & { lines?: boolean }): TransformStream<Uint8Array | string, Uint8Array | string> {
  const t = new Transcoder(options);
  const reader = frameReader(getStreamCodec(options.from).framing, { lines: options.lines === true });
  const write = frameWriter(getStreamCodec(options.to).framing);
  return new TransformStream({
    transform(chunk, controller) {
      for (const e of reader.push(chunk)) for (const w of t.push(e)) controller.enqueue(write(w));
    },
    flush(controller) {
      for (const e of reader.end()) for (const w of t.push(e)) controller.enqueue(write(w));
      for (const w of t.end()) controller.enqueue(write(w));
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
