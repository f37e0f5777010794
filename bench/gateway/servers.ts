/**
 * Starts each server of the gateway bench as its own Node process (so none of them shares a
 * thread with the load generator or with another server) and stops them by their pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HEAP_FLAG } from '../../src/cli/serve-command.js';

export interface Started {
  url: string;
  stop(): void;
}

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function stopper(child: ChildProcess): () => void {
  return () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
}

/** Runs a TypeScript server script with tsx and waits for its `listening on <url>` line. */
function startScript(file: string, args: string[] = [], nodeArgs: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', here(file), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m?.[1] !== undefined) {
        child.stdout?.removeAllListeners('data');
        // With BENCH_GW_NODE_ARGS (e.g. --trace-gc) the server's further output is shown, else dropped.
        if (process.env['BENCH_GW_NODE_ARGS']) child.stdout?.pipe(process.stderr);
        else child.stdout?.resume();
        resolve({ url: m[1], stop: stopper(child) });
      }
    });
  });
}

export const startMock = (): Promise<Started> => startScript('./mock-server.ts');

/** BENCH_GW_NODE_ARGS (space-separated) adds Node flags to the gateway process only, e.g. `--trace-gc`. */
/** The gateway with the young generation `interlingua serve` gives it (HEAP_FLAG), plus BENCH_GW_NODE_ARGS. */
export const startInterlingua = (config: unknown): Promise<Started> =>
  startScript('./gateway-server.ts', [JSON.stringify(config)], [HEAP_FLAG, ...(process.env['BENCH_GW_NODE_ARGS'] ?? '').split(' ').filter(Boolean)]);

/** A port free right now on 127.0.0.1 (Portkey's server takes a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Portkey's open-source gateway as its package starts it (`build/start-server.js`), headless and
 * in production mode (no log UI), on a free port; ready once `GET /` answers.
 */
export async function startPortkey(): Promise<Started> {
  const port = await freePort();
  const entry = fileURLToPath(import.meta.resolve('@portkey-ai/gateway/build/start-server.js'));
  const child = spawn(process.execPath, [entry, `--port=${port}`, '--headless'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`Portkey's gateway exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/`).then((r) => r.ok, () => false);
    if (ok) return { url, stop: stopper(child) };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error("Portkey's gateway did not answer within 10 s");
}
