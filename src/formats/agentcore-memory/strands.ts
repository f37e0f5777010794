/**
 * Events written by Strands' `AgentCoreMemorySessionManager` (reference §3.2), read as the
 * conversation they hold rather than as text that happens to be JSON:
 * - a message event is one conversational USER / ASSISTANT payload whose text is the JSON of a
 *   Strands `SessionMessage` (`{message: {role, content: [Converse content blocks]}, message_id,
 *   redact_message, created_at, updated_at}`, bytes as `{__bytes_encoded__: true, data: <base64>}`);
 *   when text and role were too long for one payload it is a blob holding the JSON text of the
 *   pair `[text, role]`;
 * - session and agent state are blob events marked with a `stateType` metadata entry: they hold no
 *   message and are reported (`agent-state`), not read as one.
 * The content blocks are Bedrock Converse's and go through that codec's message decoder (reached
 * through the registry, as a format folder imports no other format's folder); the
 * SessionMessage's own fields are kept in ext (`$strands`), and the event itself is written back as
 * it came while the messages are unchanged (mapping.ts).
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import type { Ext } from '../../model/ext.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { DecodeContext } from '../codec.js';
import { getCodec } from '../registry.js';
import { withOwn } from './content.js';
import { childPath } from '../shared/child-path.js';

const SESSION_MESSAGE_KEYS: ReadonlySet<string> = new Set(['message', 'message_id', 'redact_message', 'created_at', 'updated_at']);
const STATE_TYPE = 'stateType';

/** One Converse message, shape-checked and decoded by the Converse codec. */
function converseMessage(wire: JsonValue, ctx: DecodeContext): Message {
  const decoder = getCodec('bedrock-converse').message;
  if (decoder === undefined) throw new Error('the bedrock-converse codec has no lone-message decoder');
  return decoder.decode(wire, ctx);
}

/** The SessionMessage a text holds, or undefined when the text is not one (then it is plain text). */
function sessionMessage(text: string): JsonObject | undefined {
  // Cheap test first: most conversational text is not JSON at all.
  if (!text.startsWith('{"message"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed) || !isJsonObject(parsed['message']) || typeof parsed['message_id'] !== 'number') return undefined;
  return Object.keys(parsed).every((k) => SESSION_MESSAGE_KEYS.has(k)) ? parsed : undefined;
}

/** Strands' Python `to_dict` writes bytes as `{__bytes_encoded__: true, data}`; Converse JSON has base64 text. */
function unwrapBytes(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(unwrapBytes);
  if (!isJsonObject(value)) return value;
  if (value['__bytes_encoded__'] === true && typeof value['data'] === 'string' && Object.keys(value).length === 2) return value['data'];
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) out[k] = unwrapBytes(v);
  return out;
}

/** The text and role of a Strands message event's one payload, or undefined when it is not one. */
function strandsPayload(event: JsonObject): { text: string; at: Path } | undefined {
  const payload = event['payload'];
  if (!Array.isArray(payload) || payload.length !== 1) return undefined;
  const only = payload[0];
  if (!isJsonObject(only)) return undefined;
  const conv = only['conversational'];
  if (isJsonObject(conv) && (conv['role'] === 'USER' || conv['role'] === 'ASSISTANT') && isJsonObject(conv['content'])) {
    const text = conv['content']['text'];
    return typeof text === 'string' ? { text, at: ['payload', 0, 'conversational', 'content', 'text'] } : undefined;
  }
  const blob = only['blob'];
  if (typeof blob !== 'string' || !blob.startsWith('[')) return undefined;
  let pair: unknown;
  try {
    pair = JSON.parse(blob);
  } catch {
    return undefined;
  }
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || (pair[1] !== 'USER' && pair[1] !== 'ASSISTANT' && pair[1] !== 'user' && pair[1] !== 'assistant')) return undefined;
  return { text: pair[0], at: ['payload', 0, 'blob', 0] };
}

/**
 * The messages of an event Strands' session manager wrote: one message, or none for a state event
 * (reported); undefined when the event is not one of Strands' (then the usual reading applies).
 */
export function strandsMessages(event: JsonObject, path: Path, ctx: DecodeContext, issues: Issue[]): Message[] | undefined {
  const meta = event['metadata'];
  const state = isJsonObject(meta) && isJsonObject(meta[STATE_TYPE]) ? meta[STATE_TYPE]['stringValue'] : undefined;
  if (typeof state === 'string' && (state === 'SESSION' || state === 'AGENT') && Array.isArray(event['payload']) && event['payload'].every((p) => isJsonObject(p) && 'blob' in p)) {
    ctx.losses.push({ code: 'agent-state', path: childPath(path, 'metadata', STATE_TYPE), message: `a Strands ${state.toLowerCase()} state event holds no message; not read`, action: 'dropped' });
    return [];
  }
  const found = strandsPayload(event);
  const sm = found === undefined ? undefined : sessionMessage(found.text);
  if (found === undefined || sm === undefined) return undefined;
  // As Strands reads it back: a redacted message stands in for the original.
  const shown = isJsonObject(sm['redact_message']) ? 'redact_message' : 'message';
  const wire = unwrapBytes(sm[shown] as JsonValue);
  let message: Message;
  try {
    message = converseMessage(wire, ctx);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    issues.push(...err.issues.map((issue) => ({ ...issue, path: [...path, ...found.at, shown, ...issue.path] })));
    return [];
  }
  const own: JsonObject = {};
  for (const [k, v] of Object.entries(sm)) if (k !== shown) own[k] = v;
  message.ext = withOwn(message.ext, { $strands: own }) as Ext;
  return [message];
}
