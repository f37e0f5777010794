/**
 * Raw stream bytes of one dialect to raw UTF-8 bytes of another, chunk by chunk. Before reading the
 * framing it looks at the body's first bytes (body-start.ts): a JSON body where a stream should be
 * is read whole (it is one value, not a stream) and, when it is the source dialect's error answer,
 * becomes the target dialect's error event so a server passes the failure on; any other body that
 * is not the framing is a ValidationError naming what arrived.
 */
import type { Loss } from '../model/loss.js';
import type { WireEvent } from '../model/stream-event.js';
import type { Framing, HeaderLookup } from '../formats/codec.js';
import { getCodec, getStreamCodec } from '../formats/registry.js';
import { decodeError } from '../formats/errors.js';
import { classifyStart, describeJson, notTheFraming, SNIFF_BYTES } from './body-start.js';
import { frameReader, frameWriter, type FrameReader } from './framing.js';
import { joinBytes, packFrames } from './pack.js';
import { Transcoder, type StreamOptions } from './transcoder.js';

export interface ByteStreamOptions extends StreamOptions {
  /** The input is JSON lines of the source's events (as decoded captures hold them), not its framing. */
  lines?: boolean;
  /** The HTTP status the body came with: given to the source's error codec when the body is a JSON error. */
  status?: number;
  /** The response headers it came with (Bedrock names its error in `x-amzn-ErrorType`), for the same. */
  headers?: HeaderLookup;
}

/** A JSON body is an error answer, not a stream; past this size it is not worth reading whole. */
const MAX_JSON_BODY = 1024 * 1024;

const utf8 = new TextEncoder();

type Chunk = Uint8Array | string;
type Frame = Uint8Array | string;

export class ByteTranscoder {
  private readonly t: Transcoder;
  private readonly reader: FrameReader;
  private readonly write: (e: WireEvent) => Frame;
  private readonly framing: Framing;
  /** Until the start is told: the chunks held back and their first bytes. */
  private pending: Chunk[] | undefined = [];
  private head: Uint8Array = new Uint8Array(0);
  /** A JSON body being read whole, and its size so far. */
  private json: Chunk[] | undefined;
  private jsonBytes = 0;

  constructor(private readonly options: ByteStreamOptions) {
    // Events never leave: each is written as it comes.
    this.t = new Transcoder({ ...options, eventText: true });
    const source = getStreamCodec(options.from).framing;
    // JSON lines start with '{': only a framing's start is checked.
    this.framing = options.lines === true ? 'json-lines' : source;
    this.reader = frameReader(source, { lines: options.lines === true });
    this.write = frameWriter(getStreamCodec(options.to).framing);
  }

  get losses(): Loss[] {
    return this.t.losses;
  }

  /** What the chunk completed, as one byte array (see pack.ts), or undefined when it completed nothing. */
  push(chunk: Chunk): Uint8Array | undefined {
    const out: Frame[] = [];
    if (this.json !== undefined) this.buffer(chunk);
    else if (this.pending === undefined) this.read(chunk, out);
    else {
      this.pending.push(chunk);
      // Only the first bytes are looked at (a string's first SNIFF_BYTES characters hold at least as many bytes).
      if (this.head.length < SNIFF_BYTES) this.head = joinBytes([this.head, typeof chunk === 'string' ? utf8.encode(chunk.slice(0, SNIFF_BYTES)) : chunk.subarray(0, SNIFF_BYTES)]);
      this.decide(false, out);
    }
    return packFrames(out);
  }

  /** The rest of the stream, as one byte array, or undefined when nothing is left to write. */
  end(): Uint8Array | undefined {
    const out: Frame[] = [];
    if (this.pending !== undefined) this.decide(true, out);
    if (this.json !== undefined) return packFrames(this.errorBody());
    for (const e of this.reader.end()) for (const w of this.t.push(e)) out.push(this.write(w));
    for (const w of this.t.end(this.reader.cutTail)) out.push(this.write(w));
    return packFrames(out);
  }

  private decide(final: boolean, out: Frame[]): void {
    const start = classifyStart(this.head, this.framing, final);
    if (start === undefined) return;
    const held = this.pending ?? [];
    this.pending = undefined;
    if (start.kind === 'other') throw notTheFraming(this.framing, start.received);
    if (start.kind === 'empty') return;
    if (start.kind === 'json') {
      this.json = [];
      for (const c of held) this.buffer(c);
      return;
    }
    for (const c of held) this.read(c, out);
  }

  private read(chunk: Chunk, out: Frame[]): void {
    for (const e of this.reader.push(chunk)) for (const w of this.t.push(e)) out.push(this.write(w));
  }

  private buffer(chunk: Chunk): void {
    const json = this.json as Chunk[];
    json.push(chunk);
    this.jsonBytes += chunk.length;
    if (this.jsonBytes > MAX_JSON_BODY) throw notTheFraming(this.framing, `a JSON body of more than ${MAX_JSON_BODY} bytes`);
  }

  /** The whole JSON body: the source dialect's error becomes the target's error event; anything else is named. */
  private errorBody(): Frame[] {
    const decoder = new TextDecoder();
    const text = (this.json ?? []).map((c) => (typeof c === 'string' ? c : decoder.decode(c, { stream: true }))).join('') + decoder.decode();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (isJsonLines(text)) throw notTheFraming(this.framing, 'JSON lines (read them with `lines: true`)');
      const start = text.trimStart().slice(0, 40);
      throw notTheFraming(this.framing, `text that starts like JSON but is not JSON (${JSON.stringify(start)})`);
    }
    const error = getCodec(this.options.from).errors === undefined ? undefined : decodeError(this.options.from, value, this.options.status, this.options.headers);
    if (error === undefined) throw notTheFraming(this.framing, describeJson(value));
    return this.t.fail(error).map(this.write);
  }
}

/** Several lines, the first of them a JSON value: events one per line, as decoded captures hold them. */
function isJsonLines(text: string): boolean {
  const lines = text.trim().split('\n');
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0] as string);
    return true;
  } catch {
    return false;
  }
}
