/**
 * The canonical stream core: the order verifier, the accumulator (stream -> final response) and
 * responseToEvents (final response -> stream). Every real response body of every dialect, decoded,
 * streamed and accumulated again, gives back the same canonical response.
 */
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/index.js';
import type { Response } from '../../src/model/response.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import { accumulate } from '../../src/stream/accumulate.js';
import { responseToEvents } from '../../src/stream/from-response.js';
import { verifyStream } from '../../src/stream/verify.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasSharedFixtures, isErrorBody, listFiles, LOCAL_FIXTURES } from '../support/captures.js';
import { samples } from '../support/samples.js';

const DIALECTS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'] as const;

/** argumentsJson is kept only where serializing the value would not give the text back; see below for summary. */
function normalise(res: Response): Response {
  return {
    ...res,
    choices: res.choices.map((c) => ({
      ...c,
      message: {
        ...c.message,
        parts: c.message.parts.map((p) => {
          if (p.type === 'tool-call' && p.argumentsJson === JSON.stringify(p.arguments)) return (({ argumentsJson: _a, ...rest }) => rest)(p);
          // An empty summary list has no event; Responses writes `summary: []` for none.
          if (p.type === 'reasoning' && p.summary?.length === 0) return (({ summary: _s, ...rest }) => rest)(p);
          return p;
        }),
      },
    })),
  };
}

describe.each(DIALECTS)('%s responses -> canonical stream -> accumulated response', (dialect) => {
  const bodies = [...samples(dialect, 'response').filter((s) => s.invalid === undefined), ...(hasSharedFixtures() ? [] : localResponses(dialect))];
  it('has bodies', () => expect(bodies.length).toBeGreaterThan(0));
  it.each(bodies.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
    const res = decode(body, { from: dialect, kind: 'response' }).value as Response;
    const events = responseToEvents(res);
    expect(verifyStream(events)).toEqual([]);
    const back = accumulate(events);
    expect(back.complete).toBe(true);
    // Only arguments the model cut off (not JSON) are reported again on the way.
    expect(back.losses.filter((l) => l.code !== 'invalid-arguments')).toEqual([]);
    // A message's own fields (its ext, string-or-parts form) have no stream event; the rest comes back.
    const expected = normalise({ ...res, choices: res.choices.map((c) => ({ ...c, message: withoutExt(c.message) })) });
    expect(normalise(back.response)).toEqual(expected);
  });
});

/** The response files copied into test/fixtures (for a clone without ../shared). */
function localResponses(dialect: string): { name: string; body: unknown }[] {
  const dirs = ['response', 'responses'].map((d) => join(LOCAL_FIXTURES, dialect, d));
  return dirs
    .flatMap((d) => listFiles(d, ['.json']))
    .map((f) => ({ name: `local:${f.slice(LOCAL_FIXTURES.length + 1)}`, body: JSON.parse(readFileSync(f, 'utf8')) as unknown }))
    .filter((s) => !isErrorBody(s.body));
}

function withoutExt<T extends { ext?: unknown; stringContent?: unknown }>(m: T): T {
  const { ext: _e, stringContent: _s, ...rest } = m;
  return rest as T;
}

describe('verifyStream', () => {
  const start: StreamEvent = { type: 'response-start', id: 'r1' };
  const codes = (events: StreamEvent[]): string[] => verifyStream(events).map((i) => i.code);

  it('accepts interleaved parallel tool calls at distinct indices', () => {
    expect(
      codes([
        start,
        { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
        { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
        { type: 'tool-call-delta', index: 0, delta: '{"x":' },
        { type: 'tool-call-delta', index: 1, delta: '{}' },
        { type: 'tool-call-delta', index: 0, delta: '1}' },
        { type: 'tool-call-end', index: 1 },
        { type: 'tool-call-end', index: 0 },
        { type: 'finish', stopReason: { unified: 'tool-calls' } },
        { type: 'response-end' },
      ]),
    ).toEqual([]);
  });

  it('names each broken rule with the event index', () => {
    const issues = verifyStream([
      { type: 'text-delta', index: 0, delta: 'x' },
      start,
      { type: 'text-start', index: 1 },
      { type: 'reasoning-delta', index: 1, text: 't' },
      { type: 'tool-call-start', index: 2, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 3, id: 'a', name: 'f' },
      { type: 'finish', stopReason: { unified: 'stop' } },
      { type: 'finish', stopReason: { unified: 'stop' } },
      { type: 'response-end' },
      { type: 'usage', usage: { outputTokens: 1 } },
    ]);
    expect(issues.map((i) => [i.code, i.path[0]])).toEqual([
      ['before-start', 0],
      ['no-open-block', 0],
      ['block-index', 2],
      ['wrong-block-kind', 3],
      ['duplicate-tool-id', 5],
      ['duplicate-finish', 7],
      ['unclosed-block', 8],
      ['unclosed-block', 8],
      ['unclosed-block', 8],
      ['after-end', 9],
    ]);
  });
});

describe('accumulate', () => {
  it('joins fragments byte-exact, merges usage field by field, keeps signatures and arguments text', () => {
    const out = accumulate([
      { type: 'response-start', id: 'msg_1', model: 'm' },
      { type: 'usage', usage: { inputTokens: 10, cacheReadTokens: 4 } },
      { type: 'reasoning-start', index: 0, origin: 'anthropic-messages' },
      { type: 'reasoning-delta', index: 0, text: 'Let me ' },
      { type: 'reasoning-delta', index: 0, text: 'think.' },
      { type: 'reasoning-delta', index: 0, signature: 'EqQB' },
      { type: 'reasoning-delta', index: 0, signature: 'Cj0=' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, delta: 'héllo ' },
      { type: 'text-delta', index: 1, delta: '👋' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'c1', name: 'f' },
      { type: 'tool-call-end', index: 2, arguments: '{"a": 1}' },
      { type: 'usage', usage: { outputTokens: 7 } },
      { type: 'finish', stopReason: { unified: 'tool-calls', raw: 'tool_use' } },
      { type: 'response-end' },
    ]);
    expect(out.complete).toBe(true);
    expect(out.response).toEqual({
      id: 'msg_1',
      model: 'm',
      choices: [
        {
          index: 0,
          stopReason: { unified: 'tool-calls', raw: 'tool_use' },
          message: {
            role: 'assistant',
            parts: [
              { type: 'reasoning', origin: 'anthropic-messages', text: 'Let me think.', signature: 'EqQBCj0=' },
              { type: 'text', text: 'héllo 👋' },
              { type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 }, argumentsJson: '{"a": 1}' },
            ],
          },
        },
      ],
      usage: { inputTokens: 10, cacheReadTokens: 4, outputTokens: 7 },
    });
  });

  it('reports a cut-off stream and invents nothing to close it', () => {
    const out = accumulate([
      { type: 'response-start' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'The answer is' },
    ]);
    expect(out.complete).toBe(false);
    expect(out.response.choices[0]?.message.parts).toEqual([{ type: 'text', text: 'The answer is' }]);
    expect(out.response.choices[0]?.stopReason).toBeUndefined();
    expect(out.losses.map((l) => l.code)).toEqual(['incomplete-stream']);
  });

  it('ends at a mid-stream error with the error kept', () => {
    const out = accumulate([{ type: 'response-start' }, { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } }]);
    expect(out.complete).toBe(false);
    expect(out.error).toEqual({ message: 'Overloaded', type: 'overloaded_error' });
    expect(out.losses).toEqual([]);
  });

  it('reports arguments that are not JSON, keeping their text', () => {
    const out = accumulate([
      { type: 'response-start' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-delta', index: 0, delta: '{"city": "Par' },
      { type: 'tool-call-end', index: 0 },
      { type: 'response-end' },
    ]);
    expect(out.response.choices[0]?.message.parts[0]).toEqual({ type: 'tool-call', id: 'c', name: 'f', arguments: {}, argumentsJson: '{"city": "Par' });
    expect(out.losses.map((l) => [l.code, l.path])).toEqual([['invalid-arguments', [3]]]);
  });
});
