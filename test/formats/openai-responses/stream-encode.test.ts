/**
 * The Responses stream encoder on canonical sequences no Responses stream would produce in that
 * shape (other dialects' orders and gaps), each read back by the openai SDK's stream helper.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { encodeStream, sdkRead, sdkSays, sseText } from './stream-helpers.js';

const types = (wire: WireEvent[]): string[] => wire.map((w) => String(w.event));
const dataOf = (wire: WireEvent[], type: string): JsonObject[] => wire.filter((w) => w.event === type).map((w) => w.data as JsonObject);

async function read(events: StreamEvent[], losses: Loss[] = []) {
  expect(verifyStream(events)).toEqual([]);
  const wire = encodeStream(events, losses);
  return { wire, run: await sdkRead(sseText(wire)) };
}

describe('openai-responses stream encoder', () => {
  it('writes the whole lifecycle for a bare stream: no ids, usage only at the end, arguments only at the end', async () => {
    const { wire, run } = await read([
      { type: 'response-start' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Checking ' },
      { type: 'text-delta', index: 0, delta: 'both.' },
      { type: 'text-end', index: 0 },
      // Parallel calls, interleaved; the second has no deltas, only its arguments at the end.
      { type: 'tool-call-start', index: 1, id: 'call_a', name: 'weather' },
      { type: 'tool-call-start', index: 2, id: 'call_b', name: 'time' },
      { type: 'tool-call-delta', index: 1, delta: '{"city":' },
      { type: 'tool-call-delta', index: 1, delta: '"Oslo"}' },
      { type: 'tool-call-end', index: 2, arguments: '{"tz":"CET"}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } },
      { type: 'finish', stopReason: { unified: 'tool-calls', raw: 'tool_use' } },
      { type: 'response-end' },
    ]);
    expect(run.error).toBeUndefined();
    expect(types(wire).slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types(wire).at(-1)).toBe('response.completed');
    expect(sdkSays(run.final as NonNullable<typeof run.final>)).toEqual({
      text: 'Checking both.',
      calls: [
        { id: 'call_a', name: 'weather', args: { city: 'Oslo' } },
        { id: 'call_b', name: 'time', args: { tz: 'CET' } },
      ],
      reasoning: [],
      usage: { input: 12, output: 7 },
    });
    // The arguments given only at the end still come as a delta (clients read deltas).
    expect(dataOf(wire, 'response.function_call_arguments.delta').map((d) => d['delta'])).toEqual(['{"city":', '"Oslo"}', '{"tz":"CET"}']);
    // Ids from a counter, the message item written once its text is done and the next item starts.
    const final = run.final as NonNullable<typeof run.final>;
    expect(final.id).toBe('resp_il1');
    expect(final.status).toBe('completed');
    expect((final.output as unknown as JsonObject[]).map((i) => [i['type'], i['id'], i['status']])).toEqual([
      ['message', 'msg_il2', 'completed'],
      ['function_call', 'fc_il3', 'completed'],
      ['function_call', 'fc_il4', 'completed'],
    ]);
    expect((final.usage as unknown as JsonObject)['total_tokens']).toBe(19);
  });

  it('keeps one choice and says so once; a cut-short response is incomplete, and so is its last message', async () => {
    const losses: Loss[] = [];
    const { wire, run } = await read(
      [
        { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-x', created: 1700000000 },
        { type: 'text-start', index: 0 },
        { type: 'text-start', choice: 1, index: 0 },
        { type: 'text-delta', index: 0, delta: 'Once upon' },
        { type: 'text-delta', choice: 1, index: 0, delta: 'Long ago' },
        { type: 'text-end', index: 0 },
        { type: 'text-end', choice: 1, index: 0 },
        { type: 'finish', stopReason: { unified: 'length', raw: 'length' } },
        { type: 'finish', choice: 1, stopReason: { unified: 'length', raw: 'length' } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(losses).toEqual([expect.objectContaining({ code: 'extra-choices', path: [2], action: 'dropped' })]);
    expect(types(wire).at(-1)).toBe('response.incomplete');
    const final = run.final as NonNullable<typeof run.final>;
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(final.output_text).toBe('Once upon');
    expect((final.output[0] as unknown as JsonObject)['status']).toBe('incomplete');
    expect([final.id, final.model, final.created_at]).toEqual(['chatcmpl-1', 'gpt-x', 1700000000]);
  });

  it('writes a mid-stream error as the documented error event, then response.failed; the SDK stream fails with it', async () => {
    const { wire, run } = await read([
      { type: 'response-start', id: 'msg_1' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Par' },
      { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error', raw: { type: 'overloaded_error', message: 'Overloaded' } } },
    ]);
    expect(types(wire).slice(-2)).toEqual(['error', 'response.failed']);
    const [error] = dataOf(wire, 'error');
    expect(error).toMatchObject({ type: 'error', code: 'overloaded_error', message: 'Overloaded', param: null });
    const failed = dataOf(wire, 'response.failed')[0]?.['response'] as JsonObject;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'overloaded_error', message: 'Overloaded' } });
    expect(run.error?.message).toContain('Overloaded');
  });

  it('leaves a cut-off stream without an end, and writes nothing after the end', () => {
    const losses: Loss[] = [];
    const wire = encodeStream(
      [
        { type: 'response-start' },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'half' },
      ],
      losses,
    );
    expect(types(wire).filter((t) => /completed|incomplete|failed|output_item\.done/.test(t))).toEqual([]);
    const after = encodeStream([{ type: 'response-start' }, { type: 'response-end' }, { type: 'usage', usage: { outputTokens: 1 } }], losses);
    expect(types(after).at(-1)).toBe('response.completed');
    expect(losses).toEqual([expect.objectContaining({ code: 'after-end', path: [2] })]);
  });

  it('writes Responses reasoning with its summary parts, text and encrypted content; drops another origin’s', async () => {
    const losses: Loss[] = [];
    const { wire, run } = await read(
      [
        { type: 'response-start', id: 'resp_r' },
        { type: 'reasoning-start', index: 0, origin: 'anthropic-messages' },
        { type: 'reasoning-delta', index: 0, text: 'thinking', signature: 'sig' },
        { type: 'reasoning-end', index: 0 },
        { type: 'reasoning-start', index: 1, origin: 'openai-responses', id: 'rs_1' },
        { type: 'reasoning-delta', index: 1, summaryIndex: 0, text: '**Plan**' },
        { type: 'reasoning-delta', index: 1, summaryIndex: 1, text: 'Then ' },
        { type: 'reasoning-delta', index: 1, summaryIndex: 1, text: 'answer.' },
        { type: 'reasoning-end', index: 1, encryptedContent: 'gAAA-opaque' },
        { type: 'text-start', index: 2 },
        { type: 'text-delta', index: 2, delta: '42' },
        { type: 'text-end', index: 2 },
        { type: 'finish', stopReason: { unified: 'stop' } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(run.error).toBeUndefined();
    expect(losses.map((l) => [l.code, l.path[0]])).toEqual([['foreign-reasoning', 1]]);
    expect(sdkSays(run.final as NonNullable<typeof run.final>).reasoning).toEqual([{ summary: ['**Plan**', 'Then answer.'], text: '', encrypted: 'gAAA-opaque' }]);
    expect(dataOf(wire, 'response.reasoning_summary_part.added').map((d) => d['summary_index'])).toEqual([0, 1]);
    expect(dataOf(wire, 'response.reasoning_summary_text.done').map((d) => d['text'])).toEqual(['**Plan**', 'Then answer.']);
  });

  it('writes refusals and citations as their own events', async () => {
    const { wire, run } = await read([
      { type: 'response-start' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Oslo is in Norway.' },
      { type: 'citation', index: 0, citation: { type: 'url', url: 'https://example.org/oslo', title: 'Oslo', startIndex: 0, endIndex: 4 } },
      { type: 'text-end', index: 0 },
      { type: 'text-start', index: 1, refusal: true },
      { type: 'text-delta', index: 1, delta: 'I can’t help with the rest.' },
      { type: 'text-end', index: 1 },
      { type: 'finish', stopReason: { unified: 'refusal' } },
      { type: 'response-end' },
    ]);
    expect(run.error).toBeUndefined();
    const annotation = { type: 'url_citation', url: 'https://example.org/oslo', title: 'Oslo', start_index: 0, end_index: 4 };
    expect(dataOf(wire, 'response.output_text.annotation.added')[0]).toMatchObject({ annotation_index: 0, annotation });
    const content = ((run.final?.output[0] as unknown as JsonObject)['content'] as JsonObject[]).map((c) => c['type']);
    expect(content).toEqual(['output_text', 'refusal']);
    expect(((run.final?.output[0] as unknown as JsonObject)['content'] as JsonObject[])[0]?.['annotations']).toEqual([annotation]);
    expect(dataOf(wire, 'response.refusal.done')[0]?.['refusal']).toBe('I can’t help with the rest.');
  });

  it('re-writes its own provider events, skips others’ keepalives, reports others’ events', () => {
    const losses: Loss[] = [];
    const wire = encodeStream(
      [
        { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
        { type: 'response-start' },
        { type: 'provider-event', origin: 'openai-responses', event: { event: 'keepalive', data: { type: 'keepalive', sequence_number: 40 } }, keepalive: true },
        { type: 'provider-event', origin: 'gemini', event: { data: { groundingMetadata: {} } } },
        { type: 'response-end' },
      ],
      losses,
    );
    expect(types(wire)).toEqual(['response.created', 'response.in_progress', 'keepalive', 'response.completed']);
    expect(wire[2]?.data).toEqual({ type: 'keepalive', sequence_number: 2 });
    expect(losses).toEqual([expect.objectContaining({ code: 'provider-event', path: [3] })]);
  });

  it('does work proportional to each event: a delta is one wire event whatever came before', () => {
    const e = encodeStream([{ type: 'response-start' }, { type: 'text-start', index: 0 }]);
    expect(e.length).toBe(4);
    const events: StreamEvent[] = [{ type: 'response-start' }, { type: 'text-start', index: 0 }];
    for (let i = 0; i < 5000; i++) events.push({ type: 'text-delta', index: 0, delta: 'x' });
    const wire = encodeStream(events);
    expect(wire.length).toBe(4 + 5000);
    expect(new Set(wire.slice(4).map((w) => JSON.stringify(w.data).length - String((w.data as JsonObject)['sequence_number']).length)).size).toBe(1);
  });
});
