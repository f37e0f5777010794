/**
 * What the Responses stream decoder makes of each case the captures show (local copies), and of
 * bad input: a ValidationError naming the wire event and field.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { ResponsesStreamDecoder } from '../../../src/formats/openai-responses/stream-decode.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { localStreamCaptures, type StreamCapture } from '../../support/streams.js';
import { decodeStream, streams, typeOf } from './stream-helpers.js';

const local = streams(localStreamCaptures('openai-responses'));
const capture = (name: string): StreamCapture => {
  const c = local.find((s) => s.name.includes(name));
  if (c === undefined) throw new Error(`no local capture ${name}`);
  return c;
};
const ofType = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) => events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);

const created: WireEvent = { data: { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', created_at: 5, model: 'm', status: 'in_progress', output: [] } } };
const ev = (data: JsonObject): WireEvent => ({ event: String(data['type']), data });

/** The ValidationError a wire sequence throws, as `path: message` lines. */
function issues(wire: WireEvent[]): string[] {
  try {
    decodeStream(wire);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw e;
  }
  return [];
}

describe('openai-responses stream decoder on the captures', () => {
  it('gives every function call its own block and arguments that arrive only in the done event', () => {
    const events = decodeStream(capture('lmstudio-tool-call').events);
    expect(ofType(events, 'tool-call-delta')).toHaveLength(1);
    const [end] = ofType(events, 'tool-call-end');
    expect(ofType(events, 'tool-call-delta')[0]?.delta).toBe(end?.arguments);
    expect(JSON.parse(end?.arguments ?? '')).toEqual({ location: 'San Francisco' });
    // reasoning_text deltas are the readable reasoning, kept as they came.
    const text = ofType(events, 'reasoning-delta').map((d) => d.text).join('');
    expect(text).toMatch(/^The user is asking for the weather in San Francisco/);
  });

  it('keeps summaries, reasoning ids and the encrypted content of the done item', () => {
    const c = capture('openai-reasoning-encrypted-content.1.chunks.txt#0');
    const events = decodeStream(c.events);
    const done = c.events.map((w) => w.data as JsonObject).find((d) => d['type'] === 'response.output_item.done' && (d['item'] as JsonObject)['type'] === 'reasoning');
    const [start] = ofType(events, 'reasoning-start');
    const [end] = ofType(events, 'reasoning-end');
    expect(start?.id).toBe((done?.['item'] as JsonObject)['id']);
    expect(end?.encryptedContent).toBe((done?.['item'] as JsonObject)['encrypted_content']);
    expect(ofType(events, 'reasoning-delta').every((d) => d.summaryIndex === 0)).toBe(true);
    expect(ofType(events, 'finish')[0]?.stopReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('takes a refusal without content_part.added, and ignores the [DONE] sentinel', () => {
    const c = capture('agentgateway-stream-refusal');
    expect(c.events.at(-1)?.data).toBe('[DONE]');
    const events = decodeStream(c.events);
    expect(events.find((e) => e.type === 'text-start')).toMatchObject({ refusal: true, index: 0 });
    expect(accumulate(events).response.choices[0]?.message.parts[0]).toMatchObject({ type: 'refusal', text: 'I cannot help with that.' });
    expect(events.at(-1)?.type).toBe('response-end');
  });

  it('turns url and file annotations into citations on their text block', () => {
    const web = decodeStream(capture('openai-web-search-tool').events);
    const citations = ofType(web, 'citation');
    expect(citations.length).toBeGreaterThan(0);
    expect(citations.every((c) => c.citation.type === 'url' && c.citation.url.startsWith('http'))).toBe(true);
    const text = ofType(web, 'text-start')[0];
    expect(citations.every((c) => c.index === text?.index)).toBe(true);
    const files = ofType(decodeStream(capture('openai-file-search-tool').events), 'citation');
    expect(files.map((c) => c.citation.type)).toEqual(['document', 'document']);
  });

  it('keeps built-in items whole (a part at their done) and their progress as keepalive provider events', () => {
    const events = decodeStream(capture('openai-image-generation-tool').events);
    const parts = ofType(events, 'part');
    expect(parts.map((p) => p.part.type === 'provider-block' && p.part.block['type'])).toEqual(['image_generation_call']);
    const progress = ofType(events, 'provider-event');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.keepalive === true && p.origin === 'openai-responses')).toBe(true);
    expect(accumulate(events).losses).toEqual([]);
  });

  it('adds what trimmed deltas did not say from the done event', () => {
    const c = capture('openai-phase');
    const events = decodeStream(c.events);
    const done = c.events.map((w) => w.data as JsonObject).filter((d) => d['type'] === 'response.output_text.done').map((d) => d['text']);
    const texts = accumulate(events).response.choices[0]?.message.parts.map((p) => (p.type === 'text' ? p.text : undefined));
    expect(texts).toEqual(done);
  });

  it('reports deltas that disagree with their done event once, and keeps the deltas', () => {
    const losses: Loss[] = [];
    const events = decodeStream(capture('openai-shell-container').events, losses);
    expect(losses.map((l) => l.code)).toEqual(['stream-mismatch']);
    const text = accumulate(events).response.choices[0]?.message.parts.find((p) => p.type === 'text');
    expect(text).toMatchObject({ text: 'The command ran successfully.' });
  });

  it('reports a gateway’s own fields on a lifecycle event', () => {
    const losses: Loss[] = [];
    decodeStream(capture('github-copilot-id-rotation').events, losses);
    expect(losses).toEqual([expect.objectContaining({ code: 'unsupported-field', path: [68, 'copilot_usage'], action: 'dropped' })]);
  });

  it('ends with the error of an error event; the response.failed after it restates it', () => {
    const c = capture('openai-error');
    expect(c.events.map(typeOf).slice(-2)).toEqual(['error', 'response.failed']);
    const events = decodeStream(c.events);
    expect(events.map((e) => e.type)).toEqual(['response-start', 'error']);
    expect(events[1]).toMatchObject({ error: { code: 'insufficient_quota', type: 'insufficient_quota', message: expect.stringMatching(/^You exceeded your current quota/) } });
  });

  it('reads the documented flat error event, and response.failed alone', () => {
    const flat = decodeStream([created, ev({ type: 'error', code: 'server_error', message: 'boom', param: null, sequence_number: 1 })]);
    expect(flat.at(-1)).toEqual({ type: 'error', error: { message: 'boom', code: 'server_error', raw: { code: 'server_error', message: 'boom', param: null } } });
    const failed = decodeStream([created, ev({ type: 'response.failed', response: { id: 'resp_1', status: 'failed', output: [], error: { code: 'rate_limit_exceeded', message: 'slow down' }, usage: { input_tokens: 3, output_tokens: 0 } } })]);
    expect(failed.map((e) => e.type)).toEqual(['response-start', 'usage', 'error']);
    expect(failed.at(-1)).toMatchObject({ error: { code: 'rate_limit_exceeded', message: 'slow down' } });
  });

  it('leaves a cut-off stream cut off', () => {
    const c = capture('openai-reasoning-encrypted-content.1.chunks.txt#3');
    const cut = c.events.slice(0, c.events.findIndex((w) => typeOf(w) === 'response.output_text.done'));
    const events = decodeStream(cut);
    expect(verifyStream(events)).toEqual([]);
    expect(events.some((e) => e.type === 'finish' || e.type === 'response-end')).toBe(false);
    const acc = accumulate(events);
    expect(acc.complete).toBe(false);
    expect(acc.response.choices[0]?.stopReason).toBeUndefined();
    expect(acc.response.choices[0]?.message.parts[0]).toMatchObject({ type: 'text', text: 'The final result is **570**.' });
  });

  it('maps an incomplete response to its stop reason, and an unknown event to a provider event', () => {
    const events = decodeStream([
      created,
      ev({ type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
      ev({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hel' }),
      ev({ type: 'response.something_new', detail: 1 }),
      ev({ type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text: 'Hel', annotations: [] }] } }),
      ev({ type: 'response.incomplete', response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [], usage: { input_tokens: 4, output_tokens: 1 } } }),
    ]);
    expect(verifyStream(events)).toEqual([]);
    expect(events.find((e) => e.type === 'provider-event')).toEqual({ type: 'provider-event', origin: 'openai-responses', event: ev({ type: 'response.something_new', detail: 1 }) });
    expect(ofType(events, 'finish')[0]?.stopReason).toEqual({ unified: 'length', raw: 'incomplete' });
    expect(ofType(events, 'usage')[0]?.usage).toMatchObject({ inputTokens: 4, outputTokens: 1 });
  });
});

describe('openai-responses stream decoder on bad input', () => {
  it('names the event and the field', () => {
    expect(issues([created, ev({ type: 'response.output_text.delta', output_index: 3, content_index: 0, delta: 'x' })])).toEqual([
      '1.output_index: response.output_text.delta: no output 3 was added',
    ]);
    expect(issues([created, ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', name: 'f', arguments: '' } })])).toEqual([
      '1.call_id: function_call: expected a string call_id, received nothing',
    ]);
    expect(issues([created, ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'message', role: 'assistant', content: [] } }), ev({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 7 })])).toEqual([
      '2.delta: response.output_text.delta: expected a string delta, received number',
    ]);
    expect(issues([{ data: 'not json' }])).toEqual(["0.data: expected a JSON event, received the text 'not json'"]);
    expect(issues([{ data: { sequence_number: 0 } }])).toEqual(['0.type: the event has no type']);
  });

  it('checks a done item with the response codec’s rules, at the item’s path', () => {
    const wire = [
      created,
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '' } }),
      ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: 5 } }),
    ];
    expect(issues(wire)).toEqual([expect.stringMatching(/^2\.item\.arguments: /)]);
  });

  it('refuses a second response in one stream and events for a finished item', () => {
    const c = capture('openai-custom-tool');
    expect(issues([...c.events, created])[0]).toMatch(/'response.created' after the response ended/);
    const added = ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'message', role: 'assistant', content: [] } });
    const done = ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'message', role: 'assistant', content: [] } });
    expect(issues([created, added, done, ev({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'x' })])).toEqual([
      '3.output_index: response.output_text.delta: output 0 is already done',
    ]);
  });

  it('works one event at a time: a decoder fed event by event gives what it gives for the whole', () => {
    const c = capture('test_openai_instructions_with_responses_logprobs_streaming');
    const d = new ResponsesStreamDecoder({ limits: DEFAULT_LIMITS, losses: [] });
    const stepwise = c.events.flatMap((w) => d.push(w));
    expect([...stepwise, ...d.end()]).toEqual(decodeStream(c.events));
    // The first text delta comes out with its own wire event, not at the end.
    const first = c.events.findIndex((w) => typeOf(w) === 'response.output_text.delta');
    const d2 = new ResponsesStreamDecoder({ limits: DEFAULT_LIMITS, losses: [] });
    c.events.slice(0, first).forEach((w) => d2.push(w));
    expect(d2.push(c.events[first] as WireEvent)).toEqual([{ type: 'text-delta', index: 0, delta: 'The' }]);
  });
});
