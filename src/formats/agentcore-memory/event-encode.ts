/**
 * One canonical message -> one AgentCore event `{ payload, metadata? }` (the mapping):
 * - user and assistant text parts -> one conversational payload each (USER / ASSISTANT), text as is;
 *   a text over 100,000 characters goes into a messageContent blob instead (as the Python SDK does),
 *   reported: long-term extraction reads conversational text only;
 * - every other part -> a `camunda.messageContent` blob holding the part (content.ts);
 * - a run of an assistant's tool calls -> one `camunda.toolCalls` blob; a run of tool results -> a
 *   TOOL text of their results joined by newlines, then one `camunda.toolCallResults` blob, each
 *   result named after its call when it has no name and `names` (the calls before it) holds the call;
 * - a `camunda.messageMetadata` blob, last, only when needed: the role cannot be told from the
 *   payloads (slots.ts), or there is metadata that does not fit event metadata, a name, Camunda
 *   properties to give back, or (under `preserve`) message fields AgentCore has no slot for;
 * - system and developer messages are not events (AgentCore has no system role): reported.
 * At most 99 payloads of its own (one is left for a preserve stash): the rest are packed into one
 * `interlingua.payloads` blob, reported.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part, TextPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt } from '../shared/residue.js';
import { AGENTCORE, BLOB, ENVELOPE_VERSION, LIMITS, PROP_MESSAGE, PROP_ROLE, PROP_USER_NAME, WIRE_ROLES, type WireRole } from './agentcore-memory-api.js';
import type { CallNames } from './call-names.js';
import { encodeCall, encodeContent, encodeResult, own, resultsSummary, splitExt } from './content.js';
import { TEXT_ROLE } from './event-decode.js';
import { writeMetadata } from './metadata.js';
import { plainSegments, type Slot } from './slots.js';
import { childPath } from '../shared/child-path.js';

/** Own-ext keys of a message this codec writes (the rest are hints or reported). */
const OWN_KEYS = new Set(['event', 'metadata', 'properties']);
/** The most payloads an event gets from its message: one is left for a preserve stash blob. */
export const OWN_PAYLOADS = LIMITS.payloads - 1;

interface Out {
  payload: JsonObject;
  slot: Slot;
}

const WIRE_OF: Readonly<Record<string, WireRole>> = { user: 'USER', assistant: 'ASSISTANT', tool: 'TOOL' };

type EnvelopeKey = 'content' | 'toolCalls' | 'results' | 'payload';

/** A blob's envelope: one literal per key, as a computed key builds each object by a slower path (~5% of the read-back check). */
function envelope(type: string, key: EnvelopeKey, data: JsonValue): JsonObject {
  switch (key) {
    case 'content': return { blobType: type, version: ENVELOPE_VERSION, content: data };
    case 'toolCalls': return { blobType: type, version: ENVELOPE_VERSION, toolCalls: data };
    case 'results': return { blobType: type, version: ENVELOPE_VERSION, results: data };
    case 'payload': return { blobType: type, version: ENVELOPE_VERSION, payload: data };
  }
}
const conv = (role: WireRole, text: string): Out => ({ payload: { conversational: { role, content: { text } } }, slot: { kind: 'conversational', role } });
const content = (part: Part): Out => ({ payload: { blob: envelope(BLOB.messageContent, 'content', encodeContent(part)) }, slot: { kind: 'content' } });

function loss(losses: LossSink, code: string, path: Path, message: string, action: Loss['action'] = 'dropped'): void {
  losses.push({ code, path, message, action });
}

/**
 * A minimal result read from a lone TOOL text, still as it was: written back as that text. Read
 * as the result of an older event's call (older-results.ts), it holds that call's id in `$paired`;
 * another id given to it since makes it a result like any other.
 */
function isMinimal(p: Part): p is ToolResultPart {
  const mine = own(p.ext);
  if (p.type !== 'tool-result' || mine?.['$minimal'] !== true || Object.keys(p.ext ?? {}).length !== 1) return false;
  const paired = mine['$paired'];
  const keys = Object.keys(mine).length;
  if (paired === undefined ? keys !== 1 || p.callId !== '' : keys !== 2 || paired !== p.callId) return false;
  const [c, more] = p.content;
  return p.name === undefined && p.stringContent === true && p.isError === undefined && p.cache === undefined && more === undefined
    && c?.type === 'text' && c.text !== '' && c.text.length <= LIMITS.conversationalText && c.citations === undefined && c.cache === undefined && c.ext === undefined;
}

const isClientCall = (p: Part | undefined): p is ToolCallPart => p?.type === 'tool-call' && p.providerExecuted !== true;
const isClientResult = (p: Part | undefined): p is ToolResultPart => p?.type === 'tool-result' && p.providerExecuted !== true && !isMinimal(p);

function encodeText(part: TextPart, role: WireRole | undefined, at: Path, losses: LossSink, info: LossSink): Out | undefined {
  if (part.text === '') {
    loss(losses, 'empty-text', at, 'AgentCore conversational text is 1 character or more: the empty text part is left out');
    return undefined;
  }
  const hint = own(part.ext)?.['$role'];
  const wire = typeof hint === 'string' && (WIRE_ROLES as readonly string[]).includes(hint) ? (hint as WireRole) : role;
  // Text of a tool message, or text with fields of this format's own (from a blob): kept whole in a blob.
  if (wire === undefined || Object.keys(splitExt(part.ext).residue).length > 0) return content(part);
  if (part.text.length > LIMITS.conversationalText) {
    loss(info, 'long-text-blob', at, `text of ${part.text.length} characters is over AgentCore's ${LIMITS.conversationalText} for conversational text: stored in a blob, which long-term extraction does not read`, 'approximated');
    return content(part);
  }
  if (part.citations?.length) loss(losses, 'citations', childPath(at, 'citations'), 'AgentCore conversational text carries no citations');
  if (part.cache) loss(losses, 'cache-control', childPath(at, 'cache'), 'AgentCore conversational text carries no cache breakpoint');
  reportForeignExt(part.ext, AGENTCORE, at, losses);
  return conv(wire, part.text);
}

/** The content payloads of a message, in part order. */
function payloadsOf(m: Message, path: Path, losses: LossSink, info: LossSink, names: CallNames | undefined): Out[] {
  const out: Out[] = [];
  const parts = m.parts;
  for (let j = 0; j < parts.length; ) {
    const part = parts[j] as Part;
    if (m.role === 'assistant' && isClientCall(part)) {
      const run: ToolCallPart[] = [];
      while (m.role === 'assistant' && isClientCall(parts[j])) run.push(parts[j++] as ToolCallPart);
      const calls = run.map(encodeCall);
      const bare = own(run[0]?.ext)?.['$bare'] === true;
      out.push({ payload: { blob: bare ? calls : envelope(BLOB.toolCalls, 'toolCalls', calls) }, slot: { kind: 'calls' } });
      continue;
    }
    if (m.role !== 'assistant' && isMinimal(part)) {
      out.push(conv('TOOL', (part.content[0] as TextPart).text));
      j++;
      continue;
    }
    if (m.role !== 'assistant' && isClientResult(part)) {
      const run: ToolResultPart[] = [];
      while (isClientResult(parts[j])) run.push(parts[j++] as ToolResultPart);
      const hint = own(run[0]?.ext)?.['$summary'];
      const summary = typeof hint === 'string' ? hint : hint === false ? '' : resultsSummary(run);
      if (summary.trim() !== '' || (typeof hint === 'string' && hint !== '')) out.push(conv('TOOL', summary));
      out.push({ payload: { blob: envelope(BLOB.toolCallResults, 'results', run.map((r) => encodeResult(r, names?.get(r.callId)))) }, slot: { kind: 'results' } });
      continue;
    }
    // The path only where a loss may name it: the read-back check encodes every event again.
    const at = childPath(path, 'parts', j);
    j++;
    if (part.type === 'text') {
      const w = encodeText(part, TEXT_ROLE[m.role], at, losses, info);
      if (w) out.push(w);
    } else out.push(content(part));
  }
  return out;
}

/**
 * The event of one message, or undefined for a system or developer message (reported). `losses`
 * gets what the event does not hold; `info` what it holds in another place than a reader of the
 * same dialect would look (a blob instead of event metadata or conversational text). Blobs are
 * written as JSON text, as the service returns them; `blobs: 'objects'` leaves them objects (for a
 * comparison with text read, see mapping.ts writesBack). `names`: call-names.ts namesFor.
 */
export function encodeEvent(
  m: Message,
  path: Path,
  losses: LossSink,
  info: LossSink,
  preserve: boolean,
  metadataEntries: number = LIMITS.metadataEntries,
  blobs: 'text' | 'objects' = 'text',
  names?: CallNames,
): JsonObject | undefined {
  if (m.role === 'system' || m.role === 'developer') {
    loss(losses, 'system-message', path, `AgentCore Memory has no ${m.role} role: ${m.role} messages are not stored as events (keep them with the session's context)`);
    return undefined;
  }
  const mine = own(m.ext) ?? {};
  const body = payloadsOf(m, path, losses, info, names);
  const props: JsonObject = { [PROP_ROLE]: WIRE_OF[m.role] as string };
  if (m.name !== undefined) props[PROP_USER_NAME] = m.name;
  const kept = mine['properties'];
  if (kept !== null && typeof kept === 'object' && !Array.isArray(kept)) Object.assign(props, kept);
  const { foreign } = splitExt(m.ext);
  const carry: JsonObject = {};
  if (preserve) {
    if (m.stringContent === true) carry['stringContent'] = true;
    if (foreign !== undefined) {
      carry['ext'] = foreign as unknown as JsonObject;
      const l = new LossList();
      reportForeignExt(m.ext, AGENTCORE, path, l);
      for (const x of l.items) info.push({ ...x, action: 'stashed' });
    }
  } else reportForeignExt(m.ext, AGENTCORE, path, losses);
  if (Object.keys(carry).length > 0) props[PROP_MESSAGE] = carry;
  for (const k in mine) if (!k.startsWith('$') && !OWN_KEYS.has(k)) loss(losses, 'unsupported-field', childPath(path, 'ext', AGENTCORE, k), `'${k}' has no place in an AgentCore event`);
  const md = writeMetadata(mine['metadata'], mine, path, losses, info, metadataEntries);
  const segs = plainSegments(body.map((o) => o.slot));
  const needMeta = body.length === 0 || segs.length !== 1 || segs[0]?.role !== m.role || Object.keys(md.blob).length > 0 || Object.keys(props).length > 1 || mine['$metaBlob'] === true;
  let payload = body.map((o) => o.payload);
  const room = OWN_PAYLOADS - (needMeta ? 1 : 0);
  if (payload.length > room) {
    loss(info, 'payload-limit', path, `the message needs ${payload.length} payloads, over AgentCore's ${LIMITS.payloads} per event: payloads from ${room} on are packed into one interlingua.payloads blob`, 'approximated');
    payload = [...payload.slice(0, room - 1), { blob: envelope(BLOB.payloads, 'payload', payload.slice(room - 1)) }];
  }
  if (needMeta) payload.push({ blob: { blobType: BLOB.messageMetadata, version: ENVELOPE_VERSION, metadata: md.blob, properties: props } });
  const objects = blobs === 'objects' || mine['$objectBlobs'] === true;
  const event: JsonObject = {};
  const rest = mine['event'];
  if (rest !== null && typeof rest === 'object' && !Array.isArray(rest)) Object.assign(event, rest);
  event['payload'] = objects ? payload : payload.map(textBlobs);
  if (md.event !== undefined) event['metadata'] = md.event;
  return event;
}

/** A payload with its blob as JSON text (packed payloads inside are text too). */
export function textBlobs(p: JsonObject): JsonObject {
  const blob = p['blob'];
  if (blob === undefined || typeof blob === 'string') return p;
  if (blob !== null && typeof blob === 'object' && !Array.isArray(blob) && blob['blobType'] === BLOB.payloads) {
    return { blob: JSON.stringify({ ...blob, payload: (blob['payload'] as JsonObject[]).map(textBlobs) }) };
  }
  return { blob: JSON.stringify(blob) };
}
