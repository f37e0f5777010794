/**
 * Schema oracle for OpenAI Chat Completions bodies: the official OpenAPI document (test/support/
 * openapi.ts) with every object closed, so a key the spec does not define is an error. That is the
 * right strictness for bodies our encoders wrote from another format (every key is ours); pass
 * `{ closed: false }` for captured bodies, which may carry newer or provider-specific keys.
 *
 * `validateOpenaiChat(kind, value)` returns one message per problem (`/messages/0/content ...`);
 * empty means valid.
 */
import { describeErrors, openAiValidators, type OpenAiValidators } from '../openapi.js';

let compiled: OpenAiValidators | undefined;

export function validateOpenaiChat(kind: 'request' | 'response', value: unknown, options: { closed?: boolean } = {}): string[] {
  compiled ??= openAiValidators();
  const closed = options.closed ?? true;
  const validate = kind === 'request' ? (closed ? compiled.closedRequest : compiled.request) : closed ? compiled.closedResponse : compiled.response;
  if (validate(value)) return [];
  const text = describeErrors(validate.errors, 12);
  return text === '' ? ['invalid'] : text.split('\n');
}
