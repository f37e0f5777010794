/**
 * `interlingua serve --config FILE [--port N] [--host H]`: starts the gateway, prints one line
 * `listening on http://HOST:PORT` on standard output once it accepts requests, and on SIGTERM or
 * SIGINT lets in-flight requests and streams finish, then exits 0. Logs go to standard error.
 */
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
  });
}

export async function serveCommand(argv: readonly string[], io: CliIo, hooks: ServeHooks = {}): Promise<number> {
  const args = parseArgs(['serve', ...argv], SERVE_FLAGS);
  if (args.flags.has('help')) {
    io.stdout(SERVE_HELP);
    return 0;
  }
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
