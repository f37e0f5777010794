/**
 * better-sqlite3 is an optional dependency (a native build conversion never needs): when it is not
 * installed, or its native module does not load, a sqlite: store says what to install. The package's
 * absence from a real install is tested in test/package/ (npm run test:package).
 */
import { describe, expect, it } from 'vitest';
import { loadSqliteDriver, type SqliteDriver } from '../../src/memory/backends/sqlite.js';
import { MissingPackageError, UsageError } from '../../src/memory/index.js';

/** What Node's import throws for a package that is not installed. */
function notInstalled(): Promise<never> {
  return Promise.reject(Object.assign(new Error("Cannot find package 'better-sqlite3' imported from /app/node_modules/interlingua/dist/memory/backends/sqlite.js"), { code: 'ERR_MODULE_NOT_FOUND' }));
}

/** A package whose native module was not built: better-sqlite3 loads it with the first database. */
function unbuilt(): Promise<{ default: SqliteDriver }> {
  const Database = function () {
    throw new Error('Could not locate the bindings file. Tried: build/Release/better_sqlite3.node');
  } as unknown as SqliteDriver;
  return Promise.resolve({ default: Database });
}

describe('loading better-sqlite3', () => {
  it('names the package and the command when it is not installed', async () => {
    const err = await loadSqliteDriver(notInstalled).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPackageError);
    expect(err).toBeInstanceOf(UsageError);
    expect(err).toMatchObject({ code: 'missing_package', packageName: 'better-sqlite3', installCommand: 'npm install better-sqlite3' });
    expect((err as Error).message).toBe(
      "sqlite: stores need the better-sqlite3 package (npm install better-sqlite3), which could not be loaded: Cannot find package 'better-sqlite3' imported from /app/node_modules/interlingua/dist/memory/backends/sqlite.js",
    );
  });

  it('says the same when the package is there but its native build is not', async () => {
    const err = await loadSqliteDriver(unbuilt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPackageError);
    expect((err as Error).message).toMatch(/^sqlite: stores need the better-sqlite3 package \(npm install better-sqlite3\), which could not be loaded: Could not locate the bindings file/);
  });

  it('gives the driver when it loads', async () => {
    const Database = await loadSqliteDriver();
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS n').get()).toEqual({ n: 2 });
    db.close();
  });
});
