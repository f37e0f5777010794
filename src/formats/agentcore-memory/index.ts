/**
 * The AgentCore Memory codec (`agentcore-memory`): a conversation as AgentCore Memory events.
 * Request kind: `{ "events": [Event, ...] }` in (ListEvents-shaped: eventId, eventTimestamp, actorId,
 * sessionId, branch ... are kept for the way back) and out (each event ready for CreateEvent:
 * `payload`, `metadata`, and ids or timestamps only when they came in).
 *
 * For stores, without `convert`:
 * - `messageToEvent(message, { preserve?, index? }) -> { event, losses }`: one canonical message ->
 *   one event (`event` undefined for a system or developer message, which AgentCore cannot hold);
 *   with `preserve`, what the event cannot hold rides in an `interlingua.stash` blob inside it;
 * - `eventToMessages(event, { index?, limits?, losses? }) -> Message[]` and `eventToMessage(event)
 *   -> Message`: an event back to its message (a ValidationError names `['events', index,
 *   'payload', j, ...]` for a bad blob);
 * - `eventsToMessages(events)`: a session's events, oldest first, read as one conversation (results
 *   named after their calls read back without the name; older events' lone TOOL texts answer the
 *   calls before them, reported); `toolCallNames(messages)`: the calls `messageToEvent`'s
 *   `toolNames` names results after (call-names.ts).
 * A message's metadata is `ext['agentcore-memory'].metadata` (written as event metadata where it
 * fits AgentCore's limits, else into the metadata blob); the event fields it was read with are in
 * `ext['agentcore-memory'].event`.
 */
import type { Codec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';

export const agentcoreMemory: Codec = {
  id: 'agentcore-memory',
  title: 'AWS AgentCore Memory events',
  request: { decode: decodeRequest, encode: encodeRequest },
};

export { messageToEvent, type MessageToEventOptions } from './mapping.js';
export { eventToMessages, eventToMessage, eventsToMessages, type EventToMessagesOptions, type EventsToMessagesOptions } from './events-read.js';
export { toolCallNames } from './call-names.js';
export { LIMITS as AGENTCORE_LIMITS, BLOB as AGENTCORE_BLOB_TYPES } from './agentcore-memory-api.js';
export type { Event as AgentcoreEvent, Payload as AgentcorePayload, Conversational as AgentcoreConversational, WireRole as AgentcoreRole } from './agentcore-memory-api.js';
