/**
 * Writers in other processes (store-writer.ts) against a store URL: the multi-process and
 * kill-in-the-middle checks that only a database shared between processes can pass.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { openMemory, type StoredEvent } from '../../src/memory/index.js';

const WRITER = fileURLToPath(new URL('./store-writer.ts', import.meta.url));

/** Runs store-writer.ts in its own Node process. */
export function child(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<{ code: number | null; signal: string | null; stderr: string }> {
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

export async function allEvents(url: string, sessionId: string): Promise<StoredEvent[]> {
  const store = await openMemory(url);
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

/** 4 processes of 8 writers, 25 events each, to one session: nothing lost, each writer in order. */
export async function checkProcessWriters(url: string): Promise<void> {
  const runs = await Promise.all([0, 8, 16, 24].map((first) => child(['writers', url, String(first), '8', '25'])));
  for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
  const events = await allEvents(url, 'busy');
  expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 800 }, (_, i) => i + 1));
  const by = new Map<string, number[]>();
  for (const e of events) {
    const w = e.metadata!['writer']!.stringValue;
    by.set(w, [...(by.get(w) ?? []), Number(e.metadata!['i']!.stringValue)]);
  }
  expect(by.size).toBe(32);
  for (const order of by.values()) expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
}

/** A writer killed (SIGKILL) after 300 acknowledged appends: every acknowledged event is there, no holes. */
export async function checkKilledWriter(url: string): Promise<void> {
  const acked: string[] = [];
  const run = await child(['loop', url], (line, kill) => {
    acked.push(line);
    if (acked.length === 300) kill();
  });
  expect(run.signal, run.stderr).toBe('SIGKILL');
  const events = await allEvents(url, 'killed');
  const ids = new Set(events.map((e) => e.eventId));
  for (const id of acked) expect(ids.has(id)).toBe(true);
  expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
  expect(events.length).toBeGreaterThanOrEqual(300);
}
