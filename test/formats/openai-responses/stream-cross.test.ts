/**
 * Other dialects' live streams re-emitted as Responses streams: each stream capture of Anthropic,
 * OpenAI Chat, Bedrock and Gemini, decoded by that dialect's stream decoder, encoded here and read
 * by the openai SDK's stream helper, which must say the same text, function calls and usage as the
 * canonical stream accumulated; a mid-stream error must fail the SDK's stream; a cut-off stream
 * must not be completed. Captures another decoder refuses are that decoder's business: they are
 * counted and left out here.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getStreamCodec } from '../../../src/formats/registry.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture, type StreamDialect } from '../../support/streams.js';
import { canonicalSays, encodeStream, sdkRead, sdkSays, sseText } from './stream-helpers.js';

const DIALECTS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'bedrock-converse', 'gemini'];

interface Case { name: string; events: StreamEvent[] }

/** The captures the dialect's own decoder turns into a valid canonical stream. */
function cases(dialect: StreamDialect, captures: StreamCapture[]): Case[] {
  const out: Case[] = [];
  for (const c of captures) {
    try {
      const decoder = getStreamCodec(dialect).decoder({ limits: DEFAULT_LIMITS, losses: [] });
      const events = [...c.events.flatMap((w) => decoder.push(w)), ...decoder.end()];
      if (verifyStream(events).length === 0) out.push({ name: `${dialect} ${c.name}`, events });
    } catch {
      // refused by its own decoder: not a canonical stream to encode
    }
  }
  return out;
}

async function transcoded({ events }: Case): Promise<void> {
  const losses: Loss[] = [];
  const wire = encodeStream(events, losses);
  // Every loss names the canonical event it came from.
  for (const l of losses) expect(l.path[0]).toEqual(expect.any(Number));
  const acc = accumulate(events);
  const run = await sdkRead(sseText(wire));
  if (acc.error !== undefined) {
    expect(run.error?.message).toContain(acc.error.message);
    return;
  }
  if (!acc.complete) {
    expect(wire.some((w) => /^response\.(completed|incomplete|failed)$/.test(String(w.event)))).toBe(false);
    return;
  }
  expect(run.error).toBeUndefined();
  const said = sdkSays(run.final as NonNullable<typeof run.final>);
  const expected = canonicalSays(acc.response);
  expect(said.text).toBe(expected.text);
  expect(said.calls).toEqual(expected.calls);
  expect(said.usage).toEqual(expected.usage);
}

describe.each(DIALECTS)('%s streams re-emitted as Responses streams', (dialect) => {
  const local = cases(dialect, localStreamCaptures(dialect));
  it('has local captures its decoder reads', () => expect(local.length).toBeGreaterThan(0));
  it.each(local.map((c) => [c.name, c] as const))('%s', async (_name, c) => transcoded(c));
  describe.skipIf(!hasSharedFixtures())('shared captures (skipped: ../shared/fixtures is absent)', () => {
    const shared = cases(dialect, sharedStreamCaptures(dialect));
    it.each(shared.map((c) => [c.name, c] as const))('%s', async (_name, c) => transcoded(c));
  });
});
