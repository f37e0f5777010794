/**
 * Every OpenAI Chat stream capture (local copies always, ../shared/fixtures when present):
 * decode -> the canonical order rules hold -> accumulate -> the response codec writes a body its
 * decoder accepts, with the capture's own text, and the same text, tool calls, finish reasons and
 * usage as the official SDK's ChatCompletionStream makes of the raw capture.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { decodeResponse, encodeResponse } from '../../../src/formats/openai-chat/response.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures, LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { decodeWire, foldWire, sdkFinal, summarize, toSse } from './stream-helpers.js';

const decodeCtx = () => ({ limits: DEFAULT_LIMITS, losses: [] as Loss[] });

/**
 * Captures the official SDK cannot read as they are (they are still decoded, accumulated and
 * compared with the wire text), and what it does instead: its final completion needs a `role`
 * on every choice and keys tool calls by their wire `index`, which these providers send otherwise.
 */
const SDK_CANNOT: Record<string, { rejects: RegExp } | { dropsCalls: true }> = {
  // tool_calls[].index starts at 1 (Anthropic's block index): the SDK's call array has a hole at 0.
  'anthropic-fallback-tool-call.sse': { rejects: /Cannot read properties of undefined/ },
  // No role on any chunk.
  'mistral-incremental-tool-call.chunks.txt': { rejects: /missing role for choice 0/ },
  // The call has no index: the SDK files it under `undefined` and its final tool_calls is empty.
  'mistral-tool-call.chunks.txt': { dropsCalls: true },
};

function chatBody(res: Response): unknown {
  return encodeResponse(res, { preserve: false, losses: [] });
}

function checkCapture(cap: StreamCapture): Response {
  const losses: Loss[] = [];
  const events = decodeWire(cap.events, losses);
  expect(verifyStream(events)).toEqual([]);
  expect(losses).toEqual([]);
  const acc = accumulate(events);
  expect(acc.complete).toBe(true);
  // The only thing a final response cannot hold is a delta field with no canonical slot.
  expect(acc.losses.every((l) => l.code === 'provider-event')).toBe(true);
  const body = chatBody(acc.response);
  expect(() => decodeResponse(body, decodeCtx())).not.toThrow();
  // The capture's own text, folded straight from the wire, is what the response holds.
  const wire = foldWire(cap.events);
  for (const c of acc.response.choices) {
    const text = c.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    const refusal = c.message.parts.flatMap((p) => (p.type === 'refusal' ? [p.text] : [])).join('');
    const reasoning = c.message.parts.flatMap((p) => (p.type === 'reasoning' ? [p.text ?? ''] : [])).join('');
    expect({ text, refusal, reasoning }).toEqual({
      text: wire.get(c.index)?.content ?? '',
      refusal: wire.get(c.index)?.refusal ?? '',
      reasoning: wire.get(c.index)?.reasoning ?? '',
    });
  }
  return acc.response;
}

async function compareWithSdk(cap: StreamCapture, res: Response): Promise<'sdk' | 'refused'> {
  const file = cap.name.replace(/^.*[:/]/, '');
  const cannot = SDK_CANNOT[file];
  if (cannot !== undefined && 'rejects' in cannot) {
    await expect(sdkFinal(toSse(cap.events))).rejects.toThrow(cannot.rejects);
    return 'refused';
  }
  const sdk = summarize(await sdkFinal(toSse(cap.events)));
  const ours = summarize(chatBody(res));
  if (cannot !== undefined) {
    expect(sdk.choices[0]?.calls).toEqual([]);
    expect(ours.choices[0]?.calls).toHaveLength(1);
    for (const c of [...ours.choices, ...sdk.choices]) c.calls = [];
  }
  expect(ours).toEqual(sdk);
  return 'sdk';
}

describe('openai-chat stream: local capture copies', () => {
  const caps = localStreamCaptures('openai-chat');
  it('has the copies', () => expect(caps.length).toBeGreaterThanOrEqual(13));
  it.each(caps.map((c) => [c.name, c] as const))('%s', async (_name, cap) => {
    const res = checkCapture(cap);
    await compareWithSdk(cap, res);
  });

  it('the Mistral stream accumulates to its recorded non-streaming twin (same id)', () => {
    const cap = caps.find((c) => c.name.endsWith('mistral-tool-call.chunks.txt'));
    const twin = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'openai-chat/responses/mistral-tool-call.json'), 'utf8')) as unknown;
    const res = checkCapture(cap as StreamCapture);
    expect(res.id).toBe((twin as { id: string }).id);
    expect(summarize(chatBody(res))).toEqual(summarize(twin));
  });

  it('parallel tool calls: the stream and the recorded non-streaming answer to the same request call the same tools', () => {
    const cap = caps.find((c) => c.name.endsWith('parse-multiple-pydantic-tools.sse'));
    const twin = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'openai-chat/responses/parse-multiple-pydantic-tools.json'), 'utf8')) as unknown;
    const res = checkCapture(cap as StreamCapture);
    const ours = summarize(chatBody(res)).choices[0]?.calls.map((c) => [c.name, JSON.parse(c.arguments)]);
    const theirs = summarize(twin).choices[0]?.calls.map((c) => [c.name, JSON.parse(c.arguments)]);
    expect(ours).toEqual(theirs);
    expect(ours).toHaveLength(2);
  });
});

describe.skipIf(!hasSharedFixtures())('openai-chat stream: every capture in ../shared/fixtures', () => {
  const caps = sharedStreamCaptures('openai-chat');
  it('finds the corpus', () => expect(caps.length).toBeGreaterThanOrEqual(30));
  it.each(caps.map((c) => [c.name, c] as const))('%s', async (_name, cap) => {
    const res = checkCapture(cap);
    await compareWithSdk(cap, res);
  });
});

if (!hasSharedFixtures()) console.log('openai-chat stream captures: ../shared/fixtures is absent, only the local copies run');
