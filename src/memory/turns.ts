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
 * The slot (role) of a metadata blob's text, remembered by text: a session's user and assistant events
 * mostly carry the same few metadata blobs, read again on every lastTurns. Only short texts of
 * that blob type are kept, and the map is emptied when full, so it stays small.
 */
const META_PREFIX = '{"blobType":"camunda.messageMetadata"';
const META_TEXT_MAX = 1024;
const META_SLOTS_MAX = 256;
const metaSlots = new Map<string, Slot>();

/** Slots are only read: the usual ones are made once (lastTurns reads tens of events a call). */
const KIND_SLOTS = { calls: Object.freeze({ kind: 'calls' }), results: Object.freeze({ kind: 'results' }), content: Object.freeze({ kind: 'content' }) } as const satisfies Record<string, Slot>;
const TEXT_SLOTS: ReadonlyMap<string, Slot> = new Map(['USER', 'ASSISTANT', 'TOOL', 'OTHER'].map((role) => [role, Object.freeze({ kind: 'text', role })]));
const textSlot = (role: string): Slot => TEXT_SLOTS.get(role) ?? { kind: 'text', role };

function metaRole(value: JsonValue | undefined): string | undefined {
  const props = isObject(value) ? value['properties'] : undefined;
  return isObject(props) && typeof props['role'] === 'string' ? props['role'] : undefined;
}

/** The slot of a metadata blob written as text with `blobType` first, or undefined for any other blob. */
function metaTextSlot(blob: unknown): Slot | undefined {
  if (typeof blob !== 'string' || blob.length > META_TEXT_MAX || !blob.startsWith(META_PREFIX)) return undefined;
  const kept = metaSlots.get(blob);
  if (kept !== undefined) return kept;
  const value = blobValue(blob);
  // Text that only begins like one (another blobType after it, or not JSON) is read the long way.
  if (!isObject(value) || value['blobType'] !== 'camunda.messageMetadata') return undefined;
  const slot: Slot = Object.freeze({ kind: 'meta', role: metaRole(value) });
  if (metaSlots.size >= META_SLOTS_MAX) metaSlots.clear();
  metaSlots.set(blob, slot);
  return slot;
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

/**
 * The slots of the event being read, in one list reused from event to event (lastTurns reads tens
 * of events a call, and a new list each was most of what reading their roles allocated); `count`
 * of them are this event's. Reading is synchronous, so one list serves every caller.
 */
const scratch: Slot[] = [];
let count = 0;
/** A list grown past this by a large event is let go after it. */
const SCRATCH_KEPT = 64;

function add(slot: Slot): void {
  scratch[count++] = slot;
}

/** Reads the payload's slots into scratch[0, n); returns n. */
function readSlots(payload: readonly unknown[]): number {
  count = 0;
  slotsOf(payload, false);
  return count;
}

function release(n: number): void {
  if (n > SCRATCH_KEPT) scratch.length = 0;
}

function slotsOf(payload: readonly unknown[], nested: boolean): void {
  for (const item of payload) {
    if (!isObject(item)) continue;
    const conv = item['conversational'];
    if (isObject(conv)) {
      const content = conv['content'];
      const text = isObject(content) ? content['text'] : undefined;
      // Strands' session manager stores a user message of tool results as its JSON text: a tool event.
      const role = typeof text === 'string' && text.startsWith(STRANDS_RESULTS) ? 'TOOL' : String(conv['role']);
      add(textSlot(role));
      continue;
    }
    if (!('blob' in item)) continue;
    const known = envelopeKind(item['blob']);
    if (known !== undefined) {
      if (known !== 'stash') add(KIND_SLOTS[known]);
      continue;
    }
    const meta = metaTextSlot(item['blob']);
    if (meta !== undefined) {
      add(meta);
      continue;
    }
    const value = blobValue(item['blob'] as JsonValue);
    if (Array.isArray(value)) {
      add(KIND_SLOTS.calls);
      continue;
    }
    const type = isObject(value) ? value['blobType'] : undefined;
    if (type === 'camunda.toolCalls') add(KIND_SLOTS.calls);
    else if (type === 'camunda.toolCallResults') add(KIND_SLOTS.results);
    else if (type === 'camunda.messageMetadata') add({ kind: 'meta', role: metaRole(value) }); else if (type === 'interlingua.payloads' && !nested && isObject(value) && Array.isArray(value['payload'])) {
      slotsOf(value['payload'], true);
    } else if (type !== 'interlingua.stash') add(KIND_SLOTS.content);
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
  const n = readSlots(payload);
  const role = roleOfSlots(n);
  release(n);
  return role;
}

/** The role of scratch[0, n). */
function roleOfSlots(n: number): EventRole | undefined {
  for (let i = 0; i < n; i++) {
    const s = scratch[i] as Slot;
    if (s.kind === 'meta' && s.role !== undefined) return fromWire(s.role);
  }
  for (let i = 0; i < n; i++) {
    const s = scratch[i] as Slot;
    if (s.kind !== 'text') continue;
    if (s.role === 'TOOL' && i + 1 < n && scratch[i + 1]?.kind === 'results') continue; // the results' summary
    const role = s.role === 'OTHER' ? undefined : fromWire(s.role);
    if (role !== undefined) return role;
  }
  if (n === 0) return undefined;
  if (someKind(n, 'calls')) return 'assistant';
  if (someKind(n, 'results')) return 'tool';
  return 'user';
}

function someKind(n: number, kind: Slot['kind']): boolean {
  for (let i = 0; i < n; i++) if ((scratch[i] as Slot).kind === kind) return true;
  return false;
}

/**
 * Whether an event starts a turn: it holds a user message that says something of its own. A user
 * message of tool results only (where Anthropic, Gemini and Bedrock put them) answers the
 * assistant's calls and continues its turn, as a TOOL payload never starts one in AgentCore's own
 * turn reading; splitting there would leave the results without their calls.
 */
export function startsTurn(payload: readonly PayloadItem[]): boolean {
  const n = readSlots(payload);
  let starts = roleOfSlots(n) === 'user';
  if (starts) {
    starts = false;
    for (let i = 0; i < n; i++) {
      const s = scratch[i] as Slot;
      if (s.kind === 'content' || (s.kind === 'text' && s.role !== 'TOOL' && s.role !== 'OTHER')) starts = true;
    }
  }
  release(n);
  return starts;
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
