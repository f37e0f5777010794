/**
 * The AG-UI stream decoder answers plain delta events (type, id and delta, and fields already
 * reported for their block) on a short path (src/formats/ag-ui/stream-decode.ts plainDelta). It must give what the general path gives: every
 * one-field edit of each delta event, in each state of the stream, decodes to the same events,
 * losses and errors with the short path switched off.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { AguiStreamDecoder } from '../../../src/formats/ag-ui/stream-decode.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';

/** The decoder with the short path switched off: every event takes the general path. */
class GeneralOnly extends AguiStreamDecoder {}
Object.defineProperty(GeneralOnly.prototype, 'plainDelta', { value: () => undefined });

const START: JsonObject = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const FINISH: JsonObject = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' };
const OURS = (fields: JsonObject): JsonObject => ({ metadata: { interlingua: fields } });

/** Fields a first delta of each block reports: later deltas carrying them have nothing to report. */
const SEEN: JsonObject = { rawEvent: { a: 1 }, timestamp: 1, metadata: {}, extra: 'x', subagentRunId: 'other', result: 1 };

/** Events before the delta: each leaves the stream in another state. */
const CONTEXTS: Record<string, JsonObject[]> = {
  open: [
    START,
    { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
    { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' },
    { type: 'REASONING_START', messageId: 's' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
  ],
  summary: [
    START,
    { type: 'REASONING_START', messageId: 's', ...OURS({ origin: 'openai-responses' }) },
    { type: 'REASONING_MESSAGE_START', messageId: 'r0', role: 'reasoning', ...OURS({ summaryIndex: 0 }) },
    { type: 'REASONING_MESSAGE_END', messageId: 'r0' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning', ...OURS({ summaryIndex: 1 }) },
  ],
  reported: [
    START,
    { type: 'TEXT_MESSAGE_START', messageId: 'm' },
    { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '', ...SEEN },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '', ...SEEN },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: '', ...SEEN },
  ],
  subagent: [
    START,
    { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: 'sub' },
    { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', subagentRunId: 'sub' },
  ],
  chunkLanes: [START, { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'a' }, { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'f', subagentRunId: 'sub' }],
  thinking: [START, { type: 'THINKING_START' }, { type: 'THINKING_TEXT_MESSAGE_START' }],
  nothingOpen: [START],
  beforeRun: [],
  finished: [START, FINISH],
  errored: [START, { type: 'RUN_ERROR', message: 'x' }],
  erroredWithOpenBlocks: [START, { type: 'TEXT_MESSAGE_START', messageId: 'm' }, { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' }, { type: 'RUN_ERROR', message: 'x' }],
};

const BASES: JsonObject[] = [
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a"' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'think' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'thinking-2', delta: 'think' },
];
const FIELDS = ['type', 'messageId', 'toolCallId', 'delta', 'rawEvent', 'parentMessageId', 'outcome', 'result', 'subagentRunId', 'timestamp', 'metadata', 'extra'];
const VALUES: unknown[] = [undefined, null, '', 'm', 'c', 'r', 'sub', 0, 1.5, true, [], {}, { a: 1 }, 'TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS', 'TEXT_MESSAGE_CHUNK'];

/** Closes what each context may have open, so ends (and their `$noArgs`) are compared too. */
const AFTER: JsonObject[] = [
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
  { type: 'TOOL_CALL_END', toolCallId: 'c' },
  { type: 'REASONING_MESSAGE_END', messageId: 'r' },
  { type: 'REASONING_END', messageId: 's' },
  FINISH,
];

type Outcome = { events: StreamEvent[]; losses: Loss[] } | { error: unknown };

function decode(Decoder: typeof AguiStreamDecoder, events: JsonObject[]): Outcome {
  const losses: Loss[] = [];
  const d = new Decoder({ limits: DEFAULT_LIMITS, losses });
  const out: StreamEvent[] = [];
  try {
    for (const e of events) out.push(...d.push({ data: e }));
  } catch (e) {
    if (e instanceof ValidationError) return { error: e.issues };
    throw e;
  }
  return { events: out, losses };
}

function edits(base: JsonObject): JsonObject[] {
  const out: JsonObject[] = [base];
  for (const field of FIELDS) {
    for (const v of VALUES) {
      const e: JsonObject = { ...base };
      if (v === undefined) delete e[field];
      else e[field] = v as JsonObject[string];
      out.push(e);
    }
  }
  return out;
}

describe('ag-ui plain delta events', () => {
  it('decode as the general path decodes them, in every state of the stream', () => {
    const spy = vi.spyOn(AguiStreamDecoder.prototype as unknown as { plainDelta: () => unknown }, 'plainDelta');
    let cases = 0;
    for (const [name, before] of Object.entries(CONTEXTS)) {
      for (const base of BASES) {
        for (const e of edits(base)) {
          // Twice: a field reported once per block is not reported again.
          const events = [...before, e, { ...e }, ...AFTER];
          expect(decode(AguiStreamDecoder, events), `${name}: ${JSON.stringify(e)}`).toEqual(decode(GeneralOnly, events));
          cases++;
        }
      }
    }
    const answered = spy.mock.results.filter((r) => r.type === 'return' && r.value !== undefined).length;
    spy.mockRestore();
    expect(cases).toBeGreaterThan(5000);
    // The short path did answer: the unedited deltas and the edits that leave them plain.
    expect(answered).toBeGreaterThan(100);
  });
});
