/**
 * Schema oracle for A2A request bodies, in every form the a2a codec reads and writes: a list of
 * messages, a message, a task, a send-message request, a v1.0 `{task}` / `{message}` response, and
 * those inside a JSON-RPC request or response. Independent of the codec:
 * - v0.3 bodies (`kind` tags, roles `user` / `agent`): the v0.3.0 JSON schema
 *   (test/fixtures/a2a/a2a-v0.3.0.schema.json, ajv draft-07);
 * - v1.0 bodies (the codec's default): @a2a-js/sdk 1.3.0's own ProtoJSON codec. Each object is read
 *   with the SDK's `fromJSON` and written again with its `toJSON`; whatever the SDK does not know
 *   (an unknown key, a role or state it does not have, a value of the wrong type, a second content
 *   in one part) does not come back the same, and the difference is reported. Defaults written out
 *   (`""`, `[]`) are allowed, as ProtoJSON allows them, and base64 may be standard or URL-safe.
 *   On top, the fields a2a.proto marks REQUIRED, checked on the SDK's parsed objects.
 *
 * `validateA2a(kind, value)` returns one message per problem (`[0].parts.1: ...`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Ajv, type ValidateFunction } from 'ajv';
import { Message, Role, SendMessageRequest, SendMessageResponse, Task, TaskState, type Artifact, type Part } from '@a2a-js/sdk';
import { LOCAL_FIXTURES } from '../captures.js';
import { describeErrors } from '../openapi.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: (string | number)[]): string => (path.length === 0 ? '(root)' : path.join('.'));

// ---- version ----

/** v0.3 when any object in the body carries a `kind` tag or a v0.3 role. */
function isV03(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(isV03);
  if (!isObj(v)) return false;
  if (typeof v['kind'] === 'string' || v['role'] === 'user' || v['role'] === 'agent') return true;
  return Object.entries(v).some(([k, x]) => k !== 'metadata' && k !== 'data' && isV03(x));
}

// ---- v0.3: the JSON schema ----

let ajv: Ajv | undefined;
function v03(definition: string): ValidateFunction {
  if (ajv === undefined) {
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'a2a/a2a-v0.3.0.schema.json'), 'utf8')) as object, 'a2a-v0.3');
  }
  const v = ajv.getSchema(`a2a-v0.3#/definitions/${definition}`);
  if (v === undefined) throw new Error(`the v0.3 schema has no definition ${definition}`);
  return v;
}

function checkV03(definition: string, value: unknown, prefix: (string | number)[] = []): string[] {
  const v = v03(definition);
  if (v(value)) return [];
  const text = describeErrors(v.errors, 12);
  const lines = text === '' ? ['(root) invalid'] : text.split('\n');
  const where = prefix.length > 0 ? at(prefix) : '';
  return lines.map((l) => `${where !== '' ? `${where}${l.replace(/^\(root\)/, '')}` : l} (v0.3 ${definition})`);
}

const V03_METHODS: Record<string, string> = { 'message/send': 'SendMessageRequest', 'message/stream': 'SendStreamingMessageRequest' };

function validateV03(body: unknown): string[] {
  if (Array.isArray(body)) return body.length === 0 ? ['(root): a list of messages must not be empty'] : body.flatMap((m, i) => checkV03('Message', m, [`[${i}]`]));
  if (!isObj(body)) return ['(root): an A2A body is an object or a list of messages'];
  if ('jsonrpc' in body) {
    if (typeof body['method'] === 'string') {
      const def = V03_METHODS[body['method']];
      return def === undefined ? [`method: '${body['method']}' carries no message (expected ${Object.keys(V03_METHODS).join(' or ')})`] : checkV03(def, body);
    }
    return checkV03('SendMessageSuccessResponse', body);
  }
  if ('message' in body && !('messageId' in body)) return checkV03('MessageSendParams', body);
  if (body['kind'] === 'task' || ('status' in body && 'id' in body)) return checkV03('Task', body);
  return checkV03('Message', body);
}

// ---- v1.0: the SDK's ProtoJSON codec ----

const BASE64 = /^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$/;

/** A value ProtoJSON may write for a field that holds its default. */
const isDefault = (v: unknown): boolean => v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);

/** Where `sent` and what the SDK wrote back after reading it (`back`) differ. */
function diff(sent: unknown, back: unknown, path: (string | number)[], out: string[]): void {
  if (isDeepStrictEqual(sent, back)) return;
  if (path[path.length - 1] === 'raw' && typeof sent === 'string' && typeof back === 'string') {
    if (BASE64.test(sent) && sent.length % 4 !== 1 && Buffer.from(sent, 'base64').toString('base64') === back) return;
    out.push(`${at(path)}: not base64 bytes`);
    return;
  }
  if (Array.isArray(sent) && Array.isArray(back) && sent.length === back.length) {
    sent.forEach((x, i) => diff(x, back[i], [...path, i], out));
    return;
  }
  if (isObj(sent) && isObj(back)) {
    for (const k of Object.keys(sent)) {
      if (k in back) diff(sent[k], back[k], [...path, k], out);
      else if (!isDefault(sent[k])) out.push(`${at([...path, k])}: not a field the SDK reads here, or not a value it accepts (${JSON.stringify(sent[k])?.slice(0, 60)})`);
    }
    for (const k of Object.keys(back)) if (!(k in sent)) out.push(`${at([...path, k])}: written under another name (the SDK reads it as '${k}')`);
    return;
  }
  out.push(`${at(path)}: the SDK reads ${JSON.stringify(sent)?.slice(0, 60)} as ${JSON.stringify(back)?.slice(0, 60)}`);
}

/** a2a.proto's REQUIRED fields and one content per part, on the SDK's parsed objects. */
function requiredPart(p: Part, path: (string | number)[], out: string[]): void {
  if (p.content === undefined) out.push(`${at(path)}: a part needs one of text, raw, url, data`);
}
function requiredParts(parts: Part[], path: (string | number)[], out: string[], what: string): void {
  if (parts.length === 0) out.push(`${at([...path, 'parts'])}: ${what} needs at least one part`);
  parts.forEach((p, i) => requiredPart(p, [...path, 'parts', i], out));
}
function requiredMessage(m: Message, path: (string | number)[], out: string[]): void {
  if (m.messageId === '') out.push(`${at([...path, 'messageId'])}: required`);
  if (m.role !== Role.ROLE_USER && m.role !== Role.ROLE_AGENT) out.push(`${at([...path, 'role'])}: must be ROLE_USER or ROLE_AGENT`);
  requiredParts(m.parts, path, out, 'a message');
}
function requiredArtifact(a: Artifact, path: (string | number)[], out: string[]): void {
  if (a.artifactId === '') out.push(`${at([...path, 'artifactId'])}: required`);
  requiredParts(a.parts, path, out, 'an artifact');
}
function requiredTask(t: Task, path: (string | number)[], out: string[]): void {
  if (t.id === '') out.push(`${at([...path, 'id'])}: required`);
  if (t.status === undefined) out.push(`${at([...path, 'status'])}: required`);
  else {
    if (t.status.state === TaskState.TASK_STATE_UNSPECIFIED || t.status.state === TaskState.UNRECOGNIZED) out.push(`${at([...path, 'status', 'state'])}: a known TASK_STATE_* is required`);
    if (t.status.message !== undefined) requiredMessage(t.status.message, [...path, 'status', 'message'], out);
  }
  t.history.forEach((m, i) => requiredMessage(m, [...path, 'history', i], out));
  t.artifacts.forEach((a, i) => requiredArtifact(a, [...path, 'artifacts', i], out));
}

type Kind = 'message' | 'task' | 'send' | 'response';

/** Reads `value` as a `kind` with the SDK, and reports what does not come back and what is missing. */
function viaSdk(kind: Kind, value: unknown, path: (string | number)[]): string[] {
  if (!isObj(value)) return [`${at(path)}: must be an object`];
  const out: string[] = [];
  try {
    switch (kind) {
      case 'message': {
        const m = Message.fromJSON(value);
        diff(value, Message.toJSON(m), path, out);
        requiredMessage(m, path, out);
        break;
      }
      case 'task': {
        const t = Task.fromJSON(value);
        diff(value, Task.toJSON(t), path, out);
        requiredTask(t, path, out);
        break;
      }
      case 'send': {
        const s = SendMessageRequest.fromJSON(value);
        diff(value, SendMessageRequest.toJSON(s), path, out);
        if (s.message === undefined) out.push(`${at([...path, 'message'])}: required`);
        else requiredMessage(s.message, [...path, 'message'], out);
        break;
      }
      case 'response': {
        const r = SendMessageResponse.fromJSON(value);
        diff(value, SendMessageResponse.toJSON(r), path, out);
        if (r.payload === undefined) out.push(`${at(path)}: a send-message response holds a task or a message`);
        else if (r.payload.$case === 'task') requiredTask(r.payload.value, [...path, 'task'], out);
        else requiredMessage(r.payload.value, [...path, 'message'], out);
        break;
      }
    }
  } catch (e) {
    out.push(`${at(path)}: the SDK cannot read it (${(e as Error).message})`);
  }
  return out;
}

const V1_METHODS = new Set(['SendMessage', 'SendStreamingMessage']);
const RPC_KEYS = new Set(['jsonrpc', 'id', 'method', 'params', 'result']);

function validateV1(body: unknown): string[] {
  if (Array.isArray(body)) return body.length === 0 ? ['(root): a list of messages must not be empty'] : body.flatMap((m, i) => viaSdk('message', m, [`[${i}]`]));
  if (!isObj(body)) return ['(root): an A2A body is an object or a list of messages'];
  if ('jsonrpc' in body) {
    const out: string[] = [];
    if (body['jsonrpc'] !== '2.0') out.push("jsonrpc: must be '2.0'");
    const id = body['id'];
    if (!(typeof id === 'string' || typeof id === 'number' || (id === null && !('method' in body)))) out.push('id: must be a string or a number');
    for (const k of Object.keys(body)) if (!RPC_KEYS.has(k)) out.push(`${k}: not a JSON-RPC 2.0 member`);
    if ('method' in body) {
      if (!V1_METHODS.has(body['method'] as string)) out.push(`method: ${JSON.stringify(body['method'])} carries no message (expected ${[...V1_METHODS].join(' or ')})`);
      return [...out, ...viaSdk('send', body['params'], ['params'])];
    }
    return [...out, ...viaSdk('response', body['result'], ['result'])];
  }
  const keys = Object.keys(body);
  if (keys.length === 1 && (keys[0] === 'task' || keys[0] === 'message') && !('messageId' in body)) return viaSdk('response', body, []);
  if ('message' in body && !('messageId' in body)) return viaSdk('send', body, []);
  if ('status' in body && 'id' in body) return viaSdk('task', body, []);
  return viaSdk('message', body, []);
}

export function validateA2a(kind: 'request' | 'response', value: unknown): string[] {
  if (kind !== 'request') return ['A2A has no response body in this codec (its answers are tasks, messages and event streams, read as requests)'];
  return isV03(value) ? validateV03(value) : validateV1(value);
}
