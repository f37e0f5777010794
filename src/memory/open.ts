/**
 * `openMemory(url)`: a store from a URL. Each backend's module (and its driver) is imported only
 * when a URL of its scheme is opened, so `interlingua/memory` loads no database driver by itself.
 * - `memory:` — in this process only;
 * - `sqlite:<path>` — a file (`sqlite:./memory.db`, `sqlite:/abs/path.db`, `sqlite:///abs/path.db`),
 *   or `sqlite::memory:`; the path is taken as written (no %-decoding), up to a `?`;
 *   `?synchronous=full` for an fsync per append.
 * Every URL takes `?expiryDays=N` (7-365, default 7); options passed in code win over the URL.
 */
import { UsageError } from '../model/errors.js';
import { checkExpiryDays, createEventStore } from './checked-store.js';
import type { EventStore, StoreOptions } from './store.js';

export interface OpenOptions extends StoreOptions {}

const NOT_YET: Readonly<Record<string, string>> = {
  postgres: 'PostgreSQL',
  postgresql: 'PostgreSQL',
  redis: 'Redis',
  rediss: 'Redis',
  agentcore: 'AgentCore Memory',
};

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

/** Opens the store a URL names; expired events are swept out as it opens. */
export async function openMemory(url: string, options: OpenOptions = {}): Promise<EventStore> {
  if (typeof url !== 'string') throw new UsageError('openMemory needs a store URL such as memory: or sqlite:./memory.db');
  const colon = url.indexOf(':');
  const scheme = colon > 0 ? url.slice(0, colon).toLowerCase() : '';
  const { body, params } = splitQuery(url.slice(colon + 1));
  let store: EventStore;
  if (scheme === 'memory') {
    if (body !== '' && body !== '//') throw new UsageError(`memory store URL ${url}: memory: takes no path`);
    const expiryDays = expiryFrom(url, takeParams(url, params, ['expiryDays']), options);
    const { MemoryBackend } = await import('./backends/memory.js');
    store = createEventStore(new MemoryBackend(), { ...options, expiryDays });
  } else if (scheme === 'sqlite') {
    const p = takeParams(url, params, ['expiryDays', 'synchronous']);
    const expiryDays = expiryFrom(url, p, options);
    const path = body.startsWith('//') ? body.slice(2) : body;
    if (path === '') throw new UsageError(`memory store URL ${url}: sqlite: needs a file path, e.g. sqlite:./memory.db`);
    const sync = p.get('synchronous');
    if (sync !== undefined && sync !== 'normal' && sync !== 'full') {
      throw new UsageError(`memory store URL ${url}: synchronous must be normal or full (got '${sync}')`);
    }
    const { openSqliteBackend } = await import('./backends/sqlite.js');
    const backend = await openSqliteBackend(path, sync ? { synchronous: sync } : {});
    store = createEventStore(backend, { ...options, expiryDays });
  } else if (scheme in NOT_YET) {
    throw new UsageError(`memory store URL ${url}: the ${NOT_YET[scheme]} store is not built yet; use memory: or sqlite:<path>`);
  } else {
    throw new UsageError(`memory store URL ${JSON.stringify(url)}: unknown scheme; use memory:, sqlite:<path> (postgres://, redis:// and agentcore:// are planned)`);
  }
  await store.purgeExpired();
  return store;
}
