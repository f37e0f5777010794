/** The sqlite: backend against the conformance suite, plus what only a file database has. */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory, UsageError } from '../../src/memory/index.js';
import { conformance } from './conformance.js';
import { user } from './events.js';
import { checkKilledWriter, checkProcessWriters } from './processes.js';
import { countRows, sqliteStorage, tempDir } from './sqlite-storage.js';

conformance({ name: 'sqlite:', storage: sqliteStorage });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dbFile(): string {
  const d = tempDir();
  dirs.push(d);
  return join(d, 'memory.db');
}

describe('sqlite: across processes', () => {
  it('4 processes of 8 writers each append to one session at once: nothing lost, each writer in order', async () => {
    await checkProcessWriters(`sqlite:${dbFile()}`);
  });

  it('a process killed in the middle of appends loses no acknowledged event', async () => {
    await checkKilledWriter(`sqlite:${dbFile()}`);
  });
});

describe('sqlite: the file', () => {
  it('is in WAL mode, with indexes that serve every session read', async () => {
    const file = dbFile();
    const store = await openMemory(`sqlite:${file}`);
    await store.appendEvents('alice', 's', [user('x')]);
    const db = new Database(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const plan = (sql: string): string => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
      expect(plan('SELECT * FROM events WHERE sid = 1 AND (ts, seq) > (0, 0) AND expires_at > 0 ORDER BY ts, seq LIMIT 10')).toMatch(/USING INDEX events_order/);
      expect(plan('SELECT * FROM events WHERE sid = 1 AND expires_at > 0 ORDER BY ts DESC, seq DESC LIMIT 10')).toMatch(/USING INDEX events_order/);
      expect(plan('SELECT * FROM events WHERE sid = 1 AND seq = 3')).toMatch(/USING INDEX sqlite_autoindex_events_1/);
      expect(plan("SELECT id FROM sessions WHERE actor_id = 'a' AND session_id = 'b'")).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_sessions_1/);
      expect(plan('DELETE FROM events WHERE expires_at <= 5')).toMatch(/events_expiry/);
      expect(countRows(file)).toBe(1);
    } finally {
      db.close();
      await store.close();
    }
  });

  it('a database of a newer schema, a file that is not a database, a missing directory: clear UsageErrors', async () => {
    const newer = dbFile();
    const db = new Database(newer);
    db.pragma('user_version = 2');
    db.close();
    await expect(openMemory(`sqlite:${newer}`)).rejects.toThrow(/schema version 2, newer than this interlingua reads \(1\)/);
    const junk = dbFile();
    mkdirSync(join(junk, '..'), { recursive: true });
    writeFileSync(junk, 'this is not a database, just text that is long enough to have a header.'.repeat(20));
    await expect(openMemory(`sqlite:${junk}`)).rejects.toBeInstanceOf(UsageError);
    await expect(openMemory(`sqlite:${join(dbFile(), '..', 'no', 'such', 'dir', 'x.db')}`)).rejects.toThrow(/cannot open/);
  });
});

describe('sqlite: checkpoints', () => {
  const walSize = (file: string): number => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
  /** Appends in two batches with a pause between; the log's size after each. */
  async function twoBatches(url: string, file: string): Promise<[number, number]> {
    const store = await openMemory(url);
    try {
      const batch = async (tag: string) => {
        for (let i = 0; i < 60; i++) await store.appendEvents('alice', `s${i % 5}`, [user(`${tag}-${i} ${'x'.repeat(900)}`)]);
      };
      await batch('a');
      const first = walSize(file);
      // Long enough for the worker's checkpoints (every 100 ms) to fold the whole log back.
      await new Promise((r) => setTimeout(r, 1500));
      await batch('b');
      return [first, walSize(file)];
    } finally {
      await store.close();
    }
  }

  it('run in a worker: a log folded back between batches is written again from its start, not grown', async () => {
    const file = dbFile();
    const [first, second] = await twoBatches(`sqlite:${file}`, file);
    expect(first).toBeGreaterThan(60 * 1024);
    expect(second).toBeLessThan(first * 1.5);
    // Closed, the last connection folded the log into the database and removed it.
    expect(walSize(file)).toBe(0);
    expect(countRows(file)).toBe(120);
  });

  it("?checkpoint=inline leaves them to the commits: under SQLite's 1000 pages the log only grows", async () => {
    const file = dbFile();
    const [first, second] = await twoBatches(`sqlite:${file}?checkpoint=inline`, file);
    expect(second).toBeGreaterThan(first * 1.8);
  });
});
