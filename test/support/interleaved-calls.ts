/**
 * Generated parallel tool calls whose argument fragments interleave, as the wire events of each
 * stream dialect that allows it (OpenAI Chat by `tool_calls[].index`, Responses by `output_index`,
 * AG-UI by `toolCallId`, A2A by `call_id`), written from each protocol's documented event shapes
 * (the captures in test/fixtures/streams show the same fields). A scenario: optional text first,
 * then 1-6 calls; each call's JSON arguments cut into fragments at random; the calls' steps
 * (start, fragments, end) merged at random, each call's own steps in order.
 */
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';

export interface GenCall {
  id: string;
  name: string;
  args: JsonObject;
  /** The arguments' JSON text, cut into non-empty fragments. */
  fragments: string[];
}

export type Step = { call: number; kind: 'start' } | { call: number; kind: 'args'; delta: string } | { call: number; kind: 'end' };

export interface Scenario {
  /** Text said before the calls, as fragments ([] for none). */
  text: string[];
  /** The calls in order of first appearance (call i starts before call i + 1). */
  calls: GenCall[];
  steps: Step[];
}

export const INTERLEAVING_SOURCES = ['openai-chat', 'openai-responses', 'ag-ui', 'a2a'] as const;
export type InterleavingSource = (typeof INTERLEAVING_SOURCES)[number];

const alnum = (min: number, max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));

/** JSON values without -0 or non-finite numbers (they do not survive JSON text exactly). */
const value = (): fc.Arbitrary<JsonValue> => fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);

const args = (): fc.Arbitrary<JsonObject> => fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/), value(), { maxKeys: 4 });

/** `text` cut at the given points (each taken modulo its length) into non-empty pieces. */
export function cut(text: string, cuts: readonly number[]): string[] {
  if (text.length <= 1) return [text];
  const points = [...new Set(cuts.map((c) => 1 + (c % (text.length - 1))))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of [...points, text.length]) {
    out.push(text.slice(from, p));
    from = p;
  }
  return out;
}

const rawCall = fc.record({ tail: alnum(6, 10), name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), args: args(), cuts: fc.array(fc.nat(), { maxLength: 6 }) });

/** A scenario; `maxCalls` 1-6. */
export function scenario(maxCalls = 6): fc.Arbitrary<Scenario> {
  return fc
    .record({
      text: fc.option(fc.record({ text: fc.string({ minLength: 1, maxLength: 30 }).filter((t) => t.trim() !== ''), cuts: fc.array(fc.nat(), { maxLength: 3 }) }), { nil: undefined }),
      calls: fc.array(rawCall, { minLength: 1, maxLength: maxCalls }),
      picks: fc.array(fc.nat(), { maxLength: 80 }),
    })
    .map(({ text, calls, picks }) => build(text === undefined ? [] : cut(text.text, text.cuts), calls, picks));
}

function build(text: string[], raw: { tail: string; name: string; args: JsonObject; cuts: number[] }[], picks: number[]): Scenario {
  const queues = raw.map((r, i) => {
    const steps: ({ kind: 'start' } | { kind: 'args'; delta: string } | { kind: 'end' })[] = [{ kind: 'start' }];
    for (const delta of cut(JSON.stringify(r.args), r.cuts)) steps.push({ kind: 'args', delta });
    steps.push({ kind: 'end' });
    return { i, steps };
  });
  // Merge: at each step a random call with steps left goes on (its own steps stay in order).
  const merged: { raw: number; step: { kind: 'start' } | { kind: 'args'; delta: string } | { kind: 'end' } }[] = [];
  for (let t = 0; ; t++) {
    const live = queues.filter((q) => q.steps.length > 0);
    if (live.length === 0) break;
    const q = live[(picks[t] ?? 0) % live.length] as (typeof live)[number];
    merged.push({ raw: q.i, step: q.steps.shift() as (typeof q.steps)[number] });
  }
  // Calls are numbered by first appearance.
  const order: number[] = [];
  for (const m of merged) if (m.step.kind === 'start') order.push(m.raw);
  const calls = order.map((r, n): GenCall => {
    const c = raw[r] as (typeof raw)[number];
    return { id: `call_${n}_${c.tail}`, name: c.name, args: c.args, fragments: cut(JSON.stringify(c.args), c.cuts) };
  });
  const steps = merged.map((m): Step => ({ call: order.indexOf(m.raw), ...m.step }));
  return { text, calls, steps };
}

const argsText = (c: GenCall): string => c.fragments.join('');

/** A source stream: its wire events, and what each one says of the scenario (a text fragment, a call step). */
export interface SourceStream {
  wire: WireEvent[];
  tags: (Step | 'text' | undefined)[];
}

function recorder(): SourceStream & { add: (w: WireEvent, tag?: Step | 'text') => void } {
  const wire: WireEvent[] = [];
  const tags: (Step | 'text' | undefined)[] = [];
  return { wire, tags, add: (w, tag) => void (wire.push(w), tags.push(tag)) };
}

// ---- OpenAI Chat: chat.completion.chunk, tool_calls addressed by index ----

function chatWire(s: Scenario): SourceStream {
  const head = { id: 'chatcmpl-il', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test' };
  const chunk = (delta: JsonObject, finish: string | null = null): WireEvent => ({ data: { ...head, choices: [{ index: 0, delta, finish_reason: finish }] } });
  const out = recorder();
  out.add(chunk({ role: 'assistant', content: '' }));
  for (const t of s.text) out.add(chunk({ content: t }), 'text');
  for (const step of s.steps) {
    const c = s.calls[step.call] as GenCall;
    if (step.kind === 'start') out.add(chunk({ tool_calls: [{ index: step.call, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }), step);
    else if (step.kind === 'args') out.add(chunk({ tool_calls: [{ index: step.call, function: { arguments: step.delta } }] }), step);
  }
  out.add(chunk({}, 'tool_calls'));
  out.add({ data: { ...head, choices: [], usage: { prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 } } });
  out.add({ data: '[DONE]' });
  return out;
}

// ---- OpenAI Responses: items by output_index ----

function responsesWire(s: Scenario): SourceStream {
  let seq = 0;
  const ev = (type: string, fields: JsonObject): WireEvent => ({ event: type, data: { type, ...fields, sequence_number: seq++ } });
  const response = (status: string, output: JsonObject[], usage: JsonValue): JsonObject => ({
    id: 'resp_il', object: 'response', created_at: 1_700_000_000, status, model: 'gpt-test', output, usage,
  });
  const out = recorder();
  out.add(ev('response.created', { response: response('in_progress', [], null) }));
  const items: JsonObject[] = [];
  const base = s.text.length > 0 ? 1 : 0;
  if (s.text.length > 0) {
    const where = { item_id: 'msg_il', output_index: 0, content_index: 0 };
    const text = s.text.join('');
    out.add(ev('response.output_item.added', { output_index: 0, item: { id: 'msg_il', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }));
    out.add(ev('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } }));
    for (const t of s.text) out.add(ev('response.output_text.delta', { ...where, delta: t, logprobs: [] }), 'text');
    out.add(ev('response.output_text.done', { ...where, text, logprobs: [] }));
    const part = { type: 'output_text', text, annotations: [] };
    out.add(ev('response.content_part.done', { ...where, part }));
    const item = { id: 'msg_il', type: 'message', status: 'completed', role: 'assistant', content: [part] };
    out.add(ev('response.output_item.done', { output_index: 0, item }));
    items.push(item);
  }
  const done: JsonObject[] = [];
  for (const step of s.steps) {
    const c = s.calls[step.call] as GenCall;
    const where = { item_id: `fc_il${step.call}`, output_index: base + step.call };
    const item = { id: where.item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id: c.id, name: c.name };
    if (step.kind === 'start') out.add(ev('response.output_item.added', { output_index: where.output_index, item }), step);
    else if (step.kind === 'args') out.add(ev('response.function_call_arguments.delta', { ...where, delta: step.delta }), step);
    else {
      out.add(ev('response.function_call_arguments.done', { ...where, arguments: argsText(c) }));
      const final = { ...item, status: 'completed', arguments: argsText(c) };
      out.add(ev('response.output_item.done', { output_index: where.output_index, item: final }), step);
      done[step.call] = final;
    }
  }
  items.push(...done);
  const usage = { input_tokens: 11, input_tokens_details: { cached_tokens: 0 }, output_tokens: 22, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 33 };
  out.add(ev('response.completed', { response: response('completed', items, usage) }));
  return out;
}

// ---- AG-UI: tool calls by toolCallId ----

function aguiWire(s: Scenario): SourceStream {
  const run = { threadId: 'thread-il', runId: 'run-il' };
  const out = recorder();
  out.add({ data: { type: 'RUN_STARTED', ...run } });
  if (s.text.length > 0) {
    out.add({ data: { type: 'TEXT_MESSAGE_START', messageId: 'msg-il', role: 'assistant' } });
    for (const t of s.text) out.add({ data: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-il', delta: t } }, 'text');
    out.add({ data: { type: 'TEXT_MESSAGE_END', messageId: 'msg-il' } });
  }
  for (const step of s.steps) {
    const c = s.calls[step.call] as GenCall;
    if (step.kind === 'start') out.add({ data: { type: 'TOOL_CALL_START', toolCallId: c.id, toolCallName: c.name, parentMessageId: 'msg-il' } }, step);
    else if (step.kind === 'args') out.add({ data: { type: 'TOOL_CALL_ARGS', toolCallId: c.id, delta: step.delta } }, step);
    else out.add({ data: { type: 'TOOL_CALL_END', toolCallId: c.id } }, step);
  }
  out.add({ data: { type: 'RUN_FINISHED', ...run } });
  return out;
}

// ---- A2A: the source design's typed messages in status updates, calls by call_id ----

function a2aWire(s: Scenario): SourceStream {
  const task = 'task-il';
  const ctx = 'ctx-il';
  const frame = (result: JsonObject): WireEvent => ({ data: { jsonrpc: '2.0', id: 1, result } });
  let n = 0;
  const working = (type: string, parts: JsonObject[], messageId = `m-${++n}`): WireEvent =>
    frame({ statusUpdate: { taskId: task, contextId: ctx, status: { state: 'TASK_STATE_WORKING', message: { messageId, role: 'ROLE_AGENT', contextId: ctx, taskId: task, parts, metadata: { canonical_type: type } } } } });
  const calls = (c: GenCall, text: string): JsonObject[] => [{ data: { tool_calls: [{ call_id: c.id, name: c.name, arguments: text }] } }];
  const out = recorder();
  out.add(frame({ task: { id: task, contextId: ctx, status: { state: 'TASK_STATE_SUBMITTED' }, metadata: { canonical_type: 'RunStartedEvent' } } }));
  if (s.text.length > 0) {
    // A text message's chunks and its end share one messageId: that is how A2A tells them apart.
    for (const t of s.text) out.add(working('TextMessageChunkEvent', [{ text: t }], 'm-text'), 'text');
    out.add(working('TextMessageEndEvent', [{ text: s.text.join('') }], 'm-text'));
  }
  for (const step of s.steps) {
    const c = s.calls[step.call] as GenCall;
    if (step.kind === 'start') out.add(working('ToolCallStartEvent', calls(c, '')), step);
    else if (step.kind === 'args') out.add(working('ToolCallArgsEvent', calls(c, step.delta)), step);
    else out.add(working('ToolCallEndEvent', calls(c, '')), step);
  }
  out.add(frame({ statusUpdate: { taskId: task, contextId: ctx, status: { state: 'TASK_STATE_INPUT_REQUIRED' }, metadata: { canonical_type: 'StepFinishedEvent', usage: { inputTokens: 11, outputTokens: 22, totalTokens: 33 } } } }));
  return out;
}

export const WIRE: Record<InterleavingSource, (s: Scenario) => SourceStream> = {
  'openai-chat': chatWire,
  'openai-responses': responsesWire,
  'ag-ui': aguiWire,
  a2a: a2aWire,
};
