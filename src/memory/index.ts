/** `interlingua/memory`: conversation memory stores holding AgentCore Memory events. */
export { openMemory, type OpenOptions } from './open.js';
export type {
  ActorSummary,
  Conversational,
  ConversationalRole,
  EventMetadata,
  EventPage,
  EventStore,
  ListEventsOptions,
  NewEvent,
  PayloadItem,
  SessionSummary,
  StoredEvent,
  StoreOptions,
} from './store.js';
export { DEFAULT_EXPIRY_DAYS, DEFAULT_TURNS, MAX_EXPIRY_DAYS, MIN_EXPIRY_DAYS } from './store.js';
export { checkId, type IdField } from './ids.js';
export { EVENT_LIMITS } from './event-shape.js';
export { eventRole, startsTurn, type EventRole } from './turns.js';
export type { Backend } from './backend.js';
export { createEventStore } from './checked-store.js';
export { InterlinguaError, UsageError, ValidationError, type Issue } from '../model/errors.js';
