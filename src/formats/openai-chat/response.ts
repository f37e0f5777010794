/**
 * Chat Completions non-streaming response (`chat.completion`) <-> canonical Response.
 */
import type { Citation } from '../../model/citation.js';
import type { HasExt } from '../../model/ext.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { TextPart } from '../../model/part.js';
import type { Choice, Response } from '../../model/response.js';
import type { DecodeContext, EncodeContext, LossSink } from '../codec.js';
import { hasForeignExt, messageHasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { keepResidue, reportForeignExt, residue, restoreResidue } from '../shared/residue.js';
import { putTopStash, stashGroup, takeMessageStash, takeTopStash } from '../shared/stash.js';
import { joinTexts } from '../shared/join-texts.js';
import { contentPart, isBlank, loss, own, restoreNested } from './content-encode.js';
import { withHint } from './content-decode.js';
import { decodeAssistant } from './message-decode.js';
import { sortAssistantParts } from './assistant-parts.js';
import { foreignExt } from './content-encode.js';
import { OPENAI_CHAT, type ChatResponse } from './openai-chat-api.js';
import { decodeFinishReason, encodeFinishReason } from './stop-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { spanArguments, validateResponse, type ParsedArgs } from './validate.js';
import { randomHex32 } from '../shared/random-hex.js';
import { childPath } from '../shared/child-path.js';
import { deleteKey } from '../shared/delete-keys.js';
import { hasKeys } from '../shared/own-keys.js';

const RESPONSE_KEYS = new Set(['id', 'object', 'created', 'model', 'choices', 'usage']);
const CHOICE_KEYS = new Set(['index', 'message', 'finish_reason']);
const MESSAGE_KEYS = new Set(['role', 'content', 'refusal', 'name', 'tool_calls', 'function_call', 'reasoning_content', 'annotations']);
const ANNOTATION_KEYS = new Set(['type', 'url_citation']);
const URL_CITATION_KEYS = new Set(['url', 'title', 'start_index', 'end_index']);

function setResidue(target: HasExt, key: string, value: JsonObject[string]): void {
  keepResidue(target, OPENAI_CHAT, { ...target.ext?.[OPENAI_CHAT], [key]: value });
}

/** url_citation annotations -> citations on the (single, string) content's text part. */
function decodeAnnotations(list: JsonObject[], text: TextPart | undefined): boolean {
  if (text === undefined || list.length === 0) return false;
  if (!list.every((a) => a['type'] === 'url_citation' && isJsonObject(a['url_citation']))) return false;
  text.citations = list.map((a): Citation => {
    const u = a['url_citation'] as JsonObject;
    const c: Citation = { type: 'url', url: u['url'] as string, startIndex: u['start_index'] as number, endIndex: u['end_index'] as number };
    if (typeof u['title'] === 'string') c.title = u['title'];
    let rest = residue(a, ANNOTATION_KEYS);
    const inner = residue(u, URL_CITATION_KEYS);
    if (inner) (rest ??= {})['url_citation'] = inner;
    keepResidue(c, OPENAI_CHAT, rest);
    return c;
  });
  return true;
}

function decodeResponseMessage(m: JsonObject, args: ParsedArgs): Message {
  const msg = decodeAssistant(m, args, MESSAGE_KEYS);
  // Response content is a string or null; both the spec's required keys may be absent on compatible providers.
  if (!('content' in m)) setResidue(msg, '$noContent', true);
  if (!('refusal' in m)) setResidue(msg, '$noRefusal', true);
  const annotations = m['annotations'];
  if (annotations !== undefined) {
    const text = msg.parts.find((p): p is TextPart => p.type === 'text');
    if (!Array.isArray(annotations) || !decodeAnnotations(annotations as JsonObject[], text)) setResidue(msg, 'annotations', annotations);
  }
  return msg;
}

/** A response message decoded alone: the preserve stash's SpanDecoder (shared/stash.ts). */
function decodeResponseSpan(wire: readonly JsonObject[]): Message[] {
  const args = spanArguments(wire);
  return wire.map((m) => decodeResponseMessage(m, args));
}

function decodeChoice(c: JsonObject, i: number, args: ParsedArgs, ctx: DecodeContext): Choice {
  const wire = c['message'] as JsonObject;
  const stash = takeMessageStash([wire], 0, ctx, ['choices', i, 'message'], decodeResponseSpan);
  const message = stash?.messages[0] ?? decodeResponseMessage(wire, args);
  const choice: Choice = { index: c['index'] as number, message };
  let rest = residue(c, CHOICE_KEYS);
  const finish = c['finish_reason'];
  if (typeof finish === 'string') {
    choice.stopReason = decodeFinishReason(finish);
    if (choice.stopReason.unified === 'other') rest = withHint(rest, '$rawFinish', true);
  } else if (finish === null) rest = withHint(rest, 'finish_reason', null);
  else rest = withHint(rest, '$noFinish', true);
  if (!('logprobs' in c)) rest = withHint(rest, '$noLogprobs', true);
  keepResidue(choice, OPENAI_CHAT, rest);
  return choice;
}

export function decodeResponse(input: unknown, ctx: DecodeContext): Response {
  const { body, args } = validateResponse(input, ctx.limits);
  const res: Response = { choices: (body['choices'] as JsonObject[]).map((c, i) => decodeChoice(c, i, args, ctx)) };
  if (typeof body['id'] === 'string') res.id = body['id'];
  if (typeof body['model'] === 'string') res.model = body['model'];
  if (typeof body['created'] === 'number') res.created = body['created'];
  const usage = body['usage'];
  if (isJsonObject(usage)) res.usage = decodeUsage(usage);
  let rest = residue(body, RESPONSE_KEYS);
  if (usage === null) rest = withHint(rest, 'usage', null);
  // 'chat.completion' is what the encoder writes anyway: kept only when it says something else.
  const object = body['object'];
  if (object === undefined) rest = withHint(rest, '$noObject', true);
  else if (object !== 'chat.completion') rest = withHint(rest, 'object', object);
  keepResidue(res, OPENAI_CHAT, rest);
  applyResponseStash(res, body, ctx);
  return res;
}

function applyResponseStash(res: Response, body: JsonObject, ctx: DecodeContext): void {
  const fields = takeTopStash(body, ctx);
  if (!fields) return;
  const stops = fields['stopReasons'];
  if (isJsonObject(stops)) {
    for (const choice of res.choices) {
      const s = stops[String(choice.index)];
      if (isJsonObject(s)) choice.stopReason = s as unknown as Choice['stopReason'] & object;
    }
  }
  const exts = fields['choiceExt'];
  if (isJsonObject(exts)) {
    for (const choice of res.choices) {
      const e = exts[String(choice.index)];
      if (isJsonObject(e)) choice.ext = { ...(e as Choice['ext']), ...choice.ext };
    }
  }
  if (isJsonObject(fields['usage'])) res.usage = fields['usage'] as unknown as Response['usage'] & object;
  const absent = fields['absent'];
  if (Array.isArray(absent)) for (const key of absent) if (key === 'id' || key === 'created' || key === 'model') deleteKey(res as unknown as JsonObject, key);
  if (isJsonObject(fields['ext'])) res.ext = { ...(fields['ext'] as Response['ext']), ...res.ext };
}

/** OpenAI `url_citation` annotations for the joined content, offsets into that final string. */
function annotationsFor(texts: TextPart[], starts: number[], where: Path[], losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  texts.forEach((t, k) => {
    const start = starts[k] ?? 0;
    (t.citations ?? []).forEach((c, n) => {
      const at = childPath((where[k] ?? []), 'citations', n);
      if (c.type !== 'url') {
        loss(losses, 'citations', at, `${c.type} citations have no Chat Completions annotation`);
        return;
      }
      if (c.citedText !== undefined || c.encryptedIndex !== undefined) {
        loss(losses, 'citations', at, 'url_citation keeps url, title and range only (cited text and provider index dropped)', 'approximated');
      }
      reportForeignExt(c.ext, OPENAI_CHAT, at, losses);
      const u: JsonObject = {
        url: c.url,
        title: c.title ?? '',
        start_index: start + (c.startIndex ?? 0),
        end_index: start + (c.endIndex ?? t.text.length),
      };
      const a: JsonObject = { type: 'url_citation', url_citation: u };
      restoreNested(a, c.ext, 'url_citation');
      out.push(a);
    });
  });
  return out;
}

function encodeResponseMessage(m: Message, path: Path, losses: LossSink): JsonObject {
  reportForeignExt(m.ext, OPENAI_CHAT, path, losses);
  const hints = own(m.ext);
  const sorted = sortAssistantParts(m, path, losses);
  let texts: TextPart[] = [];
  let where: Path[] = [];
  for (const { part, j } of sorted.content) {
    const json = contentPart(part, 'text-only', childPath(path, 'content', j), losses, true);
    if (json === undefined) continue;
    const t: TextPart = { type: 'text', text: json['text'] as string };
    if (part.type === 'text' && part.citations) t.citations = part.citations;
    texts.push(t);
    where.push(childPath(path, 'content', j));
  }
  if (texts.length > 1) {
    const kept: Path[] = [];
    texts = texts.filter((t, k) => {
      if (!isBlank(t.text)) return kept.push(where[k] ?? path) > 0;
      loss(losses, 'empty-text', where[k] ?? path, 'empty or whitespace-only text part dropped');
      return false;
    });
    where = kept;
    if (texts.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), `${texts.length} text parts joined into one string`, 'approximated');
  }
  const { text, starts } = joinTexts(texts);
  const msg: JsonObject = { role: 'assistant' };
  if (texts.length > 0 || hints?.['$noContent'] !== true) msg['content'] = texts.length > 0 ? text : null;
  if (sorted.refusals.length > 0 || hints?.['$noRefusal'] !== true) msg['refusal'] = sorted.refusals.length > 0 ? sorted.refusals.join('\n\n') : null;
  if (sorted.calls.length > 0) msg['tool_calls'] = sorted.calls;
  if (sorted.legacy) msg['function_call'] = sorted.legacy;
  if (sorted.reasoning.length > 0) msg['reasoning_content'] = sorted.reasoning.join('\n\n');
  const annotations = annotationsFor(texts, starts, where, losses);
  if (annotations.length > 0) msg['annotations'] = annotations;
  restoreResidue(msg, m.ext, OPENAI_CHAT);
  return msg;
}

function flushTop(local: LossList, ctx: EncodeContext, stash: JsonObject, key: string, value: JsonObject[string]): void {
  if (local.length === 0) return;
  for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  stash[key] = value;
  local.items.length = 0;
}

/**
 * A canonical response without `created` gets the current time and one without `id` a fresh
 * `chatcmpl-` id: both are required and carry no information to lose.
 */
export function encodeResponse(res: Response, ctx: EncodeContext): ChatResponse {
  const stash: JsonObject = {};
  const local = new LossList();
  const stops: JsonObject = {};
  const choiceExt: JsonObject = {};
  const choices = res.choices.map((c, i): JsonObject => {
    const path: Path = ['choices', i];
    const hints = own(c.ext);
    // One stash group per choice (stashGroup), with no callbacks made per choice.
    const group = new LossList();
    const wire = [encodeResponseMessage(c.message, childPath(path, 'message'), group)];
    const [message] = stashGroup([c.message], ctx, group, wire, group.length === 0 && ctx.preserve && messageHasForeignExt(c.message, OPENAI_CHAT), decodeResponseSpan);
    const out: JsonObject = { index: c.index, message: message as JsonObject };
    // Another format's choice fields (Gemini avgLogprobs ...) and hints come back from the stash.
    reportForeignExt(c.ext, OPENAI_CHAT, path, local);
    const foreignChoice = foreignExt(c.ext);
    if (foreignChoice !== undefined) choiceExt[String(c.index)] = foreignChoice;
    flushTop(local, ctx, choiceExt, String(c.index), foreignChoice ?? {});
    if (c.stopReason) {
      const wire = encodeFinishReason(c.stopReason, hints, childPath(path, 'stopReason'), local);
      out['finish_reason'] = wire;
      // Another format's raw value (Anthropic model_context_window_exceeded -> length) may not
      // come back from the unified one: no loss of meaning, but only the stash keeps it. Kept only
      // under preserve (putTopStash writes nothing otherwise): an index key is an element of the
      // object, and setting it and counting keys was a third of encoding a minimal response.
      if (ctx.preserve && c.stopReason.raw !== undefined && c.stopReason.raw !== wire) stops[String(c.index)] = c.stopReason as unknown as JsonObject;
      if (local.length > 0) flushTop(local, ctx, stops, String(c.index), c.stopReason as unknown as JsonObject);
    } else if (hints?.['$noFinish'] !== true && hints?.['finish_reason'] !== null) out['finish_reason'] = 'stop';
    restoreResidue(out, c.ext, OPENAI_CHAT);
    if (!('logprobs' in out) && hints?.['$noLogprobs'] !== true) out['logprobs'] = null;
    return out;
  });
  if (hasKeys(stops)) stash['stopReasons'] = stops;
  if (hasKeys(choiceExt)) stash['choiceExt'] = choiceExt;
  const out: JsonObject = {
    id: res.id ?? `chatcmpl-${randomHex32()}`,
    created: res.created ?? Math.floor(Date.now() / 1000),
    model: res.model ?? '',
    choices,
  };
  // Made up because required, not because known: under preserve they come back absent.
  // A list only when one is missing (no filter closure and list per response).
  if (res.id === undefined || res.created === undefined || res.model === undefined) {
    const absent: string[] = [];
    if (res.id === undefined) absent.push('id');
    if (res.created === undefined) absent.push('created');
    if (res.model === undefined) absent.push('model');
    stash['absent'] = absent;
  }
  if (res.usage) {
    out['usage'] = encodeUsage(res.usage, local, ['usage']);
    if (hasForeignExt(res.usage.ext, OPENAI_CHAT)) stash['usage'] = res.usage as unknown as JsonObject;
    flushTop(local, ctx, stash, 'usage', res.usage as unknown as JsonObject);
  }
  restoreResidue(out, res.ext, OPENAI_CHAT);
  if (!('object' in out) && own(res.ext)?.['$noObject'] !== true) out['object'] = 'chat.completion';
  // Another format's ext comes back through the stash, its private hints too (they are not
  // losses, but without them that format's way back is not exact).
  const foreign = foreignExt(res.ext);
  if (reportForeignExt(res.ext, OPENAI_CHAT, [], local)) flushTop(local, ctx, stash, 'ext', foreign ?? {});
  else if (foreign !== undefined) stash['ext'] = foreign;
  putTopStash(out, stash, ctx);
  return out as unknown as ChatResponse;
}
