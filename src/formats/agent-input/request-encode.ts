/**
 * Canonical Request -> agent input request. The form follows the messages: a lone user message is
 * the string form (when it was a string) or the content-block form; anything else is the messages
 * form. Agent input has no model, tools or sampling fields: every such field is a loss, stashed
 * at the top level under `preserve`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { EncodeContext } from '../codec.js';
import { hasForeignExt, messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { putTopStash } from '../shared/stash.js';
import { AGENT_INPUT, type AgentInputRequest } from './agent-input-api.js';
import { decodeBlocks } from './content-decode.js';
import { encodeBlocks, loss, own } from './content-encode.js';
import { encodeMessages } from './messages-encode.js';
import type { Form } from './validate.js';

/** Which form these messages take; `$form` (from this format's decode) wins when it still fits. */
function chooseForm(req: Request): Form {
  const hinted = own(req.ext)?.['$form'];
  const only = req.messages.length === 1 ? req.messages[0] : undefined;
  // A user message that keeps a role of its own (decoded here from an unknown wire role) needs the messages form.
  const ownRole = only !== undefined && typeof own(only.ext)?.['role'] === 'string';
  if (hinted === 'messages' || only?.role !== 'user' || ownRole || only.parts.some((p) => p.type === 'tool-result')) return 'messages';
  const first = only.parts[0];
  const oneText = only.parts.length === 1 && first?.type === 'text' && first.text.trim() !== '';
  if (hinted === 'legacy' && oneText) return 'legacy';
  return only.stringContent === true && oneText ? 'text' : 'blocks';
}

/** The string, legacy or block form of a lone user message; losses go to `local`. */
function encodeSingle(m: Message, form: Form, out: JsonObject, local: LossList): void {
  reportForeignExt(m.ext, AGENT_INPUT, ['messages', 0], local);
  if (m.name !== undefined) loss(local, 'message-name', ['messages', 0, 'name'], 'agent input has no participant name');
  const blocks = encodeBlocks(m.parts, ['messages', 0], local);
  const first = blocks[0];
  if (form === 'blocks' || first === undefined) {
    out['input'] = blocks;
    return;
  }
  // One text block: its own residue (if any came from a block) cannot ride on a bare string.
  const text = first['text'] as string;
  const extra = Object.keys(first).filter((k) => k !== 'type' && k !== 'text');
  if (first['type'] !== 'text' || extra.length > 0) loss(local, 'unsupported-field', ['messages', 0, 'parts', 0], 'the text block becomes a plain string and keeps no other fields');
  if (form === 'text') out['input'] = text;
  else out['parameters'] = { question: text };
}

/** Whether the string / legacy / block form just written reads back as exactly this message. */
function singleDecodesBack(single: JsonObject, m: Message): boolean {
  if (messageHasForeignExt(m, AGENT_INPUT)) return false;
  const input = single['input'] ?? (single['parameters'] as JsonObject | undefined)?.['question'];
  const back: Message =
    typeof input === 'string'
      ? { role: 'user', parts: [{ type: 'text', text: input }], stringContent: true }
      : { role: 'user', parts: decodeBlocks((input ?? []) as JsonValue[]) };
  return sameValue(back, m);
}

/** Top-level canonical fields, all without an agent input slot. */
const TOP_FIELDS = [
  'model', 'tools', 'toolChoice', 'parallelToolCalls', 'maxTokens', 'temperature', 'topP', 'topK', 'stop', 'seed',
  'presencePenalty', 'frequencyPenalty', 'responseFormat', 'reasoning', 'user', 'candidateCount', 'stream', 'metadata',
] as const;

export function encodeRequest(req: Request, ctx: EncodeContext): AgentInputRequest {
  const out: JsonObject = {};
  let form = chooseForm(req);
  const only = req.messages[0];
  if (form !== 'messages' && only) {
    const local = new LossList();
    const single: JsonObject = {};
    encodeSingle(only, form, single, local);
    // Under preserve a lone message that lost anything, or would not decode back the same, takes
    // the messages form, whose first message can carry the stash.
    // A single message with nothing agent input can hold would be an empty block list, which is
    // invalid: the messages form writes a placeholder instead.
    const empty = Array.isArray(single['input']) && single['input'].length === 0;
    if (empty || (ctx.preserve && (local.length > 0 || !singleDecodesBack(single, only)))) form = 'messages';
    else {
      for (const l of local.items) ctx.losses.push(l);
      Object.assign(out, single);
    }
  }
  if (form === 'messages') {
    if (req.messages.length === 0) loss(ctx.losses, 'empty-input', ['messages'], 'a request with no messages has no valid agent input');
    out['input'] = encodeMessages(req.messages, ctx);
  }
  const stash: JsonObject = {};
  for (const key of TOP_FIELDS) {
    const value = req[key];
    if (value === undefined) continue;
    ctx.losses.push({ code: 'unsupported-field', path: [key], message: `agent input has no '${key}'`, action: ctx.preserve ? 'stashed' : 'dropped' });
    stash[key] = value as JsonValue;
  }
  // Agent parameters other than the legacy question come back beside it.
  const params = own(req.ext)?.['parameters'];
  if (form === 'legacy' && params !== null && typeof params === 'object' && !Array.isArray(params)) {
    out['parameters'] = { ...(out['parameters'] as JsonObject), ...params };
  }
  restoreResidue(out, req.ext, AGENT_INPUT);
  const foreign = new LossList();
  reportForeignExt(req.ext, AGENT_INPUT, [], foreign);
  for (const l of foreign.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  // Another format's private hints and empty values are no loss, but its way back needs them.
  if (hasForeignExt(req.ext, AGENT_INPUT)) {
    const ext: JsonObject = {};
    for (const origin in req.ext) if (origin !== AGENT_INPUT) ext[origin] = req.ext[origin] as JsonObject;
    stash['ext'] = ext;
  }
  putTopStash(out, stash, ctx);
  return out as AgentInputRequest;
}
