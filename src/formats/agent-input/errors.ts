/**
 * The source design's error body for a rejected agent input, for servers to return with HTTP 400:
 * `{ "error": { "type": "ValidationException", "message", "details": { "field", "expected", "received" } } }`.
 */
import type { Issue, ValidationError } from '../../model/errors.js';
import { formatPath } from '../../model/loss.js';

export interface AgentInputErrorBody {
  error: {
    type: 'ValidationException';
    message: string;
    /** About the first issue. `expected` / `received` are present only when the issue says. */
    details: { field: string; expected?: string; received?: string };
  };
}

/**
 * `details` describe the first issue; `message` is the first issue's message and, when there are
 * more, names each of the others (`field: message`) so a client sees every problem in one round.
 */
export function toAgentInputErrorBody(err: ValidationError): AgentInputErrorBody {
  const [first, ...more] = err.issues as [Issue | undefined, ...Issue[]];
  if (first === undefined) return { error: { type: 'ValidationException', message: err.message, details: { field: '(root)' } } };
  let message = first.message;
  if (more.length > 0) {
    const list = more.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
    message += ` (and ${more.length} more: ${list})`;
  }
  const details: AgentInputErrorBody['error']['details'] = { field: formatPath(first.path) };
  if (first.expected !== undefined) details.expected = first.expected;
  if (first.received !== undefined) details.received = first.received;
  return { error: { type: 'ValidationException', message, details } };
}
