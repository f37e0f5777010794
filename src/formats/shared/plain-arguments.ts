/**
 * A tool call's `argumentsJson` that says no more than its arguments: exactly the text
 * JSON.stringify writes for them, which is what every encoder writes when a call has no text of its
 * own. A format that holds arguments as an object (Bedrock's `input`, AgentCore's blobs) reads such
 * a call back without the text, and nothing is lost: written out again, the text is the same. Read-back
 * checks ("would decoding give this group back?") compare messages with such texts left out, so a
 * group is not stashed whole under `preserve` for a text that comes back by itself.
 */
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { jsonTextEquals } from './json-text.js';

export function hasPlainArgumentsJson(p: Part): boolean {
  return p.type === 'tool-call' && p.argumentsJson !== undefined && jsonTextEquals(p.arguments, p.argumentsJson);
}

/** `m` with its tool calls' plain `argumentsJson` left out; `m` itself when it has none. */
export function withoutPlainArgumentsJson(m: Message): Message {
  let parts: Part[] | undefined;
  for (let j = 0; j < m.parts.length; j++) {
    const p = m.parts[j] as Part;
    if (!hasPlainArgumentsJson(p)) continue;
    parts ??= m.parts.slice();
    const { argumentsJson: _text, ...rest } = p as Part & { argumentsJson?: string };
    parts[j] = rest as Part;
  }
  return parts === undefined ? m : { ...m, parts };
}

/** The messages with each one's plain `argumentsJson` left out (the same array when none has any). */
export function messagesWithoutPlainArgumentsJson(messages: readonly Message[]): readonly Message[] {
  let out: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    const plain = withoutPlainArgumentsJson(m);
    if (plain === m) continue;
    out ??= messages.slice();
    out[i] = plain;
  }
  return out ?? messages;
}
