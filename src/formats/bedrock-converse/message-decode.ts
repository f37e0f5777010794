/** One Bedrock message -> one canonical message (shared by the request decoder and the preserve check). */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, Role } from '../../model/message.js';
import { keepResidue } from '../shared/residue.js';
import { decodeBlocks } from './content-decode.js';
import { ID, rest, withHints } from './wire-util.js';

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['role', 'content']);

/** Messages decoded alone: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  return wire.map(decodeMessage);
}

export function decodeMessage(m: JsonObject): Message {
  const role = m['role'] as Role;
  const msg: Message = { role, parts: decodeBlocks(m['content'] as JsonValue[]) };
  // A system turn inside `messages` (ConversationRole allows it) goes back there, not to `system`.
  const res = withHints(rest(m, MESSAGE_KEYS), role === 'system' ? { $inMessages: true } : undefined);
  keepResidue(msg, ID, res);
  return msg;
}
