/**
 * Every ConverseStream capture: decode -> verifyStream gives no issue -> accumulate (complete) ->
 * the response codec writes a Converse body its decoder accepts. Where a capture has a
 * non-streaming twin (the same answer recorded by Converse), text, tool calls and usage agree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ID } from '../../../src/formats/bedrock-converse/wire-util.js';
import type { Part } from '../../../src/model/part.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures, LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures, sharedStreamCaptures } from '../../support/streams.js';
import { decodeRes, encodeRes } from './helpers.js';
import { allCaptures, decode } from './stream-helpers.js';

const captures = allCaptures();

describe('every ConverseStream capture decodes, verifies and accumulates', () => {
  it(`${captures.length} captures`, () => {
    // 9 local copies always; 24 stream captures in ../shared (12 AI SDK, 7 pydantic-ai, 3 agentgateway + the 3 local .bin twins).
    expect(localStreamCaptures('bedrock-converse').length).toBeGreaterThanOrEqual(9);
    expect(captures.length).toBeGreaterThanOrEqual(hasSharedFixtures() ? 30 : 9);
  });

  for (const c of captures) {
    it(c.name, () => {
      const { events, losses } = decode(c.events);
      expect(losses).toEqual([]);
      expect(verifyStream(events)).toEqual([]);
      const acc = accumulate(events);
      expect(acc.complete).toBe(true);
      expect(acc.losses).toEqual([]);
      const body = encodeRes(acc.response).value;
      const back = decodeRes(body);
      expect(back.choices[0]?.message.parts.length).toBe(acc.response.choices[0]?.message.parts.length);
      // The wire's own numbers come through: text, tool calls, stop reason.
      const wireText = c.events.flatMap((w) => {
        const d = (w.data as { delta?: { text?: string } }).delta;
        return w.event === 'contentBlockDelta' && typeof d?.text === 'string' ? [d.text] : [];
      }).join('');
      const parts = acc.response.choices[0]?.message.parts ?? [];
      expect(parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')).toBe(wireText);
      const starts = c.events.filter((w) => w.event === 'contentBlockStart' && (w.data as { start?: { toolUse?: unknown } }).start?.toolUse !== undefined).length;
      expect(parts.filter((p) => p.type === 'tool-call').length).toBe(starts);
      const stop = c.events.find((w) => w.event === 'messageStop');
      expect(acc.response.choices[0]?.stopReason?.raw).toBe((stop?.data as { stopReason: string }).stopReason);
    });
  }
});

/** Captures whose non-streaming twin is in test/fixtures/bedrock-converse/responses/, and what they share. */
const TWINS: { stream: string; body: string; same: ('text' | 'tools' | 'reasoning' | 'usage')[] }[] = [
  // agentgateway recorded one answer both ways: reasoning text and signature, answer text, usage.
  { stream: 'local:reasoning.bin', body: 'agentgateway-reasoning.json', same: ['text', 'reasoning', 'usage'] },
  // Same two parallel tool calls (the stream also has a text block first).
  { stream: 'local:tool.bin', body: 'agentgateway-tool.json', same: ['tools'] },
  // AI SDK fixture pair: a text and a tool call with no arguments ("" streamed, {} whole).
  { stream: 'local:vercel-ai/amazon-bedrock-tool-no-args.chunks.txt', body: 'amazon-bedrock-tool-no-args.json', same: ['text', 'tools', 'usage'] },
];

describe('accumulated streams equal their non-streaming twins', () => {
  for (const t of TWINS) {
    it(`${t.stream} ~ ${t.body} (${t.same.join(', ')})`, () => {
      const capture = captures.find((c) => c.name === t.stream);
      expect(capture, t.stream).toBeDefined();
      const streamed = accumulate(decode(capture?.events ?? []).events).response;
      const whole = decodeRes(JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'bedrock-converse/responses', t.body), 'utf8')));
      const of = (parts: Part[], type: Part['type']): Part[] => parts.filter((p) => p.type === type);
      const a = streamed.choices[0]?.message.parts ?? [];
      const b = whole.choices[0]?.message.parts ?? [];
      if (t.same.includes('text')) expect(of(a, 'text')).toEqual(of(b, 'text'));
      if (t.same.includes('tools')) expect(of(a, 'tool-call')).toEqual(of(b, 'tool-call'));
      if (t.same.includes('reasoning')) expect(of(a, 'reasoning')).toEqual(of(b, 'reasoning'));
      if (t.same.includes('usage')) expect({ ...streamed.usage, raw: undefined }).toEqual({ ...whole.usage, raw: undefined });
      expect(streamed.choices[0]?.stopReason).toEqual(whole.choices[0]?.stopReason);
    });
  }
});

describe('what the captures show, decoded', () => {
  const named = (part: string): (typeof captures)[number] => {
    const c = captures.find((x) => x.name.includes(part));
    if (!c) throw new Error(`no capture named like ${part}`);
    return c;
  };

  it('parallel tool calls get distinct indices, and their argument fragments stay apart', () => {
    const { events } = decode(named('local:tool.bin').events);
    const starts = events.filter((e) => e.type === 'tool-call-start');
    expect(starts.map((e) => [e.index, e.id, e.name])).toEqual([
      [1, 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'top_song'],
      [2, 'tooluse_kZJMlvQmRJ6eAyxxx', 'hello'],
    ]);
    const parts = accumulate(events).response.choices[0]?.message.parts ?? [];
    expect(parts.map((p) => (p.type === 'tool-call' ? p.arguments : p.type))).toEqual(['text', { sign: 'WZPZ' }, { sign: 'world' }]);
  });

  it('reasoning text and its signature are kept byte-exact; blocks without contentBlockStop close at messageStop', () => {
    const { events } = decode(named('local:reasoning.bin').events);
    expect(events.map((e) => e.type)).toEqual([
      'response-start', 'reasoning-start', 'reasoning-delta', 'reasoning-delta', 'text-start', 'text-delta',
      'reasoning-end', 'text-end', 'finish', 'usage', 'response-end',
    ]);
    expect(events[3]).toEqual({ type: 'reasoning-delta', index: 0, signature: 'SIG-xyz==' });
  });

  it('redacted reasoning opens its block with the data, unchanged', () => {
    const c = named('local:pydantic-ai-vcr/test_bedrock_model_thinking_part_redacted_stream');
    const wire = c.events.filter((w) => w.event === 'contentBlockDelta' && JSON.stringify(w.data).includes('redactedContent'));
    const { events } = decode(c.events);
    const starts = events.filter((e) => e.type === 'reasoning-start');
    expect(starts.map((e) => e.redactedData)).toEqual(wire.map((w) => (w.data as { delta: { reasoningContent: { redactedContent: string } } }).delta.reasoningContent.redactedContent));
    expect(starts.every((e) => e.origin === ID)).toBe(true);
  });

  it('a server tool call and its result (Nova code interpreter) come through as the response codec keeps them', () => {
    const { events } = decode(named('local:pydantic-ai-vcr/test_bedrock_model_code_execution_tool_stream').events);
    const parts = accumulate(events).response.choices[0]?.message.parts ?? [];
    expect(parts[0]).toMatchObject({ type: 'tool-call', name: 'nova_code_interpreter', providerExecuted: true, arguments: { snippet: '1234 * 5678' } });
    expect(parts[1]).toMatchObject({ type: 'tool-result', callId: 'tooluse_VQNZJRUFMoqZzszVsRd4og', providerExecuted: true, isError: false, content: [{ type: 'data', data: { stdOut: '7006652', exitCode: 0 } }] });
    expect(parts[2]).toMatchObject({ type: 'tool-call', name: 'final_result', arguments: { result: 7006652 }, argumentsJson: '{"result":7006652.0}' });
  });

  it('an empty text delta still makes its (empty) text block', () => {
    const { events } = decode(named('local:pydantic-ai-vcr/test_bedrock_model_stream_empty_text_delta').events);
    const parts = accumulate(events).response.choices[0]?.message.parts ?? [];
    expect(parts.map((p) => p.type)).toEqual(['text', 'reasoning', 'text']);
    expect(parts[0]).toEqual({ type: 'text', text: '' });
  });

  it('usage arrives last, normalized by the response codec (serverToolUsage kept as residue)', () => {
    const { events } = decode(named('local:vercel-ai/amazon-bedrock-reasoning.chunks.txt').events);
    const usage = events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ usage: { inputTokens: 51, outputTokens: 94, totalTokens: 145, ext: { [ID]: { serverToolUsage: {} } } } });
    expect(events.at(-1)).toEqual({ type: 'response-end', ext: { [ID]: { additionalModelResponseFields: { delta: { stop_sequence: null } }, metrics: { latencyMs: 2281 } } } });
  });

  it('metadata before messageStop (AI SDK test streams): usage first, the end after messageStop', () => {
    const { events } = decode(named('local:vercel-ai/amazon-bedrock-json-other-tool.1.chunks.txt').events);
    expect(events.slice(-3).map((e) => e.type)).toEqual(['usage', 'finish', 'response-end']);
  });

  it('no metadata at all: complete after messageStop, without usage, the response codec told so', () => {
    const { events } = decode(named('local:vercel-ai/amazon-bedrock-json-tool.3.chunks.txt').events);
    expect(events.some((e) => e.type === 'usage')).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'response-end', ext: { [ID]: { $noUsage: true, $noMetrics: true } } });
    const { value, losses } = encodeRes(accumulate(events).response);
    expect(value['usage']).toBeUndefined();
    expect(losses).toEqual([]);
  });

  describe.skipIf(!hasSharedFixtures())('shared captures (skipped without ../shared/fixtures)', () => {
    it('every shared capture of the dialect is found', () => {
      expect(sharedStreamCaptures('bedrock-converse').length).toBeGreaterThanOrEqual(22);
    });
  });
});
