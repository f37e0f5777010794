import { UsageError } from '../model/errors.js';

/** What the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Binary input and output (streams in AWS event-stream framing); text-only when absent. */
  readBytes?(path: string | undefined): Promise<Uint8Array>;
  stdoutBytes?(bytes: Uint8Array): void;
}

/** The text of FILE, or of standard input when there is none or it is `-`; an unreadable file is a UsageError. */
export async function readTextInput(io: CliIo, file: string | undefined): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  try {
    return await io.readFile(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The input's JSON, or undefined once the error is printed (the caller exits 2, as for any invalid input). */
export function parseJsonInput(io: CliIo, text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    io.stderr(`error: (root): input is not valid JSON: ${(err as Error).message}\n`);
    return undefined;
  }
}
