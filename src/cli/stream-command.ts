/**
 * `convert --kind stream`: reads a stream capture (SSE text, Bedrock event-stream bytes, or JSON
 * lines of events) in the source dialect and writes it as the target dialect's stream, or with
 * `--accumulate` as the target's final response. The input's layout is told from its first bytes.
 */
import { UsageError } from '../model/errors.js';
import type { WireEvent } from '../model/stream-event.js';
import type { Framing } from '../formats/codec.js';
import { getStreamCodec } from '../formats/registry.js';
import { classifyStart, notTheFraming } from '../stream/body-start.js';
import { frameReader, frameWriter } from '../stream/framing.js';
import { accumulateStream, Transcoder } from '../stream/transcode.js';
import type { ParsedArgs } from './args.js';
import type { CliIo } from './io.js';
import { lossLine } from './render.js';

/** Enough of the input's start to tell what it is. */
const START_BYTES = 4096;

/** JSON lines start with `{`; SSE with a field name or a comment; event-stream with a binary prelude. */
function inputIsJsonLines(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    return b === 0x7b; // '{'
  }
  return false;
}

/** The input's events; input that is neither JSON lines nor the framing is a ValidationError naming what it is. */
export function readWireEvents(bytes: Uint8Array, framing: Framing): WireEvent[] {
  const lines = inputIsJsonLines(bytes);
  if (!lines) {
    const head = bytes.subarray(0, START_BYTES);
    const start = classifyStart(head, framing, head.length === bytes.length);
    if (start?.kind === 'empty') return [];
    if (start?.kind === 'other') throw notTheFraming(framing, start.received);
    if (start?.kind === 'json') throw notTheFraming(framing, 'a JSON array');
  }
  const reader = frameReader(framing, { lines });
  return [...reader.push(bytes), ...reader.end()];
}

export async function streamCommand(args: ParsedArgs, io: CliIo, from: string, to: string, bytes: Uint8Array): Promise<number> {
  if (args.flags.has('preserve') && !args.flags.has('accumulate')) throw new UsageError('--preserve applies to --accumulate (a final response), not to a stream');
  const source = getStreamCodec(from);
  const events = readWireEvents(bytes, source.framing);
  const strict = args.flags.has('strict');
  if (args.flags.has('accumulate')) {
    const out = accumulateStream(events, { from, to, strict, preserve: args.flags.has('preserve') });
    io.stdout(`${args.flags.has('compact') ? JSON.stringify(out.value) : JSON.stringify(out.value, null, 2)}\n`);
    for (const loss of out.losses) io.stderr(`${lossLine(loss)}\n`);
    if (out.error !== undefined) io.stderr(`stream error: ${out.error.type ?? 'error'}: ${out.error.message}\n`);
    return 0;
  }
  const write = frameWriter(getStreamCodec(to).framing);
  const t = new Transcoder({ from, to, strict, eventText: true, onLoss: (loss) => io.stderr(`${lossLine(loss)}\n`) });
  const emit = (w: WireEvent): void => {
    const chunk = write(w);
    if (typeof chunk === 'string') io.stdout(chunk);
    else if (io.stdoutBytes) io.stdoutBytes(chunk);
    else throw new UsageError('this output cannot take binary data');
  };
  for (const e of events) for (const w of t.push(e)) emit(w);
  for (const w of t.end()) emit(w);
  return 0;
}
