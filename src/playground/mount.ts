/**
 * Mounts the playground on a Hono app: `GET /` (the page) and its two assets, read from the
 * package's playground/ folder (nothing fetched from elsewhere), and the JSON endpoints under
 * `/playground/api/` the page calls. Bad input answers 400 with the issues and their JSON paths.
 */
import { readFile } from 'node:fs/promises';
import type { Context, Hono } from 'hono';
import { InterlinguaError, UsageError } from '../model/errors.js';
import { detect } from '../detect/index.js';
import { formats } from '../formats/registry.js';
import { MESSAGE_FORMATS, openMemory, type Memory } from '../memory/index.js';
import { convertView, detectView, inputOf, transcodeView, type ConvertRequest, type PlaygroundInput, type TranscodeRequest } from './api.js';

export interface PlaygroundOptions {
  /** A memory store to browse: an open Memory, or a store URL opened on first use (and closed by close()). */
  memory?: Memory | string;
}

export interface MountedPlayground {
  /** Closes a store this module opened from a URL. */
  close(): Promise<void>;
}

const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};
/** The package's playground/ folder (the same two levels up from src/playground and dist/playground). */
const ASSET_DIR = new URL('../../playground/', import.meta.url);

async function asset(c: Context, name: string): Promise<Response> {
  const type = ASSETS[name] as string;
  const body = await readFile(new URL(name, ASSET_DIR), 'utf8');
  return c.body(body, 200, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
}

/** Runs a handler over the JSON body; interlingua errors become 400 with their issues. */
async function jsonCall<T>(c: Context, fn: (body: T) => unknown | Promise<unknown>): Promise<Response> {
  let body: T;
  try {
    body = (await c.req.json()) as T;
  } catch {
    return c.json({ issues: [{ code: 'invalid_json', path: [], message: 'the request body is not JSON' }] }, 400);
  }
  try {
    return c.json((await fn(body)) as object);
  } catch (err) {
    if (err instanceof InterlinguaError) return c.json({ issues: err.issues.length > 0 ? err.issues : [{ code: err.code, path: [], message: err.message }] }, 400);
    throw err;
  }
}

export function mountPlayground(app: Hono, options: PlaygroundOptions = {}): MountedPlayground {
  const configured = options.memory !== undefined;
  let opened: Promise<Memory> | undefined;
  const memory = async (): Promise<Memory> => {
    const m = options.memory;
    if (m === undefined) throw new UsageError('no memory store is configured (start the playground with --store URL)');
    if (typeof m !== 'string') return m;
    opened ??= openMemory(m);
    return opened;
  };
  app.get('/', (c) => asset(c, 'index.html'));
  app.get('/playground/app.js', (c) => asset(c, 'app.js'));
  app.get('/playground/style.css', (c) => asset(c, 'style.css'));
  app.get('/playground/api/formats', (c) => c.json({ formats: formats(), messageFormats: MESSAGE_FORMATS, memory: configured }));
  app.post('/playground/api/detect', (c) => jsonCall<PlaygroundInput>(c, (b) => detectView(detect(inputOf(b)))));
  app.post('/playground/api/convert', (c) => jsonCall<ConvertRequest>(c, convertView));
  app.post('/playground/api/transcode', (c) => jsonCall<TranscodeRequest>(c, transcodeView));

  app.post('/playground/api/memory/actors', (c) => jsonCall<object>(c, async () => ({ actors: await (await memory()).listActors() })));
  app.post('/playground/api/memory/sessions', (c) => jsonCall<{ actorId: string }>(c, async (b) => ({ sessions: await (await memory()).listSessions(b.actorId) })));
  app.post('/playground/api/memory/session', (c) =>
    jsonCall<{ actorId: string; sessionId: string; format?: string }>(c, async (b) => {
      const m = await memory();
      if (b.format === undefined || b.format === 'agentcore-memory') return { events: (await m.exportSession(b.actorId, b.sessionId)).events };
      if (!MESSAGE_FORMATS.includes(b.format)) throw new UsageError(`format must be one of ${MESSAGE_FORMATS.join(', ')}`);
      const { messages, losses } = await m.recall({ actorId: b.actorId, sessionId: b.sessionId, format: b.format, k: Number.MAX_SAFE_INTEGER });
      return { messages, losses };
    }),
  );
  return {
    close: async () => {
      if (opened !== undefined) await (await opened.catch(() => undefined))?.close();
    },
  };
}
