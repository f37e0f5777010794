/** openMemory: URL forms, parameters, and drivers loaded only when used (agentcore:// URLs: agentcore-open.test.ts). */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openMemory, UsageError } from '../../src/memory/index.js';
import { user } from './events.js';
import { dropSchema, PG_URL, schemaName, sql } from './postgres-storage.js';
import { countRows, tempDir } from './sqlite-storage.js';

const lazySchema = schemaName();

async function usage(url: string, pattern: RegExp): Promise<void> {
  const err = await openMemory(url).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as Error).message).toMatch(pattern);
}

describe('openMemory URLs', () => {
  it('memory: and memory:// open an empty in-process store; two opens share nothing', async () => {
    const a = await openMemory('memory:');
    const b = await openMemory('memory://');
    await a.appendEvents('alice', 's', [user('x')]);
    expect(a.backend).toBe('memory');
    expect(await b.listActors()).toEqual([]);
    await a.close();
    await b.close();
  });

  it('sqlite:<relative>, sqlite:/abs, sqlite:///abs and sqlite::memory: all open', async () => {
    const dir = tempDir();
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      for (const [url, file] of [
        ['sqlite:rel.db', join(dir, 'rel.db')],
        ['sqlite:./dot.db', join(dir, 'dot.db')],
        [`sqlite:${join(dir, 'abs.db')}`, join(dir, 'abs.db')],
        [`sqlite://${join(dir, 'slashes.db')}`, join(dir, 'slashes.db')],
      ] as const) {
        const store = await openMemory(url);
        expect(store.backend).toBe('sqlite');
        await store.appendEvents('alice', 's', [user(url)]);
        await store.close();
        expect(countRows(file)).toBe(1);
      }
      const mem = await openMemory('sqlite::memory:');
      await mem.appendEvents('alice', 's', [user('x')]);
      expect((await mem.listEvents('alice', 's')).events.length).toBe(1);
      await mem.close();
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('?expiryDays=N sets the expiry (code options win); ?synchronous=full is accepted', async () => {
    const dir = tempDir();
    try {
      for (const [url, options, days] of [
        ['memory:?expiryDays=30', {}, 30],
        ['memory:?expiryDays=30', { expiryDays: 90 }, 90],
        ['memory:', {}, 7],
      ] as const) {
        const m = await openMemory(url, options);
        expect(m.expiryDays).toBe(days);
        await m.close();
      }
      const store = await openMemory(`sqlite:${join(dir, 'x.db')}?synchronous=full&expiryDays=365`);
      expect(store.expiryDays).toBe(365);
      await store.appendEvents('alice', 's', [user('x')]);
      await store.close();
      expect(countRows(join(dir, 'x.db'))).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad URLs are UsageErrors that say what is wrong', async () => {
    await usage('memory:?expiryDays=3', /expiryDays must be a whole number of days from 7 to 365/);
    await usage('memory:?expiryDays=ten', /expiryDays must be a whole number of days \(got 'ten'\)/);
    await usage('memory:?ttl=7', /unknown parameter 'ttl'/);
    await usage('memory:somewhere', /memory: takes no path/);
    await usage('sqlite:', /sqlite: needs a file path/);
    await usage('sqlite:x.db?synchronous=off', /synchronous must be normal or full/);
    await usage('sqlite:x.db?checkpoint=never', /checkpoint must be background or inline/);
    await usage('mysql://localhost/db', /unknown scheme/);
    await usage('./memory.db', /unknown scheme/);
  });

  it('postgres:// and postgresql:// open, with ?schema= and ?expiryDays= taken out of what node-postgres sees', async () => {
    const schema = schemaName();
    try {
      for (const scheme of ['postgres', 'postgresql']) {
        const url = `${PG_URL.replace(/^postgres/, scheme)}?application_name=interlingua-test&schema=${schema}&expiryDays=30`;
        const store = await openMemory(url);
        expect(store.backend).toBe('postgres');
        expect(store.expiryDays).toBe(30);
        await store.appendEvents('alice', 's', [user(scheme)]);
        await store.close();
      }
      expect(await sql(`SELECT count(*)::int AS n FROM "${schema}".events`)).toEqual([{ n: 2 }]);
      await usage(`${PG_URL}?schema=${schema}&expiryDays=400`, /expiryDays must be a whole number of days from 7 to 365/);
      await usage('postgres://[bad', /cannot be parsed/);
    } finally {
      await dropSchema(schema);
    }
  });
});

describe('drivers load only when used', () => {
  it('importing interlingua/memory and using memory: loads no driver; sqlite: loads better-sqlite3 only, postgres: pg', async () => {
    const index = fileURLToPath(new URL('../../src/memory/index.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(process.cwd() + '/').cache;
      const loaded = () => ['better-sqlite3', 'pg'].filter((d) => Object.keys(cache).some((k) => k.includes('/node_modules/' + d + '/')));
      const { openMemory } = await import(${JSON.stringify(index)});
      const m = await openMemory('memory:');
      await m.appendEvents('alice', 's', [{ payload: [] }]);
      const memory = loaded();
      const s = await openMemory('sqlite::memory:');
      const sqlite = loaded();
      await s.close();
      const p = await openMemory(${JSON.stringify(`${PG_URL}?schema=`)} + ${JSON.stringify(lazySchema)});
      const postgres = loaded();
      await p.close();
      console.log(JSON.stringify({ memory, sqlite, postgres }));`;
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toEqual({ memory: [], sqlite: ['better-sqlite3'], postgres: ['better-sqlite3', 'pg'] });
    } finally {
      await dropSchema(lazySchema);
    }
  });
});
