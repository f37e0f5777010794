import type { FormatId, Kind } from '../model/format-id.js';
import type { Loss } from '../model/loss.js';
import type { Message } from '../model/message.js';
import type { Request } from '../model/request.js';
import type { Response } from '../model/response.js';
import type { JsonValue } from '../model/json.js';
import type { StreamError, StreamEvent, WireEvent } from '../model/stream-event.js';

export interface Limits {
  /** Largest text block accepted, in UTF-8 bytes. The source design's default is 100 KB. */
  maxTextBytes: number;
}

// Frozen: convert and the Transcoder hand this one object to every codec, which must only read it.
export const DEFAULT_LIMITS: Limits = Object.freeze({ maxTextBytes: 100 * 1024 });

/** Collects losses as a conversion goes; codecs only ever push. */
export interface LossSink {
  push(loss: Loss): void;
}

export interface DecodeContext {
  limits: Limits;
  /** Decoders report here what they had to set aside (e.g. a stale preserve stash). */
  losses: LossSink;
  /**
   * false: the value goes only to an encoder that reads no other format's private `$` hints
   * (shared/hint-readers.ts), so a decoder may skip making its own. Default true.
   */
  hints?: boolean;
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

/**
 * Reads one wire message of the dialect on its own, with no request around it (so none of the
 * request's rules that span messages apply): for a format that stores another dialect's messages,
 * as Strands stores Converse messages in AgentCore events. Throws a ValidationError whose paths
 * start at the message.
 */
export interface MessageDecoder {
  decode(wire: unknown, ctx: DecodeContext): Message;
}

/**
 * Turns a dialect's wire events into canonical stream events, one wire event at a time, with work
 * proportional to the event. `push` throws a ValidationError (path `[<wire event index>, ...]`) for
 * an event that is not valid in the dialect. `end` is called when the input ends: it returns what
 * the dialect leaves to be said at the end, never invented completions (a cut-off stream stays cut off).
 */
export interface StreamDecoder {
  push(event: WireEvent): StreamEvent[];
  end(): StreamEvent[];
}

/**
 * Turns canonical stream events into the dialect's wire events with the lifecycle its official SDK
 * expects, one canonical event at a time; holds back only what the dialect needs whole. Losses go
 * to the context's sink with the path `[<canonical event index>, ...]`. `end` flushes at end of input.
 */
export interface StreamEncoder {
  push(event: StreamEvent): WireEvent[];
  end(): WireEvent[];
}

export interface StreamEncodeContext {
  losses: LossSink;
  /** Ask the dialect to include usage where it is optional (OpenAI Chat `stream_options.include_usage`); default true. */
  includeUsage?: boolean;
  /**
   * The caller writes each event as it comes, before anything can change it (a gateway relay, a
   * byte transcoder): encoders may then hand out events carrying their JSON text already written
   * (shared/stream-written.ts), which the writers use instead of JSON.stringify. Off by default: a
   * caller that changes an event's data in place and then writes it would send the old text.
   */
  eventText?: boolean;
}

/** How a dialect frames its stream on the wire. */
export type Framing = 'sse' | 'aws-event-stream' | 'json-lines';

export interface StreamCodec {
  framing: Framing;
  decoder(ctx: DecodeContext): StreamDecoder;
  encoder(ctx: StreamEncodeContext): StreamEncoder;
}

/** Response headers as a Fetch `Headers` or a plain record (names compared case-insensitively). */
export type HeaderLookup = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** An error as a dialect's HTTP API answers it: the status, headers and JSON body its official SDK reads into its own error class. */
export interface HttpErrorBody {
  status: number;
  headers: Record<string, string>;
  body: JsonValue;
}

/**
 * A dialect's error bodies. `decode` reads the JSON body an API answers a failed call with (or a
 * stream's error payload); it returns undefined when the body is not that dialect's error shape.
 * `encode` writes an error so that the dialect's official SDK raises its own error class with
 * `status` and `message` (the type or code is the dialect's own for that status unless
 * `error.type` is already one of the dialect's).
 */
export interface ErrorCodec {
  decode(body: unknown, status?: number, headers?: HeaderLookup): StreamError | undefined;
  encode(error: StreamError & { status: number }): HttpErrorBody;
}

export interface Codec {
  id: FormatId;
  /** A human name for tables and help. */
  title: string;
  request?: KindCodec<Request>;
  response?: KindCodec<Response>;
  stream?: StreamCodec;
  errors?: ErrorCodec;
  /** One wire message read alone; only dialects whose messages another format stores have it. */
  message?: MessageDecoder;
}

export function codecKinds(codec: Codec): Kind[] {
  const kinds: Kind[] = [];
  if (codec.request) kinds.push('request');
  if (codec.response) kinds.push('response');
  if (codec.stream) kinds.push('stream');
  return kinds;
}
