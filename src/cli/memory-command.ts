/**
 * `interlingua memory sessions|show|export|import|delete`: a conversation memory store, named by
 * its URL (`--store`), read and written from the command line. Output is JSON on standard output;
 * losses go to standard error as `convert` prints them, and exit codes are `convert`'s.
 * Everything is checked before the store is opened, so bad usage never connects anywhere, and the
 * store URL is never echoed (it may hold a password; openMemory masks it in its own errors).
 */
import { writeFile } from 'node:fs/promises';
import { LossError, UsageError, ValidationError } from '../model/errors.js';
import { checkId, MESSAGE_FORMATS, openMemory, type IdField, type Memory, type StoredEvent } from '../memory/index.js';
import { parseArgs, stringFlag, type FlagSpec, type ParsedArgs } from './args.js';
import { HELP } from './help.js';
import { parseJsonInput, readTextInput, type CliIo } from './io.js';
import { lossLine } from './render.js';

const MEMORY_FLAGS: FlagSpec = {
  values: new Set(['store', 'actor', 'session', 'to', 'turns', 'out']),
  switches: new Set(['help', 'compact', 'strict']),
};

/** What each subcommand takes beyond --store, --compact and --help. */
const TAKES: Readonly<Record<string, readonly string[]>> = {
  sessions: ['actor'],
  show: ['actor', 'session', 'to', 'turns', 'strict'],
  export: ['actor', 'session', 'out'],
  import: ['actor', 'session'],
  delete: ['actor', 'session'],
};
const SUBCOMMANDS = Object.keys(TAKES);

/** The checked command line of one memory subcommand. */
interface MemoryArgs {
  sub: string;
  store: string;
  actor: string | undefined;
  session: string | undefined;
  args: ParsedArgs;
}

/** Runs `interlingua memory ...` (argv after the word `memory`); returns the exit code. */
export async function memoryCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, MEMORY_FLAGS);
  if (args.flags.has('help')) {
    io.stdout(HELP);
    return 0;
  }
  const m = checkArgs(args);
  const mem = await openMemory(m.store);
  try {
    switch (m.sub) {
      case 'sessions':
        return await sessions(mem, m, io);
      case 'show':
        return await show(mem, m, io);
      case 'export':
        return await exportSession(mem, m, io);
      case 'import':
        return await importSession(mem, m, io);
      default:
        return await deleteSession(mem, m, io);
    }
  } finally {
    await mem.close();
  }
}

function checkArgs(args: ParsedArgs): MemoryArgs {
  const sub = args.command;
  if (sub === undefined) throw new UsageError(`memory needs a subcommand: ${SUBCOMMANDS.join(', ')} (try --help)`);
  const takes = Object.hasOwn(TAKES, sub) ? TAKES[sub] : undefined;
  if (takes === undefined) throw new UsageError(`unknown memory subcommand '${sub}' (known: ${SUBCOMMANDS.join(', ')})`);
  for (const flag of args.flags.keys()) {
    if (flag !== 'store' && flag !== 'compact' && !takes.includes(flag)) {
      throw new UsageError(`--${flag} does not apply to memory ${sub} (it takes --store${takes.map((t) => `, --${t}`).join('')})`);
    }
  }
  if (args.positionals.length > (sub === 'import' ? 1 : 0)) {
    throw new UsageError(sub === 'import' ? 'memory import takes at most one FILE' : `memory ${sub} takes no FILE (got '${args.positionals[0]}')`);
  }
  const store = stringFlag(args, 'store');
  if (store === undefined) throw new UsageError(`memory ${sub} needs --store <url> (sqlite:./memory.db, postgres://..., redis://...)`);
  // Its events would vanish when this process exits: an import would report success and keep nothing.
  if (/^memory:/i.test(store)) throw new UsageError('--store memory: lives only as long as one process; the CLI needs sqlite:<path>, postgres://... or redis://...');
  const actor = idFlag(args, 'actor', 'actorId');
  const session = idFlag(args, 'session', 'sessionId');
  const needsSession = sub === 'show' || sub === 'export' || sub === 'delete';
  if (needsSession && actor === undefined) throw new UsageError(`memory ${sub} needs --actor <actorId>`);
  if (needsSession && session === undefined) throw new UsageError(`memory ${sub} needs --session <sessionId>`);
  const to = stringFlag(args, 'to');
  if (to !== undefined && !MESSAGE_FORMATS.includes(to)) {
    throw new UsageError(`--to must be a message format: ${MESSAGE_FORMATS.join(', ')} (got '${to}'; without --to, show prints the stored events)`);
  }
  if (args.flags.has('strict') && to === undefined) throw new UsageError('--strict applies to show --to <format>');
  turnsFlag(args);
  return { sub, store, actor, session, args };
}

/** An identifier flag, checked as the store checks it, with the error naming the flag. */
function idFlag(args: ParsedArgs, flag: string, field: IdField): string | undefined {
  const value = stringFlag(args, flag);
  if (value === undefined) return undefined;
  try {
    return checkId(field, value);
  } catch (err) {
    if (err instanceof ValidationError) throw new UsageError(`--${flag}: ${err.issues.map((i) => i.message).join('; ')}`);
    throw err;
  }
}

function turnsFlag(args: ParsedArgs): number | undefined {
  const raw = stringFlag(args, 'turns');
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--turns must be a whole number of turns, 1 or more (got '${raw}')`);
  return Number(raw);
}

const jsonText = (args: ParsedArgs, value: unknown): string => `${args.flags.has('compact') ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`;

function print(io: CliIo, args: ParsedArgs, value: unknown): void {
  io.stdout(jsonText(args, value));
}

/** show and export read a session: one that holds nothing is most likely a mistyped id, so say so. */
async function requireSession(mem: Memory, actor: string, session: string): Promise<void> {
  const probe = await mem.listEvents(actor, session, { maxResults: 1 });
  if (probe.events.length === 0) {
    throw new UsageError(`--session: session '${session}' of actor '${actor}' holds no events (memory sessions --actor ${actor} lists the actor's sessions)`);
  }
}

/** `sessions --actor A`: the actor's sessions; without --actor: the store's actors. */
async function sessions(mem: Memory, m: MemoryArgs, io: CliIo): Promise<number> {
  print(io, m.args, m.actor === undefined ? await mem.listActors() : await mem.listSessions(m.actor));
  return 0;
}

/** `show`: the session's messages in --to's message shape, or without --to its events as stored. */
async function show(mem: Memory, m: MemoryArgs, io: CliIo): Promise<number> {
  const actorId = m.actor as string;
  const sessionId = m.session as string;
  await requireSession(mem, actorId, sessionId);
  const turns = turnsFlag(m.args);
  const to = stringFlag(m.args, 'to');
  if (to === undefined) {
    const events: StoredEvent[] = turns === undefined ? (await mem.exportSession(actorId, sessionId)).events : (await mem.lastTurns(actorId, sessionId, turns)).flat();
    print(io, m.args, events);
    return 0;
  }
  // Every turn unless --turns: events before the first user message form a turn too, so nothing is left out.
  const { messages, losses } = await mem.recall({ actorId, sessionId, format: to, k: turns ?? Number.MAX_SAFE_INTEGER });
  if (m.args.flags.has('strict') && losses.length > 0) throw new LossError(losses);
  print(io, m.args, messages);
  for (const loss of losses) io.stderr(`${lossLine(loss)}\n`);
  return 0;
}

/** `export`: the SessionExport (events exactly as stored) on standard output or into --out. */
async function exportSession(mem: Memory, m: MemoryArgs, io: CliIo): Promise<number> {
  const actorId = m.actor as string;
  const sessionId = m.session as string;
  await requireSession(mem, actorId, sessionId);
  const data = await mem.exportSession(actorId, sessionId);
  const out = stringFlag(m.args, 'out');
  if (out === undefined) {
    print(io, m.args, data);
    return 0;
  }
  try {
    await writeFile(out, jsonText(m.args, data), 'utf8');
  } catch (err) {
    throw new UsageError(`--out: cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  print(io, m.args, { actorId, sessionId, exported: data.events.length, out });
  return 0;
}

/** `import [FILE|-]`: a SessionExport into an empty session (--actor / --session rename it). */
async function importSession(mem: Memory, m: MemoryArgs, io: CliIo): Promise<number> {
  const parsed = parseJsonInput(io, await readTextInput(io, m.args.positionals[0]));
  if (parsed === undefined) return 2;
  const data = parsed.value;
  const rename = { ...(m.actor === undefined ? {} : { actorId: m.actor }), ...(m.session === undefined ? {} : { sessionId: m.session }) };
  // importSession checks the export's shape itself (a ValidationError naming each bad path).
  const events = await mem.importSession(data as Parameters<Memory['importSession']>[0], rename);
  const first = events[0];
  const d = data as { actorId: string; sessionId: string };
  print(io, m.args, { actorId: first?.actorId ?? m.actor ?? d.actorId, sessionId: first?.sessionId ?? m.session ?? d.sessionId, imported: events.length });
  return 0;
}

/** `delete`: removes the session; prints how many events it held (0 when there was none). */
async function deleteSession(mem: Memory, m: MemoryArgs, io: CliIo): Promise<number> {
  const actorId = m.actor as string;
  const sessionId = m.session as string;
  print(io, m.args, { actorId, sessionId, deleted: await mem.deleteSession(actorId, sessionId) });
  return 0;
}
