/**
 * `compactHistory`: an A2A history (messages of either version, as stored: every chunk, every
 * argument fragment, or as an encode stored it under `preserve`) compacted (compact.ts) and mapped to canonical messages, OpenAI Chat
 * `messages` or OpenAI Responses `input` (+ `instructions`), through those codecs' encoders.
 */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import type { Loss } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import { DEFAULT_LIMITS, type EncodeContext, type Limits } from '../codec.js';
import { getKindCodec } from '../registry.js';
import { LossList } from '../shared/loss-list.js';
import { decodeMessages } from './messages-decode.js';
import { REQUEST_STASH_KEY, takeFromMetadata } from './stash.js';

// The Chat and Responses encoders, reached through the registry: a format folder imports no other format's folder.
const encodeChat = (req: Request, ctx: EncodeContext) => getKindCodec('openai-chat', 'request').encode(req, ctx) as { messages: unknown };
const encodeResponses = (req: Request, ctx: EncodeContext) => getKindCodec('openai-responses', 'request').encode(req, ctx);

export type CompactTarget = 'canonical' | 'openai-chat' | 'openai-responses';

export interface CompactOptions {
  to?: CompactTarget;
  limits?: Limits;
}

export type Compacted =
  | { to: 'canonical'; messages: Message[]; losses: Loss[] }
  | { to: 'openai-chat'; messages: JsonValue[]; losses: Loss[] }
  | { to: 'openai-responses'; input: JsonValue; instructions?: string; losses: Loss[] };

/** Compacts `history`; throws a ValidationError naming the first bad message's path. */
export function compactHistory(history: readonly unknown[], options: CompactOptions = {}): Compacted {
  const losses = new LossList();
  const note = (path: (string | number)[], code: string, message: string) => losses.push({ code, path, message, action: 'approximated' });
  // A history an encode stored under `preserve` reads back through its stashes; the request-level
  // stash (model, tools ...) is not asked for here.
  const list = history as JsonValue[];
  const first = list[0];
  const head = isJsonObject(first) ? takeFromMetadata(first, REQUEST_STASH_KEY).holder : first;
  const ctx = { limits: options.limits ?? DEFAULT_LIMITS, losses };
  const { messages } = decodeMessages(list.length > 0 ? [head as JsonValue, ...list.slice(1)] : [], [], ctx, note);
  const to = options.to ?? 'canonical';
  if (to === 'canonical') return { to, messages, losses: losses.items };
  // Only the messages are asked for: the request's other fields (a model) are not, and A2A message
  // ids, which no chat format holds, are the history's bookkeeping, not its content.
  const target = new LossList();
  const keep = () => losses.items.push(...target.items.filter((l) => l.path[0] !== 'model' && !(l.code === 'unsupported-field' && l.path.at(-1) === 'messageId')));
  if (to === 'openai-chat') {
    const body = encodeChat({ messages }, { preserve: false, losses: target });
    keep();
    return { to, messages: body.messages as unknown as JsonValue[], losses: losses.items };
  }
  const body = encodeResponses({ messages }, { preserve: false, losses: target }) as unknown as { input?: JsonValue; instructions?: string };
  keep();
  return { to, input: body.input ?? [], ...(body.instructions !== undefined ? { instructions: body.instructions } : {}), losses: losses.items };
}
