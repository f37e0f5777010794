/**
 * A tool call id used twice in one streamed response is refused by every dialect's stream decoder,
 * with the wire event and field named: the canonical stream holds each id once (verifyStream), and a
 * result answers its call by id. (Most Gemini calls carry no id; the ids Gemini mints are unique.)
 * One ToolCallIds (src/formats/shared/tool-call-ids.ts) serves every decoder. A2A is not listed: its
 * events name a call by id across updates, so a repeated id continues that call by design.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { ValidationError } from '../../src/model/errors.js';
import type { JsonValue } from '../../src/model/json.js';
import type { Loss } from '../../src/model/loss.js';
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { verifyStream } from '../../src/stream/verify.js';

function decodeAll(format: string, wire: WireEvent[]): StreamEvent[] {
  const losses: Loss[] = [];
  const d = getStreamCodec(format).decoder({ limits: DEFAULT_LIMITS, losses: { push: (l) => void losses.push(l) } });
  return [...wire.flatMap((w) => d.push(w)), ...d.end()];
}

function refusal(format: string, wire: WireEvent[]): { path: (string | number)[]; message: string } {
  try {
    decodeAll(format, wire);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { path: e.issues[0]?.path ?? [], message: e.issues[0]?.message ?? '' };
  }
  throw new Error(`${format}: the repeated id was accepted`);
}

const data = (d: JsonValue): WireEvent => ({ data: d });
const named = (event: string, d: JsonValue): WireEvent => ({ event, data: d });

/** Per dialect: a stream whose second call repeats the first one's id, the same stream with distinct ids, and where the repeat is. */
const CASES: { format: string; wire: (second: string) => WireEvent[]; at: (string | number)[] }[] = [
  {
    format: 'anthropic-messages',
    wire: (second) => [
      named('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
      named('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
      named('content_block_stop', { type: 'content_block_stop', index: 0 }),
      named('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: second, name: 'g', input: {} } }),
      named('content_block_stop', { type: 'content_block_stop', index: 1 }),
    ],
    at: [3, 'content_block', 'id'],
  },
  {
    format: 'openai-chat',
    wire: (second) => [
      data({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: null }] }),
      data({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt', choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: second, type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: null }] }),
    ],
    at: [1, 'choices', 0, 'delta', 'tool_calls', 0, 'id'],
  },
  {
    format: 'openai-responses',
    wire: (second) => [
      named('response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt', output: [] } }),
      named('response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'toolu_1', name: 'f', arguments: '', status: 'in_progress' } }),
      named('response.output_item.added', { type: 'response.output_item.added', sequence_number: 2, output_index: 1, item: { type: 'function_call', id: 'fc_2', call_id: second, name: 'g', arguments: '', status: 'in_progress' } }),
    ],
    at: [2, 'item', 'call_id'],
  },
  {
    format: 'bedrock-converse',
    wire: (second) => [
      named('messageStart', { role: 'assistant' }),
      named('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'toolu_1', name: 'f' } } }),
      named('contentBlockStop', { contentBlockIndex: 0 }),
      named('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: second, name: 'g' } } }),
    ],
    at: [3, 'start', 'toolUse', 'toolUseId'],
  },
  {
    format: 'gemini',
    wire: (second) => [
      data({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'f', args: {} } }] }, index: 0 }] }),
      data({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: second, name: 'g', args: {} } }] }, index: 0 }] }),
    ],
    at: [1, 'candidates', 0, 'content', 'parts', 0, 'functionCall', 'id'],
  },
  {
    format: 'ag-ui',
    wire: (second) => [
      data({ type: 'RUN_STARTED', threadId: 'th', runId: 'run' }),
      data({ type: 'TOOL_CALL_START', toolCallId: 'toolu_1', toolCallName: 'f' }),
      data({ type: 'TOOL_CALL_END', toolCallId: 'toolu_1' }),
      data({ type: 'TOOL_CALL_START', toolCallId: second, toolCallName: 'g' }),
      data({ type: 'TOOL_CALL_END', toolCallId: second }),
    ],
    at: [3, 'toolCallId'],
  },
];

describe('a tool call id repeated in one streamed response', () => {
  for (const { format, wire, at } of CASES) {
    it(`${format}: refused at the repeat; distinct ids decode to a well-formed stream`, () => {
      expect(verifyStream(decodeAll(format, wire('toolu_2')))).toEqual([]);
      const { path, message } = refusal(format, wire('toolu_1'));
      expect(path).toEqual(at);
      expect(message).toMatch(/'toolu_1' was used by an earlier call/);
    });
  }
});
