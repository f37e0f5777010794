/**
 * `interlingua playground [--port N] [--store URL]`: serves the playground page on 127.0.0.1 with
 * no configuration and prints `listening on http://127.0.0.1:PORT`; runs until SIGINT / SIGTERM.
 */
import { UsageError } from '../model/errors.js';
import { parseArgs, stringFlag, type FlagSpec } from './args.js';
import type { CliIo } from './io.js';

const FLAGS: FlagSpec = { values: new Set(['port', 'store']), switches: new Set(['help']) };

export async function playgroundCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.stdout('interlingua playground [--port N] [--store URL]   the playground page on http://127.0.0.1:PORT\n');
    return 0;
  }
  if (args.command !== undefined || args.positionals.length > 0) throw new UsageError('playground takes no FILE');
  const rawPort = stringFlag(args, 'port');
  const port = rawPort === undefined ? 8787 : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number 0-65535 (got '${rawPort}')`);
  const store = stringFlag(args, 'store');
  const { startPlayground } = await import('../playground/server.js');
  const server = await startPlayground({ port, ...(store === undefined ? {} : { store }) });
  io.stdout(`listening on ${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}
