/**
 * `postgres://...` — node-postgres (`pg`, an optional peer dependency loaded only when a postgres:
 * store opens), a pool of connections, tables in their own schema (postgres-schema.ts). Appends
 * are one server-side function call; deletes take the session row's lock first, so they wait for
 * an append in progress instead of leaving its events behind.
 */
import type pg from 'pg';
import { MissingPackageError, UsageError } from '../../model/errors.js';
import type { Backend, ListQuery, Row, SessionRow } from '../backend.js';
import type { PreparedEvent } from '../event-shape.js';
import { PG_SCHEMA_VERSION, SCHEMA_NAME, schemaSql } from './postgres-schema.js';

export interface PostgresOptions {
  /** Schema holding the tables (default interlingua_memory). */
  schema?: string;
  /** Pool size (default 10). */
  maxConnections?: number;
}

interface RawRow {
  seq: string;
  ts: string;
  event_id: string;
  payload: string;
  metadata: string | null;
}

const toRow = (r: RawRow): Row => ({ seq: Number(r.seq), ts: Number(r.ts), eventId: r.event_id, payloadJson: r.payload, metadataJson: r.metadata });
const COLS = 'seq, ts, event_id, payload, metadata';
/** How long an idle pooled connection is kept. */
const IDLE_MS = 10 * 60_000;

export class PostgresBackend implements Backend {
  readonly kind = 'postgres';
  private readonly t: { sessions: string; events: string; fn: string };

  constructor(private readonly pool: pg.Pool, schema: string) {
    this.t = { sessions: `"${schema}".sessions`, events: `"${schema}".events`, fn: `"${schema}".append_events` };
  }

  private sid(): string {
    return `(SELECT id FROM ${this.t.sessions} WHERE actor_id = $1 AND session_id = $2)`;
  }

  /** Runs `fn` in a transaction on one connection. */
  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  async append(actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): Promise<Row[]> {
    // Named, so each connection parses and plans it once (the pool's connections serve one schema).
    const res = await this.pool.query<{ o_seq: string; o_ts: string; o_event_id: string }>({
      name: 'interlingua_append',
      text: `SELECT * FROM ${this.t.fn}($1, $2, $3, $4, $5::bigint[], $6::text[], $7::text[])`,
      values: [actorId, sessionId, now, expiresAt, events.map((e) => e.ts ?? null), events.map((e) => e.payloadJson), events.map((e) => e.metadataJson ?? null)],
    });
    return res.rows.map((r, i) => ({ seq: Number(r.o_seq), ts: Number(r.o_ts), eventId: r.o_event_id, payloadJson: events[i]!.payloadJson, metadataJson: events[i]!.metadataJson }));
  }

  async get(actorId: string, sessionId: string, seq: number, now: number): Promise<Row | undefined> {
    const res = await this.pool.query<RawRow>(`SELECT ${COLS} FROM ${this.t.events} WHERE sid = ${this.sid()} AND seq = $3 AND expires_at > $4`, [actorId, sessionId, seq, now]);
    const r = res.rows[0];
    return r ? toRow(r) : undefined;
  }

  async list(actorId: string, sessionId: string, q: ListQuery, now: number): Promise<Row[]> {
    const [cmp, dir] = q.chronological ? ['>', 'ASC'] : ['<', 'DESC'];
    const after = q.after ? `AND (ts, seq) ${cmp} ($5, $6)` : '';
    const args: unknown[] = [actorId, sessionId, now, q.limit, ...(q.after ? [q.after.ts, q.after.seq] : [])];
    const res = await this.pool.query<RawRow>({
      name: `interlingua_list_${dir}${q.after ? '_after' : ''}`,
      text: `SELECT ${COLS} FROM ${this.t.events} WHERE sid = ${this.sid()} ${after} AND expires_at > $3 ORDER BY ts ${dir}, seq ${dir} LIMIT $4`,
      values: args,
    });
    return res.rows.map(toRow);
  }

  async sessions(actorId: string, now: number): Promise<SessionRow[]> {
    const res = await this.pool.query<{ session_id: string; created_at: string }>(
      `SELECT session_id, created_at FROM ${this.t.sessions} WHERE actor_id = $1 AND expires_at > $2 ORDER BY session_id`,
      [actorId, now],
    );
    return res.rows.map((r) => ({ sessionId: r.session_id, createdAt: Number(r.created_at) }));
  }

  async actors(now: number): Promise<string[]> {
    const res = await this.pool.query<{ actor_id: string }>(`SELECT DISTINCT actor_id FROM ${this.t.sessions} WHERE expires_at > $1 ORDER BY actor_id`, [now]);
    return res.rows.map((r) => r.actor_id);
  }

  async deleteEvent(actorId: string, sessionId: string, seq: number, eventId: string, now: number): Promise<boolean> {
    return this.tx(async (c) => {
      const s = await c.query<{ id: string }>(`SELECT id FROM ${this.t.sessions} WHERE actor_id = $1 AND session_id = $2 FOR UPDATE`, [actorId, sessionId]);
      const sid = s.rows[0]?.id;
      if (sid === undefined) return false;
      const del = await c.query<{ expires_at: string }>(`DELETE FROM ${this.t.events} WHERE sid = $1 AND seq = $2 AND event_id = $3 RETURNING expires_at`, [sid, seq, eventId]);
      const gone = del.rows[0];
      if (!gone) return false;
      // Keep the session's expiry the latest of its events', or drop the session when it is empty.
      const max = await c.query<{ m: string | null }>(`SELECT max(expires_at) AS m FROM ${this.t.events} WHERE sid = $1`, [sid]);
      const m = max.rows[0]?.m ?? null;
      if (m === null) await c.query(`DELETE FROM ${this.t.sessions} WHERE id = $1`, [sid]);
      else await c.query(`UPDATE ${this.t.sessions} SET expires_at = $2 WHERE id = $1`, [sid, m]);
      return Number(gone.expires_at) > now;
    });
  }

  async deleteSession(actorId: string, sessionId: string, now: number): Promise<number> {
    return this.tx(async (c) => {
      const s = await c.query<{ id: string }>(`SELECT id FROM ${this.t.sessions} WHERE actor_id = $1 AND session_id = $2 FOR UPDATE`, [actorId, sessionId]);
      const sid = s.rows[0]?.id;
      if (sid === undefined) return 0;
      const del = await c.query<{ n: string }>(
        `WITH d AS (DELETE FROM ${this.t.events} WHERE sid = $1 RETURNING expires_at) SELECT count(*) FILTER (WHERE expires_at > $2) AS n FROM d`,
        [sid, now],
      );
      await c.query(`DELETE FROM ${this.t.sessions} WHERE id = $1`, [sid]);
      return Number(del.rows[0]?.n ?? 0);
    });
  }

  async purge(now: number): Promise<number> {
    const res = await this.pool.query(`DELETE FROM ${this.t.events} WHERE expires_at <= $1`, [now]);
    // A session expires with its latest event; an append that extends it meanwhile keeps it.
    await this.pool.query(`DELETE FROM ${this.t.sessions} WHERE expires_at <= $1`, [now]);
    return res.rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Connects, creates the schema if needed (under an advisory lock, so concurrent first opens do not race). */
export async function openPostgresBackend(connectionString: string, options: PostgresOptions = {}): Promise<PostgresBackend> {
  const schema = options.schema ?? 'interlingua_memory';
  if (!SCHEMA_NAME.test(schema)) throw new UsageError(`postgres: schema must match ${SCHEMA_NAME.source} (got ${JSON.stringify(schema)})`);
  let Pg: typeof pg;
  try {
    Pg = (await import('pg')).default;
  } catch (err) {
    throw new MissingPackageError('postgres: stores', 'pg', (err as Error).message);
  }
  // node-postgres closes a connection after 10 s idle by default; the next call then opens one
  // (12-14 ms here against ~0.5 ms), which a chat's memory calls, a turn every few seconds or
  // minutes, would pay nearly every time. Idle connections stay 10 minutes instead, and do not
  // keep a process alive that has nothing else to do.
  const pool = new Pg.Pool({ connectionString, max: options.maxConnections ?? 10, idleTimeoutMillis: IDLE_MS, allowExitOnIdle: true });
  // An idle client's error (the server went away) must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`interlingua_memory:${schema}`]);
      const exists = await c.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'meta'`, [schema]);
      const version = exists.rowCount
        ? Number((await c.query<{ value: string }>(`SELECT value FROM "${schema}".meta WHERE key = 'schema_version'`)).rows[0]?.value ?? 0)
        : 0;
      if (version > PG_SCHEMA_VERSION) {
        throw new UsageError(`postgres: schema ${schema} has memory schema version ${version}, newer than this interlingua reads (${PG_SCHEMA_VERSION})`);
      }
      if (version < PG_SCHEMA_VERSION) {
        await c.query(schemaSql(schema));
        await c.query(`INSERT INTO "${schema}".meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [String(PG_SCHEMA_VERSION)]);
      }
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    if (err instanceof UsageError) throw err;
    throw new UsageError(`postgres: cannot use ${redact(connectionString)} as a memory store: ${(err as Error).message}`);
  }
  return new PostgresBackend(pool, schema);
}

/** The connection string without its password, for messages. */
export function redact(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the connection string';
  }
}
