/**
 * The one conformance suite every memory backend runs: call `conformance(backend)` from the
 * backend's test file. The parts live in ./suite/ (one job each); this file is the contract.
 */
import { describe } from 'vitest';
import type { EventStore, StoreOptions } from '../../src/memory/index.js';
import { concurrencySuite } from './suite/concurrency.js';
import { eventsSuite } from './suite/events.js';
import { expirySuite } from './suite/expiry.js';
import { lifecycleSuite } from './suite/lifecycle.js';
import { pagingSuite } from './suite/paging.js';
import { turnsSuite } from './suite/turns.js';
import { validationSuite } from './suite/validation.js';

/** One backend's storage, fresh and empty. */
export interface Storage {
  /** A store on this storage. When `connections` is true, several may be open at once. */
  open(options?: StoreOptions): Promise<EventStore>;
  /** Events physically held, expired ones not yet purged included. */
  stored(): Promise<number>;
  /** A store opened after every other one closed sees their events (a restart). */
  durable: boolean;
  /** Stores opened on it are separate connections to the same data. */
  connections: boolean;
  /**
   * Only one open store may append to a given session at a time (agentcore://: the service has no
   * transaction or conditional write that could serialize writers in different stores). Default false.
   */
  oneWriterPerSession?: boolean;
  /** Metadata entries per event the backend keeps for itself (agentcore:// keeps one for the sequence). Default 0. */
  reservedMetadataEntries?: number;
  dispose(): Promise<void>;
}

export interface BackendUnderTest {
  name: string;
  storage(): Promise<Storage>;
}

export function conformance(backend: BackendUnderTest): void {
  describe(`${backend.name}: EventStore conformance`, () => {
    eventsSuite(backend);
    pagingSuite(backend);
    turnsSuite(backend);
    lifecycleSuite(backend);
    expirySuite(backend);
    validationSuite(backend);
    concurrencySuite(backend);
  });
}
