import { UsageError } from '../model/errors.js';

export interface ParsedArgs {
  command: string | undefined;
  flags: Map<string, string | true>;
  positionals: string[];
}

/** The flags a command knows: those that take a value, and boolean switches. */
export interface FlagSpec {
  values: ReadonlySet<string>;
  switches: ReadonlySet<string>;
}

/** The flags of `convert` and `formats`. */
export const DEFAULT_FLAGS: FlagSpec = {
  values: new Set(['from', 'to', 'kind', 'max-text-bytes']),
  switches: new Set(['preserve', 'strict', 'help', 'version', 'pretty', 'compact', 'accumulate']),
};

/** A small, strict argv parser: flags outside `spec` are errors, never ignored. */
export function parseArgs(argv: readonly string[], spec: FlagSpec = DEFAULT_FLAGS): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      flags.set('help', true);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (spec.values.has(name)) {
        const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
        if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
      } else if (spec.switches.has(name)) {
        if (eq !== -1) throw new UsageError(`--${name} takes no value`);
        flags.set(name, true);
      } else {
        throw new UsageError(`unknown option --${name}`);
      }
      continue;
    }
    if (command === undefined) command = arg;
    else positionals.push(arg);
  }
  return { command, flags, positionals };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
