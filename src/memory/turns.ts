/**
 * Turns at event level. A turn starts at an event whose (first) message is a user message that is
 * not only tool results (see startsTurn); the
 * rule reads an event's role the way the agentcore-memory format does (reference §4.3-4.5 and the
 * format's slots.ts), without decoding the whole message:
 * 1. a `camunda.messageMetadata` blob's `properties.role` (Camunda's layout, the last payload) wins;
 * 2. else the first conversational payload that speaks: USER, ASSISTANT, or a TOOL text that is not
 *    the summary right before a `camunda.toolCallResults` blob (OTHER says nothing);
 * 3. else, blobs only: a tool-calls blob (enveloped, or the older bare JSON array) makes it an
 *    assistant event, a tool-results blob a tool event, any other blob (an image, a document) a user
 *    event; an event with no payload at all has no role.
 * Packed payloads (`interlingua.payloads`) are read in place. Blobs may be JSON text or objects.
 * A blob that is not an envelope is only content here: the format's decoder is where it is refused.
 */
import type { JsonValue } from '../model/json.js';
import type { PayloadItem } from './store.js';

export type EventRole = 'user' | 'assistant' | 'tool';

type Slot =
  | { kind: 'text'; role: string }
  | { kind: 'calls' | 'results' | 'content' }
  | { kind: 'meta'; role: string | undefined };

/** How the JSON text of a Strands SessionMessage (Python's json.dumps) of tool results begins. */
const STRANDS_RESULTS = '{"message": {"role": "user", "content": [{"toolResult": ';

/**
 * The slot of an envelope written as JSON text with `blobType` first (as this codec and Camunda's
 * write them), told from its first characters: most blobs need no parse just to be classified. The
 * metadata blob (its role is inside) and packed payloads are parsed.
 */
const PREFIX = '{"blobType":"';
const BY_TYPE: Readonly<Record<string, 'calls' | 'results' | 'content' | 'stash'>> = {
  'camunda.toolCalls': 'calls',
  'camunda.toolCallResults': 'results',
  'camunda.messageContent': 'content',
  'interlingua.stash': 'stash',
};
function envelopeKind(blob: unknown): 'calls' | 'results' | 'content' | 'stash' | undefined {
  if (typeof blob !== 'string' || !blob.startsWith(PREFIX)) return undefined;
  const end = blob.indexOf('"', PREFIX.length);
  const type = end < 0 ? '' : blob.slice(PREFIX.length, end);
  return Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
}

/**
 * The role in a metadata blob's text, remembered by text: a session's user and assistant events
 * mostly carry the same few metadata blobs, read again on every lastTurns. Only short texts of
 * that blob type are kept, and the map is emptied when full, so it stays small.
 */
const META_PREFIX = '{"blobType":"camunda.messageMetadata"';
const META_TEXT_MAX = 1024;
const META_ROLES_MAX = 256;
const metaRoles = new Map<string, string | undefined>();

function metaRole(value: JsonValue | undefined): string | undefined {
  const props = isObject(value) ? value['properties'] : undefined;
  return isObject(props) && typeof props['role'] === 'string' ? props['role'] : undefined;
}

/** The slot of a metadata blob written as text with `blobType` first, or undefined for any other blob. */
function metaTextSlot(blob: unknown): Slot | undefined {
  if (typeof blob !== 'string' || blob.length > META_TEXT_MAX || !blob.startsWith(META_PREFIX)) return undefined;
  if (metaRoles.has(blob)) return { kind: 'meta', role: metaRoles.get(blob) };
  const value = blobValue(blob);
  // Text that only begins like one (another blobType after it, or not JSON) is read the long way.
  if (!isObject(value) || value['blobType'] !== 'camunda.messageMetadata') return undefined;
  const role = metaRole(value);
  if (metaRoles.size >= META_ROLES_MAX) metaRoles.clear();
  metaRoles.set(blob, role);
  return { kind: 'meta', role };
}

function blobValue(blob: JsonValue): JsonValue | undefined {
  if (typeof blob !== 'string') return blob;
  try {
    return JSON.parse(blob) as JsonValue;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function slotsOf(payload: readonly unknown[], out: Slot[], nested: boolean): void {
  for (const item of payload) {
    if (!isObject(item)) continue;
    const conv = item['conversational'];
    if (isObject(conv)) {
      const content = conv['content'];
      const text = isObject(content) ? content['text'] : undefined;
      // Strands' session manager stores a user message of tool results as its JSON text: a tool event.
      const role = typeof text === 'string' && text.startsWith(STRANDS_RESULTS) ? 'TOOL' : String(conv['role']);
      out.push({ kind: 'text', role });
      continue;
    }
    if (!('blob' in item)) continue;
    const known = envelopeKind(item['blob']);
    if (known !== undefined) {
      if (known !== 'stash') out.push({ kind: known });
      continue;
    }
    const meta = metaTextSlot(item['blob']);
    if (meta !== undefined) {
      out.push(meta);
      continue;
    }
    const value = blobValue(item['blob'] as JsonValue);
    if (Array.isArray(value)) {
      out.push({ kind: 'calls' });
      continue;
    }
    const type = isObject(value) ? value['blobType'] : undefined;
    if (type === 'camunda.toolCalls') out.push({ kind: 'calls' });
    else if (type === 'camunda.toolCallResults') out.push({ kind: 'results' });
    else if (type === 'camunda.messageMetadata') out.push({ kind: 'meta', role: metaRole(value) }); else if (type === 'interlingua.payloads' && !nested && isObject(value) && Array.isArray(value['payload'])) {
      slotsOf(value['payload'], out, true);
    } else if (type !== 'interlingua.stash') out.push({ kind: 'content' });
  }
}

function fromWire(role: string): EventRole | undefined {
  switch (role.toUpperCase()) {
    case 'USER':
      return 'user';
    case 'ASSISTANT':
      return 'assistant';
    case 'TOOL':
      return 'tool';
    default:
      return undefined;
  }
}

/** The role of the (first) message an event holds, or undefined when it holds none. */
export function eventRole(payload: readonly PayloadItem[]): EventRole | undefined {
  const slots: Slot[] = [];
  slotsOf(payload, slots, false);
  return roleOfSlots(slots);
}

function roleOfSlots(slots: readonly Slot[]): EventRole | undefined {
  for (const s of slots) {
    if (s.kind === 'meta' && s.role !== undefined) return fromWire(s.role);
  }
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    if (s?.kind !== 'text') continue;
    if (s.role === 'TOOL' && slots[i + 1]?.kind === 'results') continue; // the results' summary
    const role = s.role === 'OTHER' ? undefined : fromWire(s.role);
    if (role !== undefined) return role;
  }
  if (slots.length === 0) return undefined;
  if (slots.some((s) => s.kind === 'calls')) return 'assistant';
  if (slots.some((s) => s.kind === 'results')) return 'tool';
  return 'user';
}

/**
 * Whether an event starts a turn: it holds a user message that says something of its own. A user
 * message of tool results only (where Anthropic, Gemini and Bedrock put them) answers the
 * assistant's calls and continues its turn, as a TOOL payload never starts one in AgentCore's own
 * turn reading; splitting there would leave the results without their calls.
 */
export function startsTurn(payload: readonly PayloadItem[]): boolean {
  const slots: Slot[] = [];
  slotsOf(payload, slots, false);
  if (roleOfSlots(slots) !== 'user') return false;
  return slots.some((s) => s.kind === 'content' || (s.kind === 'text' && s.role !== 'TOOL' && s.role !== 'OTHER'));
}

/**
 * Groups events read newest first (pages from `next`) into the last `k` turns, oldest first. Reads
 * only as many pages as the turns need, and of the last page only the events up to the k-th turn's
 * start (a page may be an iterable that makes each event as it is read).
 */
export async function collectLastTurns<E extends { payload: PayloadItem[] }>(
  k: number,
  next: () => Promise<Iterable<E> | undefined>,
  isStart: (e: E) => boolean = (e) => startsTurn(e.payload),
): Promise<E[][]> {
  const turns: E[][] = [];
  let current: E[] = [];
  while (turns.length < k) {
    const page = await next();
    if (page === undefined) break;
    for (const event of page) {
      current.push(event);
      if (isStart(event)) {
        turns.push(current.reverse());
        current = [];
        if (turns.length === k) break;
      }
    }
  }
  // Events before the session's first user event (a greeting) are a turn of their own.
  if (current.length > 0 && turns.length < k) turns.push(current.reverse());
  return turns.reverse();
}
