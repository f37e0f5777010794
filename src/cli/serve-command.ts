/**
 * `interlingua serve --config FILE [--port N] [--host H]`: starts the gateway, prints one line
 * `listening on http://HOST:PORT` on standard output once it accepts requests, and on SIGTERM or
 * SIGINT lets in-flight requests and streams finish, then exits 0. Logs go to standard error.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { loadConfig } from '../gateway/config.js';
import { startGateway } from '../gateway/server.js';
import { UsageError } from '../model/errors.js';
import { parseArgs, stringFlag, type FlagSpec } from './args.js';
import type { CliIo } from './io.js';

const SERVE_FLAGS: FlagSpec = { values: new Set(['config', 'port', 'host']), switches: new Set(['help']) };

export const SERVE_HELP = `Usage: interlingua serve --config FILE [--port N] [--host H]
  Runs the gateway: OpenAI, Anthropic, Gemini and Bedrock clients in, any configured provider out.
  --port 0 picks a free port (default 8787); --host defaults to 127.0.0.1.
`;

export interface ServeHooks {
  /** Waits for the signal that stops the server (the process's SIGTERM / SIGINT by default). */
  stopSignal?: Promise<void>;
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
    // Run by respawn(): the command that started this process is gone (even if killed), so stop too.
    if (process.env[RESPAWNED] === '1' && process.connected) process.once('disconnect', () => resolve());
  });
}

/**
 * The gateway's heap gets 64 MB semi-spaces (4x Node's default young generation): a transcoded
 * stream allocates enough that the default one was collected every few dozen requests, and those
 * pauses were the p99 of a cross-dialect stream (1.7-1.9 ms added at concurrency 1 on the gateway
 * bench, 0.9 ms with this). V8 reads the size only when a process starts, so `serve` runs itself
 * again with it, unless the flag is already given (command line or NODE_OPTIONS).
 */
export const HEAP_FLAG = '--max-semi-space-size=64';
const RESPAWNED = 'INTERLINGUA_SERVE_RESPAWNED';

function needsRespawn(argv: readonly string[]): boolean {
  if (argv[0] !== 'serve' || argv.includes('--help') || process.env[RESPAWNED] === '1') return false;
  const given = (a: string): boolean => a.startsWith('--max-semi-space-size');
  return !process.execArgv.some(given) && !(process.env['NODE_OPTIONS'] ?? '').split(/\s+/).some(given);
}

/**
 * For the CLI's own process (main.ts, not `run` called in process): `serve` again in a child
 * process with HEAP_FLAG, signals passed on, its exit code returned; undefined when not needed.
 */
export function respawnServe(argv: readonly string[]): Promise<number> | undefined {
  return needsRespawn(argv) ? respawn() : undefined;
}

async function respawn(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, HEAP_FLAG, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [RESPAWNED]: '1' },
    // Its own process group: a terminal's Ctrl-C reaches serve only, which passes it on once
    // (twice, the second would end the drain the first began).
    detached: true,
  });
  const pass = (signal: NodeJS.Signals) => (): void => void child.kill(signal);
  const onTerm = pass('SIGTERM');
  const onInt = pass('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
    });
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}

export async function serveCommand(argv: readonly string[], io: CliIo, hooks: ServeHooks = {}): Promise<number> {
  const args = parseArgs(['serve', ...argv], SERVE_FLAGS);
  if (args.flags.has('help')) {
    io.stdout(SERVE_HELP);
    return 0;
  }
  // The IPC channel of respawn() is for its 'disconnect' only; it must not keep this process alive.
  if (process.env[RESPAWNED] === '1') process.channel?.unref();
  if (args.positionals.length > 0) throw new UsageError(`serve takes no positional arguments (got ${args.positionals.join(' ')})`);
  const file = stringFlag(args, 'config');
  if (file === undefined) throw new UsageError('serve needs --config FILE');
  const portText = stringFlag(args, 'port') ?? '8787';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got '${portText}')`);
  const host = stringFlag(args, 'host') ?? '127.0.0.1';
  const config = await loadConfig(file);
  const stop = hooks.stopSignal ?? signalled();
  let running: Awaited<ReturnType<typeof startGateway>>;
  try {
    running = await startGateway(config, { port: Number(portText), host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A port in use or not ours to take is the user's to fix, not an internal error.
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${host}:${portText} (${code})`);
    throw err;
  }
  io.stdout(`listening on ${running.url}\n`);
  await stop;
  await running.close();
  return 0;
}
