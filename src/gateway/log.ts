/**
 * Logs: pino, one JSON line per event on standard error (standard output carries only the CLI's
 * `listening on` line). Request lines carry the request id. Upstream keys are never logged: the
 * configuration is not logged, and header fields that carry keys are redacted should any reach a line.
 */
import pino, { type Logger } from 'pino';

export function createLogger(level: string = process.env['INTERLINGUA_LOG_LEVEL'] ?? 'info'): Logger {
  return pino(
    {
      level,
      base: { name: 'interlingua-gateway' },
      redact: { paths: ['*.authorization', '*.apiKey', '*["x-api-key"]', '*["x-goog-api-key"]', 'headers.*'], censor: '[redacted]' },
    },
    pino.destination({ fd: 2, sync: false }),
  );
}

type Level = 'debug' | 'info' | 'warn' | 'error';
export type RequestLog = Pick<Logger, Level>;

/**
 * A per-request logger whose pino child (with its bindings, e.g. the request id) is made only when
 * a line at an enabled level is written: most requests log nothing, and making a child per request
 * was a visible share of the gateway's per-request work.
 */
export function lazyChild(base: Logger, bindings: Record<string, unknown>): RequestLog {
  let child: Logger | undefined;
  const at =
    (level: Level) =>
    (...args: unknown[]): void => {
      if (!base.isLevelEnabled(level)) return;
      child ??= base.child(bindings);
      (child[level] as (...a: unknown[]) => void)(...args);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as RequestLog;
}
