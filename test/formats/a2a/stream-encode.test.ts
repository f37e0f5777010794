/**
 * Encoding canonical streams as A2A, checked against @a2a-js/sdk:
 * - same-dialect round trip: decode -> encode -> decode gives the same canonical events (v1.0 and
 *   v0.3), and for the SDK server's streams the very wire it wrote (where not, it is said why);
 * - the SDK client (JSON-RPC transport, v1.0 and its v0.3 legacy transport) reads our stream with
 *   no error, and what it read, compacted, holds the same texts, tool calls, final state and usage;
 * - the SDK server takes our v1.0 events from an executor (its stream-order rules) and writes them
 *   back unchanged; its v0.3 handler writes the v0.3 we write;
 * - every v0.3 event validates against the v0.3.0 JSON schema; every v1.0 event is the SDK's own
 *   JSON (StreamResponse.fromJSON then toJSON gives it back);
 * - canonical streams of other dialects (responseToEvents of their fixture responses) encode too;
 * - splitting the SSE text at random points changes nothing (fast-check).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Message, StreamResponse } from '@a2a-js/sdk';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Codec } from '../../../src/formats/codec.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { Response } from '../../../src/model/response.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { bedrockConverse } from '../../../src/formats/bedrock-converse/index.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { openaiResponses } from '../../../src/formats/openai-responses/index.js';
import { compactHistory } from '../../../src/formats/a2a/compact-history.js';
import { frameReader } from '../../../src/stream/framing.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { parseSse } from '../../../src/stream/sse.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { A2A_FIXTURES, decodeStream, encodeStream, schemaErrors, sdkClientRead, sdkServerStream, sdkSse, sseText } from './helpers.js';
import { SCENARIOS } from './stream-scenarios.js';

const VERSIONS = ['1.0', '0.3'] as const;

const sdkWire = new Map<string, WireEvent[]>();
beforeAll(async () => {
  for (const [name, results] of Object.entries(SCENARIOS)) for (const v of VERSIONS) sdkWire.set(`${name} ${v}`, parseSse(sdkSse(await sdkServerStream(results, v))));
}, 60_000);

/** Every result of our stream is valid in its version (schema / SDK JSON). */
function checkWire(wire: readonly WireEvent[], version: '1.0' | '0.3'): void {
  for (const w of wire) {
    const d = w.data as JsonObject;
    if (w.event === 'error') {
      if (version === '0.3') expect(schemaErrors('JSONRPCErrorResponse', d)).toEqual([]);
      continue;
    }
    if (version === '0.3') expect(schemaErrors('SendStreamingMessageSuccessResponse', d), JSON.stringify(d)).toEqual([]);
    else expect(StreamResponse.toJSON(StreamResponse.fromJSON(d['result']))).toEqual(d['result']);
  }
}

interface ReadBack {
  texts: string[];
  calls: { id: string; name: string; args: JsonValue }[];
  state: number | undefined;
  usage: JsonValue | undefined;
}

/** What the SDK client read: its status messages compacted as the source design does, the final state. */
function readBack(events: StreamResponse[]): ReadBack {
  const messages: JsonObject[] = [];
  let state: number | undefined;
  let usage: JsonValue | undefined;
  for (const ev of events) {
    const p = ev.payload;
    if (p?.$case === 'statusUpdate') {
      if (p.value.status?.message) messages.push(Message.toJSON(p.value.status.message) as JsonObject);
      state = p.value.status?.state;
      usage = (p.value.metadata as JsonObject | undefined)?.['usage'];
    } else if (p?.$case === 'message') messages.push(Message.toJSON(p.value) as JsonObject);
    else if (p?.$case === 'task') state = p.value.status?.state;
  }
  const compacted = compactHistory(messages, { to: 'canonical' });
  const parts = compacted.to === 'canonical' ? compacted.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts) : [];
  return {
    texts: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])),
    calls: parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.id, name: p.name, args: p.arguments }] : [])),
    state,
    usage,
  };
}

function expected(res: Response): Pick<ReadBack, 'texts' | 'calls'> {
  const parts = res.choices[0]?.message.parts ?? [];
  return {
    texts: parts.flatMap((p) => (p.type === 'text' || p.type === 'refusal' ? [p.text] : [])).filter((t) => t !== ''),
    calls: parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.id, name: p.name, args: p.arguments }] : [])),
  };
}

const STATUS_TYPES = new Set(['RunStartedEvent', 'RunFinishedEvent', 'StepFinishedEvent', 'StepStartedEvent', 'RunErrorEvent']);

/** A wire event without the AG-UI type of its task or status update (not of messages). */
function withoutStatusTypes(w: WireEvent): unknown {
  const d = structuredClone(w.data) as JsonObject;
  const r = d['result'] as JsonObject | undefined;
  if (r === undefined) return d;
  const obj = (r['task'] ?? r['statusUpdate'] ?? (r['kind'] === 'task' || r['kind'] === 'status-update' ? r : undefined)) as JsonObject | undefined;
  const meta = obj?.['metadata'] as JsonObject | undefined;
  if (obj !== undefined && meta !== undefined && STATUS_TYPES.has(meta['canonical_type'] as string)) {
    delete meta['canonical_type'];
    if (Object.keys(meta).length === 0) delete obj['metadata'];
  }
  return d;
}

/** Canonical events without the `$version` hint, which says which version the wire was. */
function unversioned(events: StreamEvent[]): unknown {
  return JSON.parse(JSON.stringify(events).replace(/,?"\$version":"(1\.0|0\.3)"/g, '').replace(/\{,/g, '{'));
}

describe('same-dialect round trip over the SDK server streams', () => {
  for (const name of Object.keys(SCENARIOS)) {
    for (const v of VERSIONS) {
      it(`${name} (${v}): decode -> encode -> decode is the same; the wire is the SDK's`, () => {
        const wire = sdkWire.get(`${name} ${v}`) as WireEvent[];
        const first = decodeStream(wire).events;
        const { wire: ours } = encodeStream(first);
        checkWire(ours, v);
        expect(decodeStream(ours).events).toEqual(first);
        // Our wire is the SDK server's, event for event, except that we add the AG-UI type of the
        // first and last status (RunStarted / RunFinished / StepFinished) where the scenario left it out.
        expect(ours.map(withoutStatusTypes)).toEqual(wire.map(withoutStatusTypes));
      });
    }
  }

  it('the other version: the same canonical events but the version hint', () => {
    for (const name of Object.keys(SCENARIOS)) {
      const first = decodeStream(sdkWire.get(`${name} 1.0`) as WireEvent[]).events;
      const { wire } = encodeStream(first, '0.3');
      checkWire(wire, '0.3');
      expect(unversioned(decodeStream(wire).events)).toEqual(unversioned(first));
    }
  });

  it('the v0.3.0 spec streaming example comes back as itself (kind-tagged), in v1.0 as the same events', () => {
    const wire = parseSse(readFileSync(join(A2A_FIXTURES, 'streams/spec-v0.3-streaming.sse'), 'utf8'));
    const first = decodeStream(wire).events;
    const again = encodeStream(first);
    expect(decodeStream(again.wire).events).toEqual(first);
    expect(again.wire.every((w) => typeof (w.data as JsonObject)['result'] === 'object' && 'kind' in ((w.data as JsonObject)['result'] as JsonObject))).toBe(true);
    const v1 = encodeStream(first, '1.0');
    // Its history's file part holds a placeholder, not base64: the SDK's JSON reads it as bytes
    // and writes other text back. With real bytes there, every event is the SDK's own JSON.
    const real = JSON.parse(JSON.stringify(v1.wire).replace('<base64-encoded-content>', 'iVBORw0KGgo=')) as WireEvent[];
    checkWire(real, '1.0');
    expect(unversioned(decodeStream(v1.wire).events)).toEqual(unversioned(first));
  });
});

describe("the source design's own event stream (v0.3, bare typed messages between status updates)", () => {
  const msg = (type: string, parts: JsonObject[]): JsonObject => ({ kind: 'message', messageId: 'm1', role: 'agent', parts, metadata: { canonical_type: type } });
  const res = (result: JsonObject): WireEvent => ({ data: { jsonrpc: '2.0', id: 1, result } });
  const call = (args: string): JsonObject[] => [{ kind: 'data', data: { tool_calls: [{ call_id: 'c1', name: 'f', arguments: args }] } }];
  const wire = [
    res({ kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'submitted' }, final: false, metadata: { canonical_type: 'RunStartedEvent' } }),
    res(msg('TextMessageChunkEvent', [{ kind: 'text', text: 'He' }])),
    res(msg('TextMessageChunkEvent', [{ kind: 'text', text: 'llo' }])),
    res(msg('TextMessageEndEvent', [{ kind: 'text', text: 'Hello' }])),
    res(msg('ToolCallStartEvent', call(''))),
    res(msg('ToolCallArgsEvent', call('{}'))),
    res({ kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'input-required' }, final: true, metadata: { canonical_type: 'StepFinishedEvent' } }),
  ];

  it('decodes (schema-valid input), and comes back as the same events with each message in a working status update', async () => {
    for (const w of wire) expect(schemaErrors('SendStreamingMessageSuccessResponse', w.data)).toEqual([]);
    const { events } = decodeStream(wire);
    expect(verifyStream(events)).toEqual([]);
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', stopReason: { unified: 'tool-calls', raw: 'input-required' } });
    const again = encodeStream(events);
    checkWire(again.wire, '0.3');
    expect(decodeStream(again.wire).events).toEqual(events);
    // A task stream carries messages in status updates (the SDK server refuses bare ones), and
    // v0.3 `final` marks terminal states only, as the SDK writes it.
    const inner = again.wire.slice(1, -1).map((w) => ((w.data as JsonObject)['result'] as JsonObject)['status'] as JsonObject);
    expect(inner.map((st) => (st['message'] as JsonObject)['metadata'])).toEqual(wire.slice(1, -1).map((w) => ((w.data as JsonObject)['result'] as JsonObject)['metadata']));
    expect((again.wire.at(-1)?.data as JsonObject)['result']).toMatchObject({ status: { state: 'input-required' }, final: false });
    expect((await sdkClientRead(sseText(again.wire), '0.3')).length).toBe(wire.length);
  });
});

describe('the SDK as oracle over what we write', () => {
  for (const name of ['typed', 'artifacts', 'input-required'] as const) {
    for (const v of VERSIONS) {
      it(`${name}: the SDK client (${v}) reads our stream; compacted, it holds what the canonical stream did`, async () => {
        const events = decodeStream(sdkWire.get(`${name} 1.0`) as WireEvent[]).events;
        const { wire } = encodeStream(events, v);
        const read = await sdkClientRead(sseText(wire), v);
        expect(read.length).toBe(wire.length);
        const back = readBack(read);
        expect(back.state).toBe(name === 'input-required' ? 6 : 3);
        if (name === 'typed') {
          expect(back.texts).toEqual(['Let me check.', 'It is sunny in Paris (21 C).']);
          expect(back.calls).toEqual([{ id: 'call-1', name: 'get_weather', args: { city: 'Paris' } }]);
          expect(back.usage).toEqual({ inputTokens: 120, outputTokens: 42, totalTokens: 162 });
        }
        if (name === 'input-required') expect(back.calls).toEqual([{ id: 'call-9', name: 'lookup', args: { q: 'flights' } }]);
      });
    }
  }

  it('the SDK server takes our v1.0 events from an executor and writes them back (its history adds the request)', async () => {
    for (const name of ['typed', 'artifacts', 'input-required', 'failed'] as const) {
      const events = decodeStream(sdkWire.get(`${name} 1.0`) as WireEvent[]).events;
      const ours = encodeStream(events, '1.0').wire.map((w) => (w.data as JsonObject)['result'] as JsonObject);
      const served = await sdkServerStream(ours, '1.0');
      expect(served.map((r) => r['result'])).toEqual(ours);
      // ... and its v0.3 handler writes what our v0.3 encoder writes.
      const legacy = await sdkServerStream(ours, '0.3');
      const ours03 = encodeStream(events, '0.3').wire.map((w) => (w.data as JsonObject)['result']);
      expect(legacy.map((r) => r['result'])).toEqual(ours03);
    }
  });
});

/** Other dialects' final responses (local fixtures), as canonical streams. */
const FOREIGN: [Codec, string][] = [
  [openaiChat, 'openai-chat/responses/groq-tool-call.json'],
  [openaiChat, 'openai-chat/responses/parse-pydantic-model-refusal.json'],
  [openaiChat, 'openai-chat/responses/deepseek-reasoning.json'],
  [anthropicMessages, 'anthropic-messages/response/anthropic-web-search-tool.1.json'],
  [anthropicMessages, 'anthropic-messages/response/anthropic-tool-no-args.json'],
  [bedrockConverse, 'bedrock-converse/responses/amazon-bedrock-tool-call.1.json'],
  [bedrockConverse, 'bedrock-converse/responses/agentgateway-reasoning.json'],
  [gemini, 'gemini/responses/google-tool-call.json'],
  [openaiResponses, 'openai-responses/responses/agentgateway/tool.json'],
];

describe('canonical streams of other dialects, encoded as A2A', () => {
  for (const [codec, file] of FOREIGN) {
    for (const v of VERSIONS) {
      it(`${file} (${v}): valid events the SDK client reads with the same text and tool calls`, async () => {
        const res = codec.response?.decode(JSON.parse(readFileSync(join(LOCAL_FIXTURES, file), 'utf8')), { limits: DEFAULT_LIMITS, losses: [] as never }) as Response;
        const events = responseToEvents(res);
        const { wire, losses } = encodeStream(events, v);
        checkWire(wire, v);
        const back = readBack(await sdkClientRead(sseText(wire), v));
        expect({ texts: back.texts, calls: back.calls }).toEqual(expected(res));
        const stop = res.choices[0]?.stopReason?.unified;
        expect(back.state).toBe(stop === 'tool-calls' ? 6 : 3);
        if (res.usage !== undefined) expect((back.usage as JsonObject)['outputTokens']).toBe(res.usage.outputTokens);
        // What A2A cannot hold is said.
        if (res.choices[0]?.message.parts.some((p) => p.type === 'reasoning')) expect(losses.map((l) => l.code)).toContain('foreign-reasoning');
        // Our own decoder reads it back into a stream that verifies.
        expect(verifyStream(decodeStream(wire).events)).toEqual([]);
      });
    }
  }

  it('a mid-stream error from another dialect is a failed status update (RunErrorEvent)', () => {
    const { wire } = encodeStream([{ type: 'response-start', id: 'r1' }, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'Hi' }, { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } }]);
    const last = (wire.at(-1)?.data as JsonObject)['result'] as JsonObject;
    expect(last).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_FAILED', message: { parts: [{ text: 'Overloaded' }] } }, metadata: { canonical_type: 'RunErrorEvent' } } });
    const back = decodeStream(wire).events;
    expect(back.at(-1)).toMatchObject({ type: 'error', error: { message: 'Overloaded', type: 'failed' } });
  });

  it('text without a response-start, a tool call whose arguments come only at the end, several choices', () => {
    const { wire, losses } = encodeStream([
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool-call-end', index: 0, arguments: '{"a":1}' },
      { type: 'text-start', choice: 1, index: 0 },
      { type: 'text-delta', choice: 1, index: 0, delta: 'other choice' },
      { type: 'text-end', choice: 1, index: 0 },
      { type: 'finish', stopReason: { unified: 'tool-calls' } },
      { type: 'response-end' },
    ]);
    checkWire(wire, '1.0');
    const events = decodeStream(wire).events;
    expect(verifyStream(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'tool-call-delta')).toEqual([{ type: 'tool-call-delta', index: 0, delta: '{"a":1}' }]);
    expect(losses.map((l) => l.code)).toEqual(['extra-choices']);
    expect(events.find((e) => e.type === 'finish')).toMatchObject({ stopReason: { unified: 'tool-calls', raw: 'input-required' } });
  });
});

describe('chunk boundaries', () => {
  it('splitting the SSE text anywhere gives the same canonical events', () => {
    const text = sseText(sdkWire.get('typed 0.3') as WireEvent[]);
    const whole = decodeStream(parseSse(text)).events;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const reader = frameReader('sse');
        const wire: WireEvent[] = [];
        let at = 0;
        for (const c of [...cuts].sort((a, b) => a - b)) {
          wire.push(...reader.push(text.slice(at, c)));
          at = c;
        }
        wire.push(...reader.push(text.slice(at)), ...reader.end());
        expect(decodeStream(wire).events).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
