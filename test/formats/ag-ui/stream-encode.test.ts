/**
 * The AG-UI stream encoder on canonical streams of other origins. Oracle: every emitted stream
 * passes `@ag-ui/core/schemas` EventSchemas and `@ag-ui/client` verifyEvents, and a real HttpAgent
 * run over its SSE text builds the text, tool calls, tool results and reasoning of the canonical
 * response. Sources: responseToEvents(...) of real Anthropic and OpenAI Chat responses, every
 * provider stream capture decoded by its own dialect's stream codec, and hand-made sequences for
 * the cases the brief lists (no ids, arguments only at the end, several choices, foreign reasoning,
 * mid-stream errors, cut-off streams). Canonical -> AG-UI -> canonical keeps what AG-UI can carry,
 * including reasoning signatures and the stop reason (in metadata.interlingua).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message as AguiMessage } from '@ag-ui/core';
import { getCodec } from '../../../src/formats/registry.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Part } from '../../../src/model/part.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { frameReader } from '../../../src/stream/framing.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { samples } from '../../cross/corpus.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../../support/streams.js';
import { decodeAll, encodeAll, runAgent, schemaIssues, sseText, stream, streamCaptures, verdict } from './helpers.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 50);

const argsText = (p: Extract<Part, { type: 'tool-call' }>): string => p.argumentsJson ?? JSON.stringify(p.arguments);

/** What the official client should hold after the run, from the canonical response. */
function clientView(res: Response): { text: string; calls: string[][]; results: string[][]; reasoning: string } {
  const parts = res.choices[0]?.message.parts ?? [];
  return {
    text: parts.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join(''),
    calls: parts.filter((p) => p.type === 'tool-call').map((p) => [p.id, p.name, argsText(p)]),
    results: parts.filter((p) => p.type === 'tool-result').map((p) => [p.callId, p.content.map((c) => (c.type === 'text' ? c.text : '')).join('')]),
    reasoning: parts.map((p) => (p.type === 'reasoning' ? (p.text ?? '') + (p.summary ?? []).join('') : '')).join(''),
  };
}

function fromClient(messages: AguiMessage[]): ReturnType<typeof clientView> {
  return {
    text: messages.map((m) => (m.role === 'assistant' ? (m.content ?? '') : '')).join(''),
    calls: messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => [c.id, c.function.name, c.function.arguments]) : [])),
    results: messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, typeof m.content === 'string' ? m.content : m.content.map((c) => (c.type === 'text' ? c.text : '')).join('')]] : [])),
    reasoning: messages.map((m) => (m.role === 'reasoning' ? m.content : '')).join(''),
  };
}

/** Encodes `events` to AG-UI and runs every oracle; returns the wire events and losses. */
async function encodeChecked(events: StreamEvent[]): Promise<{ wire: ReturnType<typeof encodeAll>['wire']; losses: Loss[] }> {
  const { wire, losses } = encodeAll(events);
  expect(schemaIssues(wire)).toEqual([]);
  expect(await verdict(wire)).toBe('ok');
  // The official client holds what the stream says, read back by this codec's decoder.
  const back = accumulate(decodeAll(wire).events);
  const run = await runAgent(sseText(wire));
  expect(run.error).toBeUndefined();
  if (back.error === undefined) expect(fromClient(run.messages)).toEqual(clientView(back.response));
  return { wire, losses };
}

const CARRIED = new Set(['text', 'refusal', 'tool-call', 'tool-result', 'reasoning']);
const MEDIA = new Set(['text', 'image', 'audio', 'video', 'document']);
const noExt = <T extends object>(o: T): T => {
  const { ext: _ext, ...rest } = o as T & { ext?: unknown };
  return rest as T;
};

/**
 * The canonical facts an AG-UI hop keeps: text (a refusal is text, citations are not kept), tool
 * calls (not who ran them), tool results (content only), reasoning, usage counts, the stop reason
 * and the model. Parts of other kinds have no AG-UI event: `dropped` counts them.
 */
function essence(res: Response): { parts: unknown[]; usage: unknown; stopReason: unknown; model: unknown; dropped: number } {
  const c = res.choices[0];
  const all = c?.message.parts ?? [];
  const parts = all.filter((p) => CARRIED.has(p.type)).map((p): unknown => {
    if (p.type === 'text' || p.type === 'refusal') return { type: 'text', text: p.text };
    if (p.type === 'tool-call') return { type: p.type, id: p.id, name: p.name, arguments: p.arguments, ...(p.argumentsJson === undefined ? {} : { argumentsJson: p.argumentsJson }) };
    // Content AG-UI has no part for (search results, data) is sent as text, reported.
    if (p.type === 'tool-result') return p.content.every((x) => MEDIA.has(x.type)) ? { type: p.type, callId: p.callId, content: p.content.map(noExt), ...(p.stringContent ? { stringContent: true } : {}) } : { type: p.type, callId: p.callId };
    return noExt(p);
  });
  const { raw: _raw, ext: _uext, ...usage } = res.usage ?? { inputTokens: 0, outputTokens: 0 };
  return { parts, usage: res.usage ? usage : undefined, stopReason: c?.stopReason, model: res.model, dropped: all.length - parts.length };
}

/** The hop kept every carried fact, and reported each part it could not carry. */
function expectKept(before: Response, after: Response, losses: Loss[]): void {
  const a = essence(before);
  const b = essence(after);
  // Where the source result held content AG-UI sends as text, only the call id is compared.
  a.parts.forEach((p, i) => {
    const q = b.parts[i] as { content?: unknown; stringContent?: unknown } | undefined;
    if (q !== undefined && (p as { type: string }).type === 'tool-result' && !('content' in (p as object))) {
      delete q.content;
      delete q.stringContent;
    }
  });
  expect({ ...b, dropped: 0 }).toEqual({ ...a, dropped: 0 });
  expect(losses.filter((l) => l.code === 'unsupported-part').length).toBe(a.dropped);
}

describe('responses of other dialects, as canonical streams (responseToEvents)', () => {
  for (const dialect of ['anthropic-messages', 'openai-chat'] as const) {
    const bodies = samples(dialect, 'response');
    it(`${dialect}: has responses`, () => expect(bodies.length).toBeGreaterThan(0));
    it.each(bodies.map((s) => [s.name, s.body] as const))(`${dialect} %s`, async (_n, body) => {
      const res = getCodec(dialect).response!.decode(body, { limits: DEFAULT_LIMITS, losses: { push() {} } });
      const events = responseToEvents(res);
      const { wire, losses } = await encodeChecked(events);
      // Through AG-UI and back: the same parts, usage, stop reason and model.
      expectKept(accumulate(events).response, accumulate(decodeAll(wire).events).response, losses);
    });
  }
});

const DIALECTS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];

describe('provider stream captures, decoded by their own stream codec', () => {
  for (const dialect of DIALECTS) {
    const codec = getCodec(dialect).stream;
    const captures = codec ? [...localStreamCaptures(dialect), ...sharedStreamCaptures(dialect)] : [];
    // Captures their own decoder refuses, or decodes out of order, are that codec's to answer for.
    const decoded = captures.flatMap((c) => {
      try {
        const d = codec!.decoder({ limits: DEFAULT_LIMITS, losses: { push() {} } });
        const events = [...c.events.flatMap((w) => d.push(w)), ...d.end()];
        return verifyStream(events).length === 0 ? [{ name: c.name, events }] : [];
      } catch {
        return [];
      }
    });
    it.skipIf(decoded.length === 0)(`${dialect}: ${decoded.length} of ${captures.length} captures to encode`, () => expect(decoded.length).toBeGreaterThan(0));
    it.each(decoded.map((c) => [c.name, c.events] as const))(`${dialect} %s`, async (_n, events) => {
      const { wire, losses } = await encodeChecked(events);
      const back = decodeAll(wire).events;
      expect(verifyStream(back)).toEqual([]);
      const acc = accumulate(events);
      if (acc.error === undefined && acc.complete) expectKept(acc.response, accumulate(back).response, losses);
    });
  }
});

describe('canonical sequences the AG-UI encoder must accept', () => {
  const text = (index: number, s: string): StreamEvent[] => [{ type: 'text-start', index }, { type: 'text-delta', index, delta: s }, { type: 'text-end', index }];

  it('no ids anywhere: deterministic ids from a counter, one assistant message for text and calls', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start' },
      ...text(0, 'Hi'),
      { type: 'tool-call-start', index: 1, id: 'call_1', name: 'f' },
      { type: 'tool-call-end', index: 1, arguments: '{"a":1}' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
      { type: 'finish', stopReason: { unified: 'tool-calls', raw: 'tool_use' } },
      { type: 'response-end' },
    ];
    const { wire } = await encodeChecked(events);
    expect(wire).toEqual([
      { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg-1' },
      { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'f', parentMessageId: 'msg-1' },
      // Arguments that came only at the end are sent as one delta.
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"a":1}' },
      { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
      {
        type: 'RUN_FINISHED',
        threadId: 'thread-1',
        runId: 'run-1',
        outcome: { type: 'success', pendingToolCallIds: ['call_1'] },
        usage: [{ inputTokens: 10, outputTokens: 3 }],
        metadata: { interlingua: { stopReason: { unified: 'tool-calls', raw: 'tool_use' } } },
      },
    ]);
    expect(accumulate(decodeAll(wire).events).response.choices[0]?.stopReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
  });

  it('Anthropic thinking keeps its text and signature through AG-UI, and its origin', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'msg_01', model: 'claude-sonnet-4-5' },
      { type: 'reasoning-start', index: 0, origin: 'anthropic-messages' },
      { type: 'reasoning-delta', index: 0, text: 'Consider 2+2.' },
      { type: 'reasoning-delta', index: 0, signature: 'EqQBCkYIBxgC' },
      { type: 'reasoning-delta', index: 0, signature: 'KkA+sig==' },
      { type: 'reasoning-end', index: 0 },
      { type: 'reasoning-start', index: 1, origin: 'anthropic-messages', redactedData: 'RVJSRUQ=' },
      { type: 'reasoning-end', index: 1 },
      ...text(2, '4'),
      { type: 'finish', stopReason: { unified: 'stop', raw: 'end_turn' } },
      { type: 'response-end' },
    ];
    const { wire, losses } = await encodeChecked(events);
    expect(losses).toEqual([expect.objectContaining({ code: 'unsupported-field', path: [12, 'model'] })]);
    expect(wire.filter((w) => String(w['type']).startsWith('REASONING_START'))).toEqual([
      { type: 'REASONING_START', messageId: 'reasoning-1', metadata: { interlingua: { origin: 'anthropic-messages' } } },
      { type: 'REASONING_START', messageId: 'reasoning-2', metadata: { interlingua: { origin: 'anthropic-messages' } } },
    ]);
    const parts = accumulate(decodeAll(wire).events).response.choices[0]?.message.parts;
    expect(parts?.slice(0, 2)).toMatchObject([
      { type: 'reasoning', origin: 'anthropic-messages', text: 'Consider 2+2.', signature: 'EqQBCkYIBxgCKkA+sig==' },
      { type: 'reasoning', origin: 'anthropic-messages', redactedData: 'RVJSRUQ=' },
    ]);
    expect(accumulate(decodeAll(wire).events).response.model).toBe('claude-sonnet-4-5');
  });

  it('OpenAI reasoning summaries become one reasoning message each, and come back as summary parts', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'resp_1' },
      { type: 'reasoning-start', index: 0, origin: 'openai-responses', id: 'rs_1' },
      { type: 'reasoning-delta', index: 0, summaryIndex: 0, text: 'First.' },
      { type: 'reasoning-delta', index: 0, summaryIndex: 1, text: 'Second.' },
      { type: 'reasoning-end', index: 0, encryptedContent: 'gAAAAB' },
      { type: 'response-end' },
    ];
    const { wire } = await encodeChecked(events);
    const run = await runAgent(sseText(wire));
    expect(run.messages.filter((m) => m.role === 'reasoning').map((m) => m.content)).toEqual(['First.', 'Second.']);
    expect(accumulate(decodeAll(wire).events).response.choices[0]?.message.parts).toEqual([
      { type: 'reasoning', origin: 'openai-responses', id: 'rs_1', summary: ['First.', 'Second.'], encryptedContent: 'gAAAAB', ext: expect.anything() },
    ]);
  });

  it('several choices: only the first is streamed, the rest reported once each', async () => {
    const events: StreamEvent[] = [{ type: 'response-start' }, ...text(0, 'a'), { type: 'text-start', choice: 1, index: 0 }, { type: 'text-delta', choice: 1, index: 0, delta: 'b' }, { type: 'text-end', choice: 1, index: 0 }, { type: 'response-end' }];
    const { losses } = await encodeChecked(events);
    expect(losses).toEqual([{ code: 'extra-choices', path: [4], message: 'an AG-UI run streams one answer: choice 1 is dropped', action: 'dropped' }]);
  });

  it("another dialect's events with no canonical meaning travel as RAW; its keepalives are skipped", async () => {
    const events: StreamEvent[] = [
      { type: 'provider-event', origin: 'openai-responses', event: { event: 'response.in_progress', data: { type: 'response.in_progress' } } },
      { type: 'response-start', id: 'r' },
      { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
      { type: 'response-end' },
    ];
    const { wire, losses } = await encodeChecked(events);
    expect(losses).toEqual([]);
    expect(wire.map((w) => w['type'])).toEqual(['RUN_STARTED', 'RAW', 'RUN_FINISHED']);
    const back = decodeAll(wire).events;
    expect(back[1]).toEqual(events[0]);
  });

  it('a mid-stream error is RUN_ERROR with the usage so far; a cut-off stream gets no RUN_FINISHED', async () => {
    const failed: StreamEvent[] = [{ type: 'response-start' }, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'par' }, { type: 'usage', usage: { inputTokens: 5 } }, { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } }];
    const { wire } = await encodeChecked(failed);
    expect(wire.at(-1)).toEqual({ type: 'RUN_ERROR', message: 'Overloaded', code: 'overloaded_error', usage: [{ inputTokens: 5 }] });
    const cut = encodeAll([{ type: 'response-start' }, ...text(0, 'half')]).wire;
    expect(cut.map((w) => w['type'])).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END']);
  });

  it('what AG-UI cannot carry is reported: citations, a refusal flag, a result error flag, an image part', () => {
    const { losses } = encodeAll([
      { type: 'response-start' },
      { type: 'text-start', index: 0, refusal: true },
      { type: 'text-delta', index: 0, delta: 'No.' },
      { type: 'citation', index: 0, citation: { type: 'url', url: 'https://x.test' } },
      { type: 'text-end', index: 0 },
      { type: 'part', index: 1, part: { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'bad' }], isError: true } },
      { type: 'part', index: 2, part: { type: 'image', source: { kind: 'url', url: 'https://x.test/a.png' } } },
      { type: 'response-end' },
    ]);
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([
      ['refusal-as-text', [1], 'approximated'],
      ['citations', [3], 'dropped'],
      ['tool-error-flag', [5, 'part', 'isError'], 'dropped'],
      ['unsupported-part', [6, 'part'], 'dropped'],
    ]);
  });
});

describe('chunk boundaries', () => {
  const capture = streamCaptures().local.find((c) => c.name.includes('Step12_ParallelToolCalls'));
  it('splitting the SSE text anywhere gives the same canonical events', () => {
    expect(capture).toBeDefined();
    const text = sseText(capture!.events);
    const whole = decodeAll(capture!.events).events;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 40 }), (cuts) => {
        const reader = frameReader(stream.framing);
        const bounds = [0, ...cuts.sort((a, b) => a - b), text.length];
        const frames = bounds.slice(1).flatMap((end, i) => reader.push(text.slice(bounds[i], end)));
        frames.push(...reader.end());
        expect(decodeAll(frames.map((f) => f.data as never)).events).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  });
});
