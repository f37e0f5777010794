/**
 * checkChunk answers a valid chunk with a yes/no pass and walks again only an invalid one: every
 * rule broken on its own must still throw, with the path the collecting checks give.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import { checkChunk } from '../../../src/formats/openai-chat/stream-validate.js';

const limits = { maxTextBytes: 16 };
const big = 'x'.repeat(17);

function chunk(delta: JsonObject, extra: JsonObject = {}): JsonObject {
  return { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null, logprobs: null }], ...extra };
}

function issuePath(c: JsonObject): unknown {
  try {
    checkChunk(c, 3, limits);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues[0]?.path;
    throw e;
  }
  return undefined;
}

describe('checkChunk fast pass', () => {
  it('accepts valid chunks, nulls and extra fields', () => {
    const valid = [
      chunk({ role: 'assistant', content: 'hi' }),
      chunk({ content: [{ type: 'text', text: 'a' }, { type: 'image_url' }], refusal: null, reasoning_content: 'r', annotations: [] }),
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { index: 1, function: null }] }),
      chunk({ function_call: { name: 'f', arguments: '' } }),
      chunk({}, { usage: { prompt_tokens: 1, completion_tokens: 2 }, extra: 1 }),
      { choices: null, usage: null },
      {},
    ];
    for (const c of valid) expect(issuePath(c)).toBeUndefined();
  });

  it('rejects each broken rule at its path', () => {
    const cases: [JsonObject, unknown][] = [
      [{ id: 1 }, [3, 'id']],
      [{ created: 'x' }, [3, 'created']],
      [{ choices: {} }, [3, 'choices']],
      [{ choices: [1] }, [3, 'choices', 0]],
      [{ choices: [{ index: -1 }] }, [3, 'choices', 0, 'index']],
      [{ choices: [{ index: 0, delta: [] }] }, [3, 'choices', 0, 'delta']],
      [{ choices: [{ index: 0, finish_reason: 1 }] }, [3, 'choices', 0, 'finish_reason']],
      [{ choices: [{ index: 0, logprobs: { content: 1 } }] }, [3, 'choices', 0, 'logprobs', 'content']],
      [chunk({ role: 1 }), [3, 'choices', 0, 'delta', 'role']],
      [chunk({ content: 1 }), [3, 'choices', 0, 'delta', 'content']],
      [chunk({ content: big }), [3, 'choices', 0, 'delta', 'content']],
      [chunk({ content: [1] }), [3, 'choices', 0, 'delta', 'content', 0]],
      [chunk({ content: [{ type: 'text' }] }), [3, 'choices', 0, 'delta', 'content', 0, 'text']],
      [chunk({ reasoning: big }), [3, 'choices', 0, 'delta', 'reasoning']],
      [chunk({ tool_calls: {} }), [3, 'choices', 0, 'delta', 'tool_calls']],
      [chunk({ tool_calls: [null] }), [3, 'choices', 0, 'delta', 'tool_calls', 0]],
      [chunk({ tool_calls: [{ index: 1.5 }] }), [3, 'choices', 0, 'delta', 'tool_calls', 0, 'index']],
      [chunk({ tool_calls: [{ function: { arguments: big } }] }), [3, 'choices', 0, 'delta', 'tool_calls', 0, 'function', 'arguments']],
      [chunk({ function_call: { name: 2 } }), [3, 'choices', 0, 'delta', 'function_call', 'name']],
      [chunk({ annotations: {} }), [3, 'choices', 0, 'delta', 'annotations']],
      [{ usage: { prompt_tokens: 1 } }, [3, 'usage', 'completion_tokens']],
      [{ usage: 5 }, [3, 'usage']],
    ];
    for (const [c, path] of cases) expect(issuePath(c)).toEqual(path);
  });
});
