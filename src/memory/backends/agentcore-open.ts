/**
 * Opening an `agentcore://<memoryId or memory ARN>?region=&endpoint=&expiryDays=` store: the URL's
 * parts, the SDK loaded only now (a UsageError naming the package when it is missing), the client
 * (region from the URL, else the ARN, else the SDK's default chain; endpoint from the URL, else the
 * SDK's own AWS_ENDPOINT_URL_BEDROCK_AGENTCORE / AWS_ENDPOINT_URL; code's clientConfig wins), and one
 * ListActors call so a wrong memory, region, endpoint or credentials fail now, not at first use.
 */
import type * as Sdk from '@aws-sdk/client-bedrock-agentcore';
import { MissingPackageError, UsageError, ValidationError } from '../../model/errors.js';
import type { AgentCoreClientOptions } from '../agentcore-client.js';
import { checkId } from '../ids.js';
import type { EventStore } from '../store.js';
import { AgentCoreStore, type SdkModule } from './agentcore.js';

export type { AgentCoreClientOptions } from '../agentcore-client.js';

export interface AgentCoreTarget {
  memoryId: string;
  region?: string;
  endpoint?: string;
}

export interface AgentCoreStoreOptions {
  expiryDays: number;
  now?: () => number;
  agentcore?: AgentCoreClientOptions;
}

const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;

/** The memory id, region and endpoint of an `agentcore:` URL (`body` is what follows the scheme's colon). */
export function agentCoreTarget(url: string, body: string, params: Map<string, string>): AgentCoreTarget {
  const raw = body.startsWith('//') ? body.slice(2) : body;
  if (raw === '') throw new UsageError(`memory store URL ${url}: agentcore:// needs a memory id, e.g. agentcore://mymemory-abcdefghij?region=us-east-1`);
  let memoryId: string;
  try {
    memoryId = decodeURIComponent(raw);
    checkId('memoryId', memoryId);
  } catch (err) {
    const why = err instanceof ValidationError ? err.issues[0]?.message : 'is not %-encoded correctly';
    throw new UsageError(`memory store URL ${url}: the memory id ${why ?? 'is not valid'}`);
  }
  const region = params.get('region') ?? /^arn:[^:]+:bedrock-agentcore:([^:]+):/.exec(memoryId)?.[1];
  if (region !== undefined && !REGION.test(region)) throw new UsageError(`memory store URL ${url}: region must be an AWS region such as us-east-1 (got '${region}')`);
  const endpoint = params.get('endpoint');
  if (endpoint !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(endpoint).protocol;
    } catch {
      // refused below
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new UsageError(`memory store URL ${url}: endpoint must be an http(s) URL (got '${endpoint}')`);
  }
  const target: AgentCoreTarget = { memoryId };
  if (region !== undefined) target.region = region;
  if (endpoint !== undefined) target.endpoint = endpoint;
  return target;
}

/** The SDK module, or a UsageError saying what to install. */
export async function loadSdk(load: () => Promise<unknown> = () => import('@aws-sdk/client-bedrock-agentcore')): Promise<SdkModule> {
  try {
    return (await load()) as SdkModule;
  } catch (err) {
    throw new MissingPackageError('agentcore:// stores', '@aws-sdk/client-bedrock-agentcore', (err as Error).message);
  }
}

/** Opens the store on the memory, checking at once that it is there and reachable (one ListActors call). */
export async function openAgentCoreStore(url: string, target: AgentCoreTarget, options: AgentCoreStoreOptions): Promise<EventStore> {
  // The caller's client and config are the SDK's own (agentcore-client.ts types them without it).
  const given = options.agentcore?.client as Sdk.BedrockAgentCoreClient | undefined;
  if (given !== undefined && (target.region !== undefined || target.endpoint !== undefined)) {
    throw new UsageError(`memory store URL ${url}: region and endpoint are the given client's; leave them out of the URL`);
  }
  const sdk = await loadSdk();
  const config: Sdk.BedrockAgentCoreClientConfig = {};
  if (target.region !== undefined) config.region = target.region;
  if (target.endpoint !== undefined) config.endpoint = target.endpoint;
  const client = given ?? new sdk.BedrockAgentCoreClient({ ...config, ...(options.agentcore?.clientConfig as Sdk.BedrockAgentCoreClientConfig | undefined) });
  const store = new AgentCoreStore(sdk, client, given === undefined, target.memoryId, options.expiryDays, options.now ?? Date.now);
  try {
    await store.probe();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
