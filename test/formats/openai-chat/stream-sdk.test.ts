/**
 * The official SDK as oracle: what our encoder writes, as SSE text through a fake fetch, is read
 * by `openai`'s ChatCompletionStream without error, and its final completion has the text,
 * refusals, tool calls (+ arguments), finish reasons and usage of the canonical stream; reasoning
 * of this codec's origin arrives whole in the chunks the SDK parsed. Sources: every Chat capture
 * (decoded), and final responses of the other dialects' local fixtures as canonical streams.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getKindCodec, getStreamCodec } from '../../../src/formats/registry.js';
import { encodeFinishReason } from '../../../src/formats/openai-chat/stop-reason.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures, listFiles, LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures } from '../../support/streams.js';
import { decodeWire, encodeEvents, sdkRead, summarize, toSse, type Summary } from './stream-helpers.js';

/** What a Chat client should end up with for a canonical response (text blocks join with nothing). */
function expected(res: Response): Summary {
  const choices = res.choices.map((c) => {
    const parts = c.message.parts;
    const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    const refusal = parts.flatMap((p) => (p.type === 'refusal' ? [p.text] : [])).join('');
    const calls = parts.flatMap((p) =>
      p.type === 'tool-call' && p.providerExecuted !== true ? [{ id: p.id, name: p.name, arguments: p.argumentsJson ?? JSON.stringify(p.arguments) }] : [],
    );
    const finish = c.stopReason ? encodeFinishReason(c.stopReason, c.ext?.['openai-chat'], [], { push: () => {} }) : null;
    return { index: c.index, content: text === '' ? null : text, refusal: refusal === '' ? null : refusal, calls, finish };
  });
  const u = res.usage;
  // Providers that count reasoning beside completion_tokens (xAI) get their own form back.
  const apart = u?.ext?.['openai-chat']?.['$reasoningApart'] === true ? (u.reasoningTokens ?? 0) : 0;
  return { choices, usage: u === undefined ? null : { prompt_tokens: u.inputTokens, completion_tokens: u.outputTokens - apart } };
}

function counts(usage: unknown): unknown {
  if (usage === null || usage === undefined) return null;
  const u = usage as { prompt_tokens: number; completion_tokens: number };
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens };
}

async function oracle(res: Response, events = responseToEvents(res), losses: Loss[] = []): Promise<void> {
  const wire = encodeEvents(events, losses);
  // Our own decoder reads it back as a well-formed canonical stream too.
  const back = decodeWire(wire);
  expect(verifyStream(back)).toEqual([]);
  expect(accumulate(back).complete).toBe(true);
  const { final, reasoning } = await sdkRead(toSse(wire));
  const got = summarize(final);
  const want = expected(res);
  expect({ ...got, usage: counts(got.usage) }).toEqual(want);
  for (const c of res.choices) {
    // url citations become annotations whose range cuts the same text out of the whole content.
    const cited = c.message.parts.flatMap((p) =>
      p.type === 'text' ? (p.citations ?? []).flatMap((ci) => (ci.type === 'url' ? [[ci.url, p.text.slice(ci.startIndex ?? 0, ci.endIndex ?? p.text.length)]] : [])) : [],
    );
    const message = final.choices.find((x) => x.index === c.index)?.message;
    const content = message?.content ?? '';
    expect((message?.annotations ?? []).map((a) => [a.url_citation.url, content.slice(a.url_citation.start_index, a.url_citation.end_index)])).toEqual(cited);
    const own = c.message.parts.flatMap((p) => (p.type === 'reasoning' && p.origin === 'openai-chat' ? [p.text ?? ''] : [])).join('');
    expect(reasoning.get(c.index) ?? '').toBe(own);
  }
}

describe('the SDK reads our encoding of every Chat capture', () => {
  const caps = [...localStreamCaptures('openai-chat'), ...sharedStreamCaptures('openai-chat')];
  it.each(caps.map((c) => [c.name, c] as const))('%s', async (_name, cap) => {
    const events = decodeWire(cap.events);
    const losses: Loss[] = [];
    await oracle(accumulate(events).response, events, losses);
    expect(losses).toEqual([]);
  });
  if (!hasSharedFixtures()) it.skip('../shared/fixtures is absent: only the local copies ran', () => {});
});

/** Final responses of the other dialects, decoded by their response codecs. */
const OTHER: [string, string][] = [
  ['anthropic-messages', 'anthropic-messages/response'],
  ['openai-responses', 'openai-responses/responses'],
  ['gemini', 'gemini/responses'],
  ['bedrock-converse', 'bedrock-converse/responses'],
];

function otherResponses(): [string, Response][] {
  const out: [string, Response][] = [];
  for (const [id, dir] of OTHER) {
    const codec = getKindCodec(id, 'response');
    for (const file of listFiles(join(LOCAL_FIXTURES, dir), ['.json'])) {
      if (basename(file).includes('error')) continue; // error bodies, not responses
      const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      out.push([`${id}:${basename(file)}`, codec.decode(body, { limits: DEFAULT_LIMITS, losses: [] }) as Response]);
    }
  }
  return out;
}

describe('the SDK reads our encoding of other dialects\' responses (responseToEvents)', () => {
  const all = otherResponses();
  it('a response with no choice (Gemini blocked prompt) is reported, not completed with a made-up message', async () => {
    const blocked = all.find(([n]) => n === 'gemini:vertex-blocked.json')?.[1] as Response;
    expect(blocked.choices).toEqual([]);
    const losses: Loss[] = [];
    const wire = encodeEvents(responseToEvents(blocked), losses);
    expect(losses.map((l) => l.code)).toContain('no-choices');
    expect(wire.map((w) => (typeof w.data === 'string' ? w.data : (w.data as { choices: unknown[] }).choices.length))).toEqual([0, '[DONE]']);
    await expect(sdkRead(toSse(wire))).rejects.toThrow(/without producing a ChatCompletionMessage/);
  });
  it('covers every other dialect', () => {
    for (const [id] of OTHER) expect(all.filter(([n]) => n.startsWith(`${id}:`)).length).toBeGreaterThanOrEqual(5);
  });
  it.each(all.filter(([, r]) => r.choices.length > 0))('%s', async (_name, res) => {
    const losses: Loss[] = [];
    await oracle(res, responseToEvents(res), losses);
    // Everything Chat cannot carry is reported: reasoning of other origins, server-run tools.
    const parts = res.choices.flatMap((c) => c.message.parts);
    if (parts.some((p) => p.type === 'reasoning' && p.origin !== 'openai-chat')) expect(losses.map((l) => l.code)).toContain('foreign-reasoning');
    if (parts.some((p) => (p.type === 'tool-call' || p.type === 'tool-result') && p.providerExecuted === true)) {
      expect(losses.map((l) => l.code)).toContain('provider-executed-tool');
    }
  });
});

describe("the SDK reads other dialects' live streams re-emitted as Chat chunks", () => {
  const sources = (['anthropic-messages', 'openai-responses', 'bedrock-converse', 'gemini'] as const).flatMap((from) =>
    localStreamCaptures(from).flatMap((c) => {
      // Captures their own decoder refuses, or that end in an error, are that codec's tests' business.
      try {
        const d = getStreamCodec(from).decoder({ limits: DEFAULT_LIMITS, losses: { push: () => {} } });
        const events = [...c.events.flatMap((w) => d.push(w)), ...d.end()];
        const acc = accumulate(events);
        return acc.complete && verifyStream(events).length === 0 ? [[`${from}:${c.name}`, events, acc.response] as const] : [];
      } catch {
        return [];
      }
    }),
  );
  it('has live streams of every other dialect', () => {
    for (const id of ['anthropic-messages', 'openai-responses', 'bedrock-converse', 'gemini']) expect(sources.filter(([n]) => n.startsWith(`${id}:`)).length, id).toBeGreaterThan(2);
  });
  it.each(sources.map(([name, events, res]) => [name, events, res] as const))('%s', async (_name, events, res) => {
    await oracle(res, events);
  });
});
