/**
 * A local stand-in for the AgentCore Memory data plane: node:http, in-process, on a random port,
 * answering the REST JSON protocol (restJson1) of CreateEvent, GetEvent, DeleteEvent, ListEvents,
 * ListSessions and ListActors the way the service does, so the real `@aws-sdk/client-bedrock-agentcore`
 * client can talk to it. Paths, methods, member names and error shapes are the SDK's own (its
 * schemas in dist-es/schemas/schemas_0.js); behaviour is the service's as the reference records it
 * (../shared/reference/agentcore-memory.md §1, §5):
 * - ListEvents gives events newest first (eventId order: zero-padded epoch ms, then a random hex
 *   part, so events of one millisecond come in no meaningful order), maxResults 1-100 (default 20,
 *   the SDK's doc string), a nextToken that is a position (it survives writes and deletes);
 *   `includePayloads: false` leaves the `payload` key out;
 * - blobs come back as text: a string as sent, anything else as Java's toString (`{a=1, b=[x, y]}`);
 * - timestamps are epoch seconds with milliseconds; the memory's own expiry (eventExpiryDuration,
 *   set at CreateMemory) removes events that many days after they were written;
 * - errors: status, `x-amzn-errortype` and a JSON body `{ message, reason? }`; ValidationException
 *   in Coral's words for broken constraints (see agentcore-endpoint-input.ts),
 *   ResourceNotFoundException for an unknown memory or event; a body too large is HTTP 413.
 * - clientToken makes CreateEvent idempotent within a session (scope UNCONFIRMED, reference §5.10).
 * Not modelled: branches beyond storing them, ListEvents/ListSessions filters (refused as such),
 * `json` payloads, long-term memory, throttling, signature checking (an Authorization header in the
 * SigV4 form must be present).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkActorId, checkBranch, checkEventId, checkMaxResults, checkMemoryId, checkMetadata, checkPayload, checkSessionId, javaString, Problems,
} from './agentcore-endpoint-input.js';

const DAY_MS = 86_400_000;

export interface EndpointOptions {
  /** The memory's eventExpiryDuration in days (7-365); default 90, the Python SDK's create_memory default. */
  expiryDays?: number;
  /** The service's clock, epoch ms (tests share theirs). */
  now?: () => number;
  /** Memories that exist; default one made-up id. */
  memoryIds?: string[];
  /** ListEvents in an order that has nothing to do with time (the docs promise no order). */
  unordered?: boolean;
  /** Request bodies over this many bytes get HTTP 413 (the real limit is unpublished, ~16.5 MB was refused). */
  maxBodyBytes?: number;
}

export interface Endpoint {
  url: string;
  /** The first memory's id. */
  memoryId: string;
  /** Events held now, in every memory (after the memory's own expiry). */
  held(): number;
  /** Requests answered, of one operation (`ListEvents` ...) or of all. */
  calls(op?: string): number;
  /** The regions requests were signed for (the SigV4 credential scope). */
  regions(): string[];
  close(): Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Held {
  eventId: string;
  ts: number;
  writtenAt: number;
  payload: Record<string, Json>[];
  metadata?: Json;
  branch?: Json;
}
interface Session {
  createdAt: number;
  events: Map<string, Held>;
  tokens: Map<string, string>;
}
type Memory = Map<string, Map<string, Session>>;

class Fail extends Error {
  constructor(readonly status: number, readonly type: string | undefined, message: string, readonly reason?: string) {
    super(message);
  }
}
const invalid = (p: Problems): Fail => new Fail(400, 'ValidationException', p.message, 'FieldValidationFailed');
const cannotParse = (message: string): Fail => new Fail(400, 'ValidationException', message, 'CannotParse');

function token(scope: string, key: string): string {
  return Buffer.from(JSON.stringify({ scope, key })).toString('base64url');
}
function after(scope: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    const t = JSON.parse(Buffer.from(String(raw), 'base64url').toString('utf8')) as { scope?: unknown; key?: unknown };
    if (t.scope === scope && typeof t.key === 'string') return t.key;
  } catch {
    // refused below
  }
  throw new Fail(400, 'ValidationException', 'Invalid nextToken', 'FieldValidationFailed');
}

/** Items of `all` (ordered by key, descending) after the token's position, a page of them and the next token. */
function pageOf<T>(all: T[], keyOf: (t: T) => string, scope: string, body: Record<string, unknown>): { items: T[]; nextToken?: string } {
  const start = after(scope, body['nextToken']);
  const size = (body['maxResults'] as number | undefined) ?? 20;
  const rest = start === undefined ? all : all.filter((t) => keyOf(t) < start);
  const items = rest.slice(0, size);
  const last = items[items.length - 1];
  return rest.length > size && last !== undefined ? { items, nextToken: token(scope, keyOf(last)) } : { items };
}

const descending = <T>(items: T[], keyOf: (t: T) => string): T[] => items.sort((a, b) => (keyOf(a) < keyOf(b) ? 1 : keyOf(a) > keyOf(b) ? -1 : 0));
const hashed = (s: string): string => createHash('sha1').update(s).digest('hex');

export async function start(options: EndpointOptions = {}): Promise<Endpoint> {
  const expiryMs = (options.expiryDays ?? 90) * DAY_MS;
  const now = (): number => (options.now ?? Date.now)();
  const memories = new Map<string, Memory>((options.memoryIds ?? ['interlingua-0123456789']).map((id) => [id, new Map()]));
  const counts = new Map<string, number>();
  const regions = new Set<string>();

  /** The memory's own expiry: events that many days after they were written are gone. */
  function expire(): void {
    const t = now();
    for (const memory of memories.values()) {
      for (const [actorId, sessions] of memory) {
        for (const [sessionId, s] of sessions) {
          for (const [id, e] of s.events) if (e.writtenAt + expiryMs <= t) s.events.delete(id);
          if (s.events.size === 0) sessions.delete(sessionId);
        }
        if (sessions.size === 0) memory.delete(actorId);
      }
    }
  }

  function memoryOf(id: string): Memory {
    const arn = /:memory\/(.+)$/.exec(id);
    const memory = memories.get(arn ? (arn[1] as string) : id);
    if (!memory) throw new Fail(404, 'ResourceNotFoundException', `Memory not found: ${id}`);
    return memory;
  }

  function render(actorId: string, sessionId: string, memoryId: string, e: Held, withPayload = true): Record<string, Json> {
    const out: Record<string, Json> = { memoryId, actorId, sessionId, eventId: e.eventId, eventTimestamp: e.ts / 1000 };
    if (withPayload) out['payload'] = e.payload.map((item) => ('blob' in item ? { blob: javaString(item['blob']) } : item));
    if (e.branch !== undefined) out['branch'] = e.branch;
    if (e.metadata !== undefined) out['metadata'] = e.metadata;
    return out;
  }

  const eventKey = (e: Held): string => (options.unordered ? hashed(e.eventId) : e.eventId);

  function createEvent(memoryId: string, body: Record<string, unknown>): [number, Json] {
    const p = new Problems();
    checkMemoryId(p, memoryId);
    checkActorId(p, body['actorId']);
    checkSessionId(p, body['sessionId']);
    const ts = body['eventTimestamp'];
    if (ts === undefined || ts === null) p.add(ts, 'eventTimestamp', 'Member must not be null');
    else if (typeof ts !== 'number' || !Number.isFinite(ts)) throw cannotParse(`Cannot parse eventTimestamp: ${JSON.stringify(ts)} is not epoch seconds`);
    checkPayload(p, body['payload']);
    checkMetadata(p, body['metadata']);
    checkBranch(p, body['branch']);
    if (p.list.length > 0) throw invalid(p);
    const memory = memoryOf(memoryId);
    const actorId = body['actorId'] as string;
    const sessionId = body['sessionId'] as string;
    let sessions = memory.get(actorId);
    const existing = sessions?.get(sessionId);
    const clientToken = typeof body['clientToken'] === 'string' ? body['clientToken'] : undefined;
    const again = clientToken !== undefined ? existing?.tokens.get(clientToken) : undefined;
    const previous = again !== undefined ? existing?.events.get(again) : undefined;
    if (previous) return [201, { event: render(actorId, sessionId, memoryId, previous) }];
    const branch = body['branch'] as { rootEventId?: string } | undefined;
    if (branch?.rootEventId !== undefined && !existing?.events.has(branch.rootEventId)) {
      throw new Fail(400, 'ValidationException', `Root event ${branch.rootEventId} is not in session ${sessionId}`, 'EventInOtherSession');
    }
    if (!sessions) memory.set(actorId, (sessions = new Map()));
    let session = existing;
    if (!session) sessions.set(sessionId, (session = { createdAt: now(), events: new Map(), tokens: new Map() }));
    const ms = Math.round((ts as number) * 1000);
    let eventId: string;
    do eventId = `${String(ms).padStart(19, '0')}#${randomBytes(4).toString('hex')}`;
    while (session.events.has(eventId));
    const held: Held = { eventId, ts: ms, writtenAt: now(), payload: body['payload'] as Held['payload'] };
    if (body['metadata'] !== undefined) held.metadata = body['metadata'] as Json;
    if (body['branch'] !== undefined) held.branch = body['branch'] as Json;
    session.events.set(eventId, held);
    if (clientToken !== undefined) session.tokens.set(clientToken, eventId);
    return [201, { event: render(actorId, sessionId, memoryId, held) }];
  }

  function eventOp(method: string, memoryId: string, actorId: string, sessionId: string, eventId: string): [number, Json] {
    const p = new Problems();
    checkMemoryId(p, memoryId);
    checkActorId(p, actorId);
    checkSessionId(p, sessionId);
    checkEventId(p, eventId);
    if (p.list.length > 0) throw invalid(p);
    const session = memoryOf(memoryId).get(actorId)?.get(sessionId);
    const held = session?.events.get(eventId);
    if (!session || !held) throw new Fail(404, 'ResourceNotFoundException', `Event not found: ${eventId}`);
    if (method === 'GET') return [200, { event: render(actorId, sessionId, memoryId, held) }];
    session.events.delete(eventId);
    if (session.events.size === 0) memoryOf(memoryId).get(actorId)?.delete(sessionId);
    return [200, { eventId }];
  }

  function listEvents(memoryId: string, actorId: string, sessionId: string, body: Record<string, unknown>): [number, Json] {
    const p = new Problems();
    checkMemoryId(p, memoryId);
    checkActorId(p, actorId);
    checkSessionId(p, sessionId);
    checkMaxResults(p, body['maxResults']);
    if (p.list.length > 0) throw invalid(p);
    if (body['filter'] !== undefined) throw new Fail(400, 'ValidationException', 'filter is not supported by this local endpoint', 'FieldValidationFailed');
    const held = [...(memoryOf(memoryId).get(actorId)?.get(sessionId)?.events.values() ?? [])];
    const page = pageOf(descending(held, eventKey), eventKey, `events|${actorId}|${sessionId}`, body);
    const events = page.items.map((e) => render(actorId, sessionId, memoryId, e, body['includePayloads'] !== false));
    return [200, page.nextToken === undefined ? { events } : { events, nextToken: page.nextToken }];
  }

  function listSessions(memoryId: string, actorId: string, body: Record<string, unknown>): [number, Json] {
    const p = new Problems();
    checkMemoryId(p, memoryId);
    checkActorId(p, actorId);
    checkMaxResults(p, body['maxResults']);
    if (p.list.length > 0) throw invalid(p);
    if (body['filter'] !== undefined) throw new Fail(400, 'ValidationException', 'filter is not supported by this local endpoint', 'FieldValidationFailed');
    // Newest session first (an order the service does not promise either).
    const key = ([id, s]: [string, Session]): string => `${String(s.createdAt).padStart(16, '0')}|${id}`;
    const all = descending([...(memoryOf(memoryId).get(actorId) ?? [])], key);
    const page = pageOf(all, key, `sessions|${actorId}`, body);
    const sessionSummaries = page.items.map(([sessionId, s]) => ({ sessionId, actorId, createdAt: s.createdAt / 1000 }));
    return [200, page.nextToken === undefined ? { sessionSummaries } : { sessionSummaries, nextToken: page.nextToken }];
  }

  function listActors(memoryId: string, body: Record<string, unknown>): [number, Json] {
    const p = new Problems();
    checkMemoryId(p, memoryId);
    checkMaxResults(p, body['maxResults']);
    if (p.list.length > 0) throw invalid(p);
    // No promised order: by a hash of the id.
    const all = descending([...memoryOf(memoryId).keys()], hashed);
    const page = pageOf(all, hashed, 'actors', body);
    const actorSummaries = page.items.map((actorId) => ({ actorId }));
    return [200, page.nextToken === undefined ? { actorSummaries } : { actorSummaries, nextToken: page.nextToken }];
  }

  function route(method: string, path: string, body: Record<string, unknown>): [string, () => [number, Json]] {
    const seg = path.split('/').slice(1).map(decodeURIComponent);
    const [root, m, a, actor, s, session, e, event] = seg;
    if (root === 'memories' && m !== undefined) {
      if (seg.length === 3 && a === 'events' && method === 'POST') return ['CreateEvent', () => createEvent(m, body)];
      if (seg.length === 3 && a === 'actors' && method === 'POST') return ['ListActors', () => listActors(m, body)];
      if (a === 'actor' && actor !== undefined && s === 'sessions') {
        if (seg.length === 5 && method === 'POST') return ['ListSessions', () => listSessions(m, actor, body)];
        if (seg.length === 6 && method === 'POST') return ['ListEvents', () => listEvents(m, actor, session as string, body)];
        if (seg.length === 8 && e === 'events' && (method === 'GET' || method === 'DELETE')) {
          return [method === 'GET' ? 'GetEvent' : 'DeleteEvent', () => eventOp(method, m, actor, session as string, event as string)];
        }
      }
    }
    return ['Unknown', () => { throw new Fail(404, 'UnknownOperationException', `No operation at ${method} ${path}`); }];
  }

  function reply(res: ServerResponse, status: number, body: Json, type?: string): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() };
    if (type !== undefined) headers['x-amzn-errortype'] = `${type}:http://internal.amazon.com/coral/com.amazonaws.bedrockagentcore/`;
    res.writeHead(status, headers).end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size <= (options.maxBodyBytes ?? Infinity)) chunks.push(chunk as Buffer);
    }
    if (size > (options.maxBodyBytes ?? Infinity)) return reply(res, 413, { message: 'Request Entity Too Large' });
    const path = (req.url ?? '/').split('?')[0] as string;
    let op = 'Unknown';
    try {
      const scope = /^AWS4-HMAC-SHA256 Credential=[^/\s]+\/\d{8}\/([^/\s]+)\//.exec(req.headers.authorization ?? '');
      if (!scope) throw new Fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
      regions.add(scope[1] as string);
      let body: unknown = {};
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw cannotParse('Cannot parse the request body as JSON');
        }
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw cannotParse('The request body must be a JSON object');
      const [name, run] = route(req.method ?? 'GET', path, body as Record<string, unknown>);
      op = name;
      expire();
      const [status, out] = run();
      reply(res, status, out);
    } catch (err) {
      if (!(err instanceof Fail)) return reply(res, 500, { message: String(err) }, 'ServiceException');
      reply(res, err.status, err.reason === undefined ? { message: err.message } : { message: err.message, reason: err.reason }, err.type);
    } finally {
      counts.set(op, (counts.get(op) ?? 0) + 1);
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    memoryId: memories.keys().next().value as string,
    held() {
      expire();
      let n = 0;
      for (const memory of memories.values()) for (const sessions of memory.values()) for (const s of sessions.values()) n += s.events.size;
      return n;
    },
    calls: (op) => (op === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : counts.get(op) ?? 0),
    regions: () => [...regions],
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
