/**
 * AG-UI test support: the captures (local copies and ../shared/fixtures/ag-ui, each file once),
 * the codec's stream decoder and encoder over whole event lists, and the official oracles:
 * `@ag-ui/core/schemas` EventSchemas per event, `@ag-ui/client` verifyEvents over an rxjs
 * Observable, and a whole `HttpAgent` run over the SSE text with a fake fetch (parse, enforce,
 * transformChunks, verify, apply: the messages a real AG-UI client would hold).
 */
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { HttpAgent, transformChunks, verifyEvents } from '@ag-ui/client';
import type { Message as AguiMessage } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { from, lastValueFrom, toArray } from 'rxjs';
import { agUi } from '../../../src/formats/ag-ui/index.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { formatSse } from '../../../src/stream/sse.js';
import { hasSharedFixtures, listFiles, LOCAL_FIXTURES, SHARED_FIXTURES } from '../../support/captures.js';

process.env['SUPPRESS_TRANSFORMATION_WARNINGS'] = 'true';

export const LOCAL_AGUI = join(LOCAL_FIXTURES, 'ag-ui');
export const SHARED_AGUI = join(SHARED_FIXTURES, 'ag-ui');
export const stream = agUi.stream!;
export const request = agUi.request!;

export interface Capture { name: string; events: JsonObject[] }

const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** Every AG-UI event stream under `root`: .NET server responses and the dart example streams. */
function streamsIn(root: string, tag: string): Capture[] {
  const out: Capture[] = [];
  for (const f of listFiles(join(root, 'dotnet-baselines'), ['.Response.Server.AGUI.json'])) out.push({ name: `${tag}:${relative(root, f)}`, events: read(f) as JsonObject[] });
  const dart = join(root, 'dart-fixtures/events.json');
  for (const f of listFiles(join(root, 'dart-fixtures'), ['events.json'])) {
    if (f !== dart) continue;
    for (const [key, events] of Object.entries(read(f) as Record<string, JsonObject[]>)) out.push({ name: `${tag}:dart-fixtures/events.json#${key}`, events });
  }
  return out;
}

/** Every RunAgentInput body under `root`. */
function requestsIn(root: string, tag: string): { name: string; body: JsonObject }[] {
  return listFiles(join(root, 'dotnet-baselines'), ['.Request.Server.AGUI.json']).map((f) => ({ name: `${tag}:${relative(root, f)}`, body: read(f) as JsonObject }));
}

/** Local copies, then shared files not copied (by relative path). */
function both<T extends { name: string }>(get: (root: string, tag: string) => T[]): { local: T[]; shared: T[] } {
  const local = get(LOCAL_AGUI, 'local');
  const have = new Set(local.map((c) => c.name.slice('local:'.length)));
  const shared = hasSharedFixtures() ? get(SHARED_AGUI, 'shared').filter((c) => !have.has(c.name.slice('shared:'.length))) : [];
  return { local, shared };
}

export const streamCaptures = (): { local: Capture[]; shared: Capture[] } => both(streamsIn);
export const requestCaptures = (): { local: { name: string; body: JsonObject }[]; shared: { name: string; body: JsonObject }[] } => both(requestsIn);

/** The dart SSE text split at its `## ` headings: [heading, text]. */
export function sseSections(): [string, string][] {
  const text = readFileSync(join(LOCAL_AGUI, 'dart-fixtures/sse_streams.txt'), 'utf8');
  return text
    .split(/^## /m)
    .filter((s) => s.trim() !== '')
    .map((s) => {
      const nl = s.indexOf('\n');
      return [s.slice(0, nl).trim(), s.slice(nl + 1)];
    });
}

export function decodeAll(events: readonly JsonObject[]): { events: StreamEvent[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const d = stream.decoder({ limits: DEFAULT_LIMITS, losses });
  const out: StreamEvent[] = [];
  for (const e of events) out.push(...d.push({ data: e }));
  out.push(...d.end());
  return { events: out, losses };
}

export function encodeAll(events: readonly StreamEvent[]): { wire: JsonObject[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const e = stream.encoder({ losses });
  const out: JsonObject[] = [];
  for (const ev of events) for (const w of e.push(ev)) out.push(w.data as JsonObject);
  for (const w of e.end()) out.push(w.data as JsonObject);
  return { wire: out, losses };
}

/** Schema problems of each event, by the official `@ag-ui/core/schemas`. */
export function schemaIssues(events: readonly unknown[]): string[] {
  const out: string[] = [];
  events.forEach((e, i) => {
    const r = EventSchemas.safeParse(e);
    if (!r.success) out.push(`${i} ${String((e as JsonObject)['type'])}: ${r.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`);
  });
  return out;
}

/** The official verifier's verdict ('ok' or its error message), after its chunk expansion. */
export async function verdict(events: readonly unknown[]): Promise<string> {
  try {
    await lastValueFrom(from(events as never[]).pipe(transformChunks(), verifyEvents(), toArray()));
    return 'ok';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The stream as the SSE text AG-UI's HTTP transport sends. */
export const sseText = (events: readonly JsonObject[]): string => events.map((data) => formatSse({ data })).join('');

/**
 * A real `HttpAgent` run over `body` (SSE text) through a fake fetch: the messages the official
 * client builds, or its error.
 */
export async function runAgent(body: string): Promise<{ messages: AguiMessage[]; error?: string }> {
  const agent = new HttpAgent({
    url: 'http://agent.test/run',
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  try {
    const r = await agent.runAgent({});
    return { messages: r.newMessages };
  } catch (e) {
    return { messages: [], error: e instanceof Error ? e.message : String(e) };
  }
}

export const fileName = (name: string): string => basename(name);
