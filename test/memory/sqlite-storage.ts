/** sqlite: storage for the tests: a fresh file in a temp directory, opened through openMemory. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../src/memory/index.js';
import type { Storage } from './conformance.js';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'interlingua-memory-'));
}

/** Rows in the events table, read through a connection of its own. */
export function countRows(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export async function sqliteStorage(): Promise<Storage & { file: string }> {
  const dir = tempDir();
  const file = join(dir, 'memory.db');
  return {
    file,
    open: (options) => openMemory(`sqlite:${file}`, options),
    stored: async () => countRows(file),
    durable: true,
    connections: true,
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
