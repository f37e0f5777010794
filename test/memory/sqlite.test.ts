/** The sqlite: backend against the conformance suite, plus what only a file database has. */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory, UsageError, type StoredEvent } from '../../src/memory/index.js';
import { conformance } from './conformance.js';
import { user } from './events.js';
import { countRows, sqliteStorage, tempDir } from './sqlite-storage.js';

conformance({ name: 'sqlite:', storage: sqliteStorage });

const WRITER = fileURLToPath(new URL('./sqlite-writer.ts', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  const { rmSync } = await import('node:fs');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dbFile(): string {
  const d = tempDir();
  dirs.push(d);
  return join(d, 'memory.db');
}

/** Runs sqlite-writer.ts in its own Node process. */
function child(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let buf = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) onLine?.(line, () => p.kill('SIGKILL'));
    });
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

async function all(file: string, sessionId: string): Promise<StoredEvent[]> {
  const store = await openMemory(`sqlite:${file}`);
  const out: StoredEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await store.listEvents('alice', sessionId, nextToken === undefined ? {} : { nextToken });
    out.push(...page.events);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  await store.close();
  return out;
}

describe('sqlite: across processes', () => {
  it('4 processes of 8 writers each append to one session at once: nothing lost, each writer in order', async () => {
    const file = dbFile();
    const runs = await Promise.all([0, 8, 16, 24].map((first) => child(['writers', file, String(first), '8', '25'])));
    for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
    const events = await all(file, 'busy');
    expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 800 }, (_, i) => i + 1));
    const by = new Map<string, number[]>();
    for (const e of events) {
      const w = e.metadata!['writer']!.stringValue;
      by.set(w, [...(by.get(w) ?? []), Number(e.metadata!['i']!.stringValue)]);
    }
    expect(by.size).toBe(32);
    for (const order of by.values()) expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('a process killed in the middle of appends loses no acknowledged event', async () => {
    const file = dbFile();
    const acked: string[] = [];
    const run = await child(['loop', file], (line, kill) => {
      acked.push(line);
      if (acked.length === 300) kill();
    });
    expect(run.signal).toBe('SIGKILL');
    const events = await all(file, 'killed');
    const ids = new Set(events.map((e) => e.eventId));
    for (const id of acked) expect(ids.has(id)).toBe(true);
    // No holes: every event up to the last committed one is there, in order.
    expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
    expect(events.length).toBeGreaterThanOrEqual(300);
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
    await expect(openMemory(`sqlite:${join(tempDir(), 'no', 'such', 'dir', 'x.db')}`)).rejects.toThrow(/cannot open/);
  });
});
