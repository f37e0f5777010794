/**
 * The official SDK as the oracle: the `openai` package's Responses stream helper
 * (`client.responses.stream(...)` over a fake fetch) reads what the encoder writes, without error,
 * and its final response says the same text, function calls (+ arguments), reasoning (summary,
 * text, encrypted content) and usage as the canonical stream. Inputs: every capture re-encoded,
 * final responses of the other dialects' local fixtures (responseToEvents), and hand-made
 * canonical sequences no dialect's decoder produces in that shape.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getKindCodec } from '../../../src/formats/registry.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { hasSharedFixtures, isErrorBody, listFiles, LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { canonicalSays, decodeStream, encodeStream, sdkRead, sdkSays, sseText, streams, typeOf } from './stream-helpers.js';

/** Event types this SDK version's accumulator does not know (newer API events): it throws on them. */
const UNKNOWN_TO_SDK = /^response\.(shell_call_command|shell_call_output_content|apply_patch_call_operation_diff)\./;

async function oracle(c: StreamCapture): Promise<void> {
  const events = decodeStream(c.events);
  const acc = accumulate(events);
  const wire = encodeStream(events);
  const run = await sdkRead(sseText(wire));
  if (acc.error !== undefined) {
    // The documented error event: the SDK's stream fails with its message.
    expect(run.error?.message).toContain(acc.error.message);
    return;
  }
  const unknown = c.events.map(typeOf).find((t) => t !== undefined && UNKNOWN_TO_SDK.test(t));
  if (unknown !== undefined) {
    // Re-written as they came; this SDK version refuses them in the original capture too.
    expect(run.error?.message).toMatch(/Unhandled response stream event/);
    expect((await sdkRead(sseText(c.events))).error?.message).toMatch(/Unhandled response stream event/);
    return;
  }
  expect(run.error).toBeUndefined();
  expect(run.seen.at(-1)).toMatch(/^response\.(completed|incomplete)$/);
  expect(sdkSays(run.final as NonNullable<typeof run.final>)).toEqual(canonicalSays(acc.response));
}

const local = streams(localStreamCaptures('openai-responses'));
const shared = streams(sharedStreamCaptures('openai-responses'));

describe('openai SDK reads the re-encoded captures', () => {
  it.each(local.map((c) => [c.name, c] as const))('%s', async (_name, c) => oracle(c));
  describe.skipIf(!hasSharedFixtures())('shared captures (skipped: ../shared/fixtures is absent)', () => {
    it.each(shared.map((c) => [c.name, c] as const))('%s', async (_name, c) => oracle(c));
  });

  it('gives the same final response as the SDK reading the capture itself', async () => {
    let compared = 0;
    for (const c of local) {
      const original = await sdkRead(sseText(c.events));
      if (original.final === undefined) continue; // a capture the SDK refuses as it is (trimmed, or newer events)
      const ours = await sdkRead(sseText(encodeStream(decodeStream(c.events))));
      // The API re-encrypts reasoning between output_item.done and response.completed: the
      // stream keeps the done item's (reasoning-end.encryptedContent), checked in the oracle above.
      const plain = (s: ReturnType<typeof sdkSays>) => ({ ...s, reasoning: s.reasoning.map(({ encrypted: _e, ...r }) => r) });
      expect(plain(sdkSays(ours.final as NonNullable<typeof ours.final>))).toEqual(plain(sdkSays(original.final)));
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(8);
  });
});

/** Final responses of the other dialects' local fixtures, decoded by their response codecs. */
function otherResponses(): { name: string; dialect: string; res: Response }[] {
  const dirs: [string, string][] = [
    ['anthropic-messages', 'response'],
    ['openai-chat', 'responses'],
    ['bedrock-converse', 'responses'],
    ['gemini', 'responses'],
  ];
  return dirs.flatMap(([dialect, dir]) =>
    listFiles(join(LOCAL_FIXTURES, dialect, dir), ['.json']).flatMap((file) => {
      const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (isErrorBody(body)) return [];
      const res = getKindCodec(dialect, 'response').decode(body, { limits: DEFAULT_LIMITS, losses: [] }) as Response;
      return [{ name: `${dialect}/${file.split('/').at(-1)}`, dialect, res }];
    }),
  );
}

describe('openai SDK reads streams of other dialects’ responses', () => {
  const others = otherResponses();
  it('has them', () => expect(others.length).toBeGreaterThanOrEqual(30));
  it.each(others.map((o) => [o.name, o] as const))('%s', async (_name, { res }) => {
    const losses: Loss[] = [];
    const wire = encodeStream(responseToEvents(res), losses);
    const run = await sdkRead(sseText(wire));
    expect(run.error).toBeUndefined();
    const expected = canonicalSays(res);
    const said = sdkSays(run.final as NonNullable<typeof run.final>);
    expect(said.text).toBe(expected.text);
    expect(said.calls).toEqual(expected.calls);
    expect(said.usage).toEqual(expected.usage);
    // Ids made up from a counter, never at random: the same input gives the same stream.
    expect(sseText(encodeStream(responseToEvents(res))).replace(/"created_at":\d+/g, '')).toBe(sseText(wire).replace(/"created_at":\d+/g, ''));
    // Another origin's reasoning is not sent as Responses reasoning, and that is said.
    const foreign = res.choices[0]?.message.parts.filter((p) => p.type === 'reasoning').length ?? 0;
    expect(said.reasoning).toEqual([]);
    expect(losses.filter((l) => l.code === 'foreign-reasoning').length).toBe(foreign);
    // A function call's item id is the fc_ one the stream announced.
    const added = wire.filter((w) => w.event === 'response.output_item.added').map((w) => (w.data as JsonObject)['item'] as JsonObject);
    const final = (run.final?.output ?? []) as unknown as JsonObject[];
    expect(final.map((i) => i['id'])).toEqual(added.map((i) => i['id']));
  });
});
