/**
 * A2A -> canonical Request. Accepted bodies, either version: a list of messages (a stored
 * history), one message, a Task (its history, then its status message and its artifacts as the
 * agent's answer), SendMessageRequest / MessageSendParams (`{message, configuration?, metadata?}`),
 * v1.0 SendMessageResponse (`{task}` / `{message}`), and a JSON-RPC request or response wrapping
 * one of those. The messages are compacted (compact.ts). What has no canonical slot (task id,
 * context, configuration, the JSON-RPC envelope ...) is kept under `ext.a2a` for the way back.
 * A `preserve` stash in metadata (stash.ts) is taken off first: stashed messages replace the wire
 * messages they stand for, the request's stashed fields come back, and none of it is left behind.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext, LossSink } from '../codec.js';
import { keepResidue, residue } from '../shared/residue.js';
import { A2A, type A2aVersion } from './a2a-api.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { STASH_KEY } from '../shared/stash.js';
import { decodeParts } from './compact.js';
import { decodeMessages } from './messages-decode.js';
import { loss } from './parts.js';
import { NO_KIND, REQUEST_STASH_KEY, takeFromMetadata, withoutGeneratedId } from './stash.js';
import { invalid, readAs, type Read } from './validate.js';
import type { Note } from './versions.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';

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
      path = childPath(path, keys[0]);
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
function artifactMessages(task: JsonObject, path: Path, losses: LossSink): Message[] {
  const list = task['artifacts'];
  if (!Array.isArray(list)) return [];
  return (list as JsonObject[]).map((a, i) => {
    const msg: Message = { role: 'assistant', parts: decodeParts(a['parts'] as JsonObject[], childPath(path, 'artifacts', i, 'parts'), { losses }) };
    keepResidue(msg, A2A, { ...residue(a, ARTIFACT_KEYS), $from: 'artifact' });
    return msg;
  });
}

interface Decoded {
  messages: Message[];
  stashed: boolean[];
}

function decodeTask(read: Read, raw: JsonObject, path: Path, top: JsonObject, ctx: DecodeContext, note: Note): Decoded {
  const task = read.value;
  // Messages are read from the wire as sent (their stashes fingerprint that), the rest from the v1.0 form.
  const rawHistory = Array.isArray(raw['history']) ? (raw['history'] as JsonValue[]) : [];
  const out: Decoded = rawHistory.length > 0 ? decodeMessages(rawHistory, childPath(path, 'history'), ctx, note) : { messages: [], stashed: [] };
  const history = Array.isArray(task['history']) ? (task['history'] as JsonObject[]) : [];
  const status = task['status'] as JsonObject;
  const statusMsg = isJsonObject(status['message']) ? status['message'] : undefined;
  // The status message is the agent's latest word unless the history already holds it (by id).
  const inHistory = statusMsg !== undefined && history.some((m) => m['messageId'] === statusMsg['messageId']);
  const rest: JsonObject = residue(task, new Set(['history', 'artifacts', 'status'])) ?? {};
  rest['status'] = inHistory || statusMsg === undefined ? status : (residue(status, new Set(['message'])) ?? {});
  if (Array.isArray(task['history'])) rest['$history'] = true;
  if (Array.isArray(task['artifacts'])) rest['$artifacts'] = true;
  if (read.version === '0.3' && raw['kind'] === undefined) rest[NO_KIND] = true;
  top['task'] = rest;
  if (statusMsg !== undefined && !inHistory) {
    const rawStatus = raw['status'] as JsonObject;
    const got = decodeMessages([rawStatus['message'] as JsonValue], childPath(path, 'status', 'message'), ctx, note, true);
    got.messages.forEach((m, k) => {
      keepResidue(m, A2A, { ...m.ext?.[A2A], $from: 'status' });
      out.messages.push(m);
      out.stashed.push(got.stashed[k] === true);
    });
  }
  for (const m of artifactMessages(task, path, ctx.losses)) {
    out.messages.push(m);
    out.stashed.push(false);
  }
  return out;
}

/** The request-level stash (stash.ts) taken off the object that holds it; `value` is a copy without it. */
function takeRequestStash(form: Form, value: JsonValue): { value: JsonValue; stash: JsonValue | undefined } {
  if (form === 'send' || form === 'task') {
    if (!isJsonObject(value)) return { value, stash: undefined };
    const { holder, stash } = takeFromMetadata(value, STASH_KEY);
    return { value: holder, stash };
  }
  const first = Array.isArray(value) ? value[0] : value;
  if (!isJsonObject(first)) return { value, stash: undefined };
  const { holder, stash } = takeFromMetadata(first, REQUEST_STASH_KEY);
  if (stash === undefined) return { value, stash };
  return { value: Array.isArray(value) ? [holder, ...value.slice(1)] : holder, stash };
}

export function decodeRequest(body: unknown, ctx: DecodeContext): Request {
  const unwrapped = unwrap(body);
  const { form, path, top } = unwrapped;
  const { value, stash } = takeRequestStash(form, unwrapped.value);
  const note = noteTo(ctx);
  let got: Decoded;
  let version: A2aVersion;
  switch (form) {
    case 'messages': {
      const list = value as JsonValue[];
      if (list.length === 0) throw invalid(path, 'a list of A2A messages must not be empty');
      const d = decodeMessages(list, path, ctx, note);
      ({ version } = d);
      got = d;
      break;
    }
    case 'message': {
      const d = decodeMessages([value], path, ctx, note, true);
      ({ version } = d);
      got = d;
      break;
    }
    case 'send': {
      const send = value as JsonObject;
      const d = decodeMessages([send['message'] as JsonValue], childPath(path, 'message'), ctx, note, true);
      ({ version } = d);
      got = d;
      top['send'] = residue(send, new Set(['message'])) ?? {};
      break;
    }
    case 'task': {
      const obj = value as JsonObject;
      const read = readAs('task', typeof obj['kind'] === 'string' || isV03Task(obj) ? '0.3' : '1.0', obj, path, note);
      version = read.version;
      got = decodeTask(read, obj, path, top, ctx, note);
      break;
    }
  }
  const { messages } = got;
  if (messages.length === 0) loss(ctx.losses, 'empty-history', path, 'nothing of the A2A history is left after compaction');
  const req: Request = { messages };
  keepResidue(req, A2A, { ...top, $form: form, $version: version });
  const fields = stash === undefined ? undefined : applyTopStash(req as unknown as JsonObject, { [STASH_KEY]: stash }, ctx);
  // Ids an encode made up go again (the messages it stashed were never given them).
  if (fields?.['$generatedIds'] === true) {
    for (let k = 0; k < messages.length; k++) if (got.stashed[k] !== true) messages[k] = withoutGeneratedId(messages[k] as Message, k);
  }
  // The request was written as a list, not in the form it came in: that form comes back.
  if (isJsonObject(fields?.['$a2a'])) req.ext = { ...req.ext, [A2A]: fields['$a2a'] };
  if (fields?.['$plain'] === true && req.ext !== undefined) {
    const { [A2A]: _hints, ...others } = req.ext;
    if (Object.keys(others).length > 0) req.ext = others;
    else deleteKey(req as unknown as JsonObject, 'ext');
  }
  return req;
}

function isV03Task(obj: JsonObject): boolean {
  const status = obj['status'];
  return isJsonObject(status) && typeof status['state'] === 'string' && !status['state'].startsWith('TASK_STATE_');
}
