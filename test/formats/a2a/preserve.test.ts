/**
 * `preserve` on the A2A request codec: what A2A cannot hold rides in `metadata` (message groups
 * under `x-interlingua`, the request's fields under `x-interlingua` of the send request or task,
 * or `x-interlingua-request` of the first message), every such loss is `stashed`, the body stays
 * one the SDK and the v0.3 schema accept, and decoding gives back the canonical request exactly.
 * An edited or malformed stash is reported and ignored; nothing of it is left in the messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import type { Codec } from '../../../src/formats/codec.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { A2aVersion } from '../../../src/formats/a2a/a2a-api.js';
import { compactHistory } from '../../../src/formats/a2a/compact-history.js';
import { encodeRequest } from '../../../src/formats/a2a/request-encode.js';
import { agentInput } from '../../../src/formats/agent-input/index.js';
import { agUi } from '../../../src/formats/ag-ui/index.js';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { bedrockConverse } from '../../../src/formats/bedrock-converse/index.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { openaiResponses } from '../../../src/formats/openai-responses/index.js';
import { hasSharedFixtures, LOCAL_FIXTURES } from '../../support/captures.js';
import { samples } from '../../support/samples.js';
import { validateA2a } from '../../support/validators/a2a.js';
import { decodeA2aRequest, encodeA2aRequest } from './helpers.js';

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function encodePreserve(req: Request, version?: A2aVersion): { value: unknown; losses: Loss[] } {
  const losses: Loss[] = [];
  const value = encodeRequest(req, { preserve: true, losses, ...(version ? { a2aVersion: version } : {}) });
  return { value: json(value), losses };
}

/** X -> A2A with preserve, both versions: all stashed, valid, and back to the same canonical request. */
function checkPreserve(req: Request): void {
  for (const version of ['1.0', '0.3'] as const) {
    const { value, losses } = encodePreserve(req, version);
    expect(losses.filter((l) => l.action !== 'stashed')).toEqual([]);
    expect(validateA2a('request', value)).toEqual([]);
    const back = decodeA2aRequest(value);
    expect(back.losses).toEqual([]);
    expect(json(back.req)).toEqual(json(req));
  }
}

function decodeWith(codec: Codec, body: unknown): Request | undefined {
  try {
    return codec.request?.decode(body, { limits: DEFAULT_LIMITS, losses: [] as never });
  } catch {
    return undefined; // a vector its own codec refuses (tested there)
  }
}

describe('other dialects\' requests -> A2A with preserve -> the same canonical request', () => {
  const sets: [Codec, string][] = [
    [openaiChat, 'openai-chat/requests'],
    [anthropicMessages, 'anthropic-messages/requests'],
    [gemini, 'gemini/requests'],
    [openaiResponses, 'openai-responses/requests/agentgateway'],
  ];
  const local = sets.flatMap(([codec, dir]) =>
    readdirSync(join(LOCAL_FIXTURES, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ name: `${dir}/${f}`, req: decodeWith(codec, JSON.parse(readFileSync(join(LOCAL_FIXTURES, dir, f), 'utf8'))) })),
  );
  it('has local requests of four dialects', () => expect(local.filter((l) => l.req !== undefined).length).toBeGreaterThan(20));
  for (const { name, req } of local) {
    it.skipIf(req === undefined)(`${name}${req === undefined ? ': skipped, its own codec refuses it' : ''}`, () => checkPreserve(req as Request));
  }
});

describe.skipIf(!hasSharedFixtures())('every request capture in ../shared, with preserve (skipped: ../shared is absent)', () => {
  const dialects: [string, Codec][] = [
    ['openai-chat', openaiChat],
    ['anthropic-messages', anthropicMessages],
    ['gemini', gemini],
    ['openai-responses', openaiResponses],
    ['bedrock-converse', bedrockConverse],
    ['agent-input', agentInput],
    ['ag-ui', agUi],
  ];
  for (const [id, codec] of dialects) {
    it(`${id}: every request it decodes comes back exactly`, () => {
      let n = 0;
      for (const s of samples(id, 'request')) {
        const req = decodeWith(codec, s.body);
        if (req === undefined) continue;
        checkPreserve(req);
        n++;
      }
      expect(n).toBeGreaterThan(0);
    });
  }
});

describe('where the stash is', () => {
  const req: Request = {
    model: 'gpt-4o',
    temperature: 0.2,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', parts: [{ type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'sig' }, { type: 'text', text: 'Hello' }] },
    ],
  };

  it('a list of messages: the request stash on the first message, each lossy group on its own first message', () => {
    const { value, losses } = encodePreserve(req);
    expect(losses.map((l) => [l.code, l.action])).toEqual([
      ['unsupported-field', 'stashed'],
      ['unsupported-field', 'stashed'],
      ['system-as-user', 'stashed'],
      ['foreign-reasoning', 'stashed'],
    ]);
    const [system, user, assistant] = value as JsonObject[];
    const meta = system?.['metadata'] as JsonObject;
    expect(meta['x-interlingua-request']).toEqual({ v: 1, fields: { model: 'gpt-4o', temperature: 0.2, $generatedIds: true, $plain: true } });
    // Patch stashes (ADR 0013): what the wire message does not give back, not the text it holds.
    expect(meta['x-interlingua']).toMatchObject({ v: 2, span: 1 });
    expect(JSON.stringify(meta['x-interlingua'])).not.toContain('Be brief.');
    expect(meta['canonical_role']).toBe('system');
    // A message A2A holds as it is carries no stash.
    expect(user).toEqual({ messageId: 'msg-2', role: 'ROLE_USER', parts: [{ text: 'Hi' }], metadata: { canonical_type: 'TextMessageContentEvent' } });
    const assistantStash = (assistant?.['metadata'] as JsonObject)['x-interlingua'];
    expect(assistantStash).toMatchObject({ v: 2, span: 1 });
    expect(JSON.stringify(assistantStash)).toContain('"signature":"sig"');
    expect(JSON.stringify(assistantStash)).not.toContain('Hello');
    expect(assistant?.['parts']).toEqual([{ text: 'Hello' }]);
    const back = decodeA2aRequest(value);
    expect(json(back.req)).toEqual(json(req));
  });

  it('without preserve: no stash anywhere, the same losses dropped', () => {
    const { value, losses } = encodeA2aRequest(req);
    expect(JSON.stringify(value)).not.toContain('x-interlingua');
    expect(losses.map((l) => l.action)).toEqual(['dropped', 'dropped', 'approximated', 'dropped']);
  });

  it('a send-message request: the request stash in its params metadata, next to what was there', () => {
    const body = { jsonrpc: '2.0', id: 'r1', method: 'SendMessage', params: { message: { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }, metadata: { trace: 'abc' } } };
    const { req: got } = decodeA2aRequest(body);
    const withModel: Request = { ...got, model: 'claude' };
    const { value } = encodePreserve(withModel);
    const params = (value as JsonObject)['params'] as JsonObject;
    expect(params['metadata']).toEqual({ trace: 'abc', 'x-interlingua': { v: 1, fields: { model: 'claude' } } });
    expect(params['message']).toEqual(body.params.message);
    const back = decodeA2aRequest(value);
    expect(json(back.req)).toEqual(json(withModel));
    expect(encodeA2aRequest(back.req).value).toEqual({ ...body });
  });

  it('a v0.3 task: the request stash in the task metadata it makes (and takes away again), group stashes over the v0.3 wire', () => {
    const task = {
      kind: 'task',
      id: 't1',
      contextId: 'c1',
      status: { state: 'input-required', message: { kind: 'message', messageId: 'a2', role: 'agent', parts: [{ kind: 'text', text: 'Which date?' }] } },
      history: [
        { kind: 'message', messageId: 'u1', role: 'user', parts: [{ kind: 'text', text: 'Book a flight' }] },
        { messageId: 'a1', role: 'agent', parts: [{ kind: 'text', text: 'Where to?' }] },
      ],
    };
    const { req: got } = decodeA2aRequest(task);
    const first = got.messages[0];
    const edited: Request = { ...got, temperature: 0, messages: [{ ...first, ext: { ...first?.ext, 'openai-chat': { $x: 1 } } } as Request['messages'][number], ...got.messages.slice(1)] };
    const { value } = encodePreserve(edited);
    const out = value as JsonObject;
    expect(out['metadata']).toEqual({ 'x-interlingua': { v: 1, fields: { temperature: 0 }, metadataAdded: true } });
    const history = out['history'] as JsonObject[];
    expect(history[0]?.['metadata']).toMatchObject({ 'x-interlingua': { v: 2, span: 1, metadataAdded: true } });
    expect(history[1]).toEqual(task.history[1]);
    expect(validateA2a('request', withKinds(out))).toEqual([]);
    const back = decodeA2aRequest(value);
    expect(back.losses).toEqual([]);
    expect(json(back.req)).toEqual(json(edited));
    expect(encodeA2aRequest(back.req).value).toEqual(task);
  });

  it('a send-message request that became two messages: a list, and the form it came in back from the stash', () => {
    const body = { message: { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }, configuration: { returnImmediately: true } };
    const { req: got } = decodeA2aRequest(body);
    const more: Request = { ...got, messages: [...got.messages, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] };
    const { value, losses } = encodePreserve(more);
    expect(losses.map((l) => [l.code, l.action])).toEqual([['a2a-form', 'stashed']]);
    expect(Array.isArray(value)).toBe(true);
    const back = decodeA2aRequest(value);
    expect(json(back.req)).toEqual(json(more));
  });

  /** The task with `kind` on every message (the spec example this mirrors leaves one out). */
  function withKinds(task: JsonObject): JsonObject {
    return { ...task, history: (task['history'] as JsonObject[]).map((m) => ({ kind: 'message', ...m })) };
  }
});

describe('a stash that no longer fits is reported and ignored', () => {
  const req: Request = { model: 'm', messages: [{ role: 'user', stringContent: true, parts: [{ type: 'text', text: 'Hi' }] }] };

  it('an edited message: its visible content wins, no stash is left in it', () => {
    const list = encodePreserve(req).value as JsonObject[];
    const first = list[0] as JsonObject;
    first['parts'] = [{ text: 'Hello there' }];
    const { req: back, losses } = decodeA2aRequest(list);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['stale-stash', [0, 'x-interlingua']]]);
    expect(back.model).toBe('m');
    expect(back.messages).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'Hello there' }] }]);
  });

  it('a malformed request stash', () => {
    const list = encodePreserve(req).value as JsonObject[];
    const meta = (list[0] as JsonObject)['metadata'] as JsonObject;
    meta['x-interlingua-request'] = { v: 2 };
    const { req: back, losses } = decodeA2aRequest(list);
    expect(losses.map((l) => l.code)).toEqual(['stale-stash']);
    expect(back.model).toBeUndefined();
    expect(back.messages[0]?.stringContent).toBe(true);
  });
});

it('compactHistory reads a history stored with preserve through its stashes', () => {
  const chat = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'openai-chat/requests/tool-call.json'), 'utf8')) as unknown;
  const req = decodeWith(openaiChat, chat) as Request;
  const stored = encodePreserve(req).value as unknown[];
  const got = compactHistory(stored);
  expect(got.to).toBe('canonical');
  if (got.to !== 'canonical') return;
  expect(JSON.stringify(got.messages)).not.toContain('x-interlingua');
  expect(got.messages.map((m) => [m.role, m.stringContent])).toEqual(req.messages.map((m) => [m.role, m.stringContent]));
});
