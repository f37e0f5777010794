/**
 * Raw stream bodies (bytes in each dialect's own framing) from the real captures of every stream
 * dialect, and `transcode` run the way a server runs it: a ReadableStream of chunks piped through
 * it into `new Response(...)`. Used by the tests of streams that end badly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../../src/model/json.js';
import type { Loss } from '../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { formats, getStreamCodec } from '../../src/formats/registry.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { accumulate } from '../../src/stream/accumulate.js';
import { frameReader, frameWriter } from '../../src/stream/framing.js';
import { parseSse } from '../../src/stream/sse.js';
import { transcode, type ByteStreamOptions } from '../../src/stream/transcode.js';
import { listFiles, LOCAL_FIXTURES } from './captures.js';
import { localStreamCaptures, type StreamDialect } from './streams.js';

export const STREAM_DIALECTS = formats()
  .filter((f) => f.kinds.includes('stream'))
  .map((f) => f.id);

const PROVIDERS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];

export interface RawCapture {
  dialect: string;
  name: string;
  events: WireEvent[];
}

/** All canonical events of `wire` through `dialect`'s decoder (throws what the decoder throws). */
export function decodeWire(dialect: string, wire: readonly WireEvent[]): StreamEvent[] {
  const d = getStreamCodec(dialect).decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
  const out: StreamEvent[] = [];
  for (const w of wire) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

/** Captures that decode, whole and complete, in their own dialect: damage is then the only fault. */
function whole(c: RawCapture): boolean {
  try {
    return accumulate(decodeWire(c.dialect, c.events)).complete;
  } catch {
    return false;
  }
}

/** The local captures of every stream dialect: provider streams, AG-UI .NET server runs, the A2A spec stream. */
export function rawCaptures(): RawCapture[] {
  const out: RawCapture[] = PROVIDERS.flatMap((dialect) => localStreamCaptures(dialect).map((c) => ({ dialect, ...c })));
  for (const f of listFiles(join(LOCAL_FIXTURES, 'ag-ui/dotnet-baselines'), ['.Response.Server.AGUI.json'])) {
    const events = JSON.parse(readFileSync(f, 'utf8')) as JsonObject[];
    out.push({ dialect: 'ag-ui', name: f.slice(f.lastIndexOf('/') + 1), events: events.map((data) => ({ data })) });
  }
  out.push({ dialect: 'a2a', name: 'spec-v0.3-streaming.sse', events: parseSse(readFileSync(join(LOCAL_FIXTURES, 'a2a/streams/spec-v0.3-streaming.sse'), 'utf8')) });
  return out.filter(whole);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextEncoder();

/** Wire events as the bytes of `dialect`'s framing. */
export function toBody(dialect: string, events: readonly WireEvent[]): Uint8Array {
  const write = frameWriter(getStreamCodec(dialect).framing);
  return concat(events.map((e) => {
    const w = write(e);
    return typeof w === 'string' ? utf8.encode(w) : w;
  }));
}

/** A ReadableStream giving `body` in pieces cut at `cuts` (byte offsets, any order). */
export function bodyStream(body: Uint8Array | string, cuts: readonly number[] = []): ReadableStream<Uint8Array | string> {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < body.length))].sort((a, b) => a - b);
  const pieces: (Uint8Array | string)[] = [];
  let last = 0;
  for (const c of [...points, body.length]) {
    pieces.push(body.slice(last, c));
    last = c;
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

export interface Transcoded {
  bytes: Uint8Array;
  losses: Loss[];
}

/** `body` through `transcode` into a fetch Response, read whole, as a server would serve it. */
export async function transcodeBody(body: Uint8Array | string, options: ByteStreamOptions, cuts: readonly number[] = []): Promise<Transcoded> {
  const losses: Loss[] = [];
  const out = bodyStream(body, cuts).pipeThrough(transcode({ ...options, onLoss: (l) => losses.push(l) }));
  const bytes = new Uint8Array(await new Response(out).arrayBuffer());
  return { bytes, losses };
}

/** Output bytes of `dialect` read back with its own framing reader and decoder. */
export function readBack(dialect: string, bytes: Uint8Array): StreamEvent[] {
  const reader = frameReader(getStreamCodec(dialect).framing);
  return decodeWire(dialect, [...reader.push(bytes), ...reader.end()]);
}
