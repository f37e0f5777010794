/**
 * Canonical messages -> Gemini `systemInstruction` + `contents`. Leading system/developer messages
 * become systemInstruction; later ones are moved there (reported). A run of `tool` messages and
 * the user message right after it become one user Content (function responses first). Each group
 * of canonical messages goes through stashGroup so `preserve` can stash what did not fit.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { EncodeContext } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { restoreResidue } from '../shared/residue.js';
import { stashGroup } from '../shared/stash.js';
import { orphanResultsAsContent } from '../shared/tool-pairing.js';
import { decodeSpan, isPlainText } from './content-decode.js';
import { CallNames, encodePart, loss, type PartContext, type WireRole } from './content-encode.js';
import { ID, own, reportExt } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

/** Google's documented placeholder for a function call that has no thought signature to replay. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

export interface EncodedContents {
  systemInstruction?: JsonObject;
  contents: JsonObject[];
  /** Top-stash fields: the exact leading system messages / messages with no wire Content left. */
  stash: JsonObject;
}

const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';

/** Gemini 3 and later reject a replayed function call without a thought signature. */
export function needsSignatures(model: string | undefined): boolean {
  const m = model === undefined ? null : /gemini-(\d+)/.exec(model);
  return m !== null && Number(m[1]) >= 3;
}

export function encodeContents(messages: readonly Message[], model: string | undefined, ctx: EncodeContext): EncodedContents {
  const parts: PartContext = { names: new CallNames(), omitted: new Set() };
  const signatures = needsSignatures(model);
  let lead = 0;
  while (lead < messages.length && isSystem(messages[lead] as Message)) lead++;

  const sysLosses = new LossList();
  const sysParts: JsonObject[] = [];
  for (let i = 0; i < lead; i++) sysParts.push(...systemParts(messages[i] as Message, ['messages', i], sysLosses, parts));
  if (lead > 1) sysLosses.push({ code: 'system-joined', path: ['messages'], message: `${lead} system messages joined into one systemInstruction`, action: 'approximated' });
  for (const l of sysLosses.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);

  const pairing = new Pairing(messages);
  const contents: JsonObject[] = [];
  // The group being built is messages[from, i): moved system messages and dropped ones ride with
  // the next message that has a Content (an index, so no array is made unless a stash needs it).
  let from = lead;
  let pendingLosses: Loss[] = [];
  let moved = false;
  let i = lead;
  while (i < messages.length) {
    const m = messages[i] as Message;
    if (isSystem(m)) {
      const local = new LossList();
      local.push({ code: 'system-moved', path: ['messages', i], message: 'system message moved to systemInstruction', action: 'approximated' });
      for (const w of systemParts(m, ['messages', i], local, parts)) sysParts.push(w);
      for (const l of local.items) pendingLosses.push(l);
      moved = true;
      i++;
      continue;
    }
    const local = new LossList();
    for (const l of pendingLosses) local.push(l);
    let wire: JsonObject | undefined;
    if (m.role === 'tool') {
      const out: JsonObject[] = [];
      while (i < messages.length && (messages[i] as Message).role === 'tool') {
        messageParts(pairing.message(i, local), 'user', i, local, parts, out);
        i++;
      }
      const next = messages[i];
      let user: Message | undefined;
      if (next?.role === 'user') {
        // One Gemini turn: it reads back as one user message holding both.
        loss(local, 'turn-merged', ['messages', i], 'tool results and the user message after them are sent as one Gemini turn', 'approximated');
        messageParts(pairing.message(i, local), 'user', i, local, parts, out);
        user = next;
        i++;
      }
      wire = out.length > 0 ? content('user', responsesFirst(out, i - 1, local), user) : undefined;
    } else {
      const role: WireRole = m.role === 'assistant' ? 'model' : 'user';
      const out = messageParts(pairing.message(i, local), role, i, local, parts, []);
      if (role === 'model' && signatures) addSentinel(out, m, ['messages', i], local);
      wire = out.length > 0 || own(m.ext) !== undefined ? content(role, out, m) : undefined;
      i++;
    }
    if (wire === undefined) {
      local.push({ code: 'empty-message', path: ['messages', i - 1], message: 'message left with no content was dropped', action: 'dropped' });
      pendingLosses = local.items;
      continue;
    }
    // The group is finished by stashGroup: `local` already holds its losses (with none, and
    // nothing to keep, stashGroup has nothing to do).
    if (local.length > 0) stashGroup(messages.slice(from, i), ctx, local, [wire], false, decodeSpan);
    contents.push(wire);
    from = i;
    pendingLosses = [];
  }

  const stash: JsonObject = {};
  if (from < messages.length) {
    for (const l of pendingLosses) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
    stash['$trailing'] = messages.slice(from) as unknown as JsonValue;
  }
  if (sysLosses.length > 0 || moved) stash['$system'] = messages.slice(0, lead) as unknown as JsonValue;
  const result: EncodedContents = { contents, stash };
  if (sysParts.length > 0 || lead > 0) {
    const sys: JsonObject = { parts: sysParts };
    const first = messages[0];
    if (lead === 1 && first && own(first.ext)?.['$noParts'] === true && sysParts.length === 0) delete sys['parts'];
    if (lead === 1 && first) {
      const role = own(first.ext)?.['$role'];
      if (typeof role === 'string') sys['role'] = role;
      restoreResidue(sys, first.ext, ID);
    }
    result.systemInstruction = sys;
  }
  return result;
}

/**
 * Gemini pairs a functionResponse with any earlier functionCall (by id, or by name, as the API
 * does); one that answers no earlier call is refused, so it is sent as text. The earlier calls are
 * those of every non-system message up to the current one.
 */
class Pairing {
  private readonly ids = new Set<string>();
  private readonly names = new Set<string>();
  /** Messages before this index are in `ids` and `names`. */
  private noted = 0;
  private at = 0;
  private losses: LossList | undefined;
  constructor(private readonly messages: readonly Message[]) {}

  /** `messages[k]` with its orphan results as text (reported to `losses`). */
  message(k: number, losses: LossList): Message {
    this.at = k;
    this.losses = losses;
    return orphanResultsAsContent(this.messages, k, this.report, this.answered);
  }

  /**
   * Nearly every result answers a call of the assistant message just before it: found by a scan
   * back to that message. Only a result it does not answer needs every earlier call, gathered
   * into the sets once (hashing every call id of a conversation cost more than the scans).
   */
  private answeredNearby(r: ToolResultPart): boolean {
    for (let j = this.at; j >= 0; j--) {
      const m = this.messages[j] as Message;
      if (!isSystem(m) && callIn(m, r)) return true;
      if (m.role === 'assistant') break;
    }
    return false;
  }

  private answeredEarlier(r: ToolResultPart): boolean {
    for (; this.noted <= this.at; this.noted++) {
      const m = this.messages[this.noted] as Message;
      if (isSystem(m)) continue;
      for (const p of m.parts) if (p.type === 'tool-call' && p.providerExecuted !== true) (this.ids.add(p.id), this.names.add(p.name));
    }
    return this.ids.has(r.callId) || (r.name !== undefined && this.names.has(r.name));
  }

  // Made once per encode, not per message: orphanResultsAsContent takes functions.
  private readonly answered = (r: ToolResultPart): boolean => this.answeredNearby(r) || this.answeredEarlier(r);
  private readonly report = (j: number, id: string): void => {
    this.losses?.push({ code: 'orphan-tool-result', path: ['messages', this.at, 'parts', j], message: `tool result '${id}' answers no earlier function call, which Gemini refuses; sent as text`, action: 'approximated' });
  };
}

/** Whether `m` holds a client call that `r` answers, by id or by name. */
function callIn(m: Message, r: ToolResultPart): boolean {
  for (const p of m.parts) {
    if (p.type === 'tool-call' && p.providerExecuted !== true && (p.id === r.callId || (r.name !== undefined && p.name === r.name))) return true;
  }
  return false;
}

function content(role: WireRole, parts: JsonObject[], m: Message | undefined): JsonObject {
  const hints = own(m?.ext);
  // No Gemini ext (the usual case): no hints and no residue, so one literal of a known shape.
  if (hints === undefined) return { role, parts };
  const out: JsonObject = {};
  if (hints['$noRole'] !== true) out['role'] = role;
  if (!(hints['$noParts'] === true && parts.length === 0)) out['parts'] = parts;
  if (m) restoreResidue(out, m.ext, ID);
  return out;
}

function formLoss(m: Message, path: Path, losses: LossList): void {
  if (m.name !== undefined) loss(losses, 'message-name', childPath(path, 'name'), 'Gemini contents have no participant name');
  reportExt(m.ext, path, losses);
  if (m.stringContent !== true && isPlainText(m.parts)) {
    loss(losses, 'content-form', childPath(path, 'parts'), 'a single text block is sent as Gemini reads a string: one text part', 'approximated');
  }
}

function systemParts(m: Message, path: Path, losses: LossList, ctx: PartContext): JsonObject[] {
  if (m.role === 'developer') loss(losses, 'developer-role', childPath(path, 'role'), 'developer message sent as systemInstruction', 'approximated');
  formLoss(m, path, losses);
  const out: JsonObject[] = [];
  for (let j = 0; j < m.parts.length; j++) {
    const p = m.parts[j] as Part;
    if (p.type !== 'text') {
      loss(losses, 'system-non-text', childPath(path, 'parts', j), `Gemini systemInstruction holds text; ${p.type} dropped`);
      continue;
    }
    const w = encodePart(p, 'user', childPath(path, 'parts', j), losses, ctx);
    if (w) out.push(w);
  }
  return out;
}

/** Appends the Gemini parts of `messages[i]` to `out` (and returns it). */
function messageParts(m: Message, role: WireRole, i: number, losses: LossList, ctx: PartContext, out: JsonObject[]): JsonObject[] {
  formLoss(m, ['messages', i], losses);
  for (let j = 0; j < m.parts.length; j++) {
    const w = encodePart(m.parts[j] as Part, role, ['messages', i, 'parts', j], losses, ctx);
    if (w) out.push(w);
  }
  return out;
}

/** Function responses before the rest of a merged user turn, as Gemini pairs them with the calls. */
function responsesFirst(parts: JsonObject[], i: number, losses: LossList): JsonObject[] {
  let other = false;
  let misordered = false;
  for (const p of parts) {
    if (!isResponse(p)) other = true;
    else if (other) misordered = true;
  }
  if (!misordered) return parts;
  loss(losses, 'tool-result-order', ['messages', i], 'function responses moved before the rest of the user turn', 'approximated');
  return [...parts.filter(isResponse), ...parts.filter((p) => !isResponse(p))];
}

const isResponse = (p: JsonObject): boolean => 'functionResponse' in p || 'function_response' in p;

/** The first function call of a model turn needs a signature on Gemini 3: Google's placeholder. */
function addSentinel(parts: JsonObject[], m: Message, path: Path, losses: LossList): void {
  const first = parts.find((p) => 'functionCall' in p || 'function_call' in p);
  if (first === undefined || parts.some((p) => 'thoughtSignature' in p || 'thought_signature' in p)) return;
  first['thoughtSignature'] = SKIP_SIGNATURE;
  const j = m.parts.findIndex((p) => p.type === 'tool-call' && !p.providerExecuted);
  loss(losses, 'thought-signature', childPath(path, 'parts', Math.max(j, 0)), `function call has no thought signature; Gemini 3 is sent '${SKIP_SIGNATURE}'`, 'approximated');
}
