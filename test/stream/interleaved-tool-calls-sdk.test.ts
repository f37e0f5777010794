/**
 * The official SDK of every stream dialect reads what interleaved parallel tool calls become there:
 * a few fixed samples of the generated scenarios (interleaved-tool-calls.property.test.ts), from
 * each dialect that allows interleaving, transcoded into each target and read by the target's SDK
 * stream reader (as each dialect's own SDK tests do). The SDK must end without error holding the
 * same calls (ids, names, arguments) in order of first appearance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamResponse } from '@a2a-js/sdk';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { accumulateStream, Transcoder } from '../../src/stream/transcode.js';
import { formatSse } from '../../src/stream/sse.js';
import { INTERLEAVING_SOURCES, scenario, WIRE, type InterleavingSource, type Scenario } from '../support/interleaved-calls.js';
import { sdkRead as chatSdkRead } from '../formats/openai-chat/stream-helpers.js';
import { sdkRead as responsesSdkRead, sdkSays } from '../formats/openai-responses/stream-helpers.js';
import { sdkFinalMessage, toSse as anthropicSse } from '../formats/anthropic-messages/stream-helpers.js';
import { digestSdk, sdkRead as bedrockSdkRead, toBytes } from '../formats/bedrock-converse/stream-helpers.js';
import { sdkRead as geminiSdkRead } from '../formats/gemini/stream-support.js';
import { runAgent, verdict } from '../formats/ag-ui/helpers.js';
import { sdkClientRead } from '../formats/a2a/helpers.js';

interface Call { id: string; name: string; args: unknown }

const sse = (wire: readonly WireEvent[]): string => wire.map(formatSse).join('');
const parse = (text: string): unknown => JSON.parse(text === '' ? '{}' : text) as unknown;

/** Each target's SDK reading the transcoded stream: the calls it ends up with. */
const READERS: Record<string, (wire: WireEvent[]) => Promise<Call[]>> = {
  'openai-chat': async (wire) => {
    const { final } = await chatSdkRead(sse(wire));
    return (final.choices[0]?.message.tool_calls ?? []).map((c) => {
      const fn = (c as { function: { name: string; arguments: string } }).function;
      return { id: c.id, name: fn.name, args: parse(fn.arguments) };
    });
  },
  'openai-responses': async (wire) => {
    const run = await responsesSdkRead(sse(wire));
    expect(run.error).toBeUndefined();
    return sdkSays(run.final as NonNullable<typeof run.final>).calls;
  },
  'anthropic-messages': async (wire) => {
    const { message, errors } = await sdkFinalMessage(anthropicSse(wire), false);
    expect(errors).toEqual([]);
    return (message['content'] as JsonObject[]).filter((b) => b['type'] === 'tool_use').map((b) => ({ id: b['id'] as string, name: b['name'] as string, args: b['input'] }));
  },
  'bedrock-converse': async (wire) => {
    const read = await bedrockSdkRead(toBytes(wire));
    expect(read.error).toBeUndefined();
    return digestSdk(read.events).tools.map((t) => ({ id: t.id, name: t.name, args: t.input }));
  },
  gemini: async (wire) => (await geminiSdkRead(sse(wire))).calls.map((c) => ({ id: c.id ?? '', name: c.name ?? '', args: c.args })),
  'ag-ui': async (wire) => {
    expect(await verdict(wire.map((w) => w.data))).toBe('ok');
    const run = await runAgent(sse(wire));
    expect(run.error).toBeUndefined();
    return run.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: parse(c.function.arguments) })) : []));
  },
  a2a: async (wire) => {
    // The SDK client parses every event; what it parsed, read back by our decoder, holds the calls.
    const read = await sdkClientRead(sse(wire), '1.0');
    expect(read.length).toBe(wire.length);
    const back = read.map((r): WireEvent => ({ data: StreamResponse.toJSON(r) as JsonValue }));
    const parts = accumulateStream(back, { from: 'a2a', to: 'openai-chat' }).response.choices[0]?.message.parts ?? [];
    return parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.id, name: p.name, args: p.arguments }] : []));
  },
};

/** Whether some call starts before an earlier one has said all its arguments. */
function interleaved(s: Scenario): boolean {
  const lastArgs = new Map<number, number>();
  s.steps.forEach((st, i) => {
    if (st.kind === 'args') lastArgs.set(st.call, i);
  });
  return s.steps.some((st, i) => st.kind === 'start' && [...lastArgs].some(([call, last]) => call < st.call && last > i));
}

const SAMPLES = fc.sample(scenario(4).filter((s) => s.calls.length >= 2 && interleaved(s)), { numRuns: 2, seed: 1011 });

function transcoded(from: InterleavingSource, to: string, s: Scenario): WireEvent[] {
  const t = new Transcoder({ from, to });
  const out = WIRE[from](s).wire.flatMap((w) => t.push(w));
  out.push(...t.end());
  return out;
}

describe('the official SDKs read interleaved tool calls transcoded into their dialect', () => {
  for (const from of INTERLEAVING_SOURCES) {
    for (const [to, read] of Object.entries(READERS)) {
      it(`${from} -> ${to}`, async () => {
        for (const s of SAMPLES) {
          const calls = await read(transcoded(from, to, s));
          expect(calls).toEqual(s.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })));
        }
      });
    }
  }
});
