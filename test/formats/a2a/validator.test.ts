/**
 * The A2A validator of the conversion matrix (test/support/validators/a2a.ts) means something: it
 * agrees with every valid / invalid mark of the A2A samples (the spec's examples), accepts what the
 * SDK reads back unchanged, and names what the SDK would not read: unknown keys, roles and states it
 * does not know, values of the wrong type, a second content in a part, missing REQUIRED fields.
 */
import { describe, expect, it } from 'vitest';
import { samples } from '../../support/samples.js';
import { validateA2a } from '../../support/validators/a2a.js';

const msg = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

describe('A2A validator', () => {
  const list = samples('a2a', 'request');

  it('has the spec examples to check against, valid and invalid', () => {
    expect(list.some((s) => s.invalid === undefined)).toBe(true);
    expect(list.filter((s) => s.invalid !== undefined).length).toBeGreaterThanOrEqual(5);
  });

  it.each(list.map((s) => [s.name, s] as const))('agrees with the sample mark: %s', (_name, s) => {
    const errors = validateA2a('request', s.body);
    if (s.invalid === undefined) expect(errors).toEqual([]);
    else expect(errors, s.invalid).not.toEqual([]);
  });

  it('v1.0: accepts every body form, explicit defaults and URL-safe base64', () => {
    const task = { id: 't', contextId: '', status: { state: 'TASK_STATE_COMPLETED', message: { ...msg, role: 'ROLE_AGENT' } }, history: [msg], artifacts: [{ artifactId: 'a', parts: [{ data: { x: [1] } }] }], metadata: {} };
    const send = { message: { ...msg, metadata: { any: { thing: [null] } } }, configuration: { acceptedOutputModes: ['text/plain'], returnImmediately: true }, metadata: { trace: 1 } };
    for (const body of [
      msg,
      [msg, { ...msg, messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ raw: 'iVBORw0KGgo=', mediaType: 'image/png', filename: 'a.png' }, { url: 'https://x/y.pdf' }] }],
      task,
      send,
      { task },
      { message: msg },
      { jsonrpc: '2.0', id: 'r-1', method: 'SendMessage', params: send },
      { jsonrpc: '2.0', id: 7, result: { task } },
      { ...msg, parts: [{ raw: 'a-_b' }], extensions: [] },
    ]) {
      expect(validateA2a('request', body), JSON.stringify(body)).toEqual([]);
    }
  });

  it('v1.0: names what the SDK would not read the same, and what a2a.proto requires', () => {
    const one = (body: unknown): string => validateA2a('request', body).join(' | ');
    expect(one({ ...msg, kindOf: 'x' })).toMatch(/^kindOf: not a field the SDK reads/);
    expect(one({ ...msg, role: 'ROLE_BOT' })).toMatch(/role: the SDK reads "ROLE_BOT" as "UNRECOGNIZED"/);
    expect(one({ ...msg, messageId: 5 })).toMatch(/messageId: the SDK reads 5 as "5"/);
    expect(one({ ...msg, parts: [{ text: 'a', data: {} }] })).toMatch(/parts\.0\.data: not a field/);
    expect(one({ ...msg, parts: [{ raw: 'not base64!' }] })).toMatch(/parts\.0\.raw: not base64 bytes/);
    expect(one({ ...msg, parts: [{ filename: 'a' }] })).toMatch(/parts\.0: a part needs one of text, raw, url, data/);
    expect(one({ role: 'ROLE_USER', parts: [] })).toMatch(/messageId: required.*parts: a message needs at least one part/);
    expect(one({ id: 't', status: { state: 'TASK_STATE_DONE' } })).toMatch(/status\.state: a known TASK_STATE_\* is required/);
    expect(one({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { message: msg } })).toMatch(/method: "GetTask" carries no message/);
    expect(one({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: msg }, extra: 1 })).toMatch(/extra: not a JSON-RPC 2.0 member/);
    expect(one([])).toMatch(/must not be empty/);
  });

  it('v0.3: the JSON schema, by the body form', () => {
    const m03 = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expect(validateA2a('request', [m03])).toEqual([]);
    expect(validateA2a('request', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: m03 } })).toEqual([]);
    expect(validateA2a('request', { kind: 'task', id: 't', contextId: 'c', status: { state: 'completed' }, history: [m03] })).toEqual([]);
    expect(validateA2a('request', [{ ...m03, role: 'robot' }]).join()).toMatch(/\[0\]\/role must be equal to one of the allowed values/);
    expect(validateA2a('request', { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't' } }).join()).toMatch(/carries no message/);
  });

  it('has no response kind', () => {
    expect(validateA2a('response', msg)).not.toEqual([]);
  });
});
