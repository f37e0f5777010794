/**
 * postgres: storage for the tests: the server on 127.0.0.1:5432, database `test`, trust auth (as on
 * every machine of this project; MEMORY_TEST_POSTGRES_URL overrides), one fresh schema per storage.
 */
import pg from 'pg';
import { openMemory } from '../../src/memory/index.js';
import type { Storage } from './conformance.js';

export const PG_URL = process.env['MEMORY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

let counter = 0;
export function schemaName(): string {
  return `il_test_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Runs `fn` on a connection of its own. */
export async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function sql<T extends pg.QueryResultRow>(text: string, args: unknown[] = []): Promise<T[]> {
  return withClient(async (c) => (await c.query<T>(text, args)).rows);
}

export async function dropSchema(schema: string): Promise<void> {
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

export const storeUrl = (schema: string): string => `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;

export async function postgresStorage(): Promise<Storage & { schema: string }> {
  const schema = schemaName();
  return {
    schema,
    open: (options) => openMemory(storeUrl(schema), options),
    stored: async () => {
      const exists = await sql(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'events'`, [schema]);
      if (exists.length === 0) return 0;
      return Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".events`))[0]?.n);
    },
    durable: true,
    connections: true,
    dispose: () => dropSchema(schema),
  };
}
