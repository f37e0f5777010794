/**
 * Decoding A2A streams: streams written by @a2a-js/sdk's server (v1.0 and, through its legacy
 * handler, v0.3) and the v0.3.0 spec's streaming example decode into canonical events that pass
 * `verifyStream`, accumulate into a complete response with the texts, tool calls, stop reason
 * and usage the stream carried, and that response encodes as an OpenAI Chat response its own
 * decoder accepts. Bad wire input is a ValidationError naming the event and field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { ValidationError } from '../../../src/model/errors.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { parseSse } from '../../../src/stream/sse.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { A2A_FIXTURES, decodeStream, sdkServerStream, sdkSse } from './helpers.js';
import { EXPECTED, SCENARIOS } from './stream-scenarios.js';

const VERSIONS = ['1.0', '0.3'] as const;

function summary(res: Response) {
  const parts = res.choices[0]?.message.parts ?? [];
  return {
    texts: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])),
    calls: parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.id, name: p.name, args: p.arguments }] : [])),
  };
}

const wires = new Map<string, WireEvent[]>();

beforeAll(async () => {
  for (const [name, results] of Object.entries(SCENARIOS)) {
    for (const v of VERSIONS) wires.set(`${name} ${v}`, parseSse(sdkSse(await sdkServerStream(results, v))));
  }
});

describe('streams written by the @a2a-js/sdk server', () => {
  for (const name of Object.keys(SCENARIOS)) {
    for (const v of VERSIONS) {
      it(`${name} (${v}): decodes, verifies, accumulates what it carried`, () => {
        const wire = wires.get(`${name} ${v}`) as WireEvent[];
        expect(wire.length).toBeGreaterThan(0);
        const { events } = decodeStream(wire);
        expect(verifyStream(events)).toEqual([]);
        const acc = accumulate(events);
        const want = EXPECTED[name] as (typeof EXPECTED)[string];
        expect(summary(acc.response)).toEqual({ texts: want.texts, calls: want.calls });
        if (want.error !== undefined) {
          expect(acc.error?.message).toBe(want.error);
          return;
        }
        expect(acc.complete).toBe(true);
        expect(acc.response.choices[0]?.stopReason?.unified).toBe(want.stop);
        if (want.output !== undefined) expect(acc.response.usage?.outputTokens).toBe(want.output);
        // The accumulated response is a response other dialects write: OpenAI Chat's codec takes it back.
        const body = openaiChat.response?.encode(acc.response, { preserve: false, losses: [] as never });
        expect(() => openaiChat.response?.decode(body, { limits: DEFAULT_LIMITS, losses: [] as never })).not.toThrow();
      });
    }
  }

  it('the typed stream: a result from the agent is a provider-executed tool result, the call is not the client\'s', () => {
    const { events } = decodeStream(wires.get('typed 1.0') as WireEvent[]);
    const result = events.find((e) => e.type === 'part');
    expect(result).toMatchObject({ type: 'part', part: { type: 'tool-result', callId: 'call-1', name: 'get_weather', providerExecuted: true, content: [{ type: 'text', text: 'sunny, 21 C' }] } });
    expect(events.filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)).toEqual(['{"city":', '"Paris"}']);
  });

  it('a working update without a message is a keepalive provider event (StepStarted)', () => {
    const { events } = decodeStream(wires.get('artifacts 1.0') as WireEvent[]);
    const pe = events.filter((e) => e.type === 'provider-event');
    expect(pe).toHaveLength(1);
    expect(pe[0]).toMatchObject({ origin: 'a2a', keepalive: true, event: { data: { statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } } } });
  });

  it('input-required after a client tool call stops for tool calls; v0.3 says final, v1.0 ends there', () => {
    for (const v of VERSIONS) {
      const { events } = decodeStream(wires.get(`input-required ${v}`) as WireEvent[]);
      expect(events.find((e) => e.type === 'finish')).toMatchObject({ stopReason: { unified: 'tool-calls', raw: 'input-required' } });
    }
  });
});

describe('the v0.3.0 spec streaming example (test/fixtures/a2a/streams)', () => {
  const wire = parseSse(readFileSync(join(A2A_FIXTURES, 'streams/spec-v0.3-streaming.sse'), 'utf8'));

  it('decodes: the task opens, the artifact chunks are one text block, completed ends it', () => {
    const { events, losses } = decodeStream(wire);
    expect(verifyStream(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['response-start', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'finish', 'response-end']);
    expect(events[0]).toMatchObject({ id: '225d6247-06ba-4cda-a08b-33ae35c8dcfa', ext: { a2a: { contextId: '05217e44-7e9f-473e-ab4f-2c2dde50a2b1', $version: '0.3' } } });
    const acc = accumulate(events);
    expect(acc.complete).toBe(true);
    expect(summary(acc.response).texts).toEqual(['<section 1...><section 2...><section 3...>']);
    // The example's history file part writes its bytes under `data`: read, and said.
    expect(losses.map((l) => l.code)).toEqual(['a2a-file-data']);
  });
});

describe('what the decoder refuses or reports', () => {
  const good = (result: JsonObject): WireEvent => ({ data: { jsonrpc: '2.0', id: 1, result } });
  const start = good({ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } });

  function error(wire: WireEvent[]): ValidationError {
    try {
      decodeStream(wire);
    } catch (e) {
      if (e instanceof ValidationError) return e;
      throw e;
    }
    throw new Error('no error');
  }

  it('an invalid role names the event and the field', () => {
    const e = error([start, good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm', role: 'ROLE_BOT', parts: [{ text: 'x' }] } } } })]);
    expect(e.issues[0]?.path).toEqual([1, 'result', 'statusUpdate', 'status', 'message', 'role']);
  });

  it('a part with two contents, an unknown kind, a non-object event', () => {
    expect(error([start, good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x', url: 'http://x' }] } } } })]).issues[0]?.path).toEqual([1, 'result', 'statusUpdate', 'status', 'message', 'parts', 0]);
    expect(error([good({ kind: 'push', id: 'x' })]).issues[0]?.path).toEqual([0, 'result', 'kind']);
    expect(error([{ data: 'hello' }]).issues[0]?.path).toEqual([0]);
  });

  it('a tool call that starts without a name, and events after the end', () => {
    const call = good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'x', arguments: '{}' }] } }], metadata: { canonical_type: 'ToolCallArgsEvent' } } } } });
    expect(error([start, call]).message).toContain("tool call 'x' starts without a name");
    const done = good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(error([start, done, done]).issues[0]?.path).toEqual([2]);
  });

  it('a JSON-RPC error event is the canonical error; a cut-off stream stays cut off', () => {
    const { events } = decodeStream([start, { event: 'error', data: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } } }]);
    expect(events.at(-1)).toEqual({ type: 'error', error: { message: 'boom', type: 'jsonrpc-error', code: -32603, raw: { code: -32603, message: 'boom' } } });
    const cut = decodeStream([start, good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'par' }], metadata: { canonical_type: 'TextMessageChunkEvent' } } } } })]).events;
    expect(cut.some((e: StreamEvent) => e.type === 'finish' || e.type === 'response-end')).toBe(false);
    const acc = accumulate(cut);
    expect(acc.complete).toBe(false);
  });

  it("the source design's 'created' state opens the run like submitted (reported)", () => {
    const created: WireEvent = { data: { jsonrpc: '2.0', id: 1, result: { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'created' }, final: false } } };
    const { events, losses } = decodeStream([created]);
    expect(events).toEqual([{ type: 'response-start', id: 't', ext: { a2a: { contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' }, $start: 'status', $version: '0.3' } } }]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['a2a-state-created', [0, 'result', 'status', 'state']]]);
  });

  it('an End whose text differs from its fragments is reported; a message of an unknown AG-UI type is a provider event', () => {
    const m = (type: string, text: string): WireEvent => good({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text }], metadata: { canonical_type: type } } } } });
    const { events, losses } = decodeStream([start, m('TextMessageChunkEvent', 'ab'), m('TextMessageEndEvent', 'abc'), m('StateSnapshotEvent', '{}')]);
    expect(losses.map((l) => l.code)).toEqual(['a2a-end-text']);
    expect(events.at(-1)).toMatchObject({ type: 'provider-event', origin: 'a2a' });
    expect(accumulate(events).response.choices[0]?.message.parts).toEqual([{ type: 'text', text: 'ab', ext: { a2a: { messageId: 'm' } } }]);
  });
});
