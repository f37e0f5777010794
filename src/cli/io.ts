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
