/**
 * A2A -> canonical Request. Accepted bodies, either version: a list of messages (a stored
 * history), one message, a Task (its history, then its status message and its artifacts as the
 * agent's answer), SendMessageRequest / MessageSendParams (`{message, configuration?, metadata?}`),
 * v1.0 SendMessageResponse (`{task}` / `{message}`), and a JSON-RPC request or response wrapping
 * one of those. The messages are compacted (compact.ts). What has no canonical slot (task id,
 * context, configuration, the JSON-RPC envelope ...) is kept under `ext.a2a` for the way back.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext } from '../codec.js';
import { keepResidue, residue } from '../shared/residue.js';
import { A2A, type A2aVersion } from './a2a-api.js';
import { compactEntries, decodeParts, type Entry } from './compact.js';
import { loss } from './parts.js';
import { invalid, readAs, readMessage, type Read } from './validate.js';
import type { Note } from './versions.js';

export type Form = 'messages' | 'message' | 'task' | 'send';

interface Unwrapped {
  form: Form;
  value: JsonValue;
  path: Path;
  top: JsonObject;
}

const ARTIFACT_KEYS = new Set(['parts']);

/** v0.3 JSON-RPC method names of the v1.0 ones (spec §9 / a2a-js migration guide). */
export const V1_METHODS: Record<string, string> = { 'message/send': 'SendMessage', 'message/stream': 'SendStreamingMessage', 'tasks/get': 'GetTask' };

/** Takes off the JSON-RPC envelope and v1.0 response wrapper, noting them in `top`. */
function unwrap(body: unknown): Unwrapped {
  const top: JsonObject = {};
  let value = body as JsonValue;
  let path: Path = [];
  if (isJsonObject(value) && 'jsonrpc' in value) {
    if ('error' in value) throw invalid(['error'], 'a JSON-RPC error response holds no messages');
    const key = 'params' in value ? 'params' : 'result' in value ? 'result' : undefined;
    if (key === undefined) throw invalid([], "a JSON-RPC message without 'params' or 'result'");
    const rpc = residue(value, new Set([key])) ?? {};
    // The method is kept by its v1.0 name; the encoder names it in the version it writes.
    if (typeof rpc['method'] === 'string') rpc['method'] = V1_METHODS[rpc['method']] ?? rpc['method'];
    top['rpc'] = rpc;
    top['$rpcKey'] = key;
    value = value[key] as JsonValue;
    path = [key];
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'task' || keys[0] === 'message') && isJsonObject(value[keys[0]]) && !('messageId' in value)) {
      top['$wrap'] = keys[0];
      path = [...path, keys[0]];
      value = value[keys[0]] as JsonValue;
      return { form: keys[0] as Form, value, path, top };
    }
  }
  if (Array.isArray(value)) return { form: 'messages', value, path, top };
  if (!isJsonObject(value)) throw invalid(path, 'an A2A request is a message, a list of messages, a task or a send-message request', 'object or array', value);
  if ('message' in value && !('messageId' in value)) return { form: 'send', value, path, top };
  if ('status' in value && !('taskId' in value)) return { form: 'task', value, path, top };
  return { form: 'message', value, path, top };
}

function noteTo(ctx: DecodeContext): Note {
  return (path, code, message) => ctx.losses.push({ code, path, message, action: 'approximated' });
}

/** A task's artifacts: one assistant message each, its artifact fields kept for the way back. */
function artifactMessages(task: JsonObject, path: Path): Message[] {
  const list = task['artifacts'];
  if (!Array.isArray(list)) return [];
  return (list as JsonObject[]).map((a, i) => {
    const msg: Message = { role: 'assistant', parts: decodeParts(a['parts'] as JsonObject[], [...path, 'artifacts', i, 'parts']) };
    keepResidue(msg, A2A, { ...residue(a, ARTIFACT_KEYS), $from: 'artifact' });
    return msg;
  });
}

function decodeTask(read: Read, path: Path, top: JsonObject, ctx: DecodeContext): Message[] {
  const task = read.value;
  const history = Array.isArray(task['history']) ? (task['history'] as JsonObject[]) : [];
  const entries: Entry[] = history.map((msg, i) => ({ msg, path: [...path, 'history', i] }));
  const messages = compactEntries(entries, ctx.losses, ctx.limits);
  const status = task['status'] as JsonObject;
  const statusMsg = isJsonObject(status['message']) ? status['message'] : undefined;
  // The status message is the agent's latest word unless the history already holds it (by id).
  const inHistory = statusMsg !== undefined && history.some((m) => m['messageId'] === statusMsg['messageId']);
  const rest: JsonObject = residue(task, new Set(['history', 'artifacts', 'status'])) ?? {};
  rest['status'] = inHistory || statusMsg === undefined ? status : (residue(status, new Set(['message'])) ?? {});
  if (Array.isArray(task['history'])) rest['$history'] = true;
  if (Array.isArray(task['artifacts'])) rest['$artifacts'] = true;
  top['task'] = rest;
  if (statusMsg !== undefined && !inHistory) {
    for (const m of compactEntries([{ msg: statusMsg, path: [...path, 'status', 'message'] }], ctx.losses, ctx.limits)) {
      keepResidue(m, A2A, { ...m.ext?.[A2A], $from: 'status' });
      messages.push(m);
    }
  }
  messages.push(...artifactMessages(task, path));
  return messages;
}

export function decodeRequest(body: unknown, ctx: DecodeContext): Request {
  const { form, value, path, top } = unwrap(body);
  const note = noteTo(ctx);
  let messages: Message[];
  let version: A2aVersion;
  switch (form) {
    case 'messages': {
      const list = value as JsonValue[];
      if (list.length === 0) throw invalid(path, 'a list of A2A messages must not be empty');
      const reads = list.map((m, i) => readMessage(m, [...path, i], note));
      version = (reads[0] as Read).version;
      messages = compactEntries(reads.map((r, i) => ({ msg: r.value, path: [...path, i] })), ctx.losses, ctx.limits);
      break;
    }
    case 'message': {
      const read = readMessage(value, path, note);
      version = read.version;
      messages = compactEntries([{ msg: read.value, path }], ctx.losses, ctx.limits);
      break;
    }
    case 'send': {
      const send = value as JsonObject;
      const read = readMessage(send['message'], [...path, 'message'], note);
      version = read.version;
      messages = compactEntries([{ msg: read.value, path: [...path, 'message'] }], ctx.losses, ctx.limits);
      top['send'] = residue(send, new Set(['message'])) ?? {};
      break;
    }
    case 'task': {
      const obj = value as JsonObject;
      const read = readAs('task', typeof obj['kind'] === 'string' || isV03Task(obj) ? '0.3' : '1.0', obj, path, note);
      version = read.version;
      messages = decodeTask(read, path, top, ctx);
      break;
    }
  }
  if (messages.length === 0) loss(ctx.losses, 'empty-history', path, 'nothing of the A2A history is left after compaction');
  const req: Request = { messages };
  keepResidue(req, A2A, { ...top, $form: form, $version: version });
  return req;
}

function isV03Task(obj: JsonObject): boolean {
  const status = obj['status'];
  return isJsonObject(status) && typeof status['state'] === 'string' && !status['state'].startsWith('TASK_STATE_');
}
