/**
 * agentcore:// storage for the tests: the real @aws-sdk/client-bedrock-agentcore client, fixed test
 * keys, and a fresh local AgentCore Memory endpoint (test/support/agentcore-endpoint.ts).
 */
import {
  BedrockAgentCoreClient,
  CreateEventCommand,
  ListEventsCommand,
  type CreateEventCommandInput,
  type Event as WireEvent,
} from '@aws-sdk/client-bedrock-agentcore';
import { openMemory, type Memory, type StoreOptions } from '../../src/memory/index.js';
import { start, type Endpoint, type EndpointOptions } from '../support/agentcore-endpoint.js';
import type { Storage } from './conformance.js';

export const TEST_KEYS = { accessKeyId: 'AKIDINTERLINGUATEST', secretAccessKey: 'interlingua-test-secret' };

export const storeUrl = (endpoint: Endpoint, extra = ''): string =>
  `agentcore://${endpoint.memoryId}?region=us-east-1&endpoint=${encodeURIComponent(endpoint.url)}${extra}`;

export const openOn = (endpoint: Endpoint, options: StoreOptions = {}, extra = ''): Promise<Memory> =>
  openMemory(storeUrl(endpoint, extra), { ...options, agentcore: { clientConfig: { credentials: TEST_KEYS } } });

/** A plain SDK client on the endpoint: another tool writing to the same memory, or a look at the wire. */
export function sdkClient(endpoint: Endpoint): BedrockAgentCoreClient {
  return new BedrockAgentCoreClient({ region: 'us-east-1', endpoint: endpoint.url, credentials: TEST_KEYS });
}

/** Events as the service holds them, newest first. */
export async function wireEvents(endpoint: Endpoint, actorId: string, sessionId: string): Promise<WireEvent[]> {
  const client = sdkClient(endpoint);
  const out: WireEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.send(new ListEventsCommand({ memoryId: endpoint.memoryId, actorId, sessionId, maxResults: 100, ...(nextToken ? { nextToken } : {}) }));
    out.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  client.destroy();
  return out;
}

/** Writes an event as another tool would (no stamp of ours). */
export async function writeForeign(endpoint: Endpoint, input: Omit<CreateEventCommandInput, 'memoryId'>): Promise<WireEvent> {
  const client = sdkClient(endpoint);
  const out = await client.send(new CreateEventCommand({ memoryId: endpoint.memoryId, ...input }));
  client.destroy();
  return out.event!;
}

/** A fresh endpoint whose clock is the store's (the memory's own expiry is the longest, 365 days). */
export async function agentcoreStorage(extra: EndpointOptions = {}): Promise<Storage & { endpoint: Endpoint }> {
  let clock: () => number = Date.now;
  const endpoint = await start({ expiryDays: 365, now: () => clock(), ...extra });
  return {
    endpoint,
    open: (options = {}) => {
      if (options.now) clock = options.now;
      return openOn(endpoint, options);
    },
    stored: async () => endpoint.held(),
    durable: true,
    connections: true,
    oneWriterPerSession: true,
    reservedMetadataEntries: 1,
    dispose: () => endpoint.close(),
  };
}
