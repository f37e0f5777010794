/**
 * The message-level memory API (issue 5, "API"): `openMemory(url)` gives an event store that also
 * takes and gives messages in any chat dialect's own message shape.
 * - `append({ actorId, sessionId, messages, format })`: the messages are decoded through the
 *   format's request codec (wrapped in the smallest request body the format accepts), then stored
 *   one event per message (agentcore-memory's `messageToEvent`, with `preserve` on by default so
 *   reading back is exact). System and developer messages are not stored (AgentCore has no role
 *   for them): they come back in `losses` as `system-message`, never silently.
 *   A tool result without a name is stored with its call's name (docs/agentcore-memory-events.md).
 * - `lastTurns({ actorId, sessionId, k = 10, format })`: the messages of the last k turns, oldest
 *   first, in the format's message shape, read as one conversation (older events' lone TOOL texts
 *   answer the calls before them, reported). `recall(...)` gives the same with the losses of
 *   encoding. An empty session gives no messages in every format.
 *   `lastTurns(actorId, sessionId, k)` (strings) is still the event-level call.
 * - `exportSession` / `importSession`: a session's events as stored (payload, metadata, timestamp),
 *   so export from one backend and import into an empty session of another round-trips: the same
 *   events, timestamps and order; sequences too unless events had been deleted (import numbers
 *   from 1); eventIds are issued anew (the store makes them, with a random part).
 *
 * The steps are exported for callers that hold canonical messages (hooks, agent adapters):
 * `decodeMessages`, `appendMessages`, `recallMessages`, `encodeMessages`.
 *
 * Accepted formats and the message shape each takes and gives (MESSAGE_SHAPES):
 * openai-chat (`messages`), anthropic-messages (`messages`; its top-level `system` is not a
 * message), gemini (`contents`), bedrock-converse (`messages`), openai-responses (`input` items, or
 * a string on input), ag-ui (`messages`).
 */
import { UsageError, ValidationError, type Issue } from '../model/errors.js';
import type { Loss } from '../model/loss.js';
import type { Message } from '../model/message.js';
import type { Request } from '../model/request.js';
import { decode, encode } from '../formats/convert.js';
import { readsHints } from '../formats/shared/hint-readers.js';
import { eventsToMessages, messageToEvent, toolCallNames } from '../formats/agentcore-memory/index.js';
import { openMemory as openEventStore, type OpenOptions } from './open.js';
import { DEFAULT_TURNS, MAX_PAGE, type EventContent, type EventMetadata, type EventStore, type NewEvent, type PayloadItem, type StoredEvent } from './store.js';

/** Model name put in request bodies that require one; it never reaches a stored event. */
const PLACEHOLDER_MODEL = 'interlingua-memory';

interface MessageShape {
  /** The smallest request body of the format around these messages. */
  wrap(messages: unknown): Record<string, unknown>;
  /** The body's key that holds the messages. */
  key: string;
}

const MESSAGE_SHAPES: Readonly<Record<string, MessageShape>> = {
  'openai-chat': { key: 'messages', wrap: (messages) => ({ model: PLACEHOLDER_MODEL, messages }) },
  'anthropic-messages': { key: 'messages', wrap: (messages) => ({ model: PLACEHOLDER_MODEL, max_tokens: 1, messages }) },
  gemini: { key: 'contents', wrap: (contents) => ({ contents }) },
  // Converse refuses toolUse blocks without a toolConfig naming their tools: one is made up from the
  // names used (its schemas are never read back; only the messages are kept).
  'bedrock-converse': { key: 'messages', wrap: (messages) => ({ messages, ...converseToolConfig(messages) }) },
  'openai-responses': { key: 'input', wrap: (input) => ({ model: PLACEHOLDER_MODEL, input }) },
  'ag-ui': { key: 'messages', wrap: (messages) => ({ threadId: 'memory', runId: 'memory', messages, tools: [], context: [], state: null, forwardedProps: null }) },
};

function converseToolConfig(messages: unknown): { toolConfig?: unknown } {
  const names = new Set<string>();
  if (Array.isArray(messages)) {
    for (const m of messages) {
      const content = (m as { content?: unknown } | null)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        const name = (block as { toolUse?: { name?: unknown } } | null)?.toolUse?.name;
        if (typeof name === 'string') names.add(name);
      }
    }
  }
  if (names.size === 0) return {};
  return { toolConfig: { tools: [...names].map((name) => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } })) } };
}

/** The formats whose messages `append` and `lastTurns` take and give. */
export const MESSAGE_FORMATS: readonly string[] = Object.keys(MESSAGE_SHAPES);

/** Whether messages recalled to be encoded to `format` must be read with agentcore-memory's hints. */
export { readsHints };

function shapeOf(format: unknown, call: string): MessageShape {
  const shape = typeof format === 'string' && Object.hasOwn(MESSAGE_SHAPES, format) ? MESSAGE_SHAPES[format] : undefined;
  if (!shape) throw new UsageError(`${call}: format must be one of ${MESSAGE_FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  return shape;
}

export interface AppendOptions {
  actorId: string;
  sessionId: string;
  /** Messages in `format`'s own message shape (see MESSAGE_FORMATS). */
  messages: unknown;
  format: string;
  /** Stash in each event what AgentCore's shape cannot hold, so reading back is exact (default true). */
  preserve?: boolean;
}

export interface AppendResult {
  /** One per stored message, in order. */
  events: StoredEvent[];
  /** What was not stored as given (system messages, anything the events cannot hold). */
  losses: Loss[];
}

export interface TurnsOptions {
  actorId: string;
  sessionId: string;
  /** How many turns (a turn starts at a user message); default 10. */
  k?: number;
  format: string;
}

export interface Recalled {
  /** The messages in `format`'s message shape, oldest first. */
  messages: unknown[];
  losses: Loss[];
}

/** A session as exported: its events exactly as stored (eventIds are issued anew on import). */
export interface SessionExport {
  actorId: string;
  sessionId: string;
  events: StoredEvent[];
}

export interface ImportOptions {
  /** Import under another actor or session than the export names. */
  actorId?: string;
  sessionId?: string;
}

/** An event store that also speaks messages. A superset of EventStore. */
export interface Memory extends EventStore {
  append(options: AppendOptions): Promise<AppendResult>;
  lastTurns(actorId: string, sessionId: string, k?: number): Promise<StoredEvent[][]>;
  lastTurns(options: TurnsOptions): Promise<unknown[]>;
  recall(options: TurnsOptions): Promise<Recalled>;
  exportSession(actorId: string, sessionId: string): Promise<SessionExport>;
  importSession(data: SessionExport, options?: ImportOptions): Promise<StoredEvent[]>;
}

/** Opens the store a URL names (see open.ts) with the message-level calls added. */
export async function openMemory(url: string, options: OpenOptions = {}): Promise<Memory> {
  return withMessages(await openEventStore(url, options));
}

/**
 * Stored events -> canonical messages, in order, read as one conversation (a result's name taken
 * from its call comes off again; an older event's lone TOOL text answers the calls before it).
 */
/** The content only: the envelope (ids, timestamp) is the store's, not the message's; read with it, the codec would keep it in the message's hints for a way back to this format. */
function contentOf(e: StoredEvent): EventContent {
  const c: EventContent = { payload: e.payload };
  if (e.metadata !== undefined) c.metadata = e.metadata;
  return c;
}

/** Canonical messages in `format`'s message shape (what `recall` gives), with the losses of encoding. */
export function encodeMessages(messages: Message[], format: string, call = 'lastTurns'): Recalled {
  const shape = shapeOf(format, call);
  // No messages are no messages, in every format: the request encoders' rule that a request holds
  // one (Anthropic's placeholder user message) is about sending a request, not about memory.
  if (messages.length === 0) return { messages: [], losses: [] };
  const request: Request = { model: PLACEHOLDER_MODEL, messages };
  const { value, losses } = encode(request, { to: format });
  const held = (value as Record<string, unknown>)[shape.key];
  const list = held === undefined ? [] : typeof held === 'string' ? [{ role: 'user', content: held }] : held;
  if (!Array.isArray(list)) throw new UsageError(`${call}: the ${format} encoder gave no ${shape.key} array`);
  // Losses about the request around the messages (its model, max_tokens, run ids) concern nothing kept.
  const kept = losses.filter((l) => l.path[0] === 'messages');
  // Every message left out (blank): the encoder wrote a placeholder so the request is not empty,
  // reported at ['messages'] itself. Memory gives back what it holds instead: nothing.
  const filler = kept.findIndex((l) => l.code === 'empty-message' && l.path.length === 1);
  if (filler >= 0) return { messages: [], losses: kept.filter((_l, k) => k !== filler) };
  return { messages: list as unknown[], losses: kept };
}

/**
 * Messages in `format`'s message shape -> canonical messages, as `append` reads them (through the
 * format's request decoder, so its rules apply); the losses are those about the messages.
 */
export function decodeMessages(messages: unknown, format: string, call = 'append'): { messages: Message[]; losses: Loss[] } {
  const shape = shapeOf(format, call);
  if (!Array.isArray(messages) && !(format === 'openai-responses' && typeof messages === 'string')) {
    throw new UsageError(`${call}: messages must be an array of ${format} messages (the body's ${shape.key})`);
  }
  const decoded = decode(shape.wrap(messages), { from: format });
  return { messages: (decoded.value as Request).messages, losses: decoded.losses.filter((l) => l.path[0] === shape.key) };
}

/**
 * Canonical messages -> one event each, appended in order, all or none. System and developer
 * messages are not stored (`system-message` losses). `preserve` (default true) stashes in each event
 * what AgentCore's shape cannot hold, so reading back is exact.
 */
export async function appendMessages(store: EventStore, actorId: string, sessionId: string, messages: readonly Message[], preserve = true): Promise<AppendResult> {
  const losses: Loss[] = [];
  const events: NewEvent[] = [];
  const toolNames = await callsBefore(store, actorId, sessionId, messages);
  messages.forEach((message, index) => {
    // messageToEvent reads the names it needs now; the message's own calls are learnt after it.
    const options = { preserve, index, toolNames };
    const r = messageToEvent(message, store.metadataEntries === undefined ? options : { ...options, metadataEntries: store.metadataEntries });
    toolCallNames([message], toolNames);
    losses.push(...r.losses);
    if (r.event === undefined) return;
    const ne: NewEvent = { payload: r.event['payload'] as unknown as PayloadItem[] };
    if (r.event['metadata'] !== undefined) ne.metadata = r.event['metadata'] as unknown as EventMetadata;
    events.push(ne);
  });
  return { events: await store.appendEvents(actorId, sessionId, events), losses };
}

/**
 * The names of the tool calls before a batch (call id -> name), so that each result without a
 * name of its own is stored with its call's (as Camunda's envelope has it). Read from the
 * session's last turn only when a result of the batch answers no call of the batch: a hook stores
 * each message as it comes, the result after its call.
 */
async function callsBefore(store: EventStore, actorId: string, sessionId: string, messages: readonly Message[]): Promise<Map<string, string>> {
  const batch = new Map<string, string>();
  let outside = false;
  for (const m of messages) {
    if (m.role !== 'assistant') {
      for (const p of m.parts) {
        const lone = p.ext?.['agentcore-memory']?.['$minimal'] === true;
        if (p.type === 'tool-result' && p.providerExecuted !== true && p.name === undefined && !lone && !batch.has(p.callId)) outside = true;
      }
    }
    toolCallNames([m], batch);
  }
  if (!outside) return new Map();
  // Only the calls' ids and names are read: no hints needed.
  const last = await recallMessages(store, actorId, sessionId, 1, { verbatim: false });
  return toolCallNames(last.messages);
}

export interface RecallOptions {
  /**
   * false when the messages are only encoded to a format that ignores agentcore-memory's `$event`
   * hints (readsHints): the same messages without those hints, read without encoding every event
   * again to tell whether it needs one (eventsToMessages' `verbatim`). Default true.
   */
  verbatim?: boolean;
}

/** The canonical messages of a session's last k turns, oldest first. */
export async function recallMessages(store: EventStore, actorId: string, sessionId: string, k: number = DEFAULT_TURNS, options: RecallOptions = {}): Promise<{ messages: Message[]; losses: Loss[] }> {
  // The store's content-only read when it has one: no ids or timestamps made only to be left out.
  const contents = store.lastTurnContents !== undefined ? (await store.lastTurnContents(actorId, sessionId, k)).flat() : (await store.lastTurns(actorId, sessionId, k)).flat().map(contentOf);
  const losses: Loss[] = [];
  return { messages: eventsToMessages(contents, { losses, verbatim: options.verbatim !== false }), losses };
}

function checkExport(data: unknown): SessionExport {
  const issues: Issue[] = [];
  const bad = (path: (string | number)[], message: string): void => void issues.push({ code: 'invalid_export', path, message });
  if (typeof data !== 'object' || data === null) throw new ValidationError([{ code: 'invalid_export', path: [], message: 'a session export is an object { actorId, sessionId, events }' }]);
  const d = data as Record<string, unknown>;
  if (typeof d['actorId'] !== 'string') bad(['actorId'], 'expected a string');
  if (typeof d['sessionId'] !== 'string') bad(['sessionId'], 'expected a string');
  if (!Array.isArray(d['events'])) bad(['events'], 'expected an array of events');
  else {
    d['events'].forEach((e: unknown, i) => {
      if (typeof e !== 'object' || e === null) return bad(['events', i], 'expected an event object');
      const ev = e as Record<string, unknown>;
      if (!Array.isArray(ev['payload'])) bad(['events', i, 'payload'], 'expected an array');
      if (typeof ev['eventTimestamp'] !== 'string') bad(['events', i, 'eventTimestamp'], 'expected ISO 8601 text');
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return data as SessionExport;
}

/** Adds the message-level calls to an event store (the store's own calls are unchanged). */
export function withMessages(store: EventStore): Memory {
  async function append(options: AppendOptions): Promise<AppendResult> {
    if (typeof options !== 'object' || options === null) throw new UsageError('append takes { actorId, sessionId, messages, format }');
    const decoded = decodeMessages(options.messages, options.format, 'append');
    const r = await appendMessages(store, options.actorId, options.sessionId, decoded.messages, options.preserve !== false);
    return { events: r.events, losses: [...decoded.losses, ...r.losses] };
  }

  async function recall(options: TurnsOptions): Promise<Recalled> {
    if (typeof options !== 'object' || options === null) throw new UsageError('lastTurns takes { actorId, sessionId, k?, format }');
    shapeOf(options.format, 'lastTurns');
    const recalled = await recallMessages(store, options.actorId, options.sessionId, options.k ?? DEFAULT_TURNS, { verbatim: readsHints(options.format) });
    const shaped = encodeMessages(recalled.messages, options.format, 'lastTurns');
    return { messages: shaped.messages, losses: [...recalled.losses, ...shaped.losses] };
  }

  async function lastTurns(a: string | TurnsOptions, sessionId?: string, k?: number): Promise<StoredEvent[][] | unknown[]> {
    if (typeof a === 'string') return store.lastTurns(a, sessionId as string, k);
    return (await recall(a)).messages;
  }

  async function exportSession(actorId: string, sessionId: string): Promise<SessionExport> {
    // Read newest first and turned around: the same events, and on agentcore:// (whose service
    // only walks newest first) one pass instead of a walk from the newest for every page.
    const events: StoredEvent[] = [];
    let nextToken: string | undefined;
    do {
      const options = { maxResults: MAX_PAGE, chronological: false };
      const page = await store.listEvents(actorId, sessionId, nextToken === undefined ? options : { ...options, nextToken });
      events.push(...page.events);
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
    return { actorId, sessionId, events: events.reverse() };
  }

  async function importSession(dataIn: SessionExport, options: ImportOptions = {}): Promise<StoredEvent[]> {
    const data = checkExport(dataIn);
    const actorId = options.actorId ?? data.actorId;
    const sessionId = options.sessionId ?? data.sessionId;
    // Into an empty session only: then every event gets back its sequence and timestamp.
    const existing = await store.listEvents(actorId, sessionId, { maxResults: 1 });
    if (existing.events.length > 0) throw new UsageError(`importSession: session ${actorId}/${sessionId} already holds events; import into an empty session (or delete it first)`);
    const events = data.events.map((e): NewEvent => {
      const ne: NewEvent = { payload: e.payload, eventTimestamp: e.eventTimestamp };
      if (e.metadata !== undefined) ne.metadata = e.metadata;
      return ne;
    });
    return store.appendEvents(actorId, sessionId, events);
  }

  // Delegating (not spreading): the store may keep state in closures or a class.
  const memory: Memory = {
    get backend() {
      return store.backend;
    },
    get expiryDays() {
      return store.expiryDays;
    },
    ...(store.metadataEntries === undefined ? {} : { metadataEntries: store.metadataEntries }),
    ...(store.lastTurnContents === undefined ? {} : { lastTurnContents: (a: string, s: string, k?: number) => (store.lastTurnContents as NonNullable<EventStore['lastTurnContents']>)(a, s, k) }),
    appendEvents: (a, s, e) => store.appendEvents(a, s, e),
    getEvent: (a, s, e) => store.getEvent(a, s, e),
    listEvents: (a, s, o) => store.listEvents(a, s, o),
    listSessions: (a) => store.listSessions(a),
    listActors: () => store.listActors(),
    deleteEvent: (a, s, e) => store.deleteEvent(a, s, e),
    deleteSession: (a, s) => store.deleteSession(a, s),
    purgeExpired: () => store.purgeExpired(),
    close: () => store.close(),
    append,
    recall,
    lastTurns: lastTurns as Memory['lastTurns'],
    exportSession,
    importSession,
  };
  return memory;
}
