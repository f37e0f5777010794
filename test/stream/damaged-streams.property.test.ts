/**
 * Real captures of every stream dialect, damaged (cut at a random byte or at an event boundary,
 * events dropped, duplicated, swapped, an event's JSON garbled), fed in random chunks through
 * `transcode` into every stream dialect. Every run ends in one of three ways, and in bounded time:
 * - a typed error (ValidationError, or LossError under strict);
 * - output plus the `incomplete-stream` loss (the stream was cut before its end);
 * - output that the target's own decoder reads as a whole stream (an end or an error event).
 * Never silently empty, never an untyped crash, never a hang.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LossError, ValidationError } from '../../src/model/errors.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { encodeEventStreamMessage } from '../../src/stream/event-stream.js';
import { formatSse } from '../../src/stream/sse.js';
import { concat, rawCaptures, readBack, STREAM_DIALECTS, toBody, transcodeBody } from '../support/raw-streams.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 150);
/** A run that has not settled by then hangs (a transcode of one capture takes milliseconds). */
const HANG_MS = 5000;

const captures = rawCaptures();
/** Drawn by key, so a counterexample names its capture instead of printing it. */
const byKey = new Map(captures.map((c) => [`${c.dialect}:${c.name}`, c]));

type Damage =
  | { kind: 'cut-events'; at: number }
  | { kind: 'drop'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'garble'; at: number; pos: number; how: 'truncate' | 'insert'; char: string };

/** Positions are fractions of the length, so one damage fits any capture. */
const frac = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const damage: fc.Arbitrary<Damage> = fc.oneof(
  frac.map((at) => ({ kind: 'cut-events' as const, at })),
  frac.map((at) => ({ kind: 'drop' as const, at })),
  frac.map((at) => ({ kind: 'duplicate' as const, at })),
  fc.tuple(frac, frac).map(([a, b]) => ({ kind: 'swap' as const, a, b })),
  fc.record({ at: frac, pos: frac, how: fc.constantFrom('truncate' as const, 'insert' as const), char: fc.constantFrom('"', '{', '}', ',', ':', 'x', '\\', ']') }).map((g) => ({ kind: 'garble' as const, ...g })),
);

/** An event as it will be written: whole, or its JSON text garbled. */
interface Frame { event: WireEvent; garbled?: string }

const idx = (f: number, n: number): number => Math.min(n - 1, Math.floor(f * n));

function damageFrames(frames: Frame[], d: Damage): Frame[] {
  const n = frames.length;
  if (n === 0) return frames;
  const out = [...frames];
  switch (d.kind) {
    case 'cut-events':
      return out.slice(0, idx(d.at, n));
    case 'drop':
      out.splice(idx(d.at, n), 1);
      return out;
    case 'duplicate': {
      const i = idx(d.at, n);
      out.splice(i, 0, out[i] as Frame);
      return out;
    }
    case 'swap': {
      const [i, j] = [idx(d.a, n), idx(d.b, n)];
      [out[i], out[j]] = [out[j] as Frame, out[i] as Frame];
      return out;
    }
    case 'garble': {
      const i = idx(d.at, n);
      const f = out[i] as Frame;
      const json = f.garbled ?? JSON.stringify(f.event.data);
      const p = Math.floor(d.pos * json.length);
      out[i] = { event: f.event, garbled: d.how === 'truncate' ? json.slice(0, p) : json.slice(0, p) + d.char + json.slice(p) };
      return out;
    }
  }
}

const utf8 = new TextEncoder();

/** Frames as bytes of `dialect`'s framing; a garbled event keeps its name and headers, its JSON text is the garbled one. */
function writeFrames(dialect: string, frames: Frame[]): Uint8Array {
  const framing = getStreamCodec(dialect).framing;
  return concat(
    frames.map((f) => {
      if (f.garbled === undefined) return toBody(dialect, [f.event]);
      if (framing === 'sse') return utf8.encode(formatSse({ ...f.event, data: f.garbled }));
      const e = f.event;
      const headers = e.exception
        ? { ':exception-type': e.event ?? '', ':content-type': 'application/json', ':message-type': 'exception' }
        : { ':event-type': e.event ?? '', ':content-type': 'application/json', ':message-type': 'event' };
      return encodeEventStreamMessage(headers, utf8.encode(f.garbled));
    }),
  );
}

type Outcome = { kind: 'error'; error: unknown } | { kind: 'output'; bytes: Uint8Array; codes: string[] } | { kind: 'hung' };

async function settle(p: Promise<{ bytes: Uint8Array; losses: { code: string }[] }>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ kind: 'hung' }), HANG_MS)));
  const done = p.then(
    (r): Outcome => ({ kind: 'output', bytes: r.bytes, codes: r.losses.map((l) => l.code) }),
    (error: unknown): Outcome => ({ kind: 'error', error }),
  );
  try {
    return await Promise.race([done, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('damaged real streams of every dialect, transcoded into every dialect', () => {
  it('has whole captures of every stream dialect to damage', () => {
    expect(new Set(captures.map((c) => c.dialect))).toEqual(new Set(STREAM_DIALECTS));
  });

  it('end in output with a complete end, output plus incomplete-stream, or a typed error; never silent, never hanging', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...byKey.keys()),
        fc.constantFrom(...STREAM_DIALECTS),
        fc.array(damage, { minLength: 1, maxLength: 3 }),
        fc.option(frac, { nil: undefined }),
        fc.array(frac, { maxLength: 4 }),
        fc.boolean(),
        async (key, to, damages, byteCut, chunkCuts, strict) => {
          const capture = byKey.get(key) as (typeof captures)[number];
          let frames: Frame[] = capture.events.map((event) => ({ event }));
          for (const d of damages) frames = damageFrames(frames, d);
          let body = writeFrames(capture.dialect, frames);
          if (byteCut !== undefined) body = body.slice(0, Math.floor(byteCut * body.length));
          const cuts = chunkCuts.map((c) => Math.floor(c * body.length));
          const outcome = await settle(transcodeBody(body, { from: capture.dialect, to, strict }, cuts));
          const where = `${capture.dialect} ${capture.name} -> ${to} ${JSON.stringify({ damages, byteCut, strict })}`;
          expect(outcome.kind, where).not.toBe('hung');
          if (outcome.kind === 'error') {
            const typed = outcome.error instanceof ValidationError || (strict && outcome.error instanceof LossError);
            expect(typed, `${where}: ${String(outcome.error)}`).toBe(true);
            return;
          }
          if (outcome.kind !== 'output') return;
          if (outcome.codes.includes('incomplete-stream')) return;
          // No loss of the end: the target's own reader sees a whole stream.
          const back = readBack(to, outcome.bytes);
          expect(back.some((e) => e.type === 'response-end' || e.type === 'error'), where).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
