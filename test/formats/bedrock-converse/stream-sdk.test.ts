/**
 * The official SDK as the oracle: what our encoder writes, framed as event-stream bytes, is read by
 * @aws-sdk/client-bedrock-runtime's ConverseStreamCommand (a request handler answers with the
 * bytes; no network). It must read without error and see the same text blocks, tool calls (+ input),
 * Bedrock reasoning (+ signature, redacted data), stop reason and usage as the canonical response
 * the events accumulate to, and yield every event exactly as written (the SDK keeps only members
 * its model knows, so a field Bedrock does not have would show). Sources: every ConverseStream capture, and final responses of the other
 * dialects (their local fixture bodies, decoded by their response codecs) as canonical streams.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toBedrockToolId, toBedrockToolName } from '../../../src/formats/bedrock-converse/names.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getKindCodec } from '../../../src/formats/registry.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { JsonValue } from '../../../src/model/json.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { listFiles, LOCAL_FIXTURES } from '../../support/captures.js';
import { samples } from '../../cross/corpus.js';
import { allCaptures, decode, digestCanonical, digestSdk, encode, sdkRead, toBytes, type Digest } from './stream-helpers.js';

/** The digest a Bedrock reader should get: ids and names as Bedrock takes them. */
function expected(res: Response): Digest {
  const d = digestCanonical(res);
  return { ...d, tools: d.tools.map((t) => ({ ...t, id: t.id === '' ? '' : toBedrockToolId(t.id), name: toBedrockToolName(t.name) })) };
}

/** Our encoding of `events`, read by the SDK: its digest, and whether it yielded every event exactly as written. */
async function throughSdk(events: StreamEvent[], chunk?: number): Promise<{ digest: Digest; exact: boolean; error?: { name: string; message: string } }> {
  const { wire } = encode(events);
  const read = await sdkRead(toBytes(wire), chunk);
  const exact = JSON.stringify(sorted(read.events)) === JSON.stringify(sorted(wire.map((w) => ({ [w.event ?? '']: sdkKnown(w.event, w.data) }))));
  return { digest: digestSdk(read.events), exact, ...(read.error ? { error: read.error } : {}) };
}

/** Keys sorted at every level, so that key order does not count. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}

describe('the SDK reads our re-encoding of every capture as the canonical stream says', () => {
  const captures = allCaptures();
  for (const c of captures) {
    it(c.name, async () => {
      const { events } = decode(c.events);
      const got = await throughSdk(events, 97); // odd chunks: frames split across reads
      expect(got.error).toBeUndefined();
      expect(got.exact).toBe(true);
      expect(got.digest).toEqual(expected(accumulate(events).response));
      expect(got.digest.texts.length + got.digest.tools.length).toBeGreaterThan(0);
    });
  }
});

/**
 * Our event as the SDK's model knows it: the only member it drops is usage.serverToolUsage, which
 * Bedrock sends (pydantic-ai and AI SDK captures) but the SDK's TokenUsage shape does not list.
 */
function sdkKnown(event: string | undefined, data: JsonValue): JsonValue {
  if (event !== 'metadata') return data;
  const { usage, ...rest } = data as { usage?: Record<string, JsonValue> };
  if (usage === undefined) return data;
  const { serverToolUsage: _s, ...known } = usage;
  return { ...rest, usage: known };
}

/** Final responses of other dialects, from their local fixture bodies. */
function foreignResponses(): { name: string; res: Response }[] {
  const bodies: { name: string; id: string; body: unknown }[] = [];
  for (const id of ['anthropic-messages', 'openai-chat'] as const) for (const s of samples(id, 'response')) bodies.push({ name: `${id} ${s.name}`, id, body: s.body });
  for (const [id, dir] of [['openai-responses', 'openai-responses/responses'], ['gemini', 'gemini/responses']] as const) {
    for (const f of listFiles(join(LOCAL_FIXTURES, dir), ['.json'])) bodies.push({ name: `${id} ${f.slice(LOCAL_FIXTURES.length + 1)}`, id, body: JSON.parse(readFileSync(f, 'utf8')) });
  }
  const out: { name: string; res: Response }[] = [];
  for (const b of bodies) {
    try {
      out.push({ name: b.name, res: getKindCodec(b.id, 'response').decode(b.body, { limits: DEFAULT_LIMITS, losses: new LossList() }) as Response });
    } catch {
      // Bodies their own codec refuses (error bodies kept as negative samples) are not responses.
    }
  }
  return out;
}

describe('streams of other origins (responseToEvents of their final responses) encode for the SDK', () => {
  const list = foreignResponses();
  it(`${list.length} responses of 4 dialects`, () => {
    expect(list.length).toBeGreaterThanOrEqual(25);
  });
  for (const { name, res } of list) {
    it(name, async () => {
      const events = responseToEvents(res);
      const { losses } = encode(events);
      const got = await throughSdk(events);
      expect(got.error).toBeUndefined();
      expect(got.exact).toBe(true);
      const want = expected(res);
      // Tool calls with no id get one made up from a counter; a missing stop reason is written as end_turn.
      let made = 0;
      want.tools = want.tools.map((t) => (t.id === '' ? { ...t, id: `tooluse_${made++}` } : t));
      if (want.stopReason === undefined) {
        want.stopReason = 'end_turn';
        expect(losses.map((l) => l.code)).toContain('missing-stop-reason');
      }
      if (want.usage === undefined) {
        want.usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
        expect(losses.map((l) => l.code)).toContain('missing-usage');
      }
      expect(losses.filter((l) => l.code === 'missing-tool-id').length).toBe(made);
      expect(got.digest).toEqual(want);
      const parts = res.choices[0]?.message.parts ?? [];
      // Reasoning never passes as Bedrock's: each foreign reasoning block is reported, none written.
      const foreign = parts.filter((p) => p.type === 'reasoning' && p.origin !== 'bedrock-converse').length;
      expect(losses.filter((l) => l.code === 'foreign-reasoning').length).toBe(foreign);
      expect(got.digest.reasoning).toEqual([]);
      if (res.choices.length > 1) expect(losses.map((l) => l.code)).toContain('extra-choices');
    });
  }
});

describe('a mid-stream error reaches the SDK as the exception it names', () => {
  const start: StreamEvent[] = [{ type: 'response-start' }, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'partial' }];
  const cases: { error: Extract<StreamEvent, { type: 'error' }>['error']; name: string }[] = [
    { error: { message: 'Model stream failed', type: 'modelStreamErrorException', code: 500, raw: { message: 'Model stream failed', originalStatusCode: 500, originalMessage: 'boom' } }, name: 'ModelStreamErrorException' },
    { error: { message: 'Too many requests', type: 'throttlingException' }, name: 'ThrottlingException' },
    { error: { message: 'Overloaded', type: 'overloaded_error' }, name: 'ServiceUnavailableException' },
    { error: { message: 'Bad input', type: 'invalid_request_error' }, name: 'ValidationException' },
    { error: { message: 'Something else' }, name: 'InternalServerException' },
  ];
  for (const c of cases) {
    it(`${c.error.type ?? 'untyped'} -> ${c.name}`, async () => {
      const events: StreamEvent[] = [...start, { type: 'error', error: c.error }];
      const { wire, losses } = encode(events);
      expect(wire.at(-1)?.exception).toBe(true);
      expect(losses.map((l) => l.code)).toEqual(c.error.type?.endsWith('Exception') ? [] : ['error-type']);
      const read = await sdkRead(toBytes(wire));
      expect(read.events.map((e) => Object.keys(e)[0])).toEqual(['messageStart', 'contentBlockDelta']);
      expect(read.error).toEqual({ name: c.name, message: c.error.message });
      // Decoded back: the same error, with the exception's own fields.
      const back = decode(wire).events.at(-1);
      expect(back).toMatchObject({ type: 'error', error: { message: c.error.message } });
    });
  }
});
