/**
 * `sqlite:<path>` — the embedded default (better-sqlite3, loaded only when a sqlite: store opens).
 * WAL journal, one IMMEDIATE transaction per append (it takes the write lock before reading the
 * session's last sequence, so writers in other connections and processes wait instead of racing),
 * and a busy timeout for them to wait in. A session row holds the sequence counter and the latest
 * expiry of its events; events are ordered by an index on (session, ts, seq).
 * `synchronous=NORMAL` by default: in WAL mode a process that is killed loses no committed event;
 * `?synchronous=full` also survives power loss, at one fsync per append.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { MissingPackageError, UsageError } from '../../model/errors.js';
import type { Backend, ListQuery, Row, SessionRow } from '../backend.js';
import type { PreparedEvent } from '../event-shape.js';
import { makeEventId } from '../ids.js';
import { BACKSTOP_PAGES, startCheckpointer, type Checkpointer } from './sqlite-checkpoint.js';

export const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  actor_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  last_ts INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  UNIQUE (actor_id, session_id)
);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);
CREATE TABLE IF NOT EXISTS events (
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  payload TEXT NOT NULL,
  metadata TEXT,
  PRIMARY KEY (sid, seq)
);
CREATE INDEX IF NOT EXISTS events_order ON events (sid, ts, seq);
CREATE INDEX IF NOT EXISTS events_expiry ON events (expires_at);
`;

export interface SqliteOptions {
  synchronous?: 'normal' | 'full';
  /**
   * Where WAL checkpoints run: 'background' (default for a file) in a worker thread, off the
   * request path (sqlite-checkpoint.ts); 'inline' as SQLite does by itself, inside a commit.
   */
  checkpoint?: 'background' | 'inline';
  /** How long a writer waits for another connection's transaction, ms. */
  busyTimeoutMs?: number;
}

interface SessionState {
  id: number;
  last_seq: number;
  last_ts: number;
}

type Stmt = BetterSqlite3.Statement<unknown[], unknown>;
const COLS = 'seq, ts, event_id AS eventId, payload AS payloadJson, metadata AS metadataJson';
const SID = 'SELECT id FROM sessions WHERE actor_id = ? AND session_id = ?';

/** A page row as the raw statements give it: COLS in order. */
type RawRow = [seq: number, ts: number, eventId: string, payloadJson: string, metadataJson: string | null];

function rowsOf(raw: readonly RawRow[]): Row[] {
  const out = new Array<Row>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i] as RawRow;
    out[i] = { seq: r[0], ts: r[1], eventId: r[2], payloadJson: r[3], metadataJson: r[4] };
  }
  return out;
}

export class SqliteBackend implements Backend {
  readonly kind = 'sqlite';
  private readonly s: Record<string, Stmt>;
  private readonly appendTx: (actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number) => Row[];

  /** Started with the first append, so a store that only reads starts no thread. */
  private checkpointer: Checkpointer | undefined;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly startCheckpointer?: () => Checkpointer,
  ) {
    const p = (sql: string): Stmt => db.prepare(sql);
    this.s = {
      session: p('SELECT id, last_seq, last_ts FROM sessions WHERE actor_id = ? AND session_id = ?'),
      newSession: p('INSERT INTO sessions (actor_id, session_id, created_at, last_seq, last_ts, expires_at) VALUES (?, ?, ?, 0, 0, ?)'),
      bumpSession: p('UPDATE sessions SET last_seq = ?, last_ts = ?, expires_at = max(expires_at, ?) WHERE id = ?'),
      insert: p('INSERT INTO events (sid, seq, ts, event_id, expires_at, payload, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      get: p(`SELECT ${COLS} FROM events WHERE sid = ? AND seq = ? AND expires_at > ?`),
      // The session found inside the statement: one statement per page instead of two. Pages come
      // as arrays (rowsOf names them): the driver's named rows cost ~30% of a 45-row page.
      asc: p(`SELECT ${COLS} FROM events WHERE sid = (${SID}) AND expires_at > ? ORDER BY ts, seq LIMIT ?`).raw(true),
      ascAfter: p(`SELECT ${COLS} FROM events WHERE sid = (${SID}) AND (ts, seq) > (?, ?) AND expires_at > ? ORDER BY ts, seq LIMIT ?`).raw(true),
      desc: p(`SELECT ${COLS} FROM events WHERE sid = (${SID}) AND expires_at > ? ORDER BY ts DESC, seq DESC LIMIT ?`).raw(true),
      descAfter: p(`SELECT ${COLS} FROM events WHERE sid = (${SID}) AND (ts, seq) < (?, ?) AND expires_at > ? ORDER BY ts DESC, seq DESC LIMIT ?`).raw(true),
      sessions: p('SELECT session_id AS sessionId, created_at AS createdAt FROM sessions WHERE actor_id = ? AND expires_at > ? ORDER BY session_id'),
      actors: p('SELECT DISTINCT actor_id FROM sessions WHERE expires_at > ? ORDER BY actor_id').pluck(),
      eventExpiry: p('SELECT expires_at FROM events WHERE sid = ? AND seq = ? AND event_id = ?').pluck(),
      deleteEvent: p('DELETE FROM events WHERE sid = ? AND seq = ?'),
      maxExpiry: p('SELECT max(expires_at) FROM events WHERE sid = ?').pluck(),
      setExpiry: p('UPDATE sessions SET expires_at = ? WHERE id = ?'),
      countLive: p('SELECT count(*) FROM events WHERE sid = ? AND expires_at > ?').pluck(),
      deleteEvents: p('DELETE FROM events WHERE sid = ?'),
      deleteSessionRow: p('DELETE FROM sessions WHERE id = ?'),
      purgeEvents: p('DELETE FROM events WHERE expires_at <= ?'),
      purgeSessions: p('DELETE FROM sessions WHERE expires_at <= ?'),
    };
    const tx = db.transaction((actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): Row[] => {
      let state = this.s.session!.get(actorId, sessionId) as SessionState | undefined;
      if (!state) {
        const id = Number(this.s.newSession!.run(actorId, sessionId, now, expiresAt).lastInsertRowid);
        state = { id, last_seq: 0, last_ts: 0 };
      }
      let { last_seq: seq, last_ts: lastTs } = state;
      const out: Row[] = [];
      for (const e of events) {
        seq++;
        const ts = e.ts ?? Math.max(now, lastTs);
        lastTs = Math.max(lastTs, ts);
        const eventId = makeEventId({ ts, seq });
        this.s.insert!.run(state.id, seq, ts, eventId, expiresAt, e.payloadJson, e.metadataJson ?? null);
        out.push({ seq, ts, eventId, payloadJson: e.payloadJson, metadataJson: e.metadataJson });
      }
      this.s.bumpSession!.run(seq, lastTs, expiresAt, state.id);
      return out;
    });
    this.appendTx = tx.immediate;
  }

  private sid(actorId: string, sessionId: string): number | undefined {
    return (this.s.session!.get(actorId, sessionId) as SessionState | undefined)?.id;
  }

  append(actorId: string, sessionId: string, events: PreparedEvent[], now: number, expiresAt: number): Row[] {
    if (this.checkpointer === undefined && this.startCheckpointer !== undefined) this.checkpointer = this.startCheckpointer();
    return this.appendTx(actorId, sessionId, events, now, expiresAt);
  }

  get(actorId: string, sessionId: string, seq: number, now: number): Row | undefined {
    const sid = this.sid(actorId, sessionId);
    return sid === undefined ? undefined : (this.s.get!.get(sid, seq, now) as Row | undefined);
  }

  list(actorId: string, sessionId: string, q: ListQuery, now: number): Row[] {
    if (q.after === undefined) return rowsOf((q.chronological ? this.s.asc! : this.s.desc!).all(actorId, sessionId, now, q.limit) as RawRow[]);
    return rowsOf((q.chronological ? this.s.ascAfter! : this.s.descAfter!).all(actorId, sessionId, q.after.ts, q.after.seq, now, q.limit) as RawRow[]);
  }

  sessions(actorId: string, now: number): SessionRow[] {
    return this.s.sessions!.all(actorId, now) as SessionRow[];
  }

  actors(now: number): string[] {
    return this.s.actors!.all(now) as string[];
  }

  deleteEvent(actorId: string, sessionId: string, seq: number, eventId: string, now: number): boolean {
    return this.db.transaction(() => {
      const sid = this.sid(actorId, sessionId);
      if (sid === undefined) return false;
      const expiresAt = this.s.eventExpiry!.get(sid, seq, eventId) as number | undefined;
      if (expiresAt === undefined) return false;
      this.s.deleteEvent!.run(sid, seq);
      // The session's expiry is the latest of its events': keep it exact, or drop an emptied session.
      const max = this.s.maxExpiry!.get(sid) as number | null;
      if (max === null) this.s.deleteSessionRow!.run(sid);
      else this.s.setExpiry!.run(max, sid);
      return expiresAt > now;
    }).immediate();
  }

  deleteSession(actorId: string, sessionId: string, now: number): number {
    return this.db.transaction(() => {
      const sid = this.sid(actorId, sessionId);
      if (sid === undefined) return 0;
      const live = this.s.countLive!.get(sid, now) as number;
      this.s.deleteEvents!.run(sid);
      this.s.deleteSessionRow!.run(sid);
      return live;
    }).immediate();
  }

  purge(now: number): number {
    return this.db.transaction(() => {
      const n = this.s.purgeEvents!.run(now).changes;
      // A session expires with its latest event, so these hold no events any more.
      this.s.purgeSessions!.run(now);
      return n;
    }).immediate();
  }

  async close(): Promise<void> {
    // The worker's connection first: the last one to close folds the log into the database.
    await this.checkpointer?.close();
    if (this.db.open) this.db.close();
  }
}

export type SqliteDriver = typeof BetterSqlite3;

/**
 * better-sqlite3 (an optional dependency: a native build, which conversion never needs), or a
 * MissingPackageError saying what to install. Its native module loads with the first database, so
 * one in-memory database is opened here: a build that failed or was made for another Node is told
 * now, not as a file that cannot be opened.
 */
export async function loadSqliteDriver(load: () => Promise<{ default: SqliteDriver }> = () => import('better-sqlite3')): Promise<SqliteDriver> {
  try {
    const Database = (await load()).default;
    new Database(':memory:').close();
    return Database;
  } catch (err) {
    throw new MissingPackageError('sqlite: stores', 'better-sqlite3', (err as Error).message);
  }
}

/** Opens (creating if needed) the database at `path` and its schema. */
export async function openSqliteBackend(path: string, options: SqliteOptions = {}): Promise<SqliteBackend> {
  const Database = await loadSqliteDriver();
  let db: BetterSqlite3.Database;
  try {
    db = new Database(path, { timeout: options.busyTimeoutMs ?? 10_000 });
  } catch (err) {
    throw new UsageError(`sqlite: cannot open ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new UsageError(`sqlite: ${JSON.stringify(path)} has memory schema version ${version}, newer than this interlingua reads (${SCHEMA_VERSION})`);
    }
    if (version < SCHEMA_VERSION) {
      db.transaction(() => {
        db.exec(SCHEMA);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    }
    if (options.checkpoint === 'inline' || db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return new SqliteBackend(db);
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    const file = db.name;
    return new SqliteBackend(db, () => startCheckpointer(file));
  } catch (err) {
    db.close();
    if (err instanceof UsageError) throw err;
    throw new UsageError(`sqlite: ${JSON.stringify(path)} cannot be used as a memory store: ${(err as Error).message}`);
  }
}
