/**
 * The request kind over whole bodies: every older or other event shape the issue names reads as the
 * conversation it holds and is written back exactly; ListEvents' newest-first order reads oldest
 * first; bad blobs fail with the event and payload index; AgentCore's limits are kept (long text,
 * many parts, metadata) and every change is reported; system messages and request fields are
 * reported and, under `preserve`, come back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { getCodec } from '../../../src/formats/registry.js';
import { stableHash } from '../../../src/formats/shared/stable-hash.js';
import { REPO_ROOT } from '../../support/captures.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { validateAgentcoreMemory } from '../../support/validators/agentcore-memory.js';
import { blob, codec, conv, decode, encode, issuesOf, json, request, via, withoutHints } from './helpers.js';

const META = (role: string, metadata: JsonObject = {}): JsonObject => blob({ blobType: 'camunda.messageMetadata', version: 1, metadata, properties: { role } });
const codes = (losses: Loss[]): string[] => losses.map((l) => l.code);
const eventsOf = (body: JsonObject): JsonObject[] => body['events'] as JsonObject[];
const payloadsOf = (body: JsonObject, i = 0): JsonObject[] => eventsOf(body)[i]?.['payload'] as JsonObject[];

/** One event of each older or other shape the issue names, in ListEvents' field layout. */
const SHAPES: JsonObject = {
  events: [
    // The Python SDK's one turn per event: plain conversational USER then ASSISTANT.
    { memoryId: 'PersonalAgentMemory-abc123XYZ0', actorId: 'user-1', sessionId: 'session-1', eventId: '0000001752235548000#97f30a6b', eventTimestamp: 1752235548, branch: { name: 'main' }, payload: [conv('USER', 'What is the weather?'), conv('ASSISTANT', 'Let me look.')] },
    // The older tool-calls blob: a bare JSON array, no envelope.
    { eventTimestamp: 1752235549, payload: [conv('ASSISTANT', 'Checking'), { blob: '[{"id":"c1","name":"weather","arguments":{"city":"Paris"}}]' }] },
    // A TOOL text without a results blob: a minimal result.
    { eventTimestamp: 1752235550, payload: [conv('TOOL', '18 degrees')] },
    // PR #6320-era results: flat string content; the later metadata blob carries the role.
    { eventTimestamp: 1752235551, payload: [conv('TOOL', 'tool output'), { blob: '{"blobType":"camunda.toolCallResults","version":1,"results":[{"id":"c1","name":"weather","content":"tool output"}]}' }, META('TOOL')] },
    // A blob as a JSON object, not text.
    { eventTimestamp: 1752235552, payload: [conv('USER', 'see this'), { blob: { blobType: 'camunda.messageContent', version: 1, content: { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } } } }] },
    // JSON text spelled otherwise (indented).
    { eventTimestamp: 1752235553, payload: [conv('ASSISTANT', 'ok'), { blob: JSON.stringify({ blobType: 'camunda.toolCalls', version: 1, toolCalls: [{ id: 'c2', name: 'f', arguments: {} }] }, null, 2) }] },
    // An OTHER text says nothing about the role.
    { eventTimestamp: 1752235554, payload: [conv('OTHER', 'a note'), conv('USER', 'thanks')], metadata: { seq: { stringValue: '7' } } },
    // ToolCallResultContent with a content list, properties flattened, and an object content.
    { eventTimestamp: 1752235555, payload: [conv('TOOL', '{"n":1}'), { blob: '{"blobType":"camunda.toolCallResults","version":1,"results":[{"id":"c2","name":"f","content":[{"type":"object","content":{"n":1}}],"interrupted":true,"completedAt":"2026-07-08T20:54:10.557+02:00"}]}' }, META('TOOL', { trace: 'x' })] },
  ],
  nextToken: 'page-2',
};

describe('every older and other event shape', () => {
  it('reads as the conversation it holds', () => {
    const { req, losses } = decode(SHAPES);
    expect(losses).toEqual([]);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'tool', 'tool', 'user', 'assistant', 'user', 'tool']);
    const m = withoutHints(req.messages);
    expect(m[0]).toEqual({ role: 'user', parts: [{ type: 'text', text: 'What is the weather?' }], ext: { 'agentcore-memory': { event: { memoryId: 'PersonalAgentMemory-abc123XYZ0', actorId: 'user-1', sessionId: 'session-1', eventId: '0000001752235548000#97f30a6b', eventTimestamp: 1752235548, branch: { name: 'main' } } } } });
    expect(m[1]).toEqual({ role: 'assistant', parts: [{ type: 'text', text: 'Let me look.' }] });
    expect(m[2]?.parts).toEqual([{ type: 'text', text: 'Checking' }, { type: 'tool-call', id: 'c1', name: 'weather', arguments: { city: 'Paris' } }]);
    expect(m[3]?.parts).toEqual([{ type: 'tool-result', callId: '', content: [{ type: 'text', text: '18 degrees' }], stringContent: true }]);
    expect(m[4]?.parts).toEqual([{ type: 'tool-result', callId: 'c1', name: 'weather', content: [{ type: 'text', text: 'tool output' }], stringContent: true }]);
    expect(m[5]?.parts[1]).toEqual({ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } });
    expect(m[6]?.parts[1]).toEqual({ type: 'tool-call', id: 'c2', name: 'f', arguments: {} });
    expect(m[7]).toEqual({ role: 'user', parts: [{ type: 'text', text: 'a note' }, { type: 'text', text: 'thanks' }], ext: { 'agentcore-memory': { event: { eventTimestamp: 1752235554 }, metadata: { seq: '7' } } } });
    expect(m[8]).toEqual({
      role: 'tool',
      parts: [{ type: 'tool-result', callId: 'c2', name: 'f', content: [{ type: 'data', data: { n: 1 } }], ext: { 'agentcore-memory': { interrupted: true, completedAt: '2026-07-08T20:54:10.557+02:00' } } }],
      ext: { 'agentcore-memory': { event: { eventTimestamp: 1752235555 }, metadata: { trace: 'x' } } },
    });
    expect(req.ext).toEqual({ 'agentcore-memory': { nextToken: 'page-2' } });
  });

  it('is written back exactly, and other formats see every event field as a loss', () => {
    const { req } = decode(SHAPES);
    expect(encode(req)).toEqual({ body: SHAPES, losses: [] });
    expect(encode(json(req))).toEqual({ body: SHAPES, losses: [] });
  });

  it('blob text in another spelling than ours (spaces, key order, escapes) is written back as it was read', () => {
    const calls = { blobType: 'camunda.toolCalls', version: 1, toolCalls: [{ id: 'c1', name: 'f', arguments: { q: 'café' } }] };
    const ours = JSON.stringify(calls);
    const spellings = [JSON.stringify(calls, null, 1), '{"version":1,' + ours.slice(1).replace(',"version":1', ''), ours.replace('café', 'caf\\u00e9')];
    expect(spellings[2]).toContain('caf\\u00e9');
    for (const text of spellings) {
      expect(text).not.toBe(ours);
      const body = { events: [{ payload: [{ blob: text }] }] };
      const { req } = decode(body);
      expect(req.messages[0]?.parts).toEqual([{ type: 'tool-call', id: 'c1', name: 'f', arguments: { q: 'café' } }]);
      expect(encode(req).body, text).toEqual(body);
    }
    // Our own spelling needs no verbatim copy.
    expect(decode({ events: [{ payload: [{ blob: ours }] }] }).req.messages[0]?.ext).toBeUndefined();
  });

  it('a verbatim copy whose $hash an earlier version wrote (stableHash of the messages) is still used', () => {
    const text = JSON.stringify({ blobType: 'camunda.toolCalls', version: 1, toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] }, null, 1);
    const body = { events: [{ payload: [{ blob: text }] }] };
    const req = json(decode(body).req);
    const first = req.messages[0] as Message;
    const own = first.ext?.['agentcore-memory'] as JsonObject;
    const { $event: _e, $hash: _h, ...hints } = own;
    const bare: Message = { ...first, ext: { ...first.ext } };
    if (Object.keys(hints).length > 0) (bare.ext as JsonObject)['agentcore-memory'] = hints;
    else delete (bare.ext as JsonObject)['agentcore-memory'];
    if (Object.keys(bare.ext as JsonObject).length === 0) delete bare.ext;
    own['$hash'] = stableHash([bare]);
    expect(encode(req).body).toEqual(body);
    own['$hash'] = 'deadbeef';
    expect(encode(req).body).not.toEqual(body);
  });

  it('an edited message is written afresh: the verbatim copy is used only while the message is unchanged', () => {
    const { req } = decode(SHAPES);
    const edited = json(req);
    (edited.messages[6]?.parts[0] as { text: string }).text = 'okay';
    const out = payloadsOf(encode(edited).body, 5);
    expect(out[0]).toEqual(conv('ASSISTANT', 'okay'));
    expect(out[1]).toEqual(blob({ blobType: 'camunda.toolCalls', version: 1, toolCalls: [{ id: 'c2', name: 'f', arguments: {} }] }));
  });
});

describe('order', () => {
  const e = (ts: number | string, role: string, text: string, seq?: string): JsonObject => ({ eventTimestamp: ts, payload: [conv(role, text)], ...(seq ? { metadata: { seq: { stringValue: seq } } } : {}) });

  it("ListEvents' newest-first list reads oldest first and is written back as listed", () => {
    const body = { events: [e(1752235551.5, 'ASSISTANT', 'a2'), e(1752235551, 'USER', 'u2'), e(1752235550, 'ASSISTANT', 'a1'), e(1752235549, 'USER', 'u1')] };
    const { req } = decode(body);
    expect(req.messages.map((m) => (m.parts[0] as { text: string }).text)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(encode(req).body).toEqual(body);
  });

  it('ties on the timestamp are ordered by Camunda\'s seq metadata; ISO timestamps are read too', () => {
    const body = { events: [e('2025-07-11T12:05:48.000Z', 'ASSISTANT', 'answer', '1'), e('2025-07-11T12:05:48.000Z', 'USER', 'question', '0')] };
    const { req } = decode(body);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(encode(req).body).toEqual(body);
  });

  it('events without timestamps keep the order given', () => {
    const body = { events: [{ payload: [conv('ASSISTANT', 'x')] }, { payload: [conv('USER', 'y')] }] };
    expect(decode(body).req.messages.map((m) => m.role)).toEqual(['assistant', 'user']);
  });
});

describe('bad input fails with the event and payload index', () => {
  const ok = { payload: [conv('USER', 'fine')] };
  const cases: [string, JsonObject, (string | number)[], string][] = [
    ['a newer envelope version', { events: [ok, ok, { payload: [conv('USER', 'x'), blob({ blobType: 'camunda.toolCalls', version: 2, toolCalls: [] })] }] }, ['events', 2, 'payload', 1, 'blob', 'version'], 'unsupported_version'],
    ['an unknown blobType', { events: [{ payload: [blob({ blobType: 'acme.thing', version: 1, thing: {} })] }] }, ['events', 0, 'payload', 0, 'blob', 'blobType'], 'unknown_blob_type'],
    ['blob text that is not JSON', { events: [{ payload: [{ blob: '{content=hi, role=user}' }] }] }, ['events', 0, 'payload', 0, 'blob'], 'invalid_blob'],
    ['an envelope without its data', { events: [{ payload: [blob({ blobType: 'camunda.toolCallResults', version: 1 })] }] }, ['events', 0, 'payload', 0, 'blob', 'results'], 'invalid_blob'],
    ['a version that is no integer', { events: [{ payload: [blob({ blobType: 'camunda.toolCalls', version: '1', toolCalls: [] })] }] }, ['events', 0, 'payload', 0, 'blob', 'version'], 'invalid_blob'],
    ['a malformed part in a content blob', { events: [{ payload: [blob({ blobType: 'camunda.messageContent', version: 1, content: { type: 'image', source: { kind: 'url' } } })] }] }, ['events', 0, 'payload', 0, 'blob', 'content', 'source', 'url'], 'invalid_type'],
    ['a tool call without a name', { events: [{ payload: [blob({ blobType: 'camunda.toolCalls', version: 1, toolCalls: [{ id: 'c1' }] })] }] }, ['events', 0, 'payload', 0, 'blob', 'toolCalls', 0], 'invalid_blob'],
    ['a metadata role that is no message role', { events: [{ payload: [conv('USER', 'x'), blob({ blobType: 'camunda.messageMetadata', version: 1, metadata: {}, properties: { role: 'OTHER' } })] }] }, ['events', 0, 'payload', 1, 'blob', 'properties', 'role'], 'invalid_blob'],
    ['a conversational role AgentCore does not have', { events: [{ payload: [conv('SYSTEM', 'x')] }] }, ['events', 0, 'payload', 0, 'conversational'], 'invalid_payload'],
    ['a payload that is both kinds', { events: [{ payload: [{ ...conv('USER', 'x'), blob: '{}' }] }] }, ['events', 0, 'payload', 0], 'invalid_payload'],
    ['event metadata that is a bare string', { events: [{ payload: [conv('USER', 'x')], metadata: { seq: '0' } }] }, ['events', 0, 'metadata', 'seq'], 'invalid_type'],
    ['a bad blob inside packed payloads', { events: [{ payload: [blob({ blobType: 'interlingua.payloads', version: 1, payload: [conv('USER', 'x'), { blob: 'nope' }] })] }] }, ['events', 0, 'payload', 0, 'blob', 'payload', 1, 'blob'], 'invalid_blob'],
    ['a timestamp that is none', { events: [{ eventTimestamp: 'yesterday', payload: [conv('USER', 'x')] }, { eventTimestamp: 1, payload: [conv('USER', 'y')] }] }, ['events', 0, 'eventTimestamp'], 'invalid_timestamp'],
  ];
  it.each(cases)('%s', (_name, body, path, code) => {
    const issues = issuesOf(body);
    expect(issues[0]).toMatchObject({ path, code });
  });

  it('reports every problem at once, each at its own place', () => {
    const body = { events: [{ payload: [blob({ version: 1, toolCalls: [] })] }, ok, { payload: [ok.payload[0], blob({ blobType: 'camunda.toolCalls', toolCalls: [] })] }] };
    expect(issuesOf(body).map((i) => i.path)).toEqual([['events', 0, 'payload', 0, 'blob', 'blobType'], ['events', 2, 'payload', 1, 'blob', 'version']]);
  });

  it('refuses what is not an events list', () => {
    expect(issuesOf([])[0]?.path).toEqual([]);
    expect(issuesOf({ messages: [] })[0]?.path).toEqual(['events']);
    expect(issuesOf({ events: [42] })[0]?.path).toEqual(['events', 0]);
  });
});

describe("AgentCore's limits", () => {
  const user = (parts: Message['parts'], ext?: Message['ext']): Request => ({ messages: [{ role: 'user', parts, ...(ext ? { ext } : {}) }] });

  it('a text over 100,000 characters goes into a blob, reported, and reads back exactly', () => {
    const long = 'x'.repeat(100_001);
    const req = user([{ type: 'text', text: 'short' }, { type: 'text', text: long }]);
    const { body, losses } = encode(req);
    expect(codes(losses)).toEqual(['long-text-blob']);
    expect(payloadsOf(body).map((p) => Object.keys(p)[0])).toEqual(['conversational', 'blob']);
    expect(validateAgentcoreMemory('request', body)).toEqual([]);
    expect(decode(body).req).toEqual(req);
    // Nothing is lost, so preserve has nothing to stash.
    expect(encode(req, true).body).toEqual(body);
  });

  it('a message of more than 100 payloads packs the rest into one blob, reported, and reads back exactly', () => {
    const req = user(Array.from({ length: 150 }, (_v, k) => ({ type: 'text' as const, text: `part ${k}` })));
    const { body, losses } = encode(req);
    expect(codes(losses)).toEqual(['payload-limit']);
    expect(payloadsOf(body)).toHaveLength(99);
    expect(validateAgentcoreMemory('request', body)).toEqual([]);
    expect(decode(body).req).toEqual(req);
  });

  it('metadata goes to event metadata where it fits, the rest to the metadata blob; every change is reported', () => {
    const metadata: JsonObject = { 'user.id': 'alice@example.com', count: 42, none: null, json: { a: 1 }, long: 'v'.repeat(300), 'bad key!': 'x', path: 'a/b:c=d+e' };
    for (let k = 0; k < 14; k++) metadata[`k${k}`] = `v${k}`;
    const req = user([{ type: 'text', text: 'hi' }], { 'agentcore-memory': { metadata } });
    const { body, losses } = encode(req);
    expect(validateAgentcoreMemory('request', body)).toEqual([]);
    const event = eventsOf(body)[0] as JsonObject;
    expect(Object.keys(event['metadata'] as JsonObject)).toEqual(['user.id', 'count', 'path', ...Array.from({ length: 12 }, (_v, k) => `k${k}`)]);
    expect((event['metadata'] as JsonObject)['count']).toEqual({ stringValue: '42' });
    expect(codes(losses).sort()).toEqual(['metadata-in-blob', 'metadata-in-blob', 'metadata-in-blob', 'metadata-in-blob', 'metadata-in-blob', 'metadata-stringified', 'null-metadata']);
    const back = decode(body).req.messages[0]?.ext?.['agentcore-memory']?.['metadata'];
    const { none: _n, ...expected } = { ...metadata, count: '42' } as JsonObject;
    expect(back).toEqual(expected);
    // Under preserve what changed (the null, the number) comes back too.
    const kept = encode(req, true);
    expect(validateAgentcoreMemory('request', kept.body)).toEqual([]);
    expect(withoutHints(decode(kept.body).req)).toEqual(req);
  });

  it('metadata keys that name Object.prototype members (__proto__, valueOf) are ordinary keys', () => {
    const metadata = JSON.parse('{"__proto__":"x","valueOf":"{"}') as JsonObject;
    const req = user([{ type: 'text', text: 'hi' }], { 'agentcore-memory': { metadata } });
    const { body } = encode(req);
    expect(JSON.stringify(eventsOf(body)[0]?.['metadata'])).toBe('{"__proto__":{"stringValue":"x"}}');
    expect(JSON.stringify(decode(body).req.messages[0]?.ext?.['agentcore-memory']?.['metadata'])).toBe('{"__proto__":"x","valueOf":"{"}');
  });

  it('a tool results summary over 100,000 characters is cut; the results blob keeps everything', () => {
    const big = 'y'.repeat(60_000);
    const req: Request = { messages: [{ role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [{ type: 'text', text: big }, { type: 'text', text: big }] }] }] };
    const { body, losses } = encode(req);
    expect(losses).toEqual([]);
    const summary = (payloadsOf(body)[0]?.['conversational'] as JsonObject)['content'] as JsonObject;
    expect((summary['text'] as string).length).toBe(100_000);
    expect(validateAgentcoreMemory('request', body)).toEqual([]);
    const losses2: Loss[] = [];
    expect(request.decode(body, { limits: { ...DEFAULT_LIMITS, maxTextBytes: 1e6 }, losses: losses2 })).toEqual(req);
  });
});

describe('what AgentCore events cannot hold', () => {
  const req: Request = {
    model: 'gpt-4o',
    temperature: 0.2,
    tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }],
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'You are brief.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Hi', cache: { type: 'ephemeral' } }], stringContent: true },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello', citations: [{ type: 'url', url: 'https://example.com' }] }], ext: { 'openai-chat': { refusal: 'no' } } },
    ],
  };

  it('is reported, and the events stay valid', () => {
    const { body, losses } = encode(req);
    expect(codes(losses).sort()).toEqual(['cache-control', 'citations', 'system-message', 'unsupported-field', 'unsupported-field', 'unsupported-field', 'unsupported-field'].sort());
    expect(eventsOf(body)).toHaveLength(2);
    expect(validateAgentcoreMemory('request', body)).toEqual([]);
  });

  it('comes back under preserve, stashed inside the events (a blob) and in the body', () => {
    const { body, losses } = encode(req, true);
    expect(losses.every((l) => l.action === 'stashed')).toBe(true);
    expect(validateAgentcoreMemory('request', { events: body['events'] })).toEqual([]);
    expect(Object.keys(body)).toEqual(['events', 'x-interlingua']);
    expect(decode(json(body)).req).toEqual(req);
  });

  it('a conversation of system messages only is kept in the body stash', () => {
    const only: Request = { messages: [{ role: 'system', parts: [{ type: 'text', text: 'Rules.' }] }] };
    const plain = encode(only);
    expect(plain.body).toEqual({ events: [] });
    expect(plain.losses.map((l) => [l.code, l.action])).toEqual([['system-message', 'dropped']]);
    const kept = encode(only, true);
    expect(kept.losses.map((l) => l.action)).toEqual(['stashed']);
    expect(decode(kept.body).req).toEqual(only);
  });

  it('comes back from ListEvents-shaped events (ids, timestamps and branch around each stored event) with no stale stash', () => {
    const { body } = encode(req, true);
    const listed = json(body);
    eventsOf(listed).forEach((e, i) => {
      Object.assign(e, { memoryId: 'mem-abcdefghij', actorId: 'user-1', sessionId: 'session-1', eventId: `000000175223554${i}000#97f30a6b`, eventTimestamp: `2026-11-23T10:00:0${i}.000Z`, branch: { name: 'main' } });
    });
    const { req: back, losses } = decode(listed);
    expect(codes(losses)).not.toContain('stale-stash');
    expect(back).toEqual(req);
    // An edit to the content is still caught with the envelope fields present.
    (payloadsOf(listed, 0)[0]?.['conversational'] as { content: { text: string } }).content.text = 'Hi there';
    expect(codes(decode(listed).losses)).toContain('stale-stash');
  });

  it('a stash that no longer matches its events is reported and the visible events win', () => {
    const { body } = encode(req, true);
    const edited = json(body);
    (payloadsOf(edited, 0)[0]?.['conversational'] as { content: { text: string } }).content.text = 'Hi there';
    const { req: back, losses } = decode(edited);
    expect(codes(losses)).toContain('stale-stash');
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(back.messages[0]?.parts).toEqual([{ type: 'text', text: 'Hi there' }]);
  });
});

describe('reasoning', () => {
  it("keeps a thinking block's signature byte-exact in a reasoning content {provider, payload}, and gives it back to its provider", () => {
    const body = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/anthropic-request.json'), 'utf8')) as JsonObject;
    const anthropic = getCodec('anthropic-messages');
    const thinking = ((body['messages'] as JsonObject[])[1]?.['content'] as JsonObject[])[0] as JsonObject;
    const events = via(anthropic, codec, body, false).value as JsonObject;
    const reasoning = eventsOf(events)
      .flatMap((e) => e['payload'] as JsonObject[])
      .map((p) => (typeof p['blob'] === 'string' ? (JSON.parse(p['blob']) as JsonObject) : undefined))
      .find((b) => (b?.['content'] as JsonObject | undefined)?.['type'] === 'reasoning');
    expect(reasoning).toEqual({ blobType: 'camunda.messageContent', version: 1, content: { type: 'reasoning', provider: 'anthropic-messages', payload: { text: thinking['thinking'], signature: thinking['signature'] } } });
    const back = via(codec, anthropic, events, false).value as JsonObject;
    expect(((back['messages'] as JsonObject[])[1]?.['content'] as JsonObject[])[0]).toEqual(thinking);
  });
});
