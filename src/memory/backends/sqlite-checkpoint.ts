/**
 * WAL checkpoints off the request path. SQLite copies the write-ahead log back into the database
 * (and, with synchronous=NORMAL, fsyncs it) from inside the commit that finds the log over
 * `wal_autocheckpoint` pages: with better-sqlite3 that commit runs on the event loop, so about one
 * append in 150 took milliseconds longer (measured: a cluster of /chat turns at 4-5 ms against a
 * median of 0.5 ms). Here a worker thread with its own connection runs a PASSIVE checkpoint every
 * `intervalMs` (it never waits for the writers, and they never wait for it), and the request path's
 * connection keeps a high automatic threshold only as a safety net for when the worker falls behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages in the log before the request path's own connection checkpoints (the worker's backstop). */
export const BACKSTOP_PAGES = 20_000;
export const DEFAULT_CHECKPOINT_MS = 100;

// Plain JavaScript evaluated in the worker: no module file to locate from the sources or dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0 });
const run = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy (another checkpoint in progress) or closing: the next tick tries again
  }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  run();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the worker after a last checkpoint and closes its connection. */
  close(): Promise<void>;
}

/** Starts checkpointing the database file at `path` (already in WAL mode) from a worker thread. */
export function startCheckpointer(path: string, intervalMs: number = DEFAULT_CHECKPOINT_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, intervalMs } });
  // Its timer must not keep a process alive that has nothing else to do.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A worker that fails (its driver will not load) leaves checkpoints to the backstop.
  worker.on('error', () => {});
  return {
    async close() {
      // Held again while it closes, or a process awaiting this has nothing left to wait on and ends.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
