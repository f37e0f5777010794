/**
 * Every AG-UI event stream in the fixtures (local copies always; ../shared/fixtures/ag-ui when
 * present): it decodes, the canonical stream passes verifyStream, it accumulates into a complete
 * response that says what the official client says (a real HttpAgent run over the same SSE text
 * builds the same texts, tool calls, tool results and reasoning), and it re-encodes into a stream
 * that passes the official schemas and verifier and decodes back to the same canonical events.
 * Three dart examples differ: `error_handling` (RUN_FINISHED after RUN_ERROR) is refused by both the
 * official client and this decoder; `multiple_runs` is valid AG-UI, but one canonical stream is one
 * response, so the decoder refuses the second run by name; `reasoning_events` continues an open
 * reasoning message with a chunk, which the client refuses and this decoder reads as a
 * continuation (its re-encoding is then valid).
 */
import { describe, expect, it } from 'vitest';
import type { Message as AguiMessage } from '@ag-ui/core';
import { ValidationError } from '../../../src/model/errors.js';
import type { Part, TextPart } from '../../../src/model/part.js';
import type { Response } from '../../../src/model/response.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { EVENT_TYPES } from '../../../src/formats/ag-ui/ag-ui-api.js';
import { decodeAll, encodeAll, runAgent, schemaIssues, sseText, streamCaptures, verdict, type Capture } from './helpers.js';

/** Captures this decoder refuses, with its message and whether the official client refuses them too. */
const REFUSED: Record<string, { message: RegExp; official: boolean }> = {
  'dart-fixtures/events.json#multiple_runs': { message: /event 5: a second run/, official: false },
  'dart-fixtures/events.json#error_handling': { message: /event 5: RUN_FINISHED after RUN_ERROR/, official: true },
};
/** Captures the official client refuses and this decoder reads (a chunk continuing an open message). */
const TOLERATED = new Set(['dart-fixtures/events.json#reasoning_events']);
const KNOWN = new Set<string>(EVENT_TYPES);
const key = (c: Capture): string => c.name.slice(c.name.indexOf(':') + 1);

const { local, shared } = streamCaptures();
const hint = (p: Part, key: string): unknown => p.ext?.['ag-ui']?.[key];

/**
 * Where our accumulated response and the official client's messages disagree: each client message
 * is found among our parts by its AG-UI id (kept as a hint) and compared by content.
 */
function disagreements(res: Response, all: AguiMessage[], streamed: Set<string>, snapshot: Set<string>): string[] {
  const parts = res.choices[0]?.message.parts ?? [];
  const out: string[] = [];
  // Messages a MESSAGES_SNAPSHOT gave the client are not stream content (a provider-event here);
  // reasoning ids may be minted by the client (retired THINKING_* events carry none): by order.
  const messages = all.filter((m) => m.role !== 'reasoning' && streamed.has(m.id));
  const reasoning = all.filter((m): m is Extract<AguiMessage, { role: 'reasoning' }> => m.role === 'reasoning' && !snapshot.has(m.id));
  // A span with no message in it (only REASONING_START / END) is no message for the client.
  const ours = parts.filter((p): p is Extract<Part, { type: 'reasoning' }> => p.type === 'reasoning' && hint(p, '$noMessage') !== true);
  if (JSON.stringify(reasoning.map((m) => [m.content, m.encryptedValue])) !== JSON.stringify(ours.map((p) => [p.text ?? '', p.encryptedContent]))) out.push('reasoning');
  const textOf = (id: string): string => parts.filter((p): p is TextPart => p.type === 'text' && hint(p, '$messageId') === id).map((p) => p.text).join('');
  for (const m of messages) {
    if (m.role === 'assistant') {
      if ((m.content ?? '') !== textOf(m.id)) out.push(`assistant ${m.id} text`);
      for (const call of m.toolCalls ?? []) {
        const ours = parts.find((p) => p.type === 'tool-call' && p.id === call.id);
        if (ours?.type !== 'tool-call' || ours.name !== call.function.name || (ours.argumentsJson ?? JSON.stringify(ours.arguments)) !== call.function.arguments) out.push(`tool call ${call.id}`);
      }
    } else if (m.role === 'tool') {
      const ours = parts.find((p) => p.type === 'tool-result' && hint(p, '$messageId') === m.id);
      const text = ours?.type === 'tool-result' ? ours.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : undefined;
      if (ours?.type !== 'tool-result' || ours.callId !== m.toolCallId || text !== m.content) out.push(`tool result ${m.id}`);
    } else if (m.role === 'user' || m.role === 'system' || m.role === 'developer') {
      if (m.content !== textOf(m.id)) out.push(`${m.role} ${m.id} text`);
    }
  }
  return out;
}

/** The ids of the messages a MESSAGES_SNAPSHOT lists. */
function snapshotIds(c: Capture): Set<string> {
  const ids = new Set<string>();
  for (const e of c.events) if (e['type'] === 'MESSAGES_SNAPSHOT') for (const m of e['messages'] as { id: string }[]) ids.add(m.id);
  return ids;
}

/** The ids the stream's own events mint (not those a snapshot lists). */
function streamedIds(c: Capture): Set<string> {
  const ids = new Set<string>();
  for (const e of c.events) {
    if (/^(TEXT_MESSAGE_(START|CHUNK)|TOOL_CALL_RESULT|REASONING_MESSAGE_(START|CHUNK))$/.test(String(e['type'])) && typeof e['messageId'] === 'string') ids.add(e['messageId']);
    if (/^TOOL_CALL_(START|CHUNK)$/.test(String(e['type']))) ids.add(typeof e['parentMessageId'] === 'string' ? e['parentMessageId'] : String(e['toolCallId']));
  }
  return ids;
}

async function check(c: Capture): Promise<void> {
  const refused = REFUSED[key(c)];
  const official = await runAgent(sseText(c.events));
  if (refused) {
    expect(() => decodeAll(c.events)).toThrow(refused.message);
    expect(() => decodeAll(c.events)).toThrow(ValidationError);
    expect(official.error !== undefined).toBe(refused.official);
    return;
  }
  const { events, losses } = decodeAll(c.events);
  expect(verifyStream(events)).toEqual([]);
  const acc = accumulate(events);
  expect(acc.complete).toBe(true);
  if (TOLERATED.has(key(c))) expect(official.error).toMatch(/already in progress/);
  else {
    expect(official.error).toBeUndefined();
    expect(disagreements(acc.response, official.messages, streamedIds(c), snapshotIds(c))).toEqual([]);
  }
  // Re-encoded: valid for the official schemas and verifier, and the same canonical stream.
  const { wire } = encodeAll(events);
  expect(schemaIssues(wire)).toEqual([]);
  expect(await verdict(wire)).toBe('ok');
  expect(decodeAll(wire).events).toEqual(events);
  // The wire itself comes back unless the decoder reported a loss, chunks were expanded, retired
  // names were renamed, or an event of no 1.0 type had to travel as RAW.
  const rewritten = c.events.some((e) => /_CHUNK$|^THINKING_/.test(String(e['type'])) || !KNOWN.has(String(e['type'])));
  if (losses.length === 0 && !rewritten && !TOLERATED.has(key(c))) expect(wire).toEqual(c.events);
  else expect(wire).not.toEqual(c.events);
}

describe('AG-UI captures (local copies)', () => {
  it('has captures', () => expect(local.length).toBeGreaterThan(10));
  it.each(local.map((c) => [c.name, c] as const))('%s', async (_n, c) => check(c));
});

describe.skipIf(!hasSharedFixtures())('AG-UI captures in ../shared/fixtures (skipped when absent)', () => {
  it.each(shared.map((c) => [c.name, c] as const))('%s', async (_n, c) => check(c));
});

describe('what the captures hold, decoded', () => {
  const byName = (suffix: string): Capture => {
    const c = local.find((x) => x.name.endsWith(suffix));
    if (!c) throw new Error(`no capture ${suffix}`);
    return c;
  };

  it('a .NET reasoning run: a reasoning block with its text, then the answer, usage from RUN_FINISHED', () => {
    const { events } = decodeAll(byName('Step07_ThinkingEvents/PostRun_WithReasoningContent_EmitsReasoningAndTextEvents__Turn_01.06.Response.Server.AGUI.json').events);
    const res = accumulate(events).response;
    const [reasoning, text] = res.choices[0]?.message.parts ?? [];
    expect(reasoning).toMatchObject({ type: 'reasoning', origin: 'ag-ui', ext: { 'ag-ui': { $messageId: 'msg_Id_2', $span: 'msg_Id_2' } } });
    expect(reasoning?.type === 'reasoning' && reasoning.text?.startsWith('**Solving the heads/legs problem**')).toBe(true);
    expect(text).toMatchObject({ type: 'text', ext: { 'ag-ui': { $messageId: 'msg_Id_1', $role: 'assistant' } } });
    expect(res.usage).toMatchObject({ inputTokens: 39, outputTokens: 345, totalTokens: 384, reasoningTokens: 128, cacheReadTokens: 0 });
    expect(res).toMatchObject({ id: 'run_Id_1', ext: { 'ag-ui': { threadId: 'thread_Id_1' } } });
    expect(res.choices[0]?.stopReason).toEqual({ unified: 'stop', raw: 'success' });
  });

  it('parallel tool calls get distinct indices; their results are tool-result parts', () => {
    const { events } = decodeAll(byName('Step12_ParallelToolCalls/PostRun_WithParallelToolCalls_InvokesBothToolsAndStreamsResults__Turn_01.06.Response.Server.AGUI.json').events);
    const starts = events.filter((e) => e.type === 'tool-call-start' || e.type === 'part').map((e) => [e.type, 'index' in e ? e.index : -1]);
    expect(starts).toEqual([['tool-call-start', 0], ['tool-call-start', 1], ['part', 2], ['part', 3]]);
    const parts = accumulate(events).response.choices[0]?.message.parts ?? [];
    expect(parts[0]).toMatchObject({ type: 'tool-call', id: 'call_Id_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsJson: '{\n  "city": "Paris"\n}' });
    expect(parts[3]).toMatchObject({ type: 'tool-result', callId: 'call_Id_2', stringContent: true });
  });

  it('a frontend tool call left for the client finishes with tool-calls; an interrupt pauses', () => {
    const tool = accumulate(decodeAll(byName('Step03_FrontendTools/PostRun_WithFrontendToolCall_InvokesToolLocallyAndStreamsResult__Turn_01.06.Response.Server.AGUI.json').events).events);
    expect(tool.response.choices[0]?.stopReason?.unified).toBe('tool-calls');
    const interrupt = accumulate(decodeAll(byName('Step09_InterruptsApproval/PostRun_DeleteRequest_EmitsInterruptThenResumes__Turn_01.06.Response.Server.AGUI.json').events).events);
    expect(interrupt.response.choices[0]?.stopReason).toEqual({ unified: 'pause', raw: 'interrupt' });
    // The interrupt itself (ids, reason, schema) is AG-UI's own: kept for the way back.
    expect(interrupt.response.choices[0]?.ext?.['ag-ui']?.['outcome']).toMatchObject({ type: 'interrupt', interrupts: [{ id: 'ficc_Id_1', reason: 'tool_call' }] });
  });

  it('rawEvent on content events has no canonical slot: reported once per block, not per event', () => {
    const c = byName('Step07_ThinkingEvents/PostRun_WithReasoningContent_EmitsReasoningAndTextEvents__Turn_01.06.Response.Server.AGUI.json');
    const contents = c.events.filter((e) => e['type'] === 'TEXT_MESSAGE_CONTENT' && e['rawEvent'] !== undefined).length;
    const { losses } = decodeAll(c.events);
    expect(contents).toBeGreaterThan(100);
    expect(losses).toEqual([expect.objectContaining({ code: 'unsupported-field', path: [expect.any(Number), 'rawEvent'], action: 'dropped' })]);
  });
});
