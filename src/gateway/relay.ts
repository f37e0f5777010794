/**
 * Forwarding a provider's stream to the client as it arrives: each chunk read is decoded into wire
 * events, transcoded to the client's dialect and written before the next is read (the output is
 * pulled, so a slow client slows the reads from the provider). A failure mid-stream — the provider
 * cut off, a broken event, a strict loss — becomes the client dialect's stream error event, then
 * the stream ends. Same dialect: the provider's bytes are passed on untouched.
 */
import { frameReader, frameWriter, Transcoder, type Loss, type StreamError, type WireEvent } from '../index.js';
import type { Dialect } from './config.js';
import { DIALECT_FACTS } from './dialects.js';
import { GatewayError, streamErrorEvent } from './errors.js';
import { packFrames, utf8Bytes } from '../stream/pack.js';

export interface RelayOptions {
  from: Dialect;
  to: Dialect;
  /** Chat clients get the usage chunk only when they asked for it. */
  includeUsage: boolean;
  strict: boolean;
  onLoss(loss: Loss): void;
  /** Called once at the end with the provider's wire events (only collected when `collect`); the stream closes after it settles. */
  onEnd(result: { events: WireEvent[]; error?: GatewayError }): void | Promise<void>;
  collect: boolean;
  /** What a transport failure mid-stream is reported as. */
  transportError(err: unknown): GatewayError;
  /** Abort the provider call (the client went away). */
  abort(reason: unknown): void;
}

export function relayStream(source: AsyncIterable<Uint8Array>, o: RelayOptions): ReadableStream<Uint8Array> {
  const reader = source[Symbol.asyncIterator]();
  const stop = async (): Promise<void> => {
    try {
      await reader.return?.();
    } catch {
      // The source already failed; nothing more to release.
    }
  };
  const same = o.from === o.to;
  const needsEvents = !same || o.collect;
  const frames = needsEvents ? frameReader(DIALECT_FACTS[o.from].framing) : undefined;
  const transcoder = same ? undefined : new Transcoder({ from: o.from, to: o.to, includeUsage: o.includeUsage, strict: o.strict, onLoss: o.onLoss, eventText: true });
  const write = frameWriter(DIALECT_FACTS[o.to].framing);
  const events: WireEvent[] = [];
  let finished = false;

  const finish = async (controller: ReadableStreamDefaultController<Uint8Array>, error?: GatewayError): Promise<void> => {
    if (finished) return;
    finished = true;
    if (error !== undefined) for (const chunk of errorChunks(error)) controller.enqueue(chunk);
    // The end is written once the turn is stored, so a client's next call sees it in memory.
    await o.onEnd(error === undefined ? { events } : { events, error });
    controller.close();
  };

  /** The error as the client dialect says it mid-stream: through the transcoder (so open blocks close as the dialect does), else written directly. */
  const errorChunks = (error: GatewayError): Uint8Array[] => {
    const e: StreamError & { status: number } = { status: error.status, message: error.message };
    if (error.type !== undefined) e.type = error.type;
    if (transcoder !== undefined) {
      try {
        return [...transcoder.push(streamErrorEvent(o.from, e)), ...transcoder.end()].map((w) => utf8Bytes(write(w)));
      } catch {
        // The transcoder is past repair (it threw the error being reported): say it directly.
      }
    }
    return [utf8Bytes(write(streamErrorEvent(o.to, e)))];
  };

  const translate = (wire: WireEvent[], out: (string | Uint8Array)[]): void => {
    if (o.collect) for (const e of wire) events.push(e);
    if (transcoder === undefined) return;
    for (const e of wire) for (const w of transcoder.push(e)) out.push(write(w));
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Read until something can be written (a chunk may hold no whole event yet).
        for (;;) {
          let read: IteratorResult<Uint8Array>;
          try {
            read = await reader.next();
          } catch (err) {
            await finish(controller, o.transportError(err));
            return;
          }
          try {
            const out: (string | Uint8Array)[] = [];
            if (read.done) {
              if (frames !== undefined) translate(frames.end(), out);
              if (transcoder !== undefined) for (const w of transcoder.end()) out.push(write(w));
              const tail = packFrames(out);
              if (tail !== undefined) controller.enqueue(tail);
              await finish(controller);
              return;
            }
            if (frames !== undefined) translate(frames.push(read.value), out);
            if (same) out.push(read.value);
            // One write per provider chunk, however many events it held: fewer syscalls and packets.
            const chunk = packFrames(out);
            if (chunk === undefined) continue;
            controller.enqueue(chunk);
            return;
          } catch (err) {
            await stop();
            o.abort(err);
            await finish(controller, streamFailure(err, o.from));
            return;
          }
        }
      },
      async cancel(reason) {
        // The client went away: stop reading and abort the provider's call.
        finished = true;
        o.abort(reason);
        await stop();
        await o.onEnd({ events, error: new GatewayError(499, 'client closed the stream') });
      },
    },
    { highWaterMark: 0 },
  );
}

function streamFailure(err: unknown, from: Dialect): GatewayError {
  if (err instanceof GatewayError) return err;
  const e = err as { name?: string; message?: string };
  if (e.name === 'LossError') return new GatewayError(422, `x-interlingua-strict: the stream would lose information: ${e.message ?? ''}`);
  if (e.name === 'ValidationError') return new GatewayError(502, `the upstream's ${from} stream is not valid: ${e.message ?? ''}`);
  return new GatewayError(500, `the stream failed: ${e.message ?? String(err)}`);
}
