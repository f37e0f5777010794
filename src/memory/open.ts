/**
 * `openMemory(url)`: a store from a URL. Each backend's module (and its driver) is imported only
 * when a URL of its scheme is opened, so `interlingua/memory` loads no database driver by itself.
 * - `memory:` — in this process only;
 * - `sqlite:<path>` — a file (`sqlite:./memory.db`, `sqlite:/abs/path.db`, `sqlite:///abs/path.db`),
 *   or `sqlite::memory:`; the path is taken as written (no %-decoding), up to a `?`;
 *   `?synchronous=full` for an fsync per append; `?checkpoint=inline` to fold the write-ahead log
 *   back inside the commits that fill it instead of in a worker thread (sqlite-checkpoint.ts);
 * - `postgres://user@host:port/db` (or postgresql://) — `?schema=name` for the tables' schema
 *   (default interlingua_memory); other parameters go to node-postgres.
 * - `redis://[user:password@]host:port/db` (or rediss:// for TLS) — `?prefix=` for the keys' prefix
 *   (default interlingua:memory:); needs ioredis.
 * - `agentcore://<memoryId or memory ARN>` — AWS AgentCore Memory; `?region=` (else the ARN's, else
 *   the AWS SDK's default chain), `?endpoint=` (else the SDK's own setting, AWS_ENDPOINT_URL_BEDROCK_AGENTCORE
 *   or AWS_ENDPOINT_URL); credentials from the SDK's default chain; needs @aws-sdk/client-bedrock-agentcore.
 *   It does not sweep the whole memory as it opens (see docs/decisions/0005-agentcore-store.md).
 * Every URL takes `?expiryDays=N` (7-365, default 7); options passed in code win over the URL.
 */
import { UsageError } from '../model/errors.js';
import { checkExpiryDays, createEventStore } from './checked-store.js';
import type { AgentCoreClientOptions } from './agentcore-client.js';
import type { SqliteOptions } from './backends/sqlite.js';
import type { EventStore, StoreOptions } from './store.js';

export interface OpenOptions extends StoreOptions {
  /** agentcore:// only: a ready BedrockAgentCoreClient, or the config of the one the store makes. */
  agentcore?: AgentCoreClientOptions;
}

function splitQuery(rest: string): { body: string; params: URLSearchParams } {
  const q = rest.indexOf('?');
  return q < 0 ? { body: rest, params: new URLSearchParams() } : { body: rest.slice(0, q), params: new URLSearchParams(rest.slice(q + 1)) };
}

function takeParams(url: string, params: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of params) {
    if (!allowed.includes(key)) {
      throw new UsageError(`memory store URL ${url}: unknown parameter '${key}' (known: ${allowed.join(', ')})`);
    }
    out.set(key, value);
  }
  return out;
}

function expiryFrom(url: string, params: Map<string, string>, options: OpenOptions): number {
  if (options.expiryDays !== undefined) return checkExpiryDays(options.expiryDays);
  const raw = params.get('expiryDays');
  if (raw === undefined) return checkExpiryDays(undefined);
  if (!/^\d+$/.test(raw)) throw new UsageError(`memory store URL ${url}: expiryDays must be a whole number of days (got '${raw}')`);
  return checkExpiryDays(Number(raw));
}

/** The URL for messages: a password in it is masked. */
function shown(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)([^/@]*)@/i.exec(url);
  return m ? `${m[1]}***@${url.slice(m[0].length)}` : url;
}

/** Opens the store a URL names; expired events are swept out as it opens. */
export async function openMemory(urlIn: string, options: OpenOptions = {}): Promise<EventStore> {
  if (typeof urlIn !== 'string') throw new UsageError('openMemory needs a store URL such as memory: or sqlite:./memory.db');
  const url = shown(urlIn);
  const colon = urlIn.indexOf(':');
  const scheme = colon > 0 ? urlIn.slice(0, colon).toLowerCase() : '';
  const { body, params } = splitQuery(urlIn.slice(colon + 1));
  let store: EventStore;
  if (scheme === 'memory') {
    if (body !== '' && body !== '//') throw new UsageError(`memory store URL ${url}: memory: takes no path`);
    const expiryDays = expiryFrom(url, takeParams(url, params, ['expiryDays']), options);
    const { MemoryBackend } = await import('./backends/memory.js');
    store = createEventStore(new MemoryBackend(), { ...options, expiryDays });
  } else if (scheme === 'sqlite') {
    const p = takeParams(url, params, ['expiryDays', 'synchronous', 'checkpoint']);
    const expiryDays = expiryFrom(url, p, options);
    const path = body.startsWith('//') ? body.slice(2) : body;
    if (path === '') throw new UsageError(`memory store URL ${url}: sqlite: needs a file path, e.g. sqlite:./memory.db`);
    const sync = p.get('synchronous');
    if (sync !== undefined && sync !== 'normal' && sync !== 'full') {
      throw new UsageError(`memory store URL ${url}: synchronous must be normal or full (got '${sync}')`);
    }
    const checkpoint = p.get('checkpoint');
    if (checkpoint !== undefined && checkpoint !== 'background' && checkpoint !== 'inline') {
      throw new UsageError(`memory store URL ${url}: checkpoint must be background or inline (got '${checkpoint}')`);
    }
    const { openSqliteBackend } = await import('./backends/sqlite.js');
    const sqliteOptions: SqliteOptions = {};
    if (sync !== undefined) sqliteOptions.synchronous = sync;
    if (checkpoint !== undefined) sqliteOptions.checkpoint = checkpoint;
    const backend = await openSqliteBackend(path, sqliteOptions);
    store = createEventStore(backend, { ...options, expiryDays });
  } else if (scheme === 'postgres' || scheme === 'postgresql') {
    // Our parameters are taken out; the rest (sslmode, application_name ...) is node-postgres's.
    const own = new Map<string, string>();
    let connectionString: string;
    try {
      const u = new URL(urlIn);
      for (const key of ['expiryDays', 'schema']) {
        const v = u.searchParams.get(key);
        if (v !== null) own.set(key, v);
        u.searchParams.delete(key);
      }
      connectionString = u.toString();
    } catch {
      throw new UsageError(`memory store URL: ${scheme}:// URL cannot be parsed (postgres://user@host:port/database)`);
    }
    const expiryDays = expiryFrom(url, own, options);
    const { openPostgresBackend } = await import('./backends/postgres.js');
    const schema = own.get('schema');
    const backend = await openPostgresBackend(connectionString, schema === undefined ? {} : { schema });
    store = createEventStore(backend, { ...options, expiryDays });
  } else if (scheme === 'redis' || scheme === 'rediss') {
    // Our parameters are taken out; ioredis gets the URL without a query.
    let u: URL;
    try {
      u = new URL(urlIn);
    } catch {
      throw new UsageError(`memory store URL: ${scheme}:// URL cannot be parsed (redis://host:port/db)`);
    }
    const p = takeParams(url, new URLSearchParams(u.searchParams), ['expiryDays', 'prefix']);
    const expiryDays = expiryFrom(url, p, options);
    u.search = '';
    const prefix = p.get('prefix');
    const { openRedisBackend } = await import('./backends/redis.js');
    const backend = await openRedisBackend(u.toString(), prefix === undefined ? {} : { prefix });
    store = createEventStore(backend, { ...options, expiryDays });
  } else if (scheme === 'agentcore') {
    const p = takeParams(url, params, ['expiryDays', 'region', 'endpoint']);
    const expiryDays = expiryFrom(url, p, options);
    const { agentCoreTarget, openAgentCoreStore } = await import('./backends/agentcore-open.js');
    // No sweep of the whole memory here: it would read every session (see 0005).
    return openAgentCoreStore(url, agentCoreTarget(url, body, p), { ...options, expiryDays });
  } else {
    throw new UsageError(`memory store URL ${JSON.stringify(url)}: unknown scheme; use memory:, sqlite:<path>, postgres://..., redis://... or agentcore://...`);
  }
  try {
    await store.purgeExpired();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
}
