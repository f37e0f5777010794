/**
 * Under `preserve`, a tool call whose arguments text is exactly what JSON.stringify writes for them
 * comes back by itself through Bedrock's `input` object: its message is not stashed whole. Any
 * other text (spacing, key order the object cannot keep) is stashed, and both come back exactly.
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import type { Message } from '../../../src/model/message.js';
import { messagesWithoutPlainArgumentsJson, withoutPlainArgumentsJson } from '../../../src/formats/shared/plain-arguments.js';

const STASH = 'x-interlingua';

function chatBody(args: string): Record<string, unknown> {
  return {
    model: 'gpt-4.1',
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }], tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: args } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  };
}

function assistantOf(value: unknown): Record<string, unknown> {
  const messages = (value as { messages: Record<string, unknown>[] }).messages;
  const found = messages.find((m) => m['role'] === 'assistant');
  if (found === undefined) throw new Error('no assistant message');
  return found;
}

describe('Bedrock preserve and tool-call arguments text', () => {
  it('a plain arguments text is no reason to stash the message, and the body still comes back exactly', () => {
    const body = chatBody('{"city":"Paris","days":[1,2]}');
    const there = convert(body, { from: 'openai-chat', to: 'bedrock-converse', preserve: true });
    expect(assistantOf(there.value)[STASH]).toBeUndefined();
    expect(convert(there.value, { from: 'bedrock-converse', to: 'openai-chat' }).value).toEqual(body);
  });

  it('a text the input object cannot give back is stashed, and comes back exactly', () => {
    const body = chatBody('{ "city": "Paris" }');
    const there = convert(body, { from: 'openai-chat', to: 'bedrock-converse', preserve: true });
    expect(assistantOf(there.value)[STASH]).toBeDefined();
    expect(there.losses.map((l) => [l.code, l.action])).toContainEqual(['arguments-text', 'stashed']);
    expect(convert(there.value, { from: 'bedrock-converse', to: 'openai-chat' }).value).toEqual(body);
  });
});

describe('withoutPlainArgumentsJson', () => {
  const call = (args: unknown, text?: string): Message => ({
    role: 'assistant',
    parts: [{ type: 'text', text: 'x' }, { type: 'tool-call', id: 'c', name: 'f', arguments: args as never, ...(text === undefined ? {} : { argumentsJson: text }) }],
  });

  it('leaves out only texts that are exactly JSON.stringify of the arguments', () => {
    expect(withoutPlainArgumentsJson(call({ a: 1 }, '{"a":1}')).parts[1]).toEqual({ type: 'tool-call', id: 'c', name: 'f', arguments: { a: 1 } });
    for (const text of ['{"a": 1}', '{"a":1.0}', '{"a":2}', 'not json']) {
      const m = call({ a: 1 }, text);
      expect(withoutPlainArgumentsJson(m)).toBe(m);
    }
  });

  it('returns the same message and list when there is nothing to leave out, and copies instead of changing them', () => {
    const plain = call({ a: 1 });
    const list = [plain, call([1, 'b'], '[1,"b"]')];
    const out = messagesWithoutPlainArgumentsJson(list);
    expect(out).not.toBe(list);
    expect(out[0]).toBe(plain);
    expect(list[1]?.parts[1]).toHaveProperty('argumentsJson', '[1,"b"]');
    expect(out[1]?.parts[1]).not.toHaveProperty('argumentsJson');
    expect(messagesWithoutPlainArgumentsJson([plain])).toEqual([plain]);
    const same = [plain];
    expect(messagesWithoutPlainArgumentsJson(same)).toBe(same);
  });
});
