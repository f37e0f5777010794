/** The mock upstream's answer rule (src/gateway/mock/reply.ts) and its schema example values. */
import { describe, expect, it } from 'vitest';
import type { Request, Tool, ToolChoice } from '../../src/index.js';
import { mockReply } from '../../src/gateway/mock/reply.js';
import { exampleValue } from '../../src/gateway/mock/schema-value.js';

const tool = (name: string, parameters: Record<string, unknown> = { type: 'object', properties: { q: { type: 'string' } } }): Tool => ({
  type: 'function',
  name,
  parameters: parameters as never,
});
const TOOLS = [tool('search'), tool('get_weather')];

function reply(text: string, extra: Partial<Request> = {}): { text: string | undefined; calls: string[]; stop: string | undefined } {
  const res = mockReply({ messages: [{ role: 'user', parts: [{ type: 'text', text }] }], tools: TOOLS, ...extra }, { model: 'm', seed: 'abcd1234' });
  const parts = res.choices[0]?.message.parts ?? [];
  const textPart = parts.find((p) => p.type === 'text');
  return {
    text: textPart?.type === 'text' ? textPart.text : undefined,
    calls: parts.flatMap((p) => (p.type === 'tool-call' ? [p.name] : [])),
    stop: res.choices[0]?.stopReason?.unified,
  };
}

describe('mock reply rule', () => {
  it('echoes the last user text when no offered tool is named', () => {
    expect(reply('hello there')).toEqual({ text: 'hello there', calls: [], stop: 'stop' });
    // A name inside a longer word is no mention.
    expect(reply('researching get_weathers')).toMatchObject({ calls: [] });
  });

  it('calls every named tool in order of mention, one when parallel calls are off', () => {
    expect(reply('use get_weather, then search.')).toEqual({ text: undefined, calls: ['get_weather', 'search'], stop: 'tool-calls' });
    expect(reply('use get_weather, then search.', { parallelToolCalls: false }).calls).toEqual(['get_weather']);
  });

  it('follows the tool choice', () => {
    const choice = (c: ToolChoice): string[] => reply('nothing named', { toolChoice: c }).calls;
    expect(choice({ type: 'none' })).toEqual([]);
    expect(choice({ type: 'required' })).toEqual(['search']);
    expect(choice({ type: 'tool', name: 'get_weather' })).toEqual(['get_weather']);
    expect(reply('use search', { toolChoice: { type: 'none' } })).toMatchObject({ text: 'use search', calls: [] });
  });

  it('answers tool results with their text and calls nothing new', () => {
    const res = mockReply(
      {
        tools: TOOLS,
        messages: [
          { role: 'user', parts: [{ type: 'text', text: 'use search' }] },
          { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'search', arguments: { q: 'q' } }] },
          { role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'found 3 things' }] }] },
        ],
      },
      { model: 'm', seed: 's' },
    );
    expect(res.choices[0]?.message.parts).toEqual([{ type: 'text', text: 'found 3 things' }]);
    expect(res.usage).toEqual({ inputTokens: Math.ceil('use searchfound 3 things'.length / 4), outputTokens: 4, totalTokens: 10 });
  });
});

describe('schema example values', () => {
  it('satisfies types, enums, bounds, lengths and required names', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 6 },
        short: { type: 'string', maxLength: 2 },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 5, maximum: 9 },
        ratio: { type: 'number', exclusiveMaximum: 1 },
        flag: { type: 'boolean' },
        kind: { enum: ['a', 'b'] },
        fixed: { const: 7 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        maybe: { anyOf: [{ type: 'null' }, { type: 'integer' }] },
        nullable: { type: ['null', 'boolean'] },
        nested: { allOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'boolean' } } }] },
      },
      required: ['name', 'extra'],
    };
    expect(exampleValue(schema)).toEqual({
      name: 'namexx',
      short: 'sh',
      when: '2025-01-01T00:00:00Z',
      count: 5,
      ratio: 0,
      flag: true,
      kind: 'a',
      fixed: 7,
      tags: ['tags', 'tags'],
      maybe: 1,
      nullable: true,
      nested: { a: 1, b: true },
      extra: 'extra',
    });
  });
});
