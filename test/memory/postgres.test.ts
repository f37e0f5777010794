/** The postgres:// backend against the conformance suite, on the real server, plus what only it has. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemory, UsageError } from '../../src/memory/index.js';
import { conformance } from './conformance.js';
import { user } from './events.js';
import { dropSchema, PG_URL, postgresStorage, schemaName, sql, storeUrl, withClient } from './postgres-storage.js';
import { checkKilledWriter, checkProcessWriters } from './processes.js';

conformance({ name: 'postgres:', storage: postgresStorage });

const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});
function fresh(): string {
  const s = schemaName();
  schemas.push(s);
  return s;
}

describe('postgres: across processes', () => {
  it('4 processes of 8 writers each append to one session at once: nothing lost, each writer in order', async () => {
    await checkProcessWriters(storeUrl(fresh()));
  });

  it('a process killed in the middle of appends loses no acknowledged event', async () => {
    await checkKilledWriter(storeUrl(fresh()));
  });

  it('8 stores opening a new schema at once create it once', async () => {
    const url = storeUrl(fresh());
    const stores = await Promise.all(Array.from({ length: 8 }, () => openMemory(url)));
    await Promise.all(stores.map((s, i) => s.appendEvents('alice', 's', [user(`from ${i}`)])));
    expect((await stores[0]!.listEvents('alice', 's')).events.length).toBe(8);
    for (const s of stores) await s.close();
  });
});

describe('postgres: the database', () => {
  it('keeps its tables in the schema asked for, with indexes that serve session reads', async () => {
    const schema = fresh();
    const store = await openMemory(storeUrl(schema));
    await store.appendEvents('alice', 's', [user('x')]);
    await store.close();
    const tables = await sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
    expect(tables.map((t) => t.table_name)).toEqual(['events', 'meta', 'sessions']);
    const indexes = await sql<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'events' ORDER BY 1`, [schema]);
    expect(indexes.map((i) => i.indexdef.replace(/^.* USING /, '')).sort()).toEqual(['btree (expires_at)', 'btree (sid, seq)', 'btree (sid, ts, seq)']);
    // Usable for the page query (with seq scans off: a table this small would be scanned anyway).
    const plan = await withClient(async (c) => {
      await c.query('SET enable_seqscan = off');
      const r = await c.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT * FROM "${schema}".events WHERE sid = 1 AND (ts, seq) > (0, 0) AND expires_at > 0 ORDER BY ts, seq LIMIT 10`,
      );
      return r.rows.map((row) => row['QUERY PLAN']).join(' | ');
    });
    expect(plan).toMatch(/Index Scan using events_order/);
  });

  it('a schema of a newer version, a bad schema name, an unreachable server: clear UsageErrors without the password', async () => {
    const schema = fresh();
    await (await openMemory(storeUrl(schema))).close();
    await sql(`UPDATE "${schema}".meta SET value = '2' WHERE key = 'schema_version'`);
    await expect(openMemory(storeUrl(schema))).rejects.toThrow(/memory schema version 2, newer than this interlingua reads \(1\)/);
    await expect(openMemory(storeUrl('Bad-Name'))).rejects.toThrow(/schema must match/);
    const err = await openMemory('postgres://someone:secret-pw@127.0.0.1:1/test').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/cannot use postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/test/);
    expect((err as Error).message).not.toContain('secret-pw');
    expect(PG_URL).toMatch(/^postgres/);
  });
});

describe('postgres: connections', () => {
  const backends = (app: string) => sql<{ pid: number; started: Date }>(`SELECT pid, backend_start AS started FROM pg_stat_activity WHERE application_name = $1`, [app]);

  it("keeps an idle connection past node-postgres's 10 s default, so a call after a pause opens none", async () => {
    const app = `il_idle_${process.pid}_${Date.now()}`;
    const store = await openMemory(`${storeUrl(fresh())}&application_name=${app}`);
    try {
      await store.appendEvents('alice', 's', [user('before the pause')]);
      const before = await backends(app);
      expect(before).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 10_600));
      expect(await backends(app)).toEqual(before);
      await store.appendEvents('alice', 's', [user('after the pause')]);
      expect(await backends(app)).toEqual(before);
    } finally {
      await store.close();
    }
    // The server ends a closed connection's process a moment after the client goes: wait for it, bounded.
    let left = await backends(app);
    for (const until = Date.now() + 3_000; left.length > 0 && Date.now() < until; left = await backends(app)) await new Promise((r) => setTimeout(r, 50));
    expect(left).toEqual([]);
  }, 20_000);

  it('a process that used a store and never closed it still exits once it has nothing else to do', () => {
    const index = fileURLToPath(new URL('../../src/memory/index.ts', import.meta.url));
    const script = `
      const { openMemory } = await import(${JSON.stringify(index)});
      const store = await openMemory(${JSON.stringify(storeUrl(fresh()))});
      await store.appendEvents('alice', 's', [{ payload: [{ blob: 'x' }] }]);
      console.log('appended');`;
    const t0 = Date.now();
    // Before: the pool's idle connection held the process for node-postgres's 10 s idle timeout.
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 9_500 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('appended');
    expect(Date.now() - t0).toBeLessThan(9_500);
  }, 15_000);
});
