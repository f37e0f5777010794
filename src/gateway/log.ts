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
