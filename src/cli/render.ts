import type { Issue } from '../model/errors.js';
import { formatPath, type Loss } from '../model/loss.js';

/** `error: messages[2].content[0].type: <message>` — one line per issue, no stack trace. */
export function issueLine(issue: Issue): string {
  return `error: ${formatPath(issue.path)}: ${issue.message}`;
}

/** `loss: <action> <code> at <path>: <message>` — one line per loss. */
export function lossLine(loss: Loss): string {
  return `loss: ${loss.action} ${loss.code} at ${formatPath(loss.path)}: ${loss.message}`;
}
