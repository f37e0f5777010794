/**
 * Generated inputs for the A2A mapping (docs/a2a-mapping.md):
 * - canonical conversations (text, tool calls with object or broken arguments, results, own
 *   message ids that may collide) encoded in both versions: no two messages share an id, and
 *   decoding keeps every call with its arguments and every result paired with its call (named
 *   after it); under `preserve` decoding gives the conversation back exactly;
 * - A2A task histories as agents keep them (every message its own id): streamed text as chunk
 *   runs with or without their end, arguments as fragments before or after their Start; compacted,
 *   each run gives its whole text and each call its whole arguments, and the compacted history
 *   written again and read back is the same.
 * Runs are seeded and counted as in every property test (docs/decisions/0006-property-seeds.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Message } from '../../../src/model/message.js';
import type { Part } from '../../../src/model/part.js';
import type { Request } from '../../../src/model/request.js';
import type { A2aVersion } from '../../../src/formats/a2a/a2a-api.js';
import { compactHistory } from '../../../src/formats/a2a/compact-history.js';
import { encodeRequest } from '../../../src/formats/a2a/request-encode.js';
import { decodeA2aRequest } from './helpers.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
const params = { numRuns: RUNS };

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const NAMES = ['get_weather', 'search', 'noop'] as const;

/** What a conversation says about tools, in order: calls with their arguments, results with their call's name. */
function toolsSaid(messages: readonly Message[], names: ReadonlyMap<string, string>): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call') out.push({ call: p.id, name: p.name, args: p.argumentsJson !== undefined && !isJson(p.argumentsJson) ? p.argumentsJson : json(p.arguments) });
      if (p.type === 'tool-result') out.push({ result: p.callId, name: p.name ?? names.get(p.callId) });
    }
  }
  return out;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function messageIds(list: readonly JsonObject[]): string[] {
  return list.map((m) => m['messageId'] as string);
}

// ---- canonical conversations ----

const args = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((a) => ({ arguments: json(a) as JsonValue })) },
  { weight: 1, arbitrary: fc.constantFrom('{"city":', '{oops', 'nope').map((t) => ({ arguments: {} as JsonValue, argumentsJson: t })) },
);

/** Own A2A ids, some of them the same or the shape of generated and continuation ids. */
const ownId = fc.option(fc.constantFrom('a', 'b', 'a#2', 'msg-3', 'msg-2'), { nil: undefined, freq: 3 });

const turn = fc.record({
  user: fc.string({ maxLength: 20 }),
  text: fc.option(fc.constantFrom('', 'Checking.', 'On it'), { nil: undefined }),
  calls: fc.array(fc.record({ name: fc.constantFrom(...NAMES), args }), { maxLength: 3 }),
  answered: fc.boolean(),
  oneResultMessage: fc.boolean(),
  ids: fc.tuple(ownId, ownId, ownId),
});

const conversation = fc.array(turn, { minLength: 1, maxLength: 4 }).map((turns): Request => {
  const messages: Message[] = [];
  const withId = (m: Message, id: string | undefined): Message => (id === undefined ? m : { ...m, ext: { a2a: { messageId: id } } });
  turns.forEach((t, n) => {
    messages.push(withId({ role: 'user', parts: [{ type: 'text', text: t.user }] }, t.ids[0]));
    const parts: Part[] = [];
    if (t.text !== undefined) parts.push({ type: 'text', text: t.text });
    t.calls.forEach((c, k) => parts.push({ type: 'tool-call', id: `call_${n}_${k}`, name: c.name, ...c.args }));
    if (parts.length > 0) messages.push(withId({ role: 'assistant', parts }, t.ids[1]));
    if (!t.answered || t.calls.length === 0) return;
    const results: Part[] = t.calls.map((_, k) => ({ type: 'tool-result', callId: `call_${n}_${k}`, content: [{ type: 'text', text: `result ${k}` }] }));
    if (t.oneResultMessage) messages.push(withId({ role: 'tool', parts: results }, t.ids[2]));
    else for (const r of results) messages.push({ role: 'tool', parts: [r] });
  });
  return { messages };
});

function encode(req: Request, version: A2aVersion, preserve: boolean): { list: JsonObject[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const list = encodeRequest(req, { preserve, losses, a2aVersion: version }) as JsonObject[];
  return { list: json(list), losses };
}

function namesOf(messages: readonly Message[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call') out.set(p.id, p.name);
  return out;
}

describe('canonical conversations -> A2A -> canonical', () => {
  for (const version of ['1.0', '0.3'] as const) {
    it(`v${version}: no two messages share an id; calls, arguments and results stay paired`, () => {
      fc.assert(
        fc.property(conversation, (req) => {
          const { list } = encode(req, version, false);
          const ids = messageIds(list);
          expect(new Set(ids).size).toBe(ids.length);
          const back = decodeA2aRequest(list).req;
          expect(toolsSaid(back.messages, new Map())).toEqual(toolsSaid(req.messages, namesOf(req.messages)));
          // Message for message: none merged into another (own ids like 'a' then 'a#2' included).
          expect(back.messages.map((m) => m.role)).toEqual(req.messages.map((m) => m.role));
        }),
        params,
      );
    });

    it(`v${version} with preserve: no two messages share an id, and the conversation comes back exactly`, () => {
      fc.assert(
        fc.property(conversation, (req) => {
          const { list, losses } = encode(req, version, true);
          expect(losses.filter((l) => l.action !== 'stashed')).toEqual([]);
          const ids = messageIds(list);
          expect(new Set(ids).size).toBe(ids.length);
          expect(json(decodeA2aRequest(list).req.messages)).toEqual(json(req.messages));
        }),
        params,
      );
    });
  }
});

// ---- A2A task histories as agents keep them ----

/** `text` cut at the given points (each piece non-empty unless the text is). */
function split(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of at) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}

type TextMode = 'end-with-text' | 'end-empty' | 'no-end' | 'end-only';
type CallMode = 'start-only' | 'args-then-start' | 'args-then-bare-start' | 'start-then-args';

const agentTurn = fc.record({
  user: fc.string({ minLength: 1, maxLength: 12 }),
  text: fc.option(fc.record({ text: fc.string({ minLength: 1, maxLength: 30 }), cuts: fc.array(fc.nat(), { maxLength: 4 }), mode: fc.constantFrom<TextMode>('end-with-text', 'end-empty', 'no-end', 'end-only') }), { nil: undefined }),
  calls: fc.array(fc.record({ name: fc.constantFrom(...NAMES), args: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((a) => json(a) as JsonObject), cuts: fc.array(fc.nat(), { maxLength: 4 }) }), { maxLength: 3 }),
  callMode: fc.constantFrom<CallMode>('start-only', 'args-then-start', 'args-then-bare-start', 'start-then-args'),
  order: fc.array(fc.nat(), { maxLength: 12 }),
  resultNames: fc.boolean(),
});

interface History {
  history: JsonObject[];
  /** What it says, in order: user texts, agent texts (whole), calls, results. */
  said: unknown[];
}

const history = fc.array(agentTurn, { minLength: 1, maxLength: 3 }).map((turns): History => {
  const history: JsonObject[] = [];
  const said: unknown[] = [];
  let n = 0;
  const msg = (role: 'ROLE_USER' | 'ROLE_AGENT', type: string, parts: JsonObject[]): void => {
    history.push({ messageId: `m-${++n}`, role, parts, metadata: { canonical_type: type } });
  };
  turns.forEach((t, turnNo) => {
    msg('ROLE_USER', 'TextMessageContentEvent', [{ text: t.user }]);
    said.push({ user: t.user });
    if (t.text !== undefined) {
      const { text, cuts, mode } = t.text;
      if (mode !== 'end-only') for (const c of split(text, cuts)) msg('ROLE_AGENT', 'TextMessageChunkEvent', [{ text: c }]);
      if (mode === 'end-with-text' || mode === 'end-only') msg('ROLE_AGENT', 'TextMessageEndEvent', [{ text }]);
      if (mode === 'end-empty') msg('ROLE_AGENT', 'TextMessageEndEvent', [{ text: '' }]);
      said.push({ agent: text });
    }
    if (t.calls.length === 0) return;
    const calls = t.calls.map((c, k) => ({ ...c, id: `call_${turnNo}_${k}`, text: JSON.stringify(c.args) }));
    const start = (withArgs: boolean): void =>
      msg('ROLE_AGENT', 'ToolCallStartEvent', [{ data: { tool_calls: calls.map((c) => ({ call_id: c.id, name: c.name, arguments: withArgs ? c.args : '' })) } }]);
    // Fragments of every call, interleaved as `order` picks, each call's in its order.
    const fragments = (): void => {
      const queues = calls.map((c) => split(c.text, c.cuts).map((f, j) => ({ call_id: c.id, ...(j === 0 ? { name: c.name } : {}), arguments: f })));
      let pick = 0;
      while (queues.some((q) => q.length > 0)) {
        const open = queues.filter((q) => q.length > 0);
        const q = open[(t.order[pick++ % Math.max(t.order.length, 1)] ?? 0) % open.length] as JsonObject[];
        msg('ROLE_AGENT', 'ToolCallArgsEvent', [{ data: { tool_calls: [q.shift() as JsonObject] } }]);
      }
    };
    if (t.callMode === 'start-only') start(true);
    else if (t.callMode === 'args-then-start') (fragments(), start(true));
    else if (t.callMode === 'args-then-bare-start') (fragments(), start(false));
    else (start(false), fragments());
    for (const c of calls) said.push({ call: c.id, name: c.name, args: c.args });
    msg('ROLE_USER', 'ToolCallResultEvent', [{ data: { tool_results: calls.map((c) => ({ call_id: c.id, ...(t.resultNames ? { name: c.name } : {}), output: `done ${c.id}` })) } }]);
    for (const c of calls) said.push({ result: c.id, output: `done ${c.id}` });
  });
  return { history, said };
});

function saidOf(messages: readonly Message[]): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    const text = m.parts.filter((p) => p.type === 'text').map((p) => (p as Part & { type: 'text' }).text).join('');
    if (m.role === 'user') out.push({ user: text });
    else if (m.role === 'assistant' && text !== '') out.push({ agent: text });
    for (const p of m.parts) {
      if (p.type === 'tool-call') out.push({ call: p.id, name: p.name, args: p.arguments });
      if (p.type === 'tool-result') out.push({ result: p.callId, output: (p.content[0] as Part & { type: 'text' }).text });
    }
  }
  return out;
}

/** `argumentsJson` that only says what `arguments` says is no difference (the encoder writes the object). */
function withoutRedundantText(messages: Message[]): Message[] {
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call' && p.argumentsJson === JSON.stringify(p.arguments)) delete p.argumentsJson;
  return messages;
}

describe('A2A task histories (every message its own id) -> compaction', () => {
  it('each chunk run gives its whole text, each call its whole arguments, each result its call', () => {
    fc.assert(
      fc.property(history, ({ history: h, said }) => {
        const out = compactHistory(h, { to: 'canonical' });
        if (out.to !== 'canonical') throw new Error('canonical expected');
        expect(out.losses).toEqual([]);
        expect(json(saidOf(out.messages))).toEqual(json(said));
      }),
      params,
    );
  });

  it('the compacted history written again has distinct ids and reads back as the same messages', () => {
    fc.assert(
      fc.property(history, fc.constantFrom<A2aVersion>('1.0', '0.3'), ({ history: h }, version) => {
        const out = compactHistory(h, { to: 'canonical' });
        if (out.to !== 'canonical') throw new Error('canonical expected');
        const { list } = encode({ messages: out.messages }, version, false);
        const ids = messageIds(list);
        expect(new Set(ids).size).toBe(ids.length);
        const back = decodeA2aRequest(list).req.messages;
        expect(withoutRedundantText(json(back))).toEqual(withoutRedundantText(json(out.messages)));
      }),
      params,
    );
  });
});
