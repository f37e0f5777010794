/**
 * The codec object as the registry will hold it: SSE framing, and the version / JSON-RPC id
 * options (`a2aCodec`) that choose what the encoders write when their context does not say.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { a2a, a2aCodec } from '../../../src/formats/a2a/index.js';
import { frameReader, frameWriter } from '../../../src/stream/framing.js';

const EVENTS: StreamEvent[] = [
  { type: 'response-start', id: 'r1' },
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, delta: 'Hi' },
  { type: 'text-end', index: 0 },
  { type: 'finish', stopReason: { unified: 'stop' } },
  { type: 'response-end' },
];

function run(codec = a2a): WireEvent[] {
  const enc = codec.stream?.encoder({ losses: { push: () => undefined } });
  if (enc === undefined) throw new Error('no stream codec');
  return [...EVENTS.flatMap((e) => enc.push(e)), ...enc.end()];
}

describe('the a2a codec object', () => {
  it('has the request and stream kinds; its streams are SSE', () => {
    expect(a2a.id).toBe('a2a');
    expect(a2a.request).toBeDefined();
    expect(a2a.response).toBeUndefined();
    expect(a2a.stream?.framing).toBe('sse');
  });

  it('writes v1.0 with JSON-RPC id 1 by default; a2aCodec({version, rpcId}) changes both', () => {
    const v1 = run();
    expect((v1[0]?.data as JsonObject)['id']).toBe(1);
    expect(Object.keys((v1[0]?.data as JsonObject)['result'] as JsonObject)).toEqual(['task']);
    const v03 = run(a2aCodec({ version: '0.3', rpcId: 'req-9' }));
    expect((v03[0]?.data as JsonObject)['id']).toBe('req-9');
    expect(((v03[0]?.data as JsonObject)['result'] as JsonObject)['kind']).toBe('task');
    const req = a2aCodec({ version: '0.3' }).request?.encode({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }, { preserve: false, losses: { push: () => undefined } });
    expect(req).toEqual([{ kind: 'message', messageId: 'msg-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }], metadata: { canonical_type: 'TextMessageContentEvent' } }]);
  });

  it('SSE written by the framing layer reads back through the decoder as the same events', () => {
    const write = frameWriter('sse');
    const text = run().map((w) => write(w) as string).join('');
    const reader = frameReader('sse');
    const dec = a2a.stream?.decoder({ limits: DEFAULT_LIMITS, losses: { push: () => undefined } });
    if (dec === undefined) throw new Error('no decoder');
    const back = [...reader.push(text), ...reader.end()].flatMap((w) => dec.push(w));
    expect(back.map((e) => e.type)).toEqual(EVENTS.map((e) => e.type));
  });
});
