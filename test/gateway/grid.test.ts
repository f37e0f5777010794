/**
 * The 5 × 5 grid: each official SDK against the gateway, in front of a provider of each dialect
 * answering with real captures (a final body and a stream, each with a tool call). What the SDK
 * reads back — text, tool calls and their arguments, stop reason, usage — is what the capture says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accumulateStream, decode, parseEventStream, parseSse, type Response as CanonicalResponse } from '../../src/index.js';
import type { RunningGateway } from '../../src/gateway/server.js';
import { callThrough, TOOL_STOP } from './support/clients.js';
import { modelFor, replayConfig, startTestGateway } from './support/gateway.js';
import { captureBody, DIALECTS, startReplayUpstream, streamChunks, type Dialect, type ReplayUpstream } from './support/replay-upstream.js';

let upstream: ReplayUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  upstream = await startReplayUpstream();
  gw = await startTestGateway(replayConfig(upstream.url));
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

/** What the capture holds, through the library's own decoders. */
function expected(d: Dialect, stream: boolean): CanonicalResponse {
  if (!stream) return decode(captureBody(d), { from: d, kind: 'response' }).value as CanonicalResponse;
  const bytes = Buffer.concat(streamChunks(d));
  const events = d === 'bedrock-converse' ? parseEventStream(new Uint8Array(bytes)) : parseSse(bytes.toString('utf8'));
  return accumulateStream(events, { from: d, to: d }).response;
}

describe.each(DIALECTS)('%s client', (client) => {
  for (const stream of [false, true]) {
    it.each(DIALECTS)(`${stream ? 'streams' : 'calls'} through a %s upstream`, async (target) => {
      const want = expected(target, stream);
      const parts = want.choices[0]?.message.parts ?? [];
      const got = await callThrough(client, gw.url, modelFor(target), stream);
      expect(got.text).toBe(parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''));
      expect(got.calls).toEqual(parts.flatMap((p) => (p.type === 'tool-call' ? [{ name: p.name, args: p.arguments }] : [])));
      expect(got.calls.length).toBeGreaterThan(0);
      expect(got.stop).toBe(TOOL_STOP[client]);
      if (want.usage !== undefined) expect(got.usage).toEqual({ input: want.usage.inputTokens, output: want.usage.outputTokens });
      const call = upstream.received.at(-1);
      expect(call?.dialect).toBe(target);
      expect(call?.stream).toBe(stream);
    });
  }
});
