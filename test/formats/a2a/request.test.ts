/**
 * The A2A request kind:
 * - A2A bodies of every accepted form (message list, message, task, send-message request, JSON-RPC
 *   envelopes), both versions, come back exactly (A2A -> canonical -> A2A), and in the other
 *   version as the same canonical request;
 * - requests of the other dialects (their local fixtures, and every capture in ../shared when it
 *   is there) become A2A messages carrying their canonical types that the v0.3 JSON schema and the
 *   SDK's v1.0 JSON accept, decode back to the same texts, tool calls and results, and go on to
 *   valid OpenAI Chat / Responses requests through those codecs' encoders;
 * - what A2A cannot hold is reported; bad input names its place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Message as SdkMessage } from '@a2a-js/sdk';
import type { JsonObject } from '../../../src/model/json.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { Codec } from '../../../src/formats/codec.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { openaiResponses } from '../../../src/formats/openai-responses/index.js';
import { bedrockConverse } from '../../../src/formats/bedrock-converse/index.js';
import { hasSharedFixtures, LOCAL_FIXTURES } from '../../support/captures.js';
import { samples } from '../../support/samples.js';
import { validateOpenaiChat } from '../../support/validators/openai-chat.js';
import { validateOpenaiResponses } from '../../support/validators/openai-responses.js';
import { decodeA2aRequest, encodeA2aRequest, schemaErrors } from './helpers.js';

/** The design's table: the type each kind of A2A message written for another dialect's request carries. */
function expectedType(msg: JsonObject): string {
  const data = ((msg['parts'] as JsonObject[])[0]?.['data'] ?? {}) as JsonObject;
  if ('tool_calls' in data) return 'ToolCallStartEvent';
  if ('tool_results' in data) return 'ToolCallResultEvent';
  return msg['role'] === 'ROLE_AGENT' || msg['role'] === 'agent' ? 'TextMessageEndEvent' : 'TextMessageContentEvent';
}

/** A2A bodies written by hand to cover every form and field the codec maps or keeps. */
const V1_BODIES: Record<string, unknown> = {
  'typed history': [
    { messageId: 's1', role: 'ROLE_USER', parts: [{ text: 'Be brief.' }], metadata: { canonical_type: 'TextMessageContentEvent', canonical_role: 'system' } },
    { messageId: 'u1', role: 'ROLE_USER', contextId: 'ctx-1', parts: [{ text: 'Look at this' }, { raw: 'iVBORw0KGgo=', mediaType: 'image/png', filename: 'a.png' }, { url: 'https://example.com/r.pdf', mediaType: 'application/pdf', filename: 'r.pdf' }], metadata: { canonical_type: 'TextMessageContentEvent', 'https://ext.example/v1': { x: 1 } } },
    { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: 'Checking.' }], metadata: { canonical_type: 'TextMessageContentEvent' } },
    { messageId: 'a1#2', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'c1', name: 'search', arguments: '{"q": "pdf"}' }, { call_id: 'c2', name: 'noop', arguments: '' }] } }], metadata: { canonical_type: 'ToolCallStartEvent' } },
    { messageId: 'r1', role: 'ROLE_USER', parts: [{ data: { tool_results: [{ call_id: 'c1', name: 'search', output: { hits: 2 } }] } }], metadata: { canonical_type: 'ToolCallResultEvent' } },
    { messageId: 'r2', role: 'ROLE_USER', parts: [{ data: { tool_results: [{ call_id: 'c2', output: 'failed', is_error: true }] } }], metadata: { canonical_type: 'ToolCallResultEvent' } },
    { messageId: 'a2', role: 'ROLE_AGENT', parts: [{ text: 'Two hits.' }], metadata: { canonical_type: 'TextMessageEndEvent' } },
  ],
  'plain messages with data and a tool_calls part': [
    { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hi', metadata: { lang: 'en' } }, { data: [1, 2, 3] }], referenceTaskIds: ['t0'], extensions: ['https://ext.example/v1'] },
    { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: 'calling' }, { data: { tool_calls: [{ call_id: 'c9', name: 'f', arguments: { a: 1 } }] } }], metadata: {} },
  ],
  'send-message request in a JSON-RPC envelope': {
    jsonrpc: '2.0',
    id: 'req-1',
    method: 'SendMessage',
    params: { message: { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }, configuration: { acceptedOutputModes: ['text/plain'], returnImmediately: true }, metadata: { trace: 'abc' } },
  },
  'task with status message and artifacts': {
    id: 't1',
    contextId: 'ctx-1',
    status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { messageId: 'a9', role: 'ROLE_AGENT', parts: [{ text: 'Which date?' }] }, timestamp: '2026-01-01T00:00:00.000Z' },
    history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'Book a flight' }] }],
    artifacts: [{ artifactId: 'art', name: 'draft', parts: [{ data: { from: 'JFK' } }] }],
    metadata: { owner: 'me' },
  },
  'SendMessageResponse with a message': { message: { messageId: 'a1', role: 'ROLE_AGENT', contextId: 'c', parts: [{ text: 'done' }] } },
};

describe('A2A -> canonical -> A2A', () => {
  for (const [name, body] of Object.entries(V1_BODIES)) {
    it(`${name} (v1.0): exact, no losses`, () => {
      const { req, losses } = decodeA2aRequest(body);
      expect(losses).toEqual([]);
      const back = encodeA2aRequest(req);
      expect(back.losses).toEqual([]);
      expect(back.value).toEqual(body);
    });

    it(`${name}: written as v0.3 it is schema-valid, and reads back as the same request`, () => {
      const { req } = decodeA2aRequest(body);
      const v03 = encodeA2aRequest(req, '0.3').value;
      const messages = collectMessages(v03);
      expect(messages.length).toBeGreaterThan(0);
      for (const msg of messages) expect(schemaErrors('Message', msg), JSON.stringify(msg)).toEqual([]);
      const again = decodeA2aRequest(v03).req;
      expect(withoutVersion(again)).toEqual(withoutVersion(req));
      expect(encodeA2aRequest(again, '1.0').value).toEqual(body);
    });
  }

  it('the typed history decodes to the canonical shapes', () => {
    const { req } = decodeA2aRequest(V1_BODIES['typed history']);
    expect(req.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['system', ['text']],
      ['user', ['text', 'image', 'document']],
      ['assistant', ['text', 'tool-call', 'tool-call']],
      ['tool', ['tool-result']],
      ['tool', ['tool-result']],
      ['assistant', ['text']],
    ]);
    expect(req.messages[2]?.parts[1]).toMatchObject({ type: 'tool-call', id: 'c1', name: 'search', arguments: { q: 'pdf' }, argumentsJson: '{"q": "pdf"}' });
    expect(req.messages[4]?.parts[0]).toMatchObject({ type: 'tool-result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'failed' }] });
    expect(req.messages[1]?.parts[2]).toMatchObject({ type: 'document', name: 'r.pdf', source: { kind: 'url', url: 'https://example.com/r.pdf', mediaType: 'application/pdf' } });
  });
});

function collectMessages(body: unknown): JsonObject[] {
  if (Array.isArray(body)) return body as JsonObject[];
  const b = body as JsonObject;
  if (b['params']) return collectMessages(b['params']);
  if (b['message'] && !b['messageId']) return [b['message'] as JsonObject];
  if (b['status']) {
    const s = b['status'] as JsonObject;
    return [...((b['history'] as JsonObject[]) ?? []), ...(s['message'] ? [s['message'] as JsonObject] : [])];
  }
  return [b];
}

function withoutVersion(req: Request): unknown {
  return JSON.parse(JSON.stringify(req, (k, v: unknown) => (k === '$version' ? undefined : v)));
}

/** What a conversation says, as A2A can carry it: texts, calls, results, in order. */
function said(messages: readonly Message[]): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'text' && !p.text.startsWith('[omitted:')) out.push({ text: p.text, role: m.role === 'developer' ? 'system' : m.role });
      else if (p.type === 'refusal') out.push({ text: p.text, role: m.role });
      else if (p.type === 'tool-call') out.push({ call: p.id, name: p.name, args: p.arguments });
      else if (p.type === 'tool-result') out.push({ result: p.callId });
    }
  }
  return out;
}

/** Every request body of the other dialects in test/fixtures (their own codecs decode them). */
function localRequests(): { name: string; codec: Codec; body: unknown }[] {
  const sets: [Codec, string][] = [
    [openaiChat, 'openai-chat/requests'],
    [anthropicMessages, 'anthropic-messages/requests'],
    [gemini, 'gemini/requests'],
    [openaiResponses, 'openai-responses/requests/agentgateway'],
  ];
  return sets.flatMap(([codec, dir]) =>
    readdirSync(join(LOCAL_FIXTURES, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ name: `${dir}/${f}`, codec, body: JSON.parse(readFileSync(join(LOCAL_FIXTURES, dir, f), 'utf8')) as unknown })),
  );
}

function decodeWith(codec: Codec, body: unknown): Request | undefined {
  try {
    return codec.request?.decode(body, { limits: DEFAULT_LIMITS, losses: [] as never });
  } catch {
    return undefined; // a vector its own codec refuses (tested there)
  }
}

function sameBytes(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v), (k, x: unknown) => (k === 'raw' && typeof x === 'string' ? Buffer.from(x, 'base64').toString('base64') : x));
}

function checkForeign(req: Request): void {
  for (const version of ['1.0', '0.3'] as const) {
    const { value } = encodeA2aRequest(req, version);
    const list = value as JsonObject[];
    for (const msg of list) {
      const type = (msg['metadata'] as JsonObject | undefined)?.['canonical_type'];
      expect(type, JSON.stringify(msg)).toBe(expectedType(msg));
      if (version === '0.3') expect(schemaErrors('Message', msg)).toEqual([]);
      // ProtoJSON bytes may be URL-safe or carry stray bits; the SDK writes them back standard: compare bytes.
      else expect(sameBytes(SdkMessage.toJSON(SdkMessage.fromJSON(msg)))).toEqual(sameBytes(msg));
    }
    const ids = list.map((msg) => msg['messageId']);
    expect(new Set(ids).size, 'no two messages share an id').toBe(ids.length);
    const back = decodeA2aRequest(value).req;
    expect(said(back.messages)).toEqual(said(req.messages));
    // ... and on to OpenAI, whose validators accept what comes out.
    const chat = openaiChat.request?.encode({ ...back, model: 'gpt-4o' }, { preserve: false, losses: [] as never });
    expect(validateOpenaiChat('request', chat)).toEqual([]);
    const responses = openaiResponses.request?.encode({ ...back, model: 'gpt-4o' }, { preserve: false, losses: [] as never });
    expect(validateOpenaiResponses('request', responses)).toEqual([]);
  }
}

describe('other dialects\' requests -> A2A messages', () => {
  const local = localRequests();
  it('has requests of four dialects', () => expect(local.length).toBeGreaterThan(20));
  for (const { name, codec, body } of local) {
    const req = decodeWith(codec, body);
    const title = req === undefined ? `${name}: skipped, its own codec refuses it (tested there)` : `${name}: typed A2A messages, valid in both versions, saying the same`;
    it.skipIf(req === undefined)(title, () => checkForeign(req as Request));
  }
});

describe.skipIf(!hasSharedFixtures())('every request capture in ../shared (skipped: ../shared is absent)', () => {
  const dialects: [string, Codec][] = [
    ['openai-chat', openaiChat],
    ['anthropic-messages', anthropicMessages],
    ['gemini', gemini],
    ['openai-responses', openaiResponses],
    ['bedrock-converse', bedrockConverse],
  ];
  for (const [id, codec] of dialects) {
    it(`${id}: every valid request capture converts`, () => {
      let n = 0;
      for (const s of samples(id, 'request')) {
        if (s.invalid !== undefined) continue;
        const req = decodeWith(codec, s.body);
        if (req === undefined) continue;
        checkForeign(req);
        n++;
      }
      expect(n).toBeGreaterThan(0);
    });
  }
});

describe('losses and errors', () => {
  it('model, tools, sampling and reasoning of other dialects are reported; a system message is sent as a user message that names its role', () => {
    const req: Request = {
      model: 'gpt-4o',
      temperature: 0.2,
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'assistant', parts: [{ type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig' }, { type: 'text', text: 'ok' }] },
      ],
    };
    const { value, losses } = encodeA2aRequest(req);
    expect(losses.map((l) => [l.code, l.path])).toEqual([
      ['unsupported-field', ['model']],
      ['unsupported-field', ['tools']],
      ['unsupported-field', ['temperature']],
      ['system-as-user', ['messages', 0]],
      ['foreign-reasoning', ['messages', 1, 'parts', 0]],
    ]);
    expect((value as JsonObject[])[0]).toEqual({ messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'Be brief.' }], metadata: { canonical_type: 'TextMessageContentEvent', canonical_role: 'system' } });
  });

  function issuePath(body: unknown): (string | number)[] | undefined {
    try {
      decodeA2aRequest(body);
    } catch (e) {
      if (e instanceof ValidationError) return e.issues[0]?.path;
      throw e;
    }
    return undefined;
  }

  it('bad bodies are refused at the place that is wrong', () => {
    expect(issuePath([])).toEqual([]);
    expect(issuePath([{ messageId: 'a', role: 'ROLE_USER', parts: [{ text: 'x' }] }, { messageId: 'b', role: 'agent', parts: [{ kind: 'txt', text: 'y' }] }])).toEqual([1, 'parts', 0, 'kind']);
    expect(issuePath([{ messageId: 'r', role: 'ROLE_USER', parts: [{ data: { tool_results: [{ name: 'f', output: 'x' }] } }], metadata: { canonical_type: 'ToolCallResultEvent' } }])).toEqual([0, 'parts', 0, 'data', 'tool_results', 0, 'call_id']);
    expect(issuePath({ id: 't', status: { state: 'done' } })).toEqual(['status', 'state']);
  });

  it('arguments that are not JSON are kept as text, {} as their value, and reported at their place', () => {
    const body = { message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ data: { tool_calls: [{ call_id: 'c', name: 'f', arguments: '{oops' }] } }] } };
    const { req, losses } = decodeA2aRequest(body);
    expect(losses.map((l) => [l.code, l.path, l.action])).toEqual([['invalid-arguments', ['message', 'parts', 0, 'data'], 'approximated']]);
    expect(req.messages[0]?.parts[0]).toMatchObject({ type: 'tool-call', id: 'c', arguments: {}, argumentsJson: '{oops' });
    // Written back as the text it was (no object can hold it), reported again.
    const back = encodeA2aRequest(req);
    expect(back.value).toEqual(body);
    expect(back.losses.map((l) => l.code)).toEqual(['invalid-arguments']);
  });

  it('a text over the size limit is refused', () => {
    const big = 'x'.repeat(DEFAULT_LIMITS.maxTextBytes + 1);
    expect(issuePath([{ messageId: 'a', role: 'ROLE_USER', parts: [{ text: big }] }])).toEqual([0, 'parts', 0]);
  });
});
