/**
 * The AG-UI stream decoder on hand-made sequences (facts from protocols.md §1.3-1.10 and the
 * 1.0 client's transformChunks / CompatibilityBoundary): chunk expansion, retired THINKING_*
 * names, run-level mapping (ids, usage, stop reason), and the errors it raises with the event's
 * index in the path. Also the dart SSE sections, through the SSE framing reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventSchemas } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/formats/ag-ui/validate.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import { accumulate } from '../../../src/stream/accumulate.js';
import { frameReader } from '../../../src/stream/framing.js';
import { verifyStream } from '../../../src/stream/verify.js';
import { decodeAll, encodeAll, LOCAL_AGUI, sseSections, stream, verdict } from './helpers.js';

const run = (...events: JsonObject[]): JsonObject[] => [{ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }, ...events, { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' }];
const types = (events: readonly { type: string }[]): string[] => events.map((e) => e.type);

function issueOf(events: JsonObject[]): { path: (string | number)[]; message: string } {
  try {
    decodeAll(events);
  } catch (e) {
    if (e instanceof ValidationError) return { path: e.issues[0]?.path ?? [], message: e.issues[0]?.message ?? '' };
    throw e;
  }
  throw new Error('decoded without error');
}

describe('chunk events expand as transformChunks does', () => {
  it('a text chunk opens a message (role assistant) and the run end closes it', () => {
    const { events } = decodeAll(run({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hel' }, { type: 'TEXT_MESSAGE_CHUNK', delta: 'lo' }));
    expect(types(events)).toEqual(['response-start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'finish', 'response-end']);
    expect(events[1]).toEqual({ type: 'text-start', index: 0, ext: { 'ag-ui': { $messageId: 'm1', $role: 'assistant' } } });
    expect(accumulate(events).response.choices[0]?.message.parts).toMatchObject([{ type: 'text', text: 'Hello' }]);
  });

  it('a chunk of another kind or another id closes the open one first; tool chunks need a name', () => {
    const { events } = decodeAll(
      run(
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'f', parentMessageId: 'm1', delta: '{"x":' },
        { type: 'TOOL_CALL_CHUNK', delta: '1}' },
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'b' },
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm3', delta: 'c' },
      ),
    );
    expect(types(events).slice(1, -2)).toEqual(['text-start', 'text-delta', 'text-end', 'tool-call-start', 'tool-call-delta', 'tool-call-delta', 'tool-call-end', 'text-start', 'text-delta', 'text-end', 'text-start', 'text-delta', 'text-end']);
    expect(verifyStream(events)).toEqual([]);
    expect(accumulate(events).response.choices[0]?.message.parts[1]).toMatchObject({ type: 'tool-call', id: 'c1', arguments: { x: 1 }, ext: { 'ag-ui': { $parentMessageId: 'm1' } } });
    expect(issueOf(run({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: '{}' }))).toEqual({ path: [1, 'toolCallName'], message: 'event 1: the first TOOL_CALL_CHUNK must have a toolCallName' });
    expect(issueOf(run({ type: 'TEXT_MESSAGE_CHUNK', delta: 'x' }))).toMatchObject({ path: [1, 'messageId'] });
  });

  it('a continuation chunk must agree with what its opener said', () => {
    const bad = run({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'assistant', delta: 'a' }, { type: 'TEXT_MESSAGE_CHUNK', role: 'user', delta: 'b' });
    expect(issueOf(bad)).toEqual({ path: [2, 'role'], message: "event 2: cannot continue text message 'm1': chunk role 'user' does not match the open stream's 'assistant'" });
  });

  it('a reasoning chunk opens a reasoning message; other events of its lane close it', () => {
    const { events } = decodeAll(run({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r', delta: 'think' }, { type: 'STEP_STARTED', stepName: 's' }, { type: 'STEP_FINISHED', stepName: 's' }));
    expect(types(events)).toEqual(['response-start', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'provider-event', 'provider-event', 'finish', 'response-end']);
    expect(events[1]).toMatchObject({ origin: 'ag-ui', ext: { 'ag-ui': { $messageId: 'r', $noSpan: true } } });
  });

  it('a stream cut off with a chunk lane open stays cut off', () => {
    const { events } = decodeAll([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'par' }]);
    expect(types(events)).toEqual(['response-start', 'text-start', 'text-delta']);
    const acc = accumulate(events);
    expect(acc.complete).toBe(false);
    expect(acc.response.choices[0]?.message.parts).toMatchObject([{ type: 'text', text: 'par' }]);
  });
});

describe('retired THINKING_* events', () => {
  it('read as a reasoning span and message with ids from a counter; a title stays in ext', () => {
    const { events } = decodeAll(
      run(
        { type: 'THINKING_START', title: 'Plan' },
        { type: 'THINKING_TEXT_MESSAGE_START' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'hmm' },
        { type: 'THINKING_TEXT_MESSAGE_END' },
        { type: 'THINKING_END' },
      ),
    );
    expect(verifyStream(events)).toEqual([]);
    expect(events[1]).toEqual({ type: 'reasoning-start', index: 0, origin: 'ag-ui', ext: { 'ag-ui': { $messageId: 'thinking-2', $span: 'thinking-1', span: { title: 'Plan' } } } });
    expect(accumulate(events).response.choices[0]?.message.parts).toMatchObject([{ type: 'reasoning', text: 'hmm' }]);
  });

  it('a continuation with no opener is refused (the client would mint an id nothing opened)', () => {
    expect(issueOf(run({ type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'x' })).message).toBe('event 1: THINKING_TEXT_MESSAGE_CONTENT continues no THINKING_TEXT_MESSAGE_START');
  });
});

describe('runs', () => {
  it('RUN_STARTED is the response start (runId as id, the rest in ext); RUN_FINISHED gives usage, finish and end', () => {
    const usage = [
      { provider: 'openai', model: 'gpt-4o', inputTokens: 11, outputTokens: 22, totalTokens: 33, cachedInputTokens: 5 },
      { provider: 'anthropic', model: 'claude', inputTokens: 1, outputTokens: 2, cacheWriteInputTokens: 1 },
    ];
    const { events } = decodeAll([
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1', parentRunId: 'r0', timestamp: 5 },
      { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', result: { ok: true }, usage },
    ]);
    expect(events).toEqual([
      { type: 'response-start', id: 'r1', ext: { 'ag-ui': { threadId: 't1', parentRunId: 'r0', timestamp: 5 } } },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 24, totalTokens: 33, cacheReadTokens: 5, cacheWriteTokens: 1, raw: { usage }, ext: { 'ag-ui': { $usage: usage } } } },
      { type: 'finish', stopReason: { unified: 'stop' }, ext: { 'ag-ui': { $derived: true } } },
      { type: 'response-end', ext: { 'ag-ui': { result: { ok: true } } } },
    ]);
  });

  it('the stop reason: tool calls left unanswered, outcome pending ids, cancelled, or the one metadata.interlingua names', () => {
    const call = [{ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' }, { type: 'TOOL_CALL_END', toolCallId: 'c' }];
    const stop = (events: JsonObject[]): unknown => decodeAll(events).events.find((e) => e.type === 'finish');
    expect(stop(run(...call))).toMatchObject({ stopReason: { unified: 'tool-calls' } });
    expect(stop(run(...call, { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'c', content: 'ok' }))).toMatchObject({ stopReason: { unified: 'stop' } });
    expect(stop([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'success', pendingToolCallIds: ['z'] } }])).toMatchObject({ stopReason: { unified: 'tool-calls', raw: 'success' } });
    expect(stop([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'cancelled' } }])).toMatchObject({ stopReason: { unified: 'other', raw: 'cancelled' } });
    const named = { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'success' }, metadata: { interlingua: { stopReason: { unified: 'length', raw: 'max_tokens' } }, mine: 1 } };
    expect(decodeAll([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, named]).events.slice(1)).toEqual([
      { type: 'finish', stopReason: { unified: 'length', raw: 'max_tokens' }, ext: { 'ag-ui': { $outcome: 'success' } } },
      { type: 'response-end', ext: { 'ag-ui': { metadata: { mine: 1 } } } },
    ]);
  });

  it('RUN_ERROR is the error; one that comes first still starts the response (marked, nothing invented)', () => {
    const first = decodeAll([{ type: 'RUN_ERROR', message: 'boom', code: 'E1', usage: [{ inputTokens: 3 }] }]).events;
    expect(first).toEqual([
      { type: 'response-start', ext: { 'ag-ui': { $noRun: true } } },
      { type: 'usage', usage: { inputTokens: 3, raw: { inputTokens: 3 }, ext: { 'ag-ui': { $usage: [{ inputTokens: 3 }] } } } },
      { type: 'error', error: { message: 'boom', code: 'E1', raw: { type: 'RUN_ERROR', message: 'boom', code: 'E1', usage: [{ inputTokens: 3 }] } } },
    ]);
    expect(verifyStream(first)).toEqual([]);
    expect(accumulate(first)).toMatchObject({ complete: false, error: { message: 'boom' } });
  });

  it('names what the official verifier refuses, with the event index', () => {
    expect(issueOf([{ type: 'TEXT_MESSAGE_START', messageId: 'm' }]).message).toBe('event 0: TEXT_MESSAGE_START before RUN_STARTED: an AG-UI run starts with RUN_STARTED');
    expect(issueOf([{ type: 'RUN_ERROR', message: 'x' }, { type: 'RUN_STARTED', threadId: 't', runId: 'r' }]).message).toBe('event 1: RUN_STARTED after RUN_ERROR: the run already failed');
    expect(issueOf([...run(), { type: 'RUN_STARTED', threadId: 't', runId: 'r2' }]).message).toMatch(/^event 2: a second run/);
    expect(issueOf([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'TEXT_MESSAGE_START', messageId: 'm' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }]).message).toBe("event 2: RUN_FINISHED while text message 'm' is still open");
    expect(issueOf(run({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' })).message).toBe("event 1: TEXT_MESSAGE_CONTENT: no text message with id 'm' is open");
    expect(issueOf(run({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' }, { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' })).message).toBe("event 2: TOOL_CALL_START: a tool call with id 'c' is already in progress");
    expect(issueOf(run({ type: 'REASONING_END', messageId: 's' })).message).toBe("event 1: REASONING_END: no reasoning span with id 's' is open");
  });

  it('bad frames and bad fields are ValidationErrors with their path', () => {
    expect(issueOf(['x' as unknown as JsonObject])).toEqual({ path: [0], message: 'event 0: the frame is not a JSON object' });
    expect(issueOf([{ type: '' }])).toEqual({ path: [0, 'type'], message: 'event 0: the frame carries no event type' });
    expect(issueOf(run({ type: 'TEXT_MESSAGE_START', messageId: 'm' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 5 }))).toMatchObject({ path: [2, 'delta'] });
    expect(issueOf([{ type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: 1.5 }])).toMatchObject({ path: [0, 'timestamp'] });
    expect(issueOf(run({ type: 'STATE_DELTA', delta: [{ op: 'add', path: 'no-slash', value: 1 }] }))).toMatchObject({ path: [1, 'delta', 0, 'path'] });
  });

  it('an unknown event type is a provider-event, not an error; so are steps, state and snapshots', () => {
    const { events } = decodeAll(run({ type: 'FUTURE_EVENT', x: 1 }, { type: 'STATE_SNAPSHOT', snapshot: null }, { type: 'CUSTOM', name: 'n', value: [1] }));
    expect(events.slice(1, 4)).toEqual([
      { type: 'provider-event', origin: 'ag-ui', event: { data: { type: 'FUTURE_EVENT', x: 1 } } },
      { type: 'provider-event', origin: 'ag-ui', event: { data: { type: 'STATE_SNAPSHOT', snapshot: null } } },
      { type: 'provider-event', origin: 'ag-ui', event: { data: { type: 'CUSTOM', name: 'n', value: [1] } } },
    ]);
  });

  it('the optional nulls the 1.0 client reads as absent are absent', () => {
    const { events } = decodeAll(run({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', parentMessageId: null, rawEvent: null }, { type: 'TOOL_CALL_END', toolCallId: 'c' }));
    expect(events[1]).toEqual({ type: 'tool-call-start', index: 0, id: 'c', name: 'f', ext: { 'ag-ui': { $parentMessageId: null } } });
  });
});

describe('reasoning spans, messages and encrypted values', () => {
  it('the span names the origin; the encrypted value comes back as the field its metadata names', () => {
    const { events } = decodeAll(
      run(
        { type: 'REASONING_START', messageId: 's', metadata: { interlingua: { origin: 'anthropic-messages' } } },
        { type: 'REASONING_MESSAGE_START', messageId: 's', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 's', delta: 'Let me see.' },
        { type: 'REASONING_MESSAGE_END', messageId: 's' },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 's', encryptedValue: 'EqQBCkYIBxgCKkA=', metadata: { interlingua: { field: 'signature' } } },
        { type: 'REASONING_END', messageId: 's' },
      ),
    );
    expect(accumulate(events).response.choices[0]?.message.parts).toMatchObject([{ type: 'reasoning', origin: 'anthropic-messages', text: 'Let me see.', signature: 'EqQBCkYIBxgCKkA=' }]);
  });

  it('a second message in one span is a block of its own; a span with no message is an empty block', () => {
    const { events } = decodeAll(
      run(
        { type: 'REASONING_START', messageId: 's' },
        { type: 'REASONING_MESSAGE_START', messageId: 'a', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'a', delta: 'one' },
        { type: 'REASONING_MESSAGE_END', messageId: 'a' },
        { type: 'REASONING_MESSAGE_START', messageId: 'b', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'b', delta: 'two' },
        { type: 'REASONING_MESSAGE_END', messageId: 'b' },
        { type: 'REASONING_END', messageId: 's' },
        { type: 'REASONING_START', messageId: 'e' },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'e', encryptedValue: 'b3BhcXVl' },
        { type: 'REASONING_END', messageId: 'e' },
      ),
    );
    expect(verifyStream(events)).toEqual([]);
    expect(accumulate(events).response.choices[0]?.message.parts).toMatchObject([
      { type: 'reasoning', text: 'one', ext: { 'ag-ui': { $span: 's', $messageId: 'a', $spanContinues: true } } },
      { type: 'reasoning', text: 'two', ext: { 'ag-ui': { $span: 's', $messageId: 'b' } } },
      { type: 'reasoning', encryptedContent: 'b3BhcXVl', ext: { 'ag-ui': { $span: 'e', $noMessage: true } } },
    ]);
  });

  it('an encrypted value for a tool call that already closed is kept as a provider-event', () => {
    const { events } = decodeAll(run({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' }, { type: 'TOOL_CALL_END', toolCallId: 'c' }, { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c', encryptedValue: 'eA==' }));
    expect(events[3]).toMatchObject({ type: 'provider-event', origin: 'ag-ui' });
  });
});

describe('the dart SSE sections, through the SSE framing', () => {
  const sections = new Map(sseSections());
  const frames = (text: string): JsonObject[] => {
    const reader = frameReader(stream.framing);
    return [...reader.push(text), ...reader.end()].map((w) => w.data as JsonObject);
  };

  it('complete runs decode (comments and blank lines are framing, not events)', () => {
    for (const name of ['Simple Text Message Stream', 'Tool Call Stream', 'Heartbeat and Comments', 'Empty Lines and Spacing']) {
      const { events } = decodeAll(frames(sections.get(name) ?? ''));
      expect(verifyStream(events), name).toEqual([]);
      expect(accumulate(events).complete, name).toBe(true);
    }
    const tool = accumulate(decodeAll(frames(sections.get('Tool Call Stream') ?? '')).events).response;
    expect(tool.choices[0]?.message.parts).toMatchObject([{ type: 'tool-call', id: 'tool_01', name: 'search', arguments: { query: 'AG-UI' } }]);
  });

  it('multi-line data joins into one event; text outside a run is refused; unicode survives', () => {
    expect(frames(sections.get('Multi-line Data Fields') ?? '')).toEqual([{ type: 'STATE_SNAPSHOT', snapshot: { count: 42, name: 'test' } }]);
    expect(issueOf(frames(sections.get('With Event IDs and Retry') ?? '')).message).toMatch(/^event 0: TEXT_MESSAGE_START before RUN_STARTED/);
    const unicode = run(...frames(sections.get('Unicode and Special Characters') ?? ''));
    expect(accumulate(decodeAll(unicode).events).response.choices[0]?.message.parts).toEqual([
      { type: 'text', text: 'Hello 你好 🌟 €Special: "quotes", \\backslash\\, \ttab', ext: { 'ag-ui': { $messageId: 'msg_04', $role: null } } },
    ]);
  });

  it('each malformed frame is refused with its reason, the unknown type is not', () => {
    const malformed = (sections.get('Malformed Examples') ?? '').split('\n\n').filter((f) => f.trim() !== '');
    const verdicts = malformed.map((f) => {
      try {
        return types(decodeAll(run(...frames(`${f}\n\n`))).events).join(',');
      } catch (e) {
        return e instanceof ValidationError ? (e.issues[0]?.message ?? '') : 'crash';
      }
    });
    expect(verdicts).toEqual([
      'event 1: the frame is not a JSON object',
      'response-start,provider-event,finish,response-end',
      'event 1: TEXT_MESSAGE_START messageId: Invalid input: expected string, received undefined',
      'event 1: the frame is not a JSON object',
      'event 1: the frame is not a JSON object',
    ]);
  });
});

describe('event schemas agree with @ag-ui/core/schemas', () => {
  const vectors: [string, JsonObject][] = [];
  const dir = join(LOCAL_AGUI, 'dotnet-compat-fixtures');
  for (const f of readdirSync(dir)) (JSON.parse(readFileSync(join(dir, f), 'utf8')) as JsonObject[]).forEach((e, i) => vectors.push([`${f}#${i}`, e]));
  const nulls = JSON.parse(readFileSync(join(LOCAL_AGUI, 'cross-sdk-fixtures/null-omission.json'), 'utf8')) as { stream: { name: string; input: JsonObject; expected: JsonObject }[] };
  for (const c of nulls.stream) vectors.push([`${c.name} (input)`, c.input], [`${c.name} (expected)`, c.expected]);

  it('on every .NET compatibility vector and null-omission case: accepted or refused alike', () => {
    const verdicts = vectors.map(([name, e]) => {
      let ours = true;
      try {
        validateEvent({ data: e }, 0);
      } catch {
        ours = false;
      }
      return [name, EventSchemas.safeParse(e).success, ours];
    });
    expect(verdicts.filter(([, official, ours]) => official !== ours)).toEqual([]);
    // The vectors do hold an invalid event: CUSTOM without its required value.
    expect(verdicts.filter(([, official]) => !official).map(([n]) => n)).toEqual(['custom-and-raw-events.json#1']);
  });
});

describe('JSON lines', () => {
  it('one event object per line reads like the SSE frames', () => {
    const events = run({ type: 'TEXT_MESSAGE_START', messageId: 'm' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' }, { type: 'TEXT_MESSAGE_END', messageId: 'm' });
    const reader = frameReader(stream.framing, { lines: true });
    const text = events.map((e) => JSON.stringify(e)).join('\n');
    const frames = [...reader.push(text.slice(0, 40)), ...reader.push(text.slice(40)), ...reader.end()];
    expect(decodeAll(frames.map((f) => f.data as JsonObject)).events).toEqual(decodeAll(events).events);
  });
});

describe('subagents', () => {
  it("a subagent's messages, calls and reasoning keep their subagentRunId on every event, both ways", async () => {
    const sub = { subagentRunId: 's1' };
    const events = run(
      { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', ...sub },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi', ...sub },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1', ...sub },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'f', ...sub },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}', ...sub },
      { type: 'TOOL_CALL_END', toolCallId: 'c1', ...sub },
      { type: 'REASONING_START', messageId: 'rs', ...sub },
      { type: 'REASONING_MESSAGE_START', messageId: 'rs', role: 'reasoning', ...sub },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rs', delta: 'x', ...sub },
      { type: 'REASONING_MESSAGE_END', messageId: 'rs', ...sub },
      { type: 'REASONING_END', messageId: 'rs', ...sub },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 's1' },
    );
    const { events: canonical, losses } = decodeAll(events);
    expect(losses).toEqual([]);
    const { wire } = encodeAll(canonical);
    expect(await verdict(wire)).toBe('ok');
    expect(wire).toEqual(events);
  });
});
