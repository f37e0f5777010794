/** One Converse message read alone (Codec.message): shape-checked, then decoded as each message of a request is. */
import { ValidationError } from '../../model/errors.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { DecodeContext } from '../codec.js';
import { fastCheck } from '../shared/zod-fast-check.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { decodeMessage } from './message-decode.js';
import { messageSchema } from './schema.js';

const quickMessage = fastCheck(messageSchema);

export function decodeLoneMessage(wire: unknown, _ctx: DecodeContext): Message {
  // zod runs only when the quick check fails, to say what is wrong.
  const checked = quickMessage(wire) ? undefined : messageSchema.safeParse(wire);
  if (checked !== undefined && !checked.success) throw new ValidationError(fromZodIssues(checked.error.issues));
  return decodeMessage(wire as JsonObject);
}
