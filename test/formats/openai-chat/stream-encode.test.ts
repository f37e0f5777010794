/**
 * The encoder on canonical sequences of any origin: the chunk lifecycle the SDK expects, ids it
 * has to make up, usage at the end (or not, when not asked for), arguments that came only at the
 * end, several choices, errors, cut-off streams, and every loss Chat cannot avoid.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIError } from 'openai';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getKindCodec } from '../../../src/formats/registry.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { encodeEvents, sdkRead, summarize, toSse } from './stream-helpers.js';

function response(id: string, file: string): Response {
  const body = JSON.parse(readFileSync(join(LOCAL_FIXTURES, file), 'utf8')) as unknown;
  return getKindCodec(id, 'response').decode(body, { limits: DEFAULT_LIMITS, losses: [] }) as Response;
}
const chunks = (wire: WireEvent[]) => wire.filter((w) => typeof w.data !== 'string').map((w) => w.data as JsonObject);
const deltas = (wire: WireEvent[]) => chunks(wire).flatMap((c) => (c['choices'] as JsonObject[]).map((ch) => ch['delta'] as JsonObject));

describe('lifecycle', () => {
  // Bedrock responses carry no id, model or creation time: all must be made up.
  const res = response('bedrock-converse', 'bedrock-converse/responses/amazon-bedrock-tool-call.1.json');

  it('role first, then deltas, finish, usage with empty choices, [DONE]; one made-up id on every chunk', () => {
    expect(res.id).toBeUndefined();
    const events = responseToEvents(res);
    expect(verifyStream(events)).toEqual([]);
    const wire = encodeEvents(events);
    const data = chunks(wire);
    expect(wire.at(-1)?.data).toBe('[DONE]');
    expect(deltas(wire)[0]?.['role']).toBe('assistant');
    expect(deltas(wire).filter((d) => 'role' in d)).toHaveLength(1);
    const ids = new Set(data.map((c) => c['id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-interlingua-\d+$/);
    expect(data.every((c) => c['object'] === 'chat.completion.chunk' && typeof c['created'] === 'number' && c['model'] === '')).toBe(true);
    const last = data.at(-1) as JsonObject;
    expect(last['choices']).toEqual([]);
    expect(last['usage']).toMatchObject({ prompt_tokens: res.usage?.inputTokens, completion_tokens: res.usage?.outputTokens });
    const finish = data.at(-2) as JsonObject;
    expect(finish['choices']).toEqual([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
  });

  it('made-up ids come from a counter, not at random', () => {
    const a = chunks(encodeEvents(responseToEvents(res)))[0]?.['id'] as string;
    const b = chunks(encodeEvents(responseToEvents(res)))[0]?.['id'] as string;
    expect(Number(b.split('-').at(-1))).toBe(Number(a.split('-').at(-1)) + 1);
  });

  it('a tool call: id, type and name first with empty arguments, then the arguments', () => {
    const call = res.choices[0]?.message.parts.find((p) => p.type === 'tool-call');
    const calls = deltas(encodeEvents(responseToEvents(res))).flatMap((d) => (d['tool_calls'] ?? []) as JsonObject[]);
    expect(calls[0]).toEqual({ index: 0, id: call?.type === 'tool-call' ? call.id : '', type: 'function', function: { name: call?.type === 'tool-call' ? call.name : '', arguments: '' } });
    expect(calls.slice(1).map((c) => (c['function'] as JsonObject)['arguments']).join('')).toBe(call?.type === 'tool-call' ? JSON.stringify(call.arguments) : '');
  });

  it('arguments given only at the end go out as one delta', async () => {
    const events = responseToEvents(res).filter((e) => e.type !== 'tool-call-delta');
    const wire = encodeEvents(events);
    const args = deltas(wire).flatMap((d) => (d['tool_calls'] ?? []) as JsonObject[]).map((c) => (c['function'] as JsonObject)['arguments']);
    expect(args).toHaveLength(2);
    const { final } = await sdkRead(toSse(wire));
    expect(JSON.parse(final.choices[0]?.message.tool_calls?.[0]?.type === 'function' ? final.choices[0].message.tool_calls[0].function.arguments : '')).toEqual(
      (res.choices[0]?.message.parts.find((p) => p.type === 'tool-call') as { arguments: unknown }).arguments,
    );
  });

  it('no usage chunk when the client did not ask for usage', () => {
    const wire = encodeEvents(responseToEvents(res), [], false);
    expect(chunks(wire).some((c) => 'usage' in c)).toBe(false);
    expect(wire.at(-1)?.data).toBe('[DONE]');
  });

  it('usage given in parts (input first, output last) is sent once, whole, at the end', () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'r1', model: 'm' },
      { type: 'usage', usage: { inputTokens: 10 } },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Hi' },
      { type: 'text-end', index: 0 },
      { type: 'usage', usage: { outputTokens: 3 } },
      { type: 'finish', stopReason: { unified: 'stop', raw: 'end_turn' } },
      { type: 'response-end' },
    ];
    const data = chunks(encodeEvents(events));
    expect(data.filter((c) => 'usage' in c).map((c) => c['usage'])).toEqual([{ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 }]);
    expect(data.map((c) => (c['choices'] as JsonObject[])[0]?.['finish_reason'])).toEqual([null, 'stop', undefined]);
  });

  it('several choices: each gets its role, its deltas and its finish', async () => {
    const events: StreamEvent[] = [{ type: 'response-start', id: 'r2', model: 'm', created: 1 }];
    for (const choice of [0, 1]) events.push({ type: 'text-start', choice, index: 0 }, { type: 'text-delta', choice, index: 0, delta: `answer ${choice}` }, { type: 'text-end', choice, index: 0 });
    events.push({ type: 'finish', choice: 1, stopReason: { unified: 'length' } }, { type: 'finish', choice: 0, stopReason: { unified: 'stop' } }, { type: 'response-end' });
    const { final } = await sdkRead(toSse(encodeEvents(events)));
    expect(summarize(final).choices.map((c) => [c.index, c.content, c.finish])).toEqual([
      [0, 'answer 0', 'stop'],
      [1, 'answer 1', 'length'],
    ]);
  });
});

describe('errors and cut-off streams', () => {
  it('an error is the last thing written, as OpenAI writes it, and the SDK raises it', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'r3' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Par' },
      { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } },
      { type: 'text-end', index: 0 },
    ];
    const wire = encodeEvents(events);
    expect(wire.at(-1)?.data).toEqual({ error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null } });
    const err = await sdkRead(toSse(wire)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain('Overloaded');
  });

  it('a cut-off canonical stream stays cut off: no finish, no usage, no [DONE]', () => {
    const events = responseToEvents(response('anthropic-messages', 'anthropic-messages/response/anthropic-tool-no-args.json'));
    const cut = events.slice(0, events.findIndex((e) => e.type === 'usage'));
    const wire = encodeEvents(cut);
    expect(wire.some((w) => w.data === '[DONE]')).toBe(false);
    expect(chunks(wire).some((c) => (c['choices'] as JsonObject[]).some((ch) => ch['finish_reason'] !== null) || 'usage' in c)).toBe(false);
  });
});

describe('what Chat cannot carry is reported', () => {
  it('reasoning of another origin, server-run tools and their results, non-url citations', () => {
    const losses: Loss[] = [];
    const res = response('anthropic-messages', 'anthropic-messages/response/anthropic-web-search-tool.1.json');
    const wire = encodeEvents(responseToEvents(res), losses);
    const codes = new Set(losses.map((l) => l.code));
    expect(codes).toContain('provider-executed-tool');
    expect(deltas(wire).some((d) => 'tool_calls' in d)).toBe(false);
    for (const l of losses) expect(typeof l.path[0]).toBe('number');
    const thinking = encodeEvents(responseToEvents(response('anthropic-messages', 'anthropic-messages/response/anthropic-clear-thinking.1.json')), losses);
    expect(losses.map((l) => l.code)).toContain('foreign-reasoning');
    expect(deltas(thinking).some((d) => 'reasoning_content' in d)).toBe(false);
    const doc: Loss[] = [];
    encodeEvents(
      [
        { type: 'response-start' },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'cited' },
        { type: 'citation', index: 0, citation: { type: 'document', documentIndex: 0, citedText: 'x' } },
        { type: 'text-end', index: 0 },
        { type: 'part', index: 1, part: { type: 'image', source: { kind: 'url', url: 'https://example.org/a.png' } } },
      ],
      doc,
    );
    expect(doc.map((l) => [l.code, l.path])).toEqual([
      ['citations', [3, 'citation']],
      ['unsupported-part', [5, 'part']],
    ]);
  });

  it('provider events: own ones go out as they came, others\' keepalives vanish, others\' meaningful ones are reported', () => {
    const own: WireEvent = { data: { id: 'x', choices: [{ index: 0, delta: { audio: { id: 'a' } }, finish_reason: null }] } };
    const losses: Loss[] = [];
    const wire = encodeEvents(
      [
        { type: 'response-start', id: 'x' },
        { type: 'provider-event', origin: 'openai-chat', event: own },
        { type: 'provider-event', origin: 'anthropic-messages', event: { event: 'ping', data: { type: 'ping' } }, keepalive: true },
        { type: 'provider-event', origin: 'openai-responses', event: { event: 'response.queued', data: {} } },
      ],
      losses,
    );
    expect(wire).toEqual([own]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['provider-event', [3]]]);
  });
});
