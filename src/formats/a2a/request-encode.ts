/**
 * Canonical Request -> A2A: its messages as A2A messages carrying their canonical types
 * (messages-encode.ts), as a list of messages, or in the form the A2A request came in (task,
 * message, send-message request, JSON-RPC envelope: `ext.a2a.$form`), in v1.0 unless the request
 * came in v0.3 or the context asks (`a2aVersion`).
 *
 * A2A has no model, tools or sampling: each is a loss. Under `preserve` they, other formats' ext
 * and the mark that message ids were made up go in the request-level stash (stash.ts says where).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Request } from '../../model/request.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt } from '../shared/residue.js';
import { STASH_KEY, STASH_VERSION } from '../shared/stash.js';
import { A2A, type A2aVersion } from './a2a-api.js';
import { MessageIds } from './message-ids.js';
import { callNames, encodeMessages, records, type At } from './messages-encode.js';
import { loss, own } from './parts.js';
import { V1_METHODS } from './request-decode.js';
import { NO_KIND, putInMetadata, REQUEST_STASH_KEY } from './stash.js';
import { taskToV03, type Note } from './versions.js';

/** The encode context, plus the A2A version to write (default: the source's, else 1.0). */
export interface A2aEncodeContext extends EncodeContext {
  a2aVersion?: A2aVersion;
}

const TOP_FIELDS = [
  'model', 'tools', 'toolChoice', 'parallelToolCalls', 'maxTokens', 'temperature', 'topP', 'topK', 'stop', 'seed',
  'presencePenalty', 'frequencyPenalty', 'responseFormat', 'reasoning', 'user', 'candidateCount', 'stream', 'metadata',
] as const;

/** The method in the version written (decode keeps the v1.0 name). */
function methodFor(method: JsonValue | undefined, version: A2aVersion): JsonValue | undefined {
  if (version === '1.0') return method;
  for (const [v03, v1] of Object.entries(V1_METHODS)) if (method === v1) return v03;
  return method;
}

/** The task of the `task` form: its residue, history, status message and artifacts, in `version`. */
function buildTask(req: Request, top: JsonObject, version: A2aVersion, ctx: EncodeContext): { task: JsonObject; generatedIds: boolean } {
  const rest = isJsonObject(top['task']) ? top['task'] : {};
  const task: JsonObject = {};
  for (const k in rest) if (!k.startsWith('$')) task[k] = rest[k] as JsonValue;
  const status: JsonObject = isJsonObject(rest['status']) ? { ...rest['status'] } : { state: 'TASK_STATE_COMPLETED' };
  const history: At[] = [];
  let statusAt: At | undefined;
  const artifacts: JsonObject[] = [];
  req.messages.forEach((m, i) => {
    const from = own(m.ext)?.['$from'];
    if (from === 'artifact') {
      const a: JsonObject = {};
      const hints = own(m.ext) ?? {};
      for (const k in hints) if (!k.startsWith('$')) a[k] = hints[k] as JsonValue;
      // Artifacts are no stash groups (they hold no message metadata): what they lose is dropped.
      a['parts'] = records({ ...m, ext: { [A2A]: { $untyped: true } } }, ['messages', i], ctx.losses).flatMap((r) => r.parts);
      artifacts.push(a);
    } else if (from === 'status' && statusAt === undefined) statusAt = { m, i };
    else history.push({ m, i });
  });
  task['status'] = status;
  if (artifacts.length > 0 || rest['$artifacts'] === true) task['artifacts'] = artifacts;
  // Messages are written in the target version directly: their stash fingerprints the wire as sent.
  const out = version === '0.3' ? taskToV03(task, [], noteTo(ctx.losses)) : task;
  if (version === '0.3' && rest[NO_KIND] === true) delete out['kind'];
  // The history and the status message are one output: their ids differ, results find their calls in both.
  const shared = { names: callNames(req.messages), ids: new MessageIds() };
  const encoded = encodeMessages(history, version, ctx, shared);
  if (encoded.wire.length > 0 || rest['$history'] === true) out['history'] = encoded.wire;
  let generatedIds = encoded.generatedIds;
  if (statusAt !== undefined) {
    const s = encodeMessages([statusAt], version, ctx, shared);
    generatedIds ||= s.generatedIds;
    if (s.wire[0] !== undefined) (out['status'] as JsonObject)['message'] = s.wire[0];
  }
  return { task: out, generatedIds };
}

function noteTo(losses: LossSink): Note {
  return (path, code, message) => losses.push({ code, path, message, action: 'dropped' });
}

/** Request fields A2A has no slot for, and other formats' ext: losses, and the request stash's fields. */
function topFields(req: Request, losses: LossSink): JsonObject {
  const fields: JsonObject = {};
  for (const key of TOP_FIELDS) {
    if (req[key] === undefined) continue;
    loss(losses, 'unsupported-field', [key], `A2A messages have no '${key}'`);
    fields[key] = req[key] as unknown as JsonValue;
  }
  const foreign: JsonObject = {};
  for (const origin in req.ext) if (origin !== A2A && req.ext[origin] !== undefined) foreign[origin] = req.ext[origin];
  reportForeignExt(req.ext, A2A, [], losses);
  // Another format's ext comes back through the stash, its private hints too.
  if (Object.keys(foreign).length > 0) fields['ext'] = foreign;
  return fields;
}

/** The object whose metadata holds the request stash, and under which key (stash.ts). */
function stashHolder(form: string, inner: JsonValue): { holder: JsonObject; key: string } | undefined {
  if (form === 'send' || form === 'task') return isJsonObject(inner) ? { holder: inner, key: STASH_KEY } : undefined;
  const first = Array.isArray(inner) ? inner[0] : inner;
  return isJsonObject(first) ? { holder: first, key: REQUEST_STASH_KEY } : undefined;
}

export function encodeRequest(req: Request, ctx: A2aEncodeContext): unknown {
  const top = own(req.ext) ?? {};
  const version: A2aVersion = ctx.a2aVersion ?? (top['$version'] === '0.3' ? '0.3' : '1.0');
  let form = typeof top['$form'] === 'string' ? top['$form'] : 'messages';
  const topLosses = new LossList();
  const fields = topFields(req, topLosses);
  // The messages' losses are reported after the request's, once it is known whether those are stashed.
  const later = new LossList();
  const mctx: EncodeContext = { preserve: ctx.preserve, losses: later };

  let inner: JsonValue;
  let generatedIds: boolean;
  if (form === 'task') {
    const built = buildTask(req, top, version, mctx);
    inner = built.task;
    generatedIds = built.generatedIds;
  } else {
    const encoded = encodeMessages(req.messages.map((m, i) => ({ m, i })), version, mctx);
    const wire = encoded.wire;
    generatedIds = encoded.generatedIds;
    if ((form === 'message' || form === 'send') && wire.length !== 1) {
      loss(topLosses, 'a2a-form', [], `the request became ${wire.length} A2A messages: written as a list, not as one ${form === 'send' ? 'send-message request' : 'message'}`, 'approximated');
      // The form it came in (and its fields: configuration, envelope ...) comes back from the stash.
      fields['$a2a'] = top;
      form = 'messages';
    }
    if (form === 'messages') inner = wire;
    else if (form === 'message') inner = wire[0] as JsonObject;
    else inner = { ...(isJsonObject(top['send']) ? top['send'] : {}), message: wire[0] as JsonObject };
  }

  if (ctx.preserve && generatedIds) fields['$generatedIds'] = true;
  // A request that was never A2A: its decode drops the form and version hints it would add.
  if (ctx.preserve && own(req.ext) === undefined) fields['$plain'] = true;
  const at = ctx.preserve && Object.keys(fields).length > 0 ? stashHolder(form, inner) : undefined;
  if (at !== undefined) putInMetadata(at.holder, at.key, { v: STASH_VERSION, fields });
  for (const l of topLosses.items) ctx.losses.push(at !== undefined ? { ...l, action: 'stashed' } : l);
  for (const l of later.items) ctx.losses.push(l);

  if (top['$wrap'] === 'task' || top['$wrap'] === 'message') inner = { [top['$wrap']]: inner };
  if (isJsonObject(top['rpc']) && typeof top['$rpcKey'] === 'string') {
    const rpc: JsonObject = { ...top['rpc'] };
    if (rpc['method'] !== undefined) rpc['method'] = methodFor(rpc['method'], version) as JsonValue;
    return { ...rpc, [top['$rpcKey']]: inner };
  }
  return inner;
}
