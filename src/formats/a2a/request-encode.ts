/**
 * Canonical Request -> A2A messages carrying their canonical types. Each canonical message becomes
 * one A2A message per run of parts of one class, all with the message's id: content parts in a
 * TextMessageContentEvent, tool calls in a ToolCallStartEvent (whole arguments), tool results in a
 * ToolCallResultEvent. A2A has two roles: system and developer messages go as user messages that
 * name their role in `metadata.canonical_role`; tool results go as the user's.
 *
 * The body is a list of messages, or the form the A2A request came in (task, message,
 * send-message request, JSON-RPC envelope: `ext.a2a.$form`), in v1.0 unless the request came in
 * v0.3 or the context asks (`a2aVersion`). A2A has no model, tools or sampling: each is a loss.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Request } from '../../model/request.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { A2A, CANONICAL_ROLE, CANONICAL_TYPE, type A2aVersion } from './a2a-api.js';
import { partRuns, RUN_TYPES, type RunClass } from './compact.js';
import { encodePart, loss, own } from './parts.js';
import { V1_METHODS } from './request-decode.js';
import { writeCall, writeResult } from './tool-data.js';
import { messageToV03, taskToV03, type Note } from './versions.js';

/** The encode context, plus the A2A version to write (default: the source's, else 1.0). */
export interface A2aEncodeContext extends EncodeContext {
  a2aVersion?: A2aVersion;
}

/** Residue keys of a message that are written as named wire fields, not restored blindly. */
const OWN_FIELDS = ['messageId', 'metadata'] as const;

function toolData(cls: RunClass, parts: Part[], path: Path, losses: LossSink): JsonObject {
  if (cls === 'calls') {
    return {
      data: {
        tool_calls: parts.map((p) => {
          const c = p as Part & { type: 'tool-call' };
          const args: JsonValue = own(c.ext)?.['$argsObject'] === true ? c.arguments : (c.argumentsJson ?? JSON.stringify(c.arguments));
          if (c.providerExecuted) loss(losses, 'provider-executed', path, 'A2A tool calls do not say who runs them; the provider-executed mark is dropped', 'approximated');
          return writeCall(c.id, c.name, args, c.ext);
        }),
      },
    };
  }
  return { data: { tool_results: parts.map((p, j) => writeResult(p as Part & { type: 'tool-result' }, [...path, j], losses)) } };
}

/** A run of content parts as A2A parts; `path` is the message's. */
function contentParts(parts: Part[], base: number, path: Path, losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  parts.forEach((p, j) => {
    const w = encodePart(p, [...path, 'parts', base + j], losses);
    if (w !== undefined) out.push(w);
  });
  return out;
}

interface Rec {
  type: string | null;
  agent: boolean;
  parts: JsonObject[];
}

/** The A2A records of one canonical message (v1.0 form, before ids and metadata). */
function records(m: Message, path: Path, losses: LossSink): Rec[] {
  const hints = own(m.ext);
  const agentRole = m.role === 'assistant' || (m.role === 'tool' && hints?.['$agent'] === true);
  const runs = partRuns(m.parts);
  let base = 0;
  const out: Rec[] = [];
  const untyped = hints?.['$untyped'] === true;
  const types = Array.isArray(hints?.['$types']) && hints['$types'].length === runs.length ? (hints['$types'] as (string | null)[]) : undefined;
  runs.forEach((run, r) => {
    const parts = run.cls === 'content' ? contentParts(run.parts, base, path, losses) : [toolData(run.cls, run.parts, [...path, 'parts', base], losses)];
    base += run.parts.length;
    // Results a user sends are the user's; the agent's own (provider-executed) are the agent's.
    const agent = run.cls === 'results' ? agentRole && m.role !== 'user' : agentRole;
    if (untyped && out.length > 0) (out[0] as Rec).parts.push(...parts);
    else out.push({ type: untyped ? null : (types?.[r] ?? RUN_TYPES[run.cls]), agent, parts });
  });
  return out.filter((r) => r.parts.length > 0);
}

/** One canonical message -> its A2A messages (v1.0). */
function encodeMessage(m: Message, i: number, losses: LossSink): JsonObject[] {
  const path: Path = ['messages', i];
  reportForeignExt(m.ext, A2A, path, losses);
  if (m.name !== undefined) loss(losses, 'message-name', [...path, 'name'], 'A2A messages have no participant name');
  const hints = own(m.ext);
  let recs = records(m, path, losses);
  if (recs.length === 0) {
    if (m.parts.length === 0) {
      loss(losses, 'empty-message', path, 'an A2A message needs at least one part: the empty message is dropped');
      return [];
    }
    // Nothing A2A can hold is left: a placeholder keeps the turn, as other targets do.
    const what = [...new Set(m.parts.map((p) => p.type))].join(', ');
    recs = [{ type: RUN_TYPES.content, agent: m.role === 'assistant', parts: [{ text: `[omitted: ${what}]` }] }];
  }
  const messageId = typeof hints?.['messageId'] === 'string' ? hints['messageId'] : `msg-${i + 1}`;
  const residueMeta = isJsonObject(hints?.['metadata']) ? hints['metadata'] : undefined;
  const named = m.role === 'system' || m.role === 'developer' ? m.role : undefined;
  // A message that came from A2A already said its role this way: no loss on the way back.
  if (named !== undefined && hints?.['messageId'] === undefined) {
    loss(losses, 'system-as-user', path, `A2A has no ${named} role: sent as a user message with metadata.canonical_role '${named}'`, 'approximated');
  }
  return recs.map((r) => {
    const out: JsonObject = { messageId, role: r.agent ? 'ROLE_AGENT' : 'ROLE_USER', parts: r.parts };
    const meta: JsonObject = { ...residueMeta };
    if (r.type !== null) meta[CANONICAL_TYPE] = r.type;
    if (named !== undefined) meta[CANONICAL_ROLE] = named;
    if (residueMeta !== undefined || Object.keys(meta).length > 0) out['metadata'] = meta;
    const rest: JsonObject = {};
    for (const k in hints) if (!(OWN_FIELDS as readonly string[]).includes(k)) rest[k] = hints[k] as JsonValue;
    restoreResidue(out, { [A2A]: rest }, A2A);
    return out;
  });
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

/** The v1.0 task of the `task` form: its residue, history, status message and artifacts. */
function buildTask(req: Request, top: JsonObject, version: A2aVersion, losses: LossSink): JsonObject {
  const rest = isJsonObject(top['task']) ? top['task'] : {};
  const task: JsonObject = {};
  for (const k in rest) if (!k.startsWith('$')) task[k] = rest[k] as JsonValue;
  const status: JsonObject = isJsonObject(rest['status']) ? { ...rest['status'] } : { state: 'TASK_STATE_COMPLETED' };
  const history: JsonObject[] = [];
  const artifacts: JsonObject[] = [];
  req.messages.forEach((m, i) => {
    const from = own(m.ext)?.['$from'];
    if (from === 'artifact') {
      const a: JsonObject = {};
      const hints = own(m.ext) ?? {};
      for (const k in hints) if (!k.startsWith('$')) a[k] = hints[k] as JsonValue;
      a['parts'] = records({ ...m, ext: { [A2A]: { $untyped: true } } }, ['messages', i], losses).flatMap((r) => r.parts);
      artifacts.push(a);
    } else if (from === 'status' && status['message'] === undefined) {
      const [msg] = encodeMessage(m, i, losses);
      if (msg !== undefined) status['message'] = msg;
    } else history.push(...encodeMessage(m, i, losses));
  });
  task['status'] = status;
  if (history.length > 0 || rest['$history'] === true) task['history'] = history;
  if (artifacts.length > 0 || rest['$artifacts'] === true) task['artifacts'] = artifacts;
  return version === '0.3' ? taskToV03(task, [], noteTo(losses)) : task;
}

function noteTo(losses: LossSink): Note {
  return (path, code, message) => losses.push({ code, path, message, action: 'dropped' });
}

export function encodeRequest(req: Request, ctx: A2aEncodeContext): unknown {
  const top = own(req.ext) ?? {};
  const version: A2aVersion = ctx.a2aVersion ?? (top['$version'] === '0.3' ? '0.3' : '1.0');
  const note = noteTo(ctx.losses);
  let form = typeof top['$form'] === 'string' ? top['$form'] : 'messages';
  for (const key of TOP_FIELDS) {
    if (req[key] !== undefined) loss(ctx.losses, 'unsupported-field', [key], `A2A messages have no '${key}'`);
  }
  reportForeignExt(req.ext, A2A, [], ctx.losses);
  if (ctx.preserve) loss(ctx.losses, 'no-preserve', [], 'the A2A codec does not stash what it cannot hold: preserve has no effect', 'approximated');

  let inner: JsonValue;
  if (form === 'task') inner = buildTask(req, top, version, ctx.losses);
  else {
    const list = req.messages.flatMap((m, i) => encodeMessage(m, i, ctx.losses));
    const wire = version === '0.3' ? list.map((m, i) => messageToV03(m, [i], note)) : list;
    if ((form === 'message' || form === 'send') && wire.length !== 1) {
      loss(ctx.losses, 'a2a-form', [], `the request became ${wire.length} A2A messages: written as a list, not as one ${form === 'send' ? 'send-message request' : 'message'}`, 'approximated');
      form = 'messages';
    }
    if (form === 'messages') inner = wire;
    else if (form === 'message') inner = wire[0] as JsonObject;
    else inner = { ...(isJsonObject(top['send']) ? top['send'] : {}), message: wire[0] as JsonObject };
  }
  if (top['$wrap'] === 'task' || top['$wrap'] === 'message') inner = { [top['$wrap']]: inner };
  if (isJsonObject(top['rpc']) && typeof top['$rpcKey'] === 'string') {
    const rpc: JsonObject = { ...top['rpc'] };
    if (rpc['method'] !== undefined) rpc['method'] = methodFor(rpc['method'], version) as JsonValue;
    return { ...rpc, [top['$rpcKey']]: inner };
  }
  return inner;
}
