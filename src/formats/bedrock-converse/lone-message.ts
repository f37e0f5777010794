/** One Converse message read alone (Codec.message): shape-checked, then decoded as each message of a request is. */
import { ValidationError } from '../../model/errors.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { DecodeContext } from '../codec.js';
import { schemaCheck } from '../shared/zod-fast.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { decodeMessage } from './message-decode.js';
import { messageSchema } from './schema.js';

const messageCheck = schemaCheck(messageSchema);

export function decodeLoneMessage(wire: unknown, _ctx: DecodeContext): Message {
  const issues = messageCheck(wire);
  if (issues.length > 0) throw new ValidationError(fromZodIssues(issues));
  return decodeMessage(wire as JsonObject);
}
