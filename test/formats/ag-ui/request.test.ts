/**
 * RunAgentInput as the request kind. Every captured body round-trips exactly; a body with every
 * message role and part kind AG-UI 1.0 has decodes to the canonical shapes and comes back exactly;
 * what is encoded from other formats passes the official `@ag-ui/core/schemas` RunAgentInputSchema;
 * with `preserve`, OpenAI Chat and Anthropic requests -> AG-UI -> back are exact, and AG-UI
 * captures -> OpenAI Chat / Anthropic -> back are exact; bad bodies fail with their JSON paths.
 */
import { describe, expect, it } from 'vitest';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { DEFAULT_LIMITS, type Codec } from '../../../src/formats/codec.js';
import { getCodec } from '../../../src/formats/registry.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import { samples } from '../../cross/corpus.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { request, requestCaptures } from './helpers.js';

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function decode(body: unknown): { req: Request; losses: Loss[] } {
  const losses: Loss[] = [];
  return { req: request.decode(body, { limits: DEFAULT_LIMITS, losses }), losses };
}
function encode(req: Request, preserve = false): { body: JsonObject; losses: Loss[] } {
  const losses: Loss[] = [];
  return { body: json(request.encode(req, { preserve, losses })) as JsonObject, losses };
}
/** body (format `from`) -> canonical -> format `to`. */
function via(from: Codec, to: Codec, body: unknown, preserve: boolean): { value: unknown; losses: Loss[] } {
  const losses: Loss[] = [];
  const req = from.request!.decode(body, { limits: DEFAULT_LIMITS, losses });
  return { value: json(to.request!.encode(req, { preserve, losses })), losses };
}
const agUi = { id: 'ag-ui', title: 'AG-UI', request } as Codec;

function issuesOf(body: unknown): { path: (string | number)[]; message: string }[] {
  try {
    decode(body);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues.map((i) => ({ path: i.path, message: i.message }));
    throw e;
  }
  throw new Error('decoded without error');
}

const { local, shared } = requestCaptures();

describe('RunAgentInput captures round-trip exactly', () => {
  it('has captures', () => expect(local.length).toBeGreaterThan(3));
  it.each(local.map((c) => [c.name, c.body] as const))('%s', (_n, body) => {
    const { req, losses } = decode(body);
    expect(losses).toEqual([]);
    expect(encode(req)).toEqual({ body, losses: [] });
  });
  describe.skipIf(!hasSharedFixtures())('../shared/fixtures (skipped when absent)', () => {
    it.each(shared.map((c) => [c.name, c.body] as const))('%s', (_n, body) => {
      expect(encode(decode(body).req)).toEqual({ body, losses: [] });
    });
  });

  it('the .NET legacy binary image decodes as an image part and is written back as it came', () => {
    const body = local.find((c) => c.name.includes('Step08_MultimodalMessages'))?.body;
    const { req } = decode(body);
    expect(req.messages[0]?.parts.map((p) => p.type)).toEqual(['text', 'image']);
    expect(req.messages[0]?.parts[1]).toMatchObject({ type: 'image', source: { kind: 'base64', mediaType: 'image/png' }, ext: { 'ag-ui': { $binary: true } } });
    expect(req.messages[0]).toMatchObject({ role: 'user', ext: { 'ag-ui': { $noId: true } } });
  });
});

/** One body with every role and part kind of AG-UI 1.0 (protocols.md §1.4-1.5). */
const FULL: JsonObject = {
  threadId: 'th-1',
  runId: 'run-1',
  protocolVersion: '1.0',
  state: { step: 2 },
  messages: [
    { id: 'm0', role: 'system', content: 'Be brief.' },
    { id: 'm1', role: 'developer', content: 'Use metric units.', name: 'ops' },
    {
      id: 'm2',
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image', source: { type: 'data', value: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        { type: 'image', id: 'p2', source: { type: 'url', value: 'https://x.test/a.jpg' }, metadata: { alt: 'a cat' } },
        { type: 'audio', source: { type: 'data', value: 'UklGRg==', mimeType: 'audio/wav' } },
        { type: 'video', source: { type: 'url', value: 'https://x.test/v.mp4', mimeType: 'video/mp4' } },
        { type: 'document', source: { type: 'file', value: 'file-abc', provider: 'openai', mimeType: 'application/pdf' }, metadata: { filename: 'report.pdf' } },
      ],
    },
    { id: 'r1', role: 'reasoning', content: 'The user wants a description.', encryptedValue: 'enc-1' },
    {
      id: 'm3',
      role: 'assistant',
      content: 'Looking.',
      toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'describe', arguments: '{"n": 2}' }, encryptedValue: 'tc-enc' }],
    },
    { id: 'm4', role: 'tool', toolCallId: 'call_1', content: [{ type: 'text', text: 'a cat and a dog' }], error: 'partial' },
    { id: 'a1', role: 'activity', activityType: 'PLAN', content: { steps: ['look'] } },
    { id: 'm5', role: 'user', content: 'Thanks', metadata: { source: 'web' } },
  ],
  tools: [{ name: 'describe', description: 'Describes', parameters: { type: 'object', properties: { n: { type: 'number' } } }, metadata: { ui: 'card' } }],
  context: [{ description: 'locale', value: 'en-GB' }],
  forwardedProps: { tenant: 't' },
  resume: [{ interruptId: 'i1', status: 'resolved', payload: { ok: true } }],
};

describe('every AG-UI message role and part kind', () => {
  const { req, losses } = decode(FULL);

  it('decodes to the canonical shapes', () => {
    expect(losses).toEqual([]);
    expect(req.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['system', ['text']],
      ['developer', ['text']],
      ['user', ['text', 'image', 'image', 'audio', 'video', 'document']],
      ['assistant', ['reasoning', 'text', 'tool-call']],
      ['tool', ['tool-result']],
      ['assistant', ['provider-block']],
      ['user', ['text']],
    ]);
    const [, dev, user, assistant, tool] = req.messages;
    expect(dev).toMatchObject({ name: 'ops', stringContent: true });
    expect(user?.parts[5]).toMatchObject({ type: 'document', name: 'report.pdf', source: { kind: 'file-id', fileId: 'file-abc', mediaType: 'application/pdf', ext: { 'ag-ui': { provider: 'openai' } } } });
    expect(assistant?.parts[0]).toMatchObject({ type: 'reasoning', origin: 'ag-ui', text: 'The user wants a description.', encryptedContent: 'enc-1' });
    expect(assistant?.parts[2]).toMatchObject({ type: 'tool-call', id: 'call_1', arguments: { n: 2 }, argumentsJson: '{"n": 2}', ext: { 'ag-ui': { encryptedValue: 'tc-enc' } } });
    expect(tool?.parts[0]).toMatchObject({ type: 'tool-result', callId: 'call_1', isError: true, ext: { 'ag-ui': { error: 'partial' } } });
    expect(req.tools).toEqual([{ type: 'function', name: 'describe', description: 'Describes', parameters: { type: 'object', properties: { n: { type: 'number' } } }, ext: { 'ag-ui': { metadata: { ui: 'card' } } } }]);
    expect(req.ext?.['ag-ui']).toEqual({ threadId: 'th-1', runId: 'run-1', protocolVersion: '1.0', state: { step: 2 }, context: [{ description: 'locale', value: 'en-GB' }], forwardedProps: { tenant: 't' }, resume: FULL['resume'] });
  });

  it('comes back exactly, and the official schema accepts it', () => {
    const back = encode(req);
    expect(back).toEqual({ body: FULL, losses: [] });
    expect(RunAgentInputSchema.safeParse(back.body).success).toBe(true);
  });

  it('reaches OpenAI Chat and Anthropic, which report what they cannot hold, and comes back with preserve', () => {
    for (const target of ['openai-chat', 'anthropic-messages'] as const) {
      const there = via(agUi, getCodec(target), FULL, false);
      expect(() => getCodec(target).request!.decode(there.value, { limits: DEFAULT_LIMITS, losses: { push() {} } })).not.toThrow();
      const codes = new Set(there.losses.map((l) => l.code));
      expect(codes.has('unsupported-field')).toBe(true); // threadId, state, context ... have no slot there
      expect(codes.has('provider-block') || codes.has('unsupported-part')).toBe(true); // the activity message
      const kept = via(agUi, getCodec(target), FULL, true);
      expect(via(getCodec(target), agUi, kept.value, false).value).toEqual(FULL);
    }
  });
});

describe('requests of other formats', () => {
  for (const dialect of ['openai-chat', 'anthropic-messages'] as const) {
    const bodies = samples(dialect, 'request');
    it(`${dialect}: has requests`, () => expect(bodies.length).toBeGreaterThan(0));
    it.each(bodies.map((s) => [s.name, s.body] as const))(`${dialect} -> ag-ui -> ${dialect} %s`, (_n, body) => {
      const plain = via(getCodec(dialect), agUi, body, false);
      const parsed = RunAgentInputSchema.safeParse(plain.value);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      for (const l of plain.losses) expect(l.code).toMatch(/^[a-z-]+$/);
      const kept = via(getCodec(dialect), agUi, body, true);
      for (const l of kept.losses) expect(l.action).not.toBe('dropped');
      expect(via(agUi, getCodec(dialect), kept.value, false).value).toEqual(body);
    });
  }

  it('a request from elsewhere gets made-up run ids, reported, and thinking signatures travel in metadata', () => {
    const anthropic = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Greet back.', signature: 'EqQBCkYIBxgC' }, { type: 'text', text: 'Hello!' }] },
        { role: 'user', content: 'Again' },
      ],
    };
    const { value, losses } = via(getCodec('anthropic-messages'), agUi, anthropic, false);
    expect(value).toEqual({
      threadId: 'thread-1',
      runId: 'run-1',
      messages: [
        { id: 'msg-1', role: 'user', content: 'Hi' },
        { id: 'msg-2', role: 'reasoning', content: 'Greet back.', encryptedValue: 'EqQBCkYIBxgC', metadata: { interlingua: { origin: 'anthropic-messages', field: 'signature' } } },
        { id: 'msg-2.1', role: 'assistant', content: 'Hello!' },
        { id: 'msg-3', role: 'user', content: 'Again' },
      ],
    });
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['missing-run-ids', ['ext', 'ag-ui']],
      ['unsupported-field', ['model']],
      ['unsupported-field', ['maxTokens']],
    ]);
    // Back to Anthropic, the thinking block is whole again, signature and all.
    const back = via(agUi, getCodec('anthropic-messages'), value, false).value as JsonObject;
    expect((back['messages'] as JsonObject[])[1]).toEqual({ role: 'assistant', content: [{ type: 'thinking', thinking: 'Greet back.', signature: 'EqQBCkYIBxgC' }, { type: 'text', text: 'Hello!' }] });
  });
});

describe('validation', () => {
  it('names every problem with its JSON path', () => {
    const issues = issuesOf({
      runId: 'r',
      messages: [
        { id: 'a', role: 'critic', content: 'x' },
        { id: 'b', role: 'assistant', toolCalls: [{ id: 'c', type: 'function', function: { name: 'f' } }] },
      ],
    });
    expect(issues.map((i) => i.path)).toEqual([['threadId'], ['messages', 0, 'role'], ['messages', 1, 'toolCalls', 0, 'function', 'arguments']]);
  });

  it('tool-call arguments must be JSON, inline data base64, text within the limit', () => {
    const body = (m: JsonObject): JsonObject => ({ threadId: 't', runId: 'r', messages: [m] });
    expect(issuesOf(body({ id: 'a', role: 'assistant', toolCalls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }))).toEqual([
      { path: ['messages', 0, 'toolCalls', 0, 'function', 'arguments'], message: 'tool call arguments are not valid JSON' },
    ]);
    expect(issuesOf(body({ id: 'u', role: 'user', content: [{ type: 'image', source: { type: 'data', value: 'not base64!', mimeType: 'image/png' } }] }))).toEqual([
      { path: ['messages', 0, 'content', 0, 'source', 'value'], message: 'inline data is not valid base64' },
    ]);
    expect(issuesOf(body({ id: 'u', role: 'user', content: 'x'.repeat(DEFAULT_LIMITS.maxTextBytes + 1) }))[0]?.path).toEqual(['messages', 0, 'content']);
    expect(issuesOf([])).toEqual([{ path: [], message: 'an AG-UI RunAgentInput must be a JSON object' }]);
  });
});
