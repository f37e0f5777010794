/** `interlingua/memory`: conversation memory stores holding AgentCore Memory events. */
export { type OpenOptions } from './open.js';
export type { AgentCoreClient, AgentCoreClientOptions } from './agentcore-client.js';
export { openMemory, withMessages, MESSAGE_FORMATS, decodeMessages, appendMessages, recallMessages, encodeMessages, readsHints, type Memory, type AppendOptions, type AppendResult, type TurnsOptions, type Recalled, type SessionExport, type ImportOptions, type RecallOptions } from './messages.js';
export { createMemoryHooks, sessionIds, resolveSession, type MemoryHooks, type MemoryHooksOptions, type SessionRef, type SessionIds, type Loaded, type LoadedCanonical } from './hooks.js';
export { conversationPrompt, messageLine, PROMPT_HEADING } from './prompt.js';
export type {
  ActorSummary,
  Conversational,
  ConversationalRole,
  EventContent,
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
export { InterlinguaError, MissingPackageError, UsageError, ValidationError, type Issue } from '../model/errors.js';
export { openStoreLock, LockTimeoutError, type StoreLock, type StoreLockOptions, type Release } from './locks.js';
