/**
 * Schema oracle for AG-UI RunAgentInput bodies: the official zod schema of `@ag-ui/core` (1.0).
 * `validateAgUi(kind, value)` returns one message per problem (`messages.0.content: ...`).
 */
import { RunAgentInputSchema } from '@ag-ui/core/schemas';

export function validateAgUi(kind: 'request' | 'response', value: unknown): string[] {
  if (kind !== 'request') return ['AG-UI has no response body (its responses are event streams)'];
  const result = RunAgentInputSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
