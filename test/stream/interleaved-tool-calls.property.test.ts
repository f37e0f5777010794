/**
 * Parallel tool calls whose argument fragments interleave at random (1-6 calls, each call's JSON
 * arguments cut at random, optional text first), as the wire of every dialect that allows it,
 * transcoded into every stream dialect. For every pair: the target's own decoder reads the output
 * as a canonical stream that passes verifyStream; accumulated, it holds the same calls (ids,
 * names, arguments) in their order of first appearance, the text, a complete response that stopped
 * for tool calls. Dialects that stream one block at a time (Anthropic, Bedrock, Gemini) get each
 * call as one contiguous block; text streams as it arrives in every target; Anthropic and
 * Bedrock stream the first call's arguments as they arrive. The official SDKs read a sample of
 * these streams in interleaved-tool-calls-sdk.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats } from '../../src/index.js';
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { frameReader, frameWriter } from '../../src/stream/framing.js';
import { accumulateStream, Transcoder } from '../../src/stream/transcode.js';
import { verifyStream } from '../../src/stream/verify.js';
import { INTERLEAVING_SOURCES, scenario, WIRE, type InterleavingSource, type Scenario } from '../support/interleaved-calls.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 30);

const TARGETS = formats()
  .filter((f) => f.kinds.includes('stream'))
  .map((f) => f.id);
/** Dialects whose blocks do not interleave: each call must come as one contiguous block. */
const SERIAL = new Set(['anthropic-messages', 'bedrock-converse', 'gemini']);
/** Dialects that stream a call's arguments (Gemini sends a call whole). */
const LIVE_ARGS = new Set(['anthropic-messages', 'bedrock-converse']);

interface Run {
  /** The target's wire, after its framing was written and read back. */
  wire: WireEvent[];
  /** How many target events each source event gave at once. */
  given: number[];
}

function transcodeRun(from: InterleavingSource, to: string, s: Scenario): Run & { tags: ReturnType<(typeof WIRE)[InterleavingSource]>['tags'] } {
  const src = WIRE[from](s);
  const t = new Transcoder({ from, to });
  const out: WireEvent[] = [];
  const given = src.wire.map((w) => {
    const got = t.push(w);
    out.push(...got);
    return got.length;
  });
  out.push(...t.end());
  const framing = getStreamCodec(to).framing;
  const write = frameWriter(framing);
  const read = frameReader(framing);
  const wire = out.flatMap((w) => read.push(write(w)));
  wire.push(...read.end());
  return { wire, given, tags: src.tags };
}

function decode(dialect: string, wire: readonly WireEvent[]): StreamEvent[] {
  const d = getStreamCodec(dialect).decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
  const out = wire.flatMap((w) => d.push(w));
  out.push(...d.end());
  return out;
}

/** Nothing happens inside a call's block but that call: start, its deltas, its end. */
function contiguousCalls(events: readonly StreamEvent[]): boolean {
  let open: number | undefined;
  for (const e of events) {
    if (e.type === 'tool-call-start') {
      if (open !== undefined) return false;
      open = e.index;
    } else if (open !== undefined) {
      if ((e.type === 'tool-call-delta' || e.type === 'tool-call-end') && e.index === open) {
        if (e.type === 'tool-call-end') open = undefined;
      } else if ('index' in e) return false;
    }
  }
  return true;
}

/** Checks one source -> target run of a scenario. */
function check(from: InterleavingSource, to: string, s: Scenario): void {
  const { wire, given, tags } = transcodeRun(from, to, s);
  const events = decode(to, wire);
  expect(verifyStream(events)).toEqual([]);
  const acc = accumulateStream(wire, { from: to, to: 'openai-chat' });
  expect(acc.complete).toBe(true);
  const parts = acc.response.choices[0]?.message.parts ?? [];
  const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.id, name: p.name, args: p.arguments }] : []));
  expect(calls).toEqual(s.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })));
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  expect(text).toBe(s.text.join(''));
  expect(acc.response.choices[0]?.stopReason?.unified).toBe('tool-calls');
  if (SERIAL.has(to)) expect(contiguousCalls(events)).toBe(true);
  // Text streams as it arrives; the first call's argument fragments too, where the target streams arguments.
  tags.forEach((tag, i) => {
    const live = tag === 'text' || (tag !== undefined && tag.kind === 'args' && tag.call === 0 && LIVE_ARGS.has(to));
    if (live) expect(given[i], `source event ${i} (${JSON.stringify(tag)})`).toBeGreaterThan(0);
  });
}

describe('interleaved parallel tool calls reach every stream dialect whole, in order', () => {
  for (const from of INTERLEAVING_SOURCES) {
    it(`from ${from}`, () => {
      fc.assert(
        fc.property(scenario(), (s) => {
          for (const to of TARGETS) {
            try {
              check(from, to, s);
            } catch (e) {
              throw new Error(`${from} -> ${to}: ${e instanceof Error ? e.message : String(e)}`);
            }
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
