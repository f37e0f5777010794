/**
 * Properties of the AG-UI stream encoder over generated canonical streams of any origin (text,
 * refusals, reasoning from every provider with text, summaries, signatures, redacted and encrypted
 * state, tool calls with streamed, whole or no arguments, tool results, usage, stop reasons; ending
 * complete, in an error, or cut off):
 * - what it emits passes `@ag-ui/core/schemas` EventSchemas and `@ag-ui/client` verifyEvents;
 * - decoding it gives a canonical stream that verifies and accumulates to the same parts, usage,
 *   stop reason and model (AG-UI -> canonical gives back what the encoder put in).
 * Random JSON never crashes the decoder: it decodes or throws a ValidationError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormatId } from '../../../src/model/format-id.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Part } from '../../../src/model/part.js';
import type { StopReason } from '../../../src/model/stop-reason.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { ValidationError } from '../../../src/model/errors.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { jsonValue } from '../../support/arbitraries/common.js';
import { decodeAll, encodeAll, schemaIssues, verdict } from './helpers.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
const ORIGINS: FormatId[] = ['anthropic-messages', 'openai-responses', 'bedrock-converse', 'gemini', 'ag-ui'];
const UNIFIED = ['stop', 'length', 'tool-calls', 'stop-sequence', 'content-filter', 'refusal', 'pause', 'error', 'other'] as const;

type Block = (index: number) => StreamEvent[];
const text = fc.string({ maxLength: 12 });
const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });

const textBlock: fc.Arbitrary<Block> = fc.record({ deltas: fc.array(text, { maxLength: 4 }), refusal: fc.boolean() }).map(({ deltas, refusal }) => (index) => [
  { type: 'text-start', index, ...(refusal ? { refusal: true as const } : {}) },
  ...deltas.map((delta): StreamEvent => ({ type: 'text-delta', index, delta })),
  { type: 'text-end', index },
]);

const reasoningBlock: fc.Arbitrary<Block> = fc
  .record({
    origin: fc.constantFrom(...ORIGINS),
    id: opt(fc.constant('rs_1')),
    text: fc.array(text, { maxLength: 3 }),
    summary: fc.array(fc.array(text, { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
    signature: fc.array(fc.base64String({ minLength: 4, maxLength: 12 }), { maxLength: 2 }),
    redacted: opt(fc.base64String({ minLength: 4, maxLength: 12 })),
    encrypted: opt(fc.base64String({ minLength: 4, maxLength: 12 })),
    summaryFirst: fc.boolean(),
  })
  .map((r) => (index) => [
    { type: 'reasoning-start', index, origin: r.origin, ...(r.id ? { id: r.id } : {}), ...(r.redacted ? { redactedData: r.redacted } : {}) },
    // Readable text and summary parts, in either order.
    ...(r.summaryFirst ? [] : r.text.map((t): StreamEvent => ({ type: 'reasoning-delta', index, text: t }))),
    ...r.summary.flatMap((parts, summaryIndex) => parts.map((t): StreamEvent => ({ type: 'reasoning-delta', index, summaryIndex, text: t }))),
    ...(r.summaryFirst ? r.text.map((t): StreamEvent => ({ type: 'reasoning-delta', index, text: t })) : []),
    ...r.signature.map((signature): StreamEvent => ({ type: 'reasoning-delta', index, signature })),
    { type: 'reasoning-end', index, ...(r.encrypted ? { encryptedContent: r.encrypted } : {}) },
  ]);

const toolBlock: fc.Arbitrary<Block> = fc
  .record({ name: fc.constantFrom('get_weather', 'search'), args: jsonValue(), how: fc.constantFrom('deltas', 'end', 'none'), cut: fc.integer({ min: 1, max: 5 }) })
  .map((t) => (index) => {
    const id = `call_${index}`;
    const whole = JSON.stringify({ value: t.args });
    const at = Math.min(t.cut, whole.length);
    const deltas: StreamEvent[] = t.how === 'deltas' ? [whole.slice(0, at), whole.slice(at)].map((delta) => ({ type: 'tool-call-delta', index, delta })) : [];
    return [{ type: 'tool-call-start', index, id, name: t.name }, ...deltas, { type: 'tool-call-end', index, ...(t.how === 'end' ? { arguments: whole } : {}) }];
  });

const resultBlock: fc.Arbitrary<Block> = fc.record({ out: text, string: fc.boolean() }).map(({ out, string }) => (index) => [
  { type: 'part', index, part: { type: 'tool-result', callId: `call_${index - 1}`, content: [{ type: 'text', text: out }], ...(string ? { stringContent: true as const } : {}) } },
]);

const canonicalStream: fc.Arbitrary<StreamEvent[]> = fc
  .record({
    id: opt(fc.constant('resp_1')),
    model: opt(fc.constantFrom('claude-sonnet-4-5', 'gpt-4o')),
    blocks: fc.array(fc.oneof(textBlock, reasoningBlock, toolBlock, resultBlock), { maxLength: 5 }),
    usage: opt(fc.record({ inputTokens: fc.nat(5000), outputTokens: fc.nat(5000), cacheReadTokens: opt(fc.nat(100)), reasoningTokens: opt(fc.nat(100)) })),
    finish: opt(fc.record({ unified: fc.constantFrom(...UNIFIED), raw: opt(fc.constantFrom('end_turn', 'max_tokens', 'STOP')) })),
    ending: fc.constantFrom('end', 'error', 'cut'),
  })
  .map((s) => {
    const out: StreamEvent[] = [{ type: 'response-start', ...(s.id ? { id: s.id } : {}), ...(s.model ? { model: s.model } : {}) }];
    s.blocks.forEach((b, i) => out.push(...b(i)));
    if (s.usage) {
      const u: StreamEvent = { type: 'usage', usage: { inputTokens: s.usage.inputTokens, outputTokens: s.usage.outputTokens } };
      if (s.usage.cacheReadTokens !== undefined) u.usage.cacheReadTokens = s.usage.cacheReadTokens;
      if (s.usage.reasoningTokens !== undefined) u.usage.reasoningTokens = s.usage.reasoningTokens;
      out.push(u);
    }
    if (s.ending === 'error') out.push({ type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } });
    else if (s.ending === 'end') {
      if (s.finish) out.push({ type: 'finish', stopReason: (s.finish.raw ? s.finish : { unified: s.finish.unified }) as StopReason });
      out.push({ type: 'response-end' });
    }
    return out;
  });

/** Parts as AG-UI carries them (a refusal is text; ext aside), with usage, stop reason and model. */
function essence(events: StreamEvent[]): unknown {
  const acc = accumulate(events);
  const parts = (acc.response.choices[0]?.message.parts ?? []).map((p: Part) => {
    const { ext: _ext, ...rest } = p as Part & { ext?: unknown };
    return p.type === 'refusal' ? { type: 'text', text: p.text } : rest;
  });
  const { raw: _raw, ext: _uext, ...usage } = acc.response.usage ?? { inputTokens: 0, outputTokens: 0 };
  // AG-UI reports usage only on RUN_FINISHED / RUN_ERROR: a stream cut off before either has none.
  const ended = acc.complete || acc.error !== undefined;
  return { parts, usage: acc.response.usage && ended ? usage : undefined, stop: acc.response.choices[0]?.stopReason, model: acc.response.model, error: acc.error?.message, complete: acc.complete };
}

describe('AG-UI stream encoder properties', () => {
  it('generated canonical streams are themselves valid', () => {
    fc.assert(fc.property(canonicalStream, (events) => {
        expect(verifyStream(events)).toEqual([]);
      }), { numRuns: RUNS });
  });

  it('every emitted stream passes the official schemas and verifier, and decodes back to the same facts', async () => {
    await fc.assert(
      fc.asyncProperty(canonicalStream, async (events) => {
        const { wire } = encodeAll(events);
        expect(schemaIssues(wire)).toEqual([]);
        expect(await verdict(wire)).toBe('ok');
        const back = decodeAll(wire).events;
        expect(verifyStream(back)).toEqual([]);
        expect(essence(back)).toEqual(essence(events));
      }),
      { numRuns: RUNS },
    );
  });

  it('random JSON events decode or throw a ValidationError, nothing else', () => {
    const event = fc.oneof(jsonValue(), jsonValue().map((v) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: v })), fc.constantFrom('RUN_STARTED', 'TEXT_MESSAGE_START', 'TOOL_CALL_CHUNK', 'REASONING_END', 'RUN_FINISHED').chain((type) => fc.dictionary(fc.constantFrom('messageId', 'toolCallId', 'threadId', 'runId', 'delta'), fc.oneof(fc.string(), fc.integer())).map((d) => ({ ...d, type }))));
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), (events) => {
        try {
          decodeAll(events as JsonObject[]);
        } catch (e) {
          expect(e).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: RUNS * 3 },
    );
  });
});
