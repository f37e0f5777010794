/**
 * The source design's compaction (map, reduce, map) on a stored A2A history, as issue 4 states it:
 * chunk events are dropped when followed by their end event, tool-call argument fragments are
 * merged into their call, and the compacted history becomes OpenAI Chat messages or Responses
 * input. The reference has no worked example of it, so the history below is the one the issue
 * describes (a streamed answer with a tool call and its result), written out in both versions,
 * and the expected outputs are worked out by hand from those rules. Property tests split texts and
 * arguments at random.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import { ValidationError } from '../../../src/model/errors.js';
import { compactHistory } from '../../../src/formats/a2a/compact-history.js';
import { messageToV03 } from '../../../src/formats/a2a/versions.js';
import { validateOpenaiChat } from '../../support/validators/openai-chat.js';
import { validateOpenaiResponses } from '../../support/validators/openai-responses.js';
import { schemaErrors } from './helpers.js';

const m = (id: string, role: 'ROLE_USER' | 'ROLE_AGENT', type: string, parts: JsonObject[]): JsonObject => ({ messageId: id, role, parts, metadata: { canonical_type: type } });
const calls = (args: string): JsonObject[] => [{ data: { tool_calls: [{ call_id: 'call_1', name: 'get_weather', arguments: args }] } }];

/** A stored history: every chunk and argument fragment of a streamed turn, as the agent sent them. */
const HISTORY: JsonObject[] = [
  m('u1', 'ROLE_USER', 'TextMessageContentEvent', [{ text: "What's the weather in Paris?" }]),
  m('m1', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: 'Let me' }]),
  m('m1', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: ' check.' }]),
  m('m1', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: 'Let me check.' }]),
  m('m1', 'ROLE_AGENT', 'ToolCallStartEvent', calls('')),
  m('m1', 'ROLE_AGENT', 'ToolCallArgsEvent', calls('{"city":')),
  m('m1', 'ROLE_AGENT', 'ToolCallArgsEvent', calls('"Paris"}')),
  m('r1', 'ROLE_USER', 'ToolCallResultEvent', [{ data: { tool_results: [{ call_id: 'call_1', name: 'get_weather', output: 'sunny, 21 C' }] } }]),
  m('m2', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: 'It is sunny' }]),
  m('m2', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: ' (21 C).' }]),
  m('m2', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: 'It is sunny (21 C).' }]),
];

const V03_HISTORY = HISTORY.map((x, i) => messageToV03(x, [i], () => undefined));

const CHAT = [
  { role: 'user', content: [{ type: 'text', text: "What's the weather in Paris?" }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }], tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21 C' },
  { role: 'assistant', content: [{ type: 'text', text: 'It is sunny (21 C).' }] },
];

const RESPONSES = [
  { role: 'user', content: [{ type: 'input_text', text: "What's the weather in Paris?" }] },
  { role: 'assistant', content: 'Let me check.' },
  { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'sunny, 21 C' },
  { role: 'assistant', content: 'It is sunny (21 C).' },
];

describe('compaction of a stored history', () => {
  it('the v0.3 form of the history is schema-valid (it is what a v0.3 agent stores)', () => {
    for (const msg of V03_HISTORY) expect(schemaErrors('Message', msg)).toEqual([]);
  });

  for (const [version, history] of [['v1.0', HISTORY], ['v0.3', V03_HISTORY]] as const) {
    it(`${version}: chunks give way to their end, argument fragments join their call, the result is a tool message`, () => {
      const out = compactHistory(history, { to: 'canonical' });
      if (out.to !== 'canonical') throw new Error('canonical expected');
      expect(out.losses).toEqual([]);
      expect(out.messages.map((x) => ({ role: x.role, parts: x.parts }))).toEqual([
        { role: 'user', parts: [{ type: 'text', text: "What's the weather in Paris?" }] },
        {
          role: 'assistant',
          parts: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsJson: '{"city":"Paris"}' },
          ],
        },
        { role: 'tool', parts: [{ type: 'tool-result', callId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: 'sunny, 21 C' }], stringContent: true }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'It is sunny (21 C).' }] },
      ]);
    });

    it(`${version}: as OpenAI Chat messages, valid in a Chat Completions request`, () => {
      const out = compactHistory(history, { to: 'openai-chat' });
      if (out.to !== 'openai-chat') throw new Error('chat expected');
      expect(out.messages).toEqual(CHAT);
      expect(out.losses).toEqual([]);
      expect(validateOpenaiChat('request', { model: 'gpt-4o', messages: out.messages })).toEqual([]);
    });

    it(`${version}: as OpenAI Responses input, valid in a Responses request`, () => {
      const out = compactHistory(history, { to: 'openai-responses' });
      if (out.to !== 'openai-responses') throw new Error('responses expected');
      expect(out.input).toEqual(RESPONSES);
      expect(out.losses).toEqual([]);
      expect(validateOpenaiResponses('request', { model: 'gpt-4o', input: out.input })).toEqual([]);
    });
  }

  it('a cut-off turn: chunks with no end are kept, joined into one text', () => {
    const out = compactHistory(HISTORY.slice(0, 3), { to: 'canonical' });
    if (out.to !== 'canonical') throw new Error();
    expect(out.messages[1]?.parts).toEqual([{ type: 'text', text: 'Let me check.' }]);
  });

  it('an end without text only closes: the chunks stand', () => {
    const out = compactHistory([HISTORY[1], HISTORY[2], m('m1', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: '' }])], { to: 'canonical' });
    if (out.to !== 'canonical') throw new Error();
    expect(out.messages.map((x) => x.parts)).toEqual([[{ type: 'text', text: 'Let me check.' }]]);
  });

  it('argument fragments whose start was not kept open the call themselves; ToolCallEndEvent adds nothing', () => {
    const out = compactHistory([HISTORY[5], HISTORY[6], m('m1', 'ROLE_AGENT', 'ToolCallEndEvent', calls(''))], { to: 'canonical' });
    if (out.to !== 'canonical') throw new Error();
    expect(out.messages[0]?.parts).toEqual([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsJson: '{"city":"Paris"}' }]);
  });

  it('merged arguments that are not JSON are kept as text and reported; a message that is not A2A is an error naming the place', () => {
    const cut = compactHistory([HISTORY[4], m('m1', 'ROLE_AGENT', 'ToolCallArgsEvent', calls('{"city":'))]);
    if (cut.to !== 'canonical') throw new Error();
    expect(cut.messages[0]?.parts).toEqual([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: {}, argumentsJson: '{"city":' }]);
    expect(cut.losses.map((l) => [l.code, l.path, l.action])).toEqual([['invalid-arguments', [0], 'approximated']]);
    let err: unknown;
    try {
      compactHistory([HISTORY[0], { messageId: 'x', role: 'ROLE_AGENT', parts: [] }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.path).toEqual([1, 'parts']);
  });
});

/**
 * The same rules on histories as A2A agents keep them: every message its own messageId. The
 * design's order for tool calls is its table's: ToolCallArgsEvent fragments, then the final
 * ToolCallStartEvent.
 */
describe('compaction whatever the message ids', () => {
  const callsOf = (list: JsonObject[]): JsonObject[] => [{ data: { tool_calls: list } }];
  const canonical = (history: JsonObject[]) => {
    const out = compactHistory(history, { to: 'canonical' });
    if (out.to !== 'canonical') throw new Error('canonical expected');
    return out;
  };

  const DESIGN_ORDER: JsonObject[] = [
    m('u-1', 'ROLE_USER', 'TextMessageContentEvent', [{ text: "What's the weather in Paris?" }]),
    m('c-1', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: 'Let me' }]),
    m('c-2', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: ' check.' }]),
    m('e-1', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: 'Let me check.' }]),
    m('f-1', 'ROLE_AGENT', 'ToolCallArgsEvent', callsOf([{ call_id: 'call_1', name: 'get_weather', arguments: '{"city":' }])),
    m('f-2', 'ROLE_AGENT', 'ToolCallArgsEvent', callsOf([{ call_id: 'call_1', arguments: '"Paris"}' }])),
    m('s-1', 'ROLE_AGENT', 'ToolCallStartEvent', callsOf([{ call_id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }])),
    m('r-1', 'ROLE_USER', 'ToolCallResultEvent', [{ data: { tool_results: [{ call_id: 'call_1', name: 'get_weather', output: 'sunny, 21 C' }] } }]),
  ];

  it('chunks followed by their end are compacted into it; argument fragments into their final Start', () => {
    const out = canonical(DESIGN_ORDER);
    expect(out.losses).toEqual([]);
    expect(out.messages.map((x) => ({ role: x.role, parts: x.parts }))).toEqual([
      { role: 'user', parts: [{ type: 'text', text: "What's the weather in Paris?" }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Let me check.' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', callId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: 'sunny, 21 C' }], stringContent: true }] },
    ]);
    // Each compacted message keeps the id of the final message it was compacted into.
    expect(out.messages.map((x) => x.ext?.['a2a']?.['messageId'])).toEqual(['u-1', 'e-1', 's-1', 'r-1']);
  });

  it('an end without text takes the text of the chunks before it', () => {
    const out = canonical([DESIGN_ORDER[1] as JsonObject, DESIGN_ORDER[2] as JsonObject, m('e-1', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: '' }])]);
    expect(out.messages.map((x) => [x.parts, x.ext?.['a2a']?.['messageId']])).toEqual([[[{ type: 'text', text: 'Let me check.' }], 'e-1']]);
  });

  it('chunks with no end after them stay, as one message of their text', () => {
    const out = canonical([DESIGN_ORDER[0] as JsonObject, DESIGN_ORDER[1] as JsonObject, DESIGN_ORDER[2] as JsonObject, m('u-2', 'ROLE_USER', 'TextMessageContentEvent', [{ text: 'And?' }])]);
    expect(out.losses).toEqual([]);
    expect(out.messages.map((x) => [x.role, x.parts])).toEqual([
      ['user', [{ type: 'text', text: "What's the weather in Paris?" }]],
      ['assistant', [{ type: 'text', text: 'Let me check.' }]],
      ['user', [{ type: 'text', text: 'And?' }]],
    ]);
  });

  it("an end whose text differs from its chunks: the end's text stands, reported", () => {
    const out = canonical([DESIGN_ORDER[1] as JsonObject, m('e-1', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text: 'Something else.' }])]);
    expect(out.messages.map((x) => x.parts)).toEqual([[{ type: 'text', text: 'Something else.' }]]);
    expect(out.losses.map((l) => [l.code, l.path, l.action])).toEqual([['a2a-end-text', [1], 'approximated']]);
  });

  it('a final Start without arguments takes those of the fragments; one with other arguments wins, reported', () => {
    const frags = DESIGN_ORDER.slice(4, 6);
    const bare = canonical([...frags, m('s-1', 'ROLE_AGENT', 'ToolCallStartEvent', callsOf([{ call_id: 'call_1', name: 'get_weather', arguments: '' }]))]);
    expect(bare.messages.map((x) => x.parts)).toEqual([[{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsJson: '{"city":"Paris"}' }]]);
    const other = canonical([...frags, m('s-1', 'ROLE_AGENT', 'ToolCallStartEvent', callsOf([{ call_id: 'call_1', name: 'get_weather', arguments: { city: 'Lyon' } }]))]);
    expect(other.messages.map((x) => x.parts)).toEqual([[{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Lyon' } }]]);
    expect(other.losses.map((l) => [l.code, l.path])).toEqual([['a2a-end-arguments', [2]]]);
  });

  it('a call id seen again after its result is a new call, not more of the old one', () => {
    const start = (id: string, city: string) => m(id, 'ROLE_AGENT', 'ToolCallStartEvent', callsOf([{ call_id: 'call_0', name: 'get_weather', arguments: { city } }]));
    const result = (id: string) => m(id, 'ROLE_USER', 'ToolCallResultEvent', [{ data: { tool_results: [{ call_id: 'call_0', output: 'ok' }] } }]);
    const out = canonical([start('s-1', 'Paris'), result('r-1'), start('s-2', 'Lyon'), result('r-2')]);
    expect(out.messages.map((x) => x.parts[0])).toMatchObject([{ arguments: { city: 'Paris' } }, { callId: 'call_0' }, { arguments: { city: 'Lyon' } }, { callId: 'call_0' }]);
  });
});

describe('compaction properties', () => {
  const split = (s: string, cuts: number[]): string[] => {
    const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
    const out: string[] = [];
    let prev = 0;
    for (const c of at) {
      out.push(s.slice(prev, c));
      prev = c;
    }
    out.push(s.slice(prev));
    return out;
  };

  it('any chunking of a text, followed by its end, compacts to that text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(fc.nat()), fc.boolean(), (text, cuts, withEnd) => {
        const chunks = split(text, cuts).map((c) => m('a', 'ROLE_AGENT', 'TextMessageChunkEvent', [{ text: c }]));
        const history = withEnd ? [...chunks, m('a', 'ROLE_AGENT', 'TextMessageEndEvent', [{ text }])] : chunks;
        const out = compactHistory(history, { to: 'canonical' });
        if (out.to !== 'canonical') throw new Error();
        expect(out.messages.map((x) => x.parts)).toEqual([[{ type: 'text', text }]]);
      }),
    );
  });

  it('any fragmentation of a call\'s arguments compacts to the call with the whole arguments', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat()), (value, cuts) => {
        const json = JSON.stringify(value) ?? 'null';
        const frags = split(json, cuts).map((f) => m('a', 'ROLE_AGENT', 'ToolCallArgsEvent', calls(f)));
        const out = compactHistory([m('a', 'ROLE_AGENT', 'ToolCallStartEvent', calls('')), ...frags], { to: 'canonical' });
        if (out.to !== 'canonical') throw new Error();
        expect(out.messages).toHaveLength(1);
        expect(out.messages[0]?.parts).toEqual([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: JSON.parse(json), argumentsJson: json }]);
      }),
    );
  });
});
