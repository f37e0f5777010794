/**
 * The event-level core of stream conversion: a dialect's wire events are decoded one at a time and
 * each canonical event is encoded into the target at once. A stream that stops without its end
 * event (or an error) is said at the end, as accumulation says it (`incomplete-stream`), so a cut
 * stream never passes for a whole one.
 */
import { LossError } from '../model/errors.js';
import type { Loss } from '../model/loss.js';
import type { StreamError, StreamEvent, WireEvent } from '../model/stream-event.js';
import { DEFAULT_LIMITS, type LossSink, type StreamDecoder, type StreamEncoder } from '../formats/codec.js';
import { getStreamCodec } from '../formats/registry.js';
import { incompleteStreamLoss } from './accumulate.js';

export interface StreamOptions {
  from: string;
  to: string;
  /** Include usage where the target makes it optional (OpenAI Chat usage chunk); default true. */
  includeUsage?: boolean;
  /** Called with each loss as it happens (they are also collected in `losses`). */
  onLoss?: (loss: Loss) => void;
  /** Throw a LossError at the first loss instead. */
  strict?: boolean;
  /** Each event is written (frameWriter) as it comes, unchanged: see StreamEncodeContext.eventText. */
  eventText?: boolean;
}

export function sink(losses: Loss[], options: Pick<StreamOptions, 'onLoss' | 'strict'>): LossSink {
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
  private readonly sink: LossSink;
  private readonly decoder: StreamDecoder;
  private readonly encoder: StreamEncoder;
  /** Canonical events so far (the path of an end-of-stream loss). */
  private n = 0;
  /** A response-end or an error came: the stream is whole. */
  private over = false;

  constructor(options: StreamOptions) {
    this.sink = sink(this.losses, options);
    this.decoder = getStreamCodec(options.from).decoder({ limits: DEFAULT_LIMITS, losses: this.sink });
    this.encoder = getStreamCodec(options.to).encoder({
      losses: this.sink,
      ...(options.includeUsage === undefined ? {} : { includeUsage: options.includeUsage }),
      ...(options.eventText === true ? { eventText: true } : {}),
    });
  }

  push(event: WireEvent): WireEvent[] {
    return this.encode(this.decoder.push(event));
  }

  /** End of input: what the decoder leaves to say, the loss of a missing end, then the encoder's flush. */
  /** `cutTail`: what the framing reader left out of an event the input was cut inside of. */
  end(cutTail?: string): WireEvent[] {
    const out = this.encode(this.decoder.end());
    // The encoder's own losses at the end (a call it could not write whole) come first; the stream's last.
    const tail = this.encoder.end();
    // A cut event after the end event (Bedrock's metadata follows messageStop) still lost what it held.
    if (!this.over || cutTail !== undefined) this.sink.push(incompleteStreamLoss(this.n, cutTail));
    return [...out, ...tail];
  }

  /** The source answered with an error instead of a stream: the target's error event, and the end. */
  fail(error: StreamError): WireEvent[] {
    return [...this.encode([{ type: 'error', error }]), ...this.encoder.end()];
  }

  private encode(events: StreamEvent[]): WireEvent[] {
    // Usually one canonical event per wire event: the encoder's (fresh) array as it is, no copy.
    if (events.length === 1) {
      const e = events[0] as StreamEvent;
      this.n++;
      if (e.type === 'response-end' || e.type === 'error') this.over = true;
      return this.encoder.push(e);
    }
    const out: WireEvent[] = [];
    for (const e of events) {
      this.n++;
      if (e.type === 'response-end' || e.type === 'error') this.over = true;
      for (const w of this.encoder.push(e)) out.push(w);
    }
    return out;
  }
}
