/**
 * The Strands adapter with the real `@strands-agents/sdk`: real Agents driven by a scripted model
 * (streamed reasoning with its signature, text, a tool call), across a restart on one sqlite file.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, FunctionTool, Message, Model, type BaseModelConfig, type MessageData, type ModelStreamEvent, type StreamOptions } from '@strands-agents/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { fromStrands, strandsMemory, toStrands, type StrandsMessageJson } from '../../src/memory/adapters/strands.js';
import { createMemoryHooks, openMemory, ValidationError } from '../../src/memory/index.js';
import { tempDir } from './sqlite-storage.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  // Last in, first out: a store is closed before the directory its file is in is removed.
  for (const c of cleanup.reverse()) await c();
});

/** A model that answers from a script and records what it was given. */
class ScriptedModel extends Model<BaseModelConfig> {
  readonly calls: { messages: MessageData[]; systemPrompt: unknown }[] = [];
  constructor(private readonly script: ModelStreamEvent[][]) {
    super();
  }
  updateConfig(): void {}
  getConfig(): BaseModelConfig {
    return { modelId: 'scripted' };
  }
  async *stream(messages: Message[], options?: StreamOptions): AsyncIterable<ModelStreamEvent> {
    this.calls.push({ messages: messages.map((m) => m.toJSON()), systemPrompt: options?.systemPrompt });
    const next = this.script.shift();
    if (next === undefined) throw new Error('the script has no more answers');
    yield* next;
  }
}

const SIGNATURE = 'EqQBCkgIBxABGAIqQM7t3wz8Zr0v9Yk1f2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0dEgx=';

const text = (t: string): ModelStreamEvent[] => [
  { type: 'modelContentBlockStartEvent' },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: t } },
  { type: 'modelContentBlockStopEvent' },
];

/** Thinks (signed), says it will look, calls get_weather({city: 'Paris'}). */
const callsWeather: ModelStreamEvent[] = [
  { type: 'modelMessageStartEvent', role: 'assistant' },
  { type: 'modelContentBlockStartEvent' },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'reasoningContentDelta', text: 'The user wants the weather; ' } },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'reasoningContentDelta', text: 'I should call get_weather.' } },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'reasoningContentDelta', signature: SIGNATURE } },
  { type: 'modelContentBlockStopEvent' },
  ...text('Let me check.'),
  { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name: 'get_weather', toolUseId: 'tooluse_7Kq2' } },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: '{"city":' } },
  { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: '"Paris"}' } },
  { type: 'modelContentBlockStopEvent' },
  { type: 'modelMessageStopEvent', stopReason: 'toolUse' },
  { type: 'modelMetadataEvent', usage: { inputTokens: 31, outputTokens: 42, totalTokens: 73 } },
];

const says = (t: string): ModelStreamEvent[] => [{ type: 'modelMessageStartEvent', role: 'assistant' }, ...text(t), { type: 'modelMessageStopEvent', stopReason: 'endTurn' }];

const weatherTool = () =>
  new FunctionTool({
    name: 'get_weather',
    description: 'Current weather of a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    callback: (input) => ({ city: (input as { city: string }).city, celsius: 18, sky: 'sunny' }),
  });

const json = (messages: readonly Message[]): MessageData[] => JSON.parse(JSON.stringify(messages)) as MessageData[];
const session = { userId: 'alice', agentId: 'weather' };

async function sqliteUrl(): Promise<string> {
  const dir = tempDir();
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'memory.db')}`;
}

describe('a Strands agent with memory', () => {
  it('starts, after a restart, with the first agent\'s whole conversation: tool use, results and signed reasoning', async () => {
    const url = await sqliteUrl();

    const mem1 = await openMemory(url);
    const model1 = new ScriptedModel([callsWeather, says('It is 18°C and sunny in Paris.')]);
    const plugin1 = strandsMemory(mem1, session);
    const agent1 = new Agent({ model: model1, tools: [weatherTool()], plugins: [plugin1], printer: false });
    await agent1.invoke('What is the weather in Paris?');
    const first = json(agent1.messages);
    expect(first.map((m) => m.content.map((b) => Object.keys(b)[0]))).toEqual([['text'], ['reasoning', 'text', 'toolUse'], ['toolResult'], ['text']]);
    expect(plugin1.losses).toEqual([]);
    // One event per message, each whole.
    expect((await mem1.listEvents('alice', 'alice_weather_default')).events).toHaveLength(4);
    await mem1.close();

    // "Restart": a new store connection, a new agent, the same file.
    const mem2 = await openMemory(url);
    cleanup.push(() => mem2.close());
    const model2 = new ScriptedModel([says('Tomorrow: rain.')]);
    const agent2 = new Agent({ model: model2, tools: [weatherTool()], plugins: [strandsMemory(mem2, session)], printer: false });
    await agent2.invoke('And tomorrow?');

    // The agent's history is the first agent's, exactly (tracking ids and usage metadata too) ...
    expect(json(agent2.messages).slice(0, 4)).toEqual(first);
    // ... and the model was given it before the new question.
    const given = model2.calls[0]?.messages ?? [];
    expect(given.map((m) => ({ role: m.role, content: m.content }))).toEqual([
      ...first.map((m) => ({ role: m.role, content: m.content })),
      { role: 'user', content: [{ text: 'And tomorrow?' }] },
    ]);
    expect(given[1]?.content[0]).toEqual({ reasoning: { text: 'The user wants the weather; I should call get_weather.', signature: SIGNATURE } });
    expect(given[1]?.content[2]).toEqual({ toolUse: { name: 'get_weather', toolUseId: 'tooluse_7Kq2', input: { city: 'Paris' } } });
    expect(given[2]?.content[0]).toMatchObject({ toolResult: { toolUseId: 'tooluse_7Kq2', status: 'success' } });

    // The stored session reads in other dialects too: Converse keeps the signed reasoning.
    const converse = await mem2.recall({ actorId: 'alice', sessionId: 'alice_weather_default', format: 'bedrock-converse' });
    expect(converse.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'The user wants the weather; I should call get_weather.', signature: SIGNATURE } } },
        { text: 'Let me check.' },
        { toolUse: { toolUseId: 'tooluse_7Kq2', name: 'get_weather', input: { city: 'Paris' } } },
      ],
    });
    // Six messages now: the second agent's turn was stored as well.
    expect((await mem2.listEvents('alice', 'alice_weather_default')).events).toHaveLength(6);
  });

  it('can put the recent turns into the system prompt instead, as the Strands sample does', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const hooks = createMemoryHooks(mem);
    await hooks.store(session, [
      { role: 'user', parts: [{ type: 'text', text: 'Hi, I am Alice.' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello Alice!' }] },
    ]);
    const model = new ScriptedModel([says('You are Alice.')]);
    const agent = new Agent({ model, systemPrompt: 'You are helpful.', plugins: [strandsMemory(mem, session, { inject: 'system-prompt' })], printer: false });
    await agent.invoke('Who am I?');
    expect(model.calls[0]?.systemPrompt).toBe('You are helpful.\n\nRecent conversation:\nuser: Hi, I am Alice.\nassistant: Hello Alice!');
    expect(model.calls[0]?.messages).toEqual([expect.objectContaining({ role: 'user', content: [{ text: 'Who am I?' }] })]);
  });

  it('loads a session written in another dialect: OpenAI tool messages become a Strands tool-result turn', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    await mem.append({
      actorId: 'bob',
      sessionId: 'geo',
      format: 'openai-chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Largest city in my country?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_user_country', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Mexico' },
        { role: 'assistant', content: 'Mexico City.' },
      ],
    });
    const model = new ScriptedModel([says('Guadalajara.')]);
    await new Agent({ model, plugins: [strandsMemory(mem, { actorId: 'bob', sessionId: 'geo' })], printer: false }).invoke('And the second?');
    expect(model.calls[0]?.messages.map((m) => ({ role: m.role, content: m.content }))).toEqual([
      { role: 'user', content: [{ text: 'Largest city in my country?' }] },
      { role: 'assistant', content: [{ toolUse: { name: 'get_user_country', toolUseId: 'call_1', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', status: 'success', content: [{ text: 'Mexico' }] } }] },
      { role: 'assistant', content: [{ text: 'Mexico City.' }] },
      { role: 'user', content: [{ text: 'And the second?' }] },
    ]);
  });
});

describe('when Strands replaces the message it just added', () => {
  it('(a continuation merged into it: same trackingId) the stored event is replaced, not duplicated', async () => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const plugin = strandsMemory(mem, { actorId: 'a', sessionId: 's' });
    const trackingId = '7d2f0a9e-4444-4555-8666-977788889999';
    await plugin.save(Message.fromJSON({ role: 'user', content: [{ text: 'first' }] }));
    await plugin.save(Message.fromJSON({ role: 'assistant', trackingId, content: [{ text: 'part one' }] }));
    await plugin.save(Message.fromJSON({ role: 'assistant', trackingId, content: [{ text: 'part one' }, { text: 'part two' }] }));
    const back = toStrands((await createMemoryHooks(mem).recent({ actorId: 'a', sessionId: 's' })).messages).messages;
    expect(back.map((m) => m.content)).toEqual([[{ text: 'first' }], [{ text: 'part one' }, { text: 'part two' }]]);
    expect(back[1]?.trackingId).toBe(trackingId);
  });
});

/** Every kind of Strands block, in the JSON form the SDK itself writes. */
const everyBlock: StrandsMessageJson[] = [
  {
    role: 'user',
    trackingId: '0f8e2c1a-1111-4222-8333-944455556666',
    content: [
      { text: 'Compare these.' },
      { cachePoint: { cacheType: 'default', ttl: '1h' } },
      { image: { format: 'jpg', source: { bytes: '/9j/4AAQSkZJRg==' } } },
      { image: { format: 'png', source: { url: 'https://example.com/a.png' } } },
      { document: { name: 'notes', format: 'txt', source: { text: 'plain notes' } } },
      { document: { name: 'report', format: 'pdf', source: { bytes: 'JVBERi0xLjQ=' }, citations: { enabled: true }, context: 'Q3' } },
      { document: { name: 'parts', format: 'md', source: { content: [{ text: '# a' }, { text: '# b' }] } } },
      { video: { format: '3gp', source: { location: { type: 's3', uri: 's3://bucket/clip.3gp', bucketOwner: '123456789012' } } } },
      { audio: { format: 'wav', source: { bytes: 'UklGRg==' } } },
      { guardContent: { text: { text: 'check me', qualifiers: ['guard_content'] } } },
      { guardContent: { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } } },
    ],
  },
  {
    role: 'assistant',
    trackingId: '0f8e2c1a-2222-4222-8333-944455556666',
    metadata: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 120 } },
    content: [
      { reasoning: { text: 'thinking', signature: 'c2lnbmF0dXJl' } },
      { reasoning: { redactedContent: 'cmVkYWN0ZWQ=' } },
      { citations: { citations: [{ location: { type: 'web', url: 'https://example.com' }, source: 'web', sourceContent: [{ text: 'x' }], title: 'Example' }], content: [{ text: 'Cited ' }, { text: 'claim.' }] } },
      { toolUse: { name: 'lookup', toolUseId: 'tu_1', input: { q: 'x', n: [1, 2] }, reasoningSignature: 'Z2VtaW5p' } },
    ],
  },
  {
    role: 'user',
    trackingId: '0f8e2c1a-3333-4222-8333-944455556666',
    content: [
      {
        toolResult: {
          toolUseId: 'tu_1',
          status: 'error',
          content: [{ text: 'partial' }, { json: { code: 7 } }, { image: { format: 'gif', source: { bytes: 'R0lGODlh' } } }, { document: { name: 'log', format: 'json', source: { bytes: 'e30=' } } }],
        },
      },
    ],
  },
];

describe('Strands messages <-> canonical', () => {
  it('every block kind survives storing and reading back exactly', async () => {
    // The fixture is what the SDK itself reads and writes.
    expect(everyBlock.map((m) => Message.fromJSON(m as unknown as MessageData).toJSON())).toEqual(everyBlock);
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    const hooks = createMemoryHooks(mem);
    const canonical = everyBlock.map((m) => fromStrands(m));
    const stored = await hooks.store({ actorId: 'a', sessionId: 's' }, canonical);
    // AgentCore's event shape has no slot for a cache point, guarded or cited text: they ride in the
    // event's stash (reported as such), which is what makes reading back exact.
    expect(stored.losses.map((l) => [l.action, l.code, l.path])).toEqual([
      ['stashed', 'cache-control', ['messages', 0, 'parts', 0, 'cache']],
      ['stashed', 'unsupported-field', ['messages', 0, 'parts', 8, 'guardContent']],
      ['stashed', 'unsupported-field', ['messages', 1, 'parts', 2, 'citations']],
    ]);
    const back = toStrands((await hooks.recent({ actorId: 'a', sessionId: 's' })).messages);
    expect(back.messages).toEqual(everyBlock);
    expect(back.losses).toEqual([]);
    // Canonical meaning, for the other dialects: media types, the signature, the error status.
    expect(canonical[0]?.parts[1]).toMatchObject({ type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg' }, ext: { strands: { $format: 'jpg' } } });
    expect(canonical[0]?.parts[0]?.cache).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(canonical[1]?.parts[0]).toEqual({ type: 'reasoning', origin: 'bedrock-converse', text: 'thinking', signature: 'c2lnbmF0dXJl' });
    expect(canonical[2]?.parts[0]).toMatchObject({ type: 'tool-result', callId: 'tu_1', isError: true });
  });

  it('reports what Strands cannot hold, and refuses blocks it does not know', () => {
    const { messages, losses } = toStrands([
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'YW50aHJvcGlj' },
          { type: 'refusal', text: 'No.' },
          { type: 'image', source: { kind: 'file-id', fileId: 'file-abc' } },
        ],
      },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [{ text: 'No.' }] },
    ]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['system-message', ['messages', 0]],
      ['foreign-reasoning', ['messages', 2, 'parts', 0]],
      ['refusal-as-text', ['messages', 2, 'parts', 1]],
      ['unsupported-media', ['messages', 2, 'parts', 2]],
    ]);

    const refused = (m: unknown) => {
      try {
        fromStrands(m);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return (e as ValidationError).issues.map((i) => i.path);
      }
      throw new Error('expected a ValidationError');
    };
    expect(refused({ role: 'user', content: [{ text: 'ok' }, { sticker: {} }] })).toEqual([['content', 1]]);
    expect(refused({ role: 'assistant', content: [{ toolUse: { name: 'x', toolUseId: 'y' } }] })).toEqual([['content', 0, 'toolUse']]);
    expect(refused({ role: 'user', content: [{ image: { format: 'bmp', source: { bytes: 'AA==' } } }] })).toEqual([['content', 0, 'image', 'format']]);
    expect(refused({ role: 'system', content: [] })).toEqual([['role']]);
  });
});

