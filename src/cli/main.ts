import { readFile } from 'node:fs/promises';
import { convert } from '../formats/convert.js';
import { formats } from '../formats/registry.js';
import { InterlinguaError, LossError, UsageError, ValidationError } from '../model/errors.js';
import { parseArgs, stringFlag, type ParsedArgs } from './args.js';
import { HELP } from './help.js';
import { parseJsonInput, readTextInput, type CliIo } from './io.js';
import { issueLine, lossLine } from './render.js';
import { streamCommand } from './stream-command.js';
import { chooseSource, detectCommand, readInputBytes } from './detect-command.js';
import { detect } from '../detect/index.js';

export const EXIT = { ok: 0, usage: 1, invalid: 2, lossy: 3 } as const;

/** Runs one CLI invocation; returns the exit code. Never throws for bad input or usage. */
export async function run(argv: readonly string[], io: CliIo, version = '0.0.0'): Promise<number> {
  try {
    // memory has flags of its own (memory-command.ts parses them); loaded only when used.
    if (argv[0] === 'memory') return await (await import('./memory-command.js')).memoryCommand(argv.slice(1), io);
    if (argv[0] === 'playground') return await (await import('./playground-command.js')).playgroundCommand(argv.slice(1), io);
    if (argv[0] === 'serve') return await (await import('./serve-command.js')).serveCommand(argv.slice(1), io);
    const args = parseArgs(argv);
    if (args.flags.has('version')) {
      io.stdout(`${version}\n`);
      return EXIT.ok;
    }
    if (args.flags.has('help') || args.command === undefined || args.command === 'help') {
      io.stdout(HELP);
      return args.command === undefined && !args.flags.has('help') ? EXIT.usage : EXIT.ok;
    }
    switch (args.command) {
      case 'convert':
        return await convertCommand(args, io);
      case 'formats':
        return formatsCommand(io);
      case 'detect':
        if (args.positionals.length > 1) throw new UsageError('detect takes at most one FILE');
        return await detectCommand(args.positionals[0], io, args.flags.has('compact'));
      default:
        throw new UsageError(`unknown command '${args.command}' (try --help)`);
    }
  } catch (err) {
    return reportError(err, io);
  }
}

async function convertCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const to = stringFlag(args, 'to');
  if (to === undefined) throw new UsageError('convert needs --to <format> (and --from <format>, or --from auto to detect it)');
  const givenKind = stringFlag(args, 'kind');
  if (givenKind !== undefined && givenKind !== 'request' && givenKind !== 'response' && givenKind !== 'stream') throw new UsageError(`--kind must be request, response or stream, not '${givenKind}'`);
  if (args.positionals.length > 1) throw new UsageError('convert takes at most one FILE');
  const from = stringFlag(args, 'from') ?? 'auto';
  if (from === 'auto') return convertDetected(args, io, to, givenKind);
  const kind = givenKind ?? 'request';
  if (args.flags.has('accumulate') && kind !== 'stream') throw new UsageError('--accumulate applies to --kind stream');
  if (kind === 'stream') {
    const file = args.positionals[0];
    const path = file === undefined || file === '-' ? undefined : file;
    const bytes = io.readBytes ? await readBytes(io, path) : new TextEncoder().encode(await readTextInput(io, path));
    return streamCommand(args, io, from, to, bytes);
  }
  const file = args.positionals[0];
  const parsed = parseJsonInput(io, await readTextInput(io, file));
  if (parsed === undefined) return EXIT.invalid;
  return convertBody(args, io, parsed.value, from, to, kind);
}

/** `convert` without --from (or --from auto): detect the input, say what was chosen, convert it. */
async function convertDetected(args: ParsedArgs, io: CliIo, to: string, kind: string | undefined): Promise<number> {
  const bytes = await readInputBytes(io, args.positionals[0]);
  const detection = detect(bytes);
  const chosen = chooseSource(io, detection, kind);
  if (chosen === undefined) return EXIT.invalid;
  if (chosen.kind === 'stream') return streamCommand(args, io, chosen.format, to, bytes);
  if (args.flags.has('accumulate')) throw new UsageError('--accumulate applies to a stream capture');
  return convertBody(args, io, detection.body, chosen.format, to, chosen.kind === 'response' ? 'response' : 'request');
}

function convertBody(args: ParsedArgs, io: CliIo, body: unknown, from: string, to: string, kind: 'request' | 'response'): number {
  const maxText = stringFlag(args, 'max-text-bytes');
  const maxTextBytes = maxText === undefined ? undefined : Number(maxText);
  if (maxTextBytes !== undefined && (!Number.isInteger(maxTextBytes) || maxTextBytes <= 0)) {
    throw new UsageError('--max-text-bytes must be a positive integer');
  }
  const { value, losses } = convert(body, {
    from,
    to,
    kind,
    preserve: args.flags.has('preserve'),
    strict: args.flags.has('strict'),
    ...(maxTextBytes === undefined ? {} : { limits: { maxTextBytes } }),
  });
  io.stdout(`${args.flags.has('compact') ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
  for (const loss of losses) io.stderr(`${lossLine(loss)}\n`);
  return EXIT.ok;
}

async function readBytes(io: CliIo, file: string | undefined): Promise<Uint8Array> {
  try {
    return await (io.readBytes as (p: string | undefined) => Promise<Uint8Array>)(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file ?? 'standard input'}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function formatsCommand(io: CliIo): number {
  const rows = formats();
  const width = Math.max(6, ...rows.map((r) => r.id.length));
  const kindsWidth = Math.max(5, ...rows.map((r) => r.kinds.join(', ').length));
  io.stdout(`${'format'.padEnd(width)}  ${'kinds'.padEnd(kindsWidth)}  name\n`);
  for (const r of rows) io.stdout(`${r.id.padEnd(width)}  ${r.kinds.join(', ').padEnd(kindsWidth)}  ${r.title}\n`);
  return EXIT.ok;
}

function reportError(err: unknown, io: CliIo): number {
  if (err instanceof LossError) {
    for (const loss of err.losses) io.stderr(`${lossLine(loss)}\n`);
    io.stderr(`error: --strict: ${err.message}\n`);
    return EXIT.lossy;
  }
  if (err instanceof ValidationError) {
    for (const issue of err.issues) io.stderr(`${issueLine(issue)}\n`);
    return EXIT.invalid;
  }
  if (err instanceof UsageError) {
    io.stderr(`error: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof InterlinguaError) {
    io.stderr(`error: ${err.message}\n`);
    return EXIT.invalid;
  }
  // A bug of ours, not the user's input: say so plainly, still without a stack trace.
  io.stderr(`error: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
  return 70;
}

/** The process entry: real stdin/stdout/files. */
export async function main(argv: readonly string[], version: string): Promise<void> {
  const io: CliIo = {
    readFile: (p) => readFile(p, 'utf8'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    readBytes: async (p) => {
      if (p !== undefined) return new Uint8Array(await readFile(p));
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    },
    stdoutBytes: (b) => process.stdout.write(b),
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  };
  // `serve` runs itself again with a larger young generation (serve-command.ts).
  const respawned = argv[0] === 'serve' ? (await import('./serve-command.js')).respawnServe(argv) : undefined;
  process.exitCode = respawned === undefined ? await run(argv, io, version) : await respawned;
}
