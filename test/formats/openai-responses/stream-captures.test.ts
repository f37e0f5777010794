/**
 * Every Responses stream capture (local copies always, ../shared when present): decoded, the
 * canonical stream passes the order verifier, accumulates into a response the response codec
 * encodes into a body its decoder accepts, and equals the stream's own non-streaming twin: the
 * final response (response.completed) with the items output_item.done gave.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { decodeResponse, encodeResponse } from '../../../src/formats/openai-responses/response.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { canonicalSays, decodeStream, streams, typeOf } from './stream-helpers.js';

const ctx = () => ({ limits: DEFAULT_LIMITS, losses: [] as Loss[] });

/** Captures whose twin differs for a reason of the capture itself, not of the codec. */
const KNOWN: Record<string, string> = {
  'github-copilot-id-rotation': 'its gateway gives every event a new id: the reasoning id is the one output_item.added gave',
};

/** argumentsJson is kept only where serializing the value would not give the text back; no summary event for `summary: []`. */
function normalise(res: Response): Response {
  const parts = (res.choices[0]?.message.parts ?? []).map((p) => {
    if (p.type === 'tool-call') return { ...p, argumentsJson: p.argumentsJson ?? JSON.stringify(p.arguments) };
    if (p.type === 'reasoning' && p.summary?.length === 0) return (({ summary: _s, ...rest }) => rest)(p);
    return p;
  });
  return { ...res, choices: res.choices.map((c, i) => (i === 0 ? { ...c, message: { ...c.message, parts } } : c)) };
}

function data(events: StreamCapture['events'], type: string): JsonObject[] {
  return events.filter((w) => typeOf(w) === type).map((w) => w.data as JsonObject);
}

function check(capture: StreamCapture): void {
  const losses: Loss[] = [];
  const events = decodeStream(capture.events, losses);
  expect(verifyStream(events)).toEqual([]);
  const acc = accumulate(events);
  const last = [...capture.events].reverse().find((w) => typeOf(w) !== undefined);
  const end = last === undefined ? undefined : typeOf(last);
  if (end === 'response.failed' || end === 'error') {
    expect(acc.error?.message).toBeTruthy();
    return;
  }
  expect(acc.complete).toBe(true);
  // The accumulated response is one the response codec writes and reads back.
  const body = encodeResponse(acc.response, { preserve: false, losses: [] });
  expect(normalise(decodeResponse(body, ctx()))).toEqual(normalise(acc.response));

  const [final] = data(capture.events, end ?? '');
  const created = data(capture.events, 'response.created')[0]?.['response'] as JsonObject | undefined;
  const items = data(capture.events, 'response.output_item.done').map((d) => d['item'] as JsonObject);
  const twinBody: JsonObject = { ...(final?.['response'] as JsonObject), output: items };
  // The response opened with response.created's id, model and time.
  for (const key of ['id', 'model', 'created_at']) if (created?.[key] !== undefined) twinBody[key] = created[key] as JsonObject[string];
  const twin = decodeResponse(twinBody, ctx());
  const mismatch = losses.filter((l) => l.code === 'stream-mismatch');
  const known = Object.keys(KNOWN).find((k) => capture.name.includes(k));
  if (mismatch.length === 0 && known === undefined) {
    expect(normalise(acc.response)).toEqual(normalise(twin));
  } else if (mismatch.length === 0) {
    expect(canonicalSays(acc.response)).toEqual(canonicalSays(twin));
  } else {
    // Deltas that say something else than their done event: kept, and said once per text.
    expect(new Set(mismatch.map((l) => l.path[0])).size).toBe(mismatch.length);
    expect(canonicalSays(acc.response).calls).toEqual(canonicalSays(twin).calls);
  }
  expect(acc.response.choices[0]?.stopReason).toEqual(twin.choices[0]?.stopReason);
  expect(acc.response.usage).toEqual(twin.usage);
}

const local = streams(localStreamCaptures('openai-responses'));
const shared = streams(sharedStreamCaptures('openai-responses'));

describe('openai-responses local stream captures', () => {
  it('are there (test/fixtures/streams/openai-responses)', () => expect(local.length).toBeGreaterThanOrEqual(17));
  it.each(local.map((c) => [c.name, c] as const))('%s', (_name, c) => check(c));
});

describe.skipIf(!hasSharedFixtures())('openai-responses shared stream captures (skipped: ../shared/fixtures is absent)', () => {
  it('are all there', () => expect(shared.length).toBeGreaterThanOrEqual(50));
  it.each(shared.map((c) => [c.name, c] as const))('%s', (_name, c) => check(c));
});
