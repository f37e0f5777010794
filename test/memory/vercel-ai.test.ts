/**
 * The Vercel AI SDK middleware with the real `ai` package: generateText and streamText over
 * MockLanguageModelV4 through wrapLanguageModel, across a restart on one sqlite file, asserting
 * the prompt the model received.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { aiSdkMemory, fromAiSdk, toAiSdk } from '../../src/memory/adapters/vercel-ai.js';
import { createMemoryHooks, openMemory, ValidationError, type Memory } from '../../src/memory/index.js';
import { tempDir } from './sqlite-storage.js';

const cleanup: (() => Promise<void> | void)[] = [];
// Last in, first out: a store is closed before the directory its file is in is removed (removing
// it first raced SQLite's own files: ENOTEMPTY).
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function sqliteUrl(): Promise<string> {
  const dir = tempDir();
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'memory.db')}`;
}

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 6, reasoning: 4 } };
const SIGNATURE = 'ErUBCkYIBRgCIkDx6V1qgNOpF0nx1Zq5u3rdR9b3LZQKf7FjVqFvVd1r8QwG6m8eFf3qg9yDA7vP2c5o3XbUZq0Xk7r0A8vTb1K2EgwQyN=';
const session = { userId: 'dana', agentId: 'weather' };

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, celsius: 18 }),
});

const callsWeather: LanguageModelV4GenerateResult = {
  content: [
    { type: 'reasoning', text: 'The user wants the weather.', providerMetadata: { anthropic: { signature: SIGNATURE } } },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool-call', toolCallId: 'toolu_01A', toolName: 'weather', input: '{"city":"Paris"}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage,
  warnings: [],
};
const says = (text: string): LanguageModelV4GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] });

const streamOf = (parts: LanguageModelV4StreamPart[]) => ({ stream: convertArrayToReadableStream<LanguageModelV4StreamPart>(parts) });
const streamsWeather = streamOf([
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', delta: 'The user wants ' },
  { type: 'reasoning-delta', id: 'r1', delta: 'the weather.' },
  { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: { anthropic: { signature: SIGNATURE } } },
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Let me ' },
  { type: 'text-delta', id: 't1', delta: 'check.' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', id: 'toolu_01A', toolName: 'weather' },
  { type: 'tool-input-delta', id: 'toolu_01A', delta: '{"city":"Paris"}' },
  { type: 'tool-input-end', id: 'toolu_01A' },
  { type: 'tool-call', toolCallId: 'toolu_01A', toolName: 'weather', input: '{"city":"Paris"}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
]);
const streamsText = (text: string) =>
  streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
  ]);

/** What the first exchange should leave in any later prompt, after the system message. */
const firstExchange: LanguageModelV4Prompt = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'The user wants the weather.', providerOptions: { anthropic: { signature: SIGNATURE } } },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', toolCallId: 'toolu_01A', toolName: 'weather', input: { city: 'Paris' } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01A', toolName: 'weather', output: { type: 'json', value: { city: 'Paris', celsius: 18 } } }] },
];
const system = { role: 'system' as const, content: 'You are a weather bot.' };
const promptOf = (call: LanguageModelV4CallOptions | undefined) => call?.prompt;

async function eventsOf(mem: Memory): Promise<number> {
  return (await mem.listEvents('dana', 'dana_weather_default')).events.length;
}

describe('generateText with memory', () => {
  it('a restarted process starts from the stored conversation; a tool step is never sent twice', async () => {
    const url = await sqliteUrl();
    const mem1 = await openMemory(url);
    const model1 = new MockLanguageModelV4({ provider: 'anthropic.messages', doGenerate: [callsWeather, says('It is 18°C in Paris.')] });
    const memory1 = aiSdkMemory(mem1, session);
    const first = await generateText({ model: wrapLanguageModel({ model: model1, middleware: memory1 }), system: system.content, prompt: 'Weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3) });
    expect(first.text).toBe('It is 18°C in Paris.');
    // Step 1: an empty memory adds nothing. Step 2: the SDK's own step messages, not repeated from memory.
    expect(promptOf(model1.doGenerateCalls[0])).toEqual([system, firstExchange[0]]);
    expect(promptOf(model1.doGenerateCalls[1])).toEqual([system, ...firstExchange]);
    expect(await eventsOf(mem1)).toBe(4);
    expect(memory1.losses).toEqual([]);
    await mem1.close();

    const mem2 = await openMemory(url);
    cleanup.push(() => mem2.close());
    const model2 = new MockLanguageModelV4({ provider: 'anthropic.messages', doGenerate: [says('Rain tomorrow.')] });
    await generateText({ model: wrapLanguageModel({ model: model2, middleware: aiSdkMemory(mem2, session) }), system: system.content, prompt: 'And tomorrow?' });
    expect(promptOf(model2.doGenerateCalls[0])).toEqual([
      system,
      ...firstExchange,
      { role: 'assistant', content: [{ type: 'text', text: 'It is 18°C in Paris.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ]);
    expect(await eventsOf(mem2)).toBe(6);

    // The signed reasoning is Anthropic's thinking to other dialects, signature and all.
    const anthropic = await mem2.recall({ actorId: 'dana', sessionId: 'dana_weather_default', format: 'anthropic-messages' });
    expect(anthropic.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'weather', input: { city: 'Paris' } },
      ],
    });
  });

  it('a caller that sends its whole history gets no duplicates, and only its new message is stored', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const model = new MockLanguageModelV4({ doGenerate: [says('Hello Dana.'), says('Your name is Dana.')] });
    const wrapped = wrapLanguageModel({ model, middleware: aiSdkMemory(mem, session) });
    await generateText({ model: wrapped, prompt: 'I am Dana.' });
    await generateText({
      model: wrapped,
      messages: [
        { role: 'user', content: 'I am Dana.' },
        { role: 'assistant', content: 'Hello Dana.' },
        { role: 'user', content: 'Who am I?' },
      ],
    });
    const said = (role: 'user' | 'assistant', text: string) => ({ role, content: [{ type: 'text', text }] });
    expect(promptOf(model.doGenerateCalls[1])).toEqual([said('user', 'I am Dana.'), said('assistant', 'Hello Dana.'), said('user', 'Who am I?')]);
    const stored = await mem.lastTurns({ actorId: 'dana', sessionId: 'dana_weather_default', format: 'openai-chat' });
    expect(stored).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'I am Dana.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello Dana.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Who am I?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Your name is Dana.' }] },
    ]);
  });
});

describe('streamText with memory', () => {
  it('stores the streamed answer (reasoning signature from the stream, tool call) and a restart sees it', async () => {
    const url = await sqliteUrl();
    const mem1 = await openMemory(url);
    const model1 = new MockLanguageModelV4({ provider: 'anthropic.messages', doStream: [streamsWeather, streamsText('It is 18°C in Paris.')] });
    const result = streamText({ model: wrapLanguageModel({ model: model1, middleware: aiSdkMemory(mem1, session) }), system: system.content, prompt: 'Weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('It is 18°C in Paris.');
    expect(promptOf(model1.doStreamCalls[0])).toEqual([system, firstExchange[0]]);
    expect(promptOf(model1.doStreamCalls[1])).toEqual([system, ...firstExchange]);
    expect(await eventsOf(mem1)).toBe(4);
    await mem1.close();

    const mem2 = await openMemory(url);
    cleanup.push(() => mem2.close());
    const model2 = new MockLanguageModelV4({ provider: 'anthropic.messages', doStream: [streamsText('Rain tomorrow.')] });
    const again = streamText({ model: wrapLanguageModel({ model: model2, middleware: aiSdkMemory(mem2, session) }), system: system.content, prompt: 'And tomorrow?' });
    expect(await again.text).toBe('Rain tomorrow.');
    expect(promptOf(model2.doStreamCalls[0])).toEqual([
      system,
      ...firstExchange,
      { role: 'assistant', content: [{ type: 'text', text: 'It is 18°C in Paris.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ]);
    expect(await eventsOf(mem2)).toBe(6);
  });

  it('a stream that reports an error stores no answer', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const model = new MockLanguageModelV4({
      doStream: [streamOf([{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Half an ans' }, { type: 'error', error: new Error('overloaded') }])],
    });
    const errors: unknown[] = [];
    const result = streamText({ model: wrapLanguageModel({ model, middleware: aiSdkMemory(mem, session) }), prompt: 'Hi', onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    const stored = await mem.lastTurns({ actorId: 'dana', sessionId: 'dana_weather_default', format: 'openai-chat' });
    expect(stored).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });
});

describe('AI SDK prompt messages <-> canonical', () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const prompt: LanguageModelV4Prompt = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: bytes } },
        { type: 'file', mediaType: 'application/pdf', filename: 'r.pdf', data: { type: 'url', url: new URL('https://example.com/r.pdf') } },
        { type: 'file', mediaType: 'text/plain', data: { type: 'text', text: 'notes' } },
        { type: 'file', mediaType: 'image/jpeg', data: { type: 'reference', reference: { openai: 'file-123' } } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'cmVkYWN0ZWQ=' } } },
        { type: 'reasoning', text: 'plain thought', providerOptions: { openai: { itemId: 'rs_1' } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: { x: 1 } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'b', input: {} },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'c', input: {} },
        { type: 'tool-call', toolCallId: 'c4', toolName: 'd', input: {} },
        { type: 'tool-call', toolCallId: 'c5', toolName: 'e', input: {}, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'c5', toolName: 'e', output: { type: 'json', value: { hits: 2 } } },
        { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { id: 'cmp_1' } } },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'a', output: { type: 'text', value: 'ok' } },
        { type: 'tool-result', toolCallId: 'c2', toolName: 'b', output: { type: 'error-text', value: 'boom' } },
        { type: 'tool-result', toolCallId: 'c3', toolName: 'c', output: { type: 'execution-denied', reason: 'not allowed' } },
        {
          type: 'tool-result',
          toolCallId: 'c4',
          toolName: 'd',
          output: { type: 'content', value: [{ type: 'text', text: 'chart:' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } }] },
        },
        { type: 'tool-approval-response', approvalId: 'ap_1', approved: true },
      ],
    },
  ];

  it('every part kind survives storing and reading back exactly', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const hooks = createMemoryHooks(mem);
    const canonical = fromAiSdk(prompt, 'anthropic-messages');
    await hooks.store({ actorId: 'a', sessionId: 's' }, canonical);
    const back = toAiSdk((await hooks.recent({ actorId: 'a', sessionId: 's' })).messages);
    expect(back.losses).toEqual([]);
    expect(back.messages).toEqual(prompt);
    expect(canonical[0]?.parts[1]).toMatchObject({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw==' } });
    expect(canonical[1]?.parts[0]).toMatchObject({ type: 'reasoning', origin: 'anthropic-messages', redactedData: 'cmVkYWN0ZWQ=' });
    expect(canonical[2]?.parts[1]).toMatchObject({ type: 'tool-result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'boom' }] });
  });

  it('Anthropic-style tool results come out as a tool message; what the prompt cannot hold is reported; unknown parts refused', () => {
    const { messages, losses } = toAiSdk([
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 't1', name: 'lookup', arguments: {} }, { type: 'reasoning', origin: 'openai-responses', encryptedContent: 'gAAAA', summary: ['looked up'] }] },
      { role: 'user', parts: [{ type: 'tool-result', callId: 't1', content: [{ type: 'text', text: 'found' }] }, { type: 'text', text: 'thanks' }] },
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'lookup', input: {} }, { type: 'reasoning', text: 'looked up' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'lookup', output: { type: 'text', value: 'found' } }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['system-message', ['messages', 0]],
      ['foreign-reasoning', ['messages', 1, 'parts', 1]],
    ]);
    const refused = (prompt: unknown[]) => {
      try {
        fromAiSdk(prompt);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return (e as ValidationError).issues.map((i) => i.path);
      }
      throw new Error('expected a ValidationError');
    };
    expect(refused([{ role: 'user', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'y', input: {} }] }])).toEqual([[0, 'content', 0, 'type']]);
    expect(refused([{ role: 'user', content: [{ type: 'text', text: 'ok' }, { type: 'hologram' }] }])).toEqual([[0, 'content', 1, 'type']]);
    expect(refused([{ role: 'narrator', content: [] }])).toEqual([[0, 'role']]);
  });
});
