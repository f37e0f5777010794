/**
 * Events -> messages, the reading side of mapping.ts: one event (`eventToMessages`,
 * `eventToMessage`) or a session's events (`eventsToMessages`), each read as a conversation, so
 * what only the conversation tells is read too: results named after their calls (call-names.ts)
 * and older events' lone TOOL texts answering the calls before them (older-results.ts).
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { DEFAULT_LIMITS, type DecodeContext, type Limits, type LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { readCallNames } from './call-names.js';
import { decodeEvents } from './mapping.js';
import { pairOlderResults } from './older-results.js';

/**
 * Events -> the messages of their conversation: each event read (decodeEvents), then what only
 * the conversation tells: names results took from their calls (call-names.ts), lone TOOL texts of
 * older events answering the calls before them (older-results.ts, reported).
 */
export function readConversation(events: readonly JsonValue[], indices: readonly number[], ctx: DecodeContext, issues: Issue[], verbatim = true): Message[] {
  const origins: number[] = [];
  const read = decodeEvents(events, indices, ctx, issues, origins, verbatim);
  if (issues.length > 0) return read;
  return pairOlderResults(readCallNames(read), origins, ctx.losses);
}

export interface EventToMessagesOptions {
  /** The event's index in its list, for error paths (`['events', index, 'payload', j, ...]`); 0 by default. */
  index?: number;
  limits?: Partial<Limits>;
  /** Where to report what reading set aside (an event without payloads, an unread envelope field). */
  losses?: LossSink;
}

/**
 * One event (a CreateEvent body's or a ListEvents entry's fields) -> its canonical messages: one,
 * or several for a plain conversational event of several roles, or none for an event without
 * payloads. Throws a ValidationError naming the event and payload index of each problem.
 */
export function eventToMessages(event: unknown, options: EventToMessagesOptions = {}): Message[] {
  const issues: Issue[] = [];
  const ctx: DecodeContext = { limits: { ...DEFAULT_LIMITS, ...options.limits }, losses: options.losses ?? new LossList() };
  const out = readConversation([event as JsonValue], [options.index ?? 0], ctx, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return out;
}

export interface EventsToMessagesOptions {
  /** The index of the first event in its list, for error and loss paths; 0 by default. */
  index?: number;
  limits?: Partial<Limits>;
  /** Where to report what reading set aside or approximated (a TOOL text read as a call's result ...). */
  losses?: LossSink;
  /**
   * false: the messages go to another format (whose encoders neither write nor report this
   * format's `$` hints), so an event this codec would write otherwise is not kept verbatim in the
   * first message's hints, and the check for it (every event encoded again and compared) is
   * skipped. Default true.
   */
  verbatim?: boolean;
}

/**
 * Events of one conversation, oldest first (as a store lists a session) -> its canonical messages.
 * Unlike reading the events one at a time, results are read with what their conversation tells:
 * a result's name taken from its call comes off again, and an older event's lone TOOL text after
 * unanswered calls is their result (reported `approximated`). A ValidationError names the event
 * and payload index of each problem.
 */
export function eventsToMessages(events: readonly unknown[], options: EventsToMessagesOptions = {}): Message[] {
  const issues: Issue[] = [];
  const ctx: DecodeContext = { limits: { ...DEFAULT_LIMITS, ...options.limits }, losses: options.losses ?? new LossList() };
  const first = options.index ?? 0;
  const out = readConversation(events as JsonValue[], events.map((_e, i) => first + i), ctx, issues, options.verbatim !== false);
  if (issues.length > 0) throw new ValidationError(issues);
  return out;
}

/** One event -> its one message; a ValidationError when the event holds none or several. */
export function eventToMessage(event: unknown, options: EventToMessagesOptions = {}): Message {
  const list = eventToMessages(event, options);
  const [only] = list;
  if (only === undefined || list.length !== 1) {
    throw new ValidationError([{ code: 'not_one_message', path: ['events', options.index ?? 0], message: `the event holds ${list.length} messages, not one`, expected: 'one message' }]);
  }
  return only;
}
