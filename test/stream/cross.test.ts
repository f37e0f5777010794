/**
 * Every stream capture of every provider dialect, transcoded into every dialect with a stream
 * codec: decode -> verifyStream -> encode -> write the target's framing -> read it back -> decode
 * with the target's own decoder -> verifyStream, and the accumulated answer keeps what every
 * dialect can hold: the text (answer and refusal), the client tool calls with their arguments,
 * the stop reason's meaning and the token counts. (Each dialect's tests also feed its encoder's
 * output to the official SDK's stream reader; this sweep checks every pair with our own readers.)
 */
import { describe, expect, it } from 'vitest';
import { formats } from '../../src/index.js';
import type { JsonValue } from '../../src/model/json.js';
import type { Response } from '../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { accumulate } from '../../src/stream/accumulate.js';
import { frameReader, frameWriter } from '../../src/stream/framing.js';
import { verifyStream } from '../../src/stream/verify.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../support/streams.js';

const PROVIDERS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];
const TARGETS = formats()
  .filter((f) => f.kinds.includes('stream'))
  .map((f) => f.id);

function decodeAll(dialect: string, wire: readonly WireEvent[]): StreamEvent[] {
  const d = getStreamCodec(dialect).decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
  const out: StreamEvent[] = [];
  for (const w of wire) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

/** Encodes canonical events into `to`, writes them in its framing, and reads the wire back. */
function throughWire(to: string, events: readonly StreamEvent[]): WireEvent[] {
  const codec = getStreamCodec(to);
  const e = codec.encoder({ losses: new LossList() });
  const wire: WireEvent[] = [];
  for (const ev of events) wire.push(...e.push(ev));
  wire.push(...e.end());
  const write = frameWriter(codec.framing);
  const reader = frameReader(codec.framing);
  const back: WireEvent[] = [];
  for (const w of wire) back.push(...reader.push(write(w)));
  back.push(...reader.end());
  return back;
}

interface Summary {
  text: string;
  calls: [string, JsonValue][];
  stop?: string;
  input?: number;
  output?: number;
}

/** Agent protocols show every call, but have no flag for calls the provider ran itself. */
const AGENT_PROTOCOLS = new Set(['ag-ui', 'a2a']);

/**
 * What every dialect can carry of an answer (choice 0). `allCalls`: count the calls the provider
 * ran itself too (agent protocols carry them as calls); otherwise only the client's calls, which
 * every provider dialect holds (another provider's server tools are reported and left out).
 */
function summary(res: Response, allCalls = false): Summary {
  const parts = res.choices[0]?.message.parts ?? [];
  const out: Summary = {
    text: parts.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join(''),
    calls: parts.flatMap((p) => (p.type === 'tool-call' && (allCalls || p.providerExecuted !== true) ? [[p.name, p.arguments] as [string, JsonValue]] : [])),
  };
  const stop = res.choices[0]?.stopReason?.unified;
  if (stop !== undefined) out.stop = stop;
  if (res.usage !== undefined) {
    out.input = res.usage.inputTokens;
    out.output = res.usage.outputTokens;
  }
  return out;
}

const captures = PROVIDERS.flatMap((dialect) => [...localStreamCaptures(dialect), ...sharedStreamCaptures(dialect)].map((c) => ({ dialect, ...c })));

/** Captures whose own decoder gives a complete, well-ordered stream (the others are tested by their codec's suite). */
const usable = captures.flatMap((c) => {
  try {
    const events = decodeAll(c.dialect, c.events);
    const acc = accumulate(events);
    if (verifyStream(events).length > 0 || !acc.complete) return [];
    // Server-side tool turns and provider blocks are not carried by every dialect; compare what is.
    return [{ ...c, events, response: acc.response }];
  } catch {
    return [];
  }
});

describe('every stream capture, transcoded into every stream dialect', () => {
  it('has captures of every provider dialect', () => {
    for (const d of PROVIDERS) expect(usable.filter((c) => c.dialect === d).length, d).toBeGreaterThan(0);
  });

  describe.each(TARGETS)('-> %s', (to) => {
    it.each(usable.map((c) => [`${c.dialect} ${c.name}`, c] as const))('%s', (_name, c) => {
      const back = decodeAll(to, throughWire(to, c.events));
      expect(verifyStream(back)).toEqual([]);
      const acc = accumulate(back);
      expect(acc.complete).toBe(true);
      const protocol = AGENT_PROTOCOLS.has(to);
      const expected = summary(c.response, protocol);
      const got = summary(acc.response, protocol);
      // Text keeps its characters; a dialect may split or join blocks, never change the text.
      expect(got.text).toBe(expected.text);
      expect(got.calls).toEqual(expected.calls);
      // Stop reasons map by meaning, and dialects draw the lines differently (Gemini says STOP
      // after a function call, Chat calls a refusal content_filter, Responses has only a status);
      // running out of tokens is a reason every provider dialect and AG-UI name the same way.
      if (to !== 'a2a' && (expected.stop === 'length' || to === 'ag-ui')) expect(got.stop).toBe(expected.stop);
      if (expected.output !== undefined && got.output !== undefined) expect(got.output).toBe(expected.output);
    });
  });
});
