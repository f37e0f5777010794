/**
 * Opening agentcore:// stores: URL errors, where region / endpoint / credentials come from, a ready
 * client, the SDK loaded only when such a URL opens (and a clear error when it is missing), and
 * the service's refusals as our errors.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CreateEventCommand, ListActorsCommand, ListEventsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSdk } from '../../src/memory/backends/agentcore-open.js';
import { serviceError } from '../../src/memory/backends/agentcore-errors.js';
import { openMemory, UsageError, ValidationError } from '../../src/memory/index.js';
import { start, type Endpoint } from '../support/agentcore-endpoint.js';
import { sdkClient, storeUrl, TEST_KEYS } from './agentcore-storage.js';
import { conv, user } from './events.js';

const endpoints: Endpoint[] = [];
async function endpoint(options: Parameters<typeof start>[0] = {}): Promise<Endpoint> {
  const e = await start(options);
  endpoints.push(e);
  return e;
}

/** Environment variables set for one test, put back after. */
const saved = new Map<string, string | undefined>();
function env(name: string, value: string | undefined): void {
  if (!saved.has(name)) saved.set(name, process.env[name]);
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterEach(async () => {
  for (const [name, value] of saved) env(name, value);
  saved.clear();
  for (const e of endpoints.splice(0)) await e.close();
});

const withKeys = { agentcore: { clientConfig: { credentials: TEST_KEYS } } };

async function usage(url: string, pattern: RegExp, options = {}): Promise<void> {
  const err = await openMemory(url, options).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as Error).message).toMatch(pattern);
}

describe('agentcore:// URLs', () => {
  it('bad URLs are UsageErrors that say what is wrong, before anything is sent', async () => {
    await usage('agentcore://', /agentcore:\/\/ needs a memory id, e\.g\. agentcore:\/\/mymemory-abcdefghij\?region=us-east-1/);
    await usage('agentcore:?region=us-east-1', /needs a memory id/);
    await usage('agentcore://short?region=us-east-1', /the memory id must be at least 12 characters long/);
    await usage('agentcore://has_no_suffix_here?region=us-east-1', /the memory id "has_no_suffix_here" does not match/);
    await usage('agentcore://mem-0123456789?region=mars', /region must be an AWS region such as us-east-1 \(got 'mars'\)/);
    await usage('agentcore://mem-0123456789?region=us-east-1&ttl=7', /unknown parameter 'ttl' \(known: expiryDays, region, endpoint\)/);
    await usage('agentcore://mem-0123456789?endpoint=ftp://example.com', /endpoint must be an http\(s\) URL/);
    await usage('agentcore://mem-0123456789?expiryDays=400', /expiryDays must be a whole number of days from 7 to 365/);
    const client = sdkClient(await endpoint());
    await usage('agentcore://mem-0123456789?region=us-east-1', /region and endpoint are the given client's/, { agentcore: { client } });
    client.destroy();
  });

  it('?region= and ?endpoint= reach the service; expiryDays from the URL, code options win', async () => {
    const e = await endpoint();
    const store = await openMemory(`${storeUrl(e)}&expiryDays=30`, withKeys);
    expect(store.backend).toBe('agentcore');
    expect(store.expiryDays).toBe(30);
    await store.appendEvents('alice', 's', [user('hi')]);
    expect(e.calls('CreateEvent')).toBe(1);
    expect(e.regions()).toEqual(['us-east-1']);
    await store.close();
    const coded = await openMemory(`${storeUrl(e)}&expiryDays=30`, { ...withKeys, expiryDays: 90 });
    expect(coded.expiryDays).toBe(90);
    await coded.close();
  });

  it("the SDK's own endpoint setting and default credentials are honoured; an ARN gives the region", async () => {
    const e = await endpoint({ memoryIds: ['team_memory-ABCDEFGHIJ'] });
    env('AWS_REGION', undefined);
    env('AWS_DEFAULT_REGION', undefined);
    env('AWS_ENDPOINT_URL_BEDROCK_AGENTCORE', e.url);
    env('AWS_ACCESS_KEY_ID', TEST_KEYS.accessKeyId);
    env('AWS_SECRET_ACCESS_KEY', TEST_KEYS.secretAccessKey);
    const byArn = await openMemory('agentcore://arn:aws:bedrock-agentcore:eu-west-1:123456789012:memory/team_memory-ABCDEFGHIJ');
    await byArn.appendEvents('alice', 's', [user('through the environment')]);
    await byArn.close();
    expect(e.regions()).toEqual(['eu-west-1']);
    env('AWS_ENDPOINT_URL_BEDROCK_AGENTCORE', undefined);
    env('AWS_ENDPOINT_URL', e.url);
    const plain = await openMemory('agentcore://team_memory-ABCDEFGHIJ?region=ap-southeast-2');
    expect((await plain.listEvents('alice', 's')).events.map((x) => x.payload)).toEqual([user('through the environment').payload]);
    await plain.close();
    expect(e.regions()).toEqual(['eu-west-1', 'ap-southeast-2']);
  });

  it('a ready client is used as given and left open', async () => {
    const e = await endpoint();
    const client = sdkClient(e);
    const store = await openMemory(`agentcore://${e.memoryId}`, { agentcore: { client } });
    await store.appendEvents('alice', 's', [user('x')]);
    await store.close();
    const out = await client.send(new ListActorsCommand({ memoryId: e.memoryId }));
    expect(out.actorSummaries).toEqual([{ actorId: 'alice' }]);
    client.destroy();
  });

  it('an unknown memory, an unreachable service, no region: UsageErrors when the store opens', async () => {
    const e = await endpoint();
    await usage(`agentcore://nosuchmemory-0123456789?region=us-east-1&endpoint=${encodeURIComponent(e.url)}`, /agentcore:\/\/nosuchmemory-0123456789: ListActors: not found: Memory not found/, withKeys);
    const gone = await endpoint();
    await gone.close();
    await usage(storeUrl(gone), /ListActors: cannot reach AgentCore \(ECONNREFUSED/, { agentcore: { clientConfig: { credentials: TEST_KEYS, maxAttempts: 1 } } });
    env('AWS_REGION', undefined);
    env('AWS_DEFAULT_REGION', undefined);
    env('AWS_CONFIG_FILE', '/nonexistent/aws-config');
    await usage(`agentcore://${e.memoryId}?endpoint=${encodeURIComponent(e.url)}`, /no AWS region; add \?region=\.\.\. to the store URL or set AWS_REGION/, withKeys);
  });
});

describe('the SDK is an optional peer', () => {
  it('a missing package is a UsageError saying what to install', async () => {
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package '@aws-sdk/client-bedrock-agentcore'"), { code: 'ERR_MODULE_NOT_FOUND' }));
    const err = await loadSdk(missing).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/agentcore:\/\/ stores need the @aws-sdk\/client-bedrock-agentcore package \(npm install @aws-sdk\/client-bedrock-agentcore\)/);
  });

  it('is loaded only when an agentcore:// URL opens (not for memory:, not for a bad agentcore URL)', () => {
    const index = fileURLToPath(new URL('../../src/memory/index.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(process.cwd() + '/').cache;
      const loaded = () => Object.keys(cache).some((k) => k.includes('/node_modules/@aws-sdk/client-bedrock-agentcore/'));
      const { openMemory } = await import(${JSON.stringify(index)});
      const m = await openMemory('memory:');
      await m.close();
      const memory = loaded();
      await openMemory('agentcore://mem-0123456789?region=moon').catch(() => {});
      const badUrl = loaded();
      await openMemory('agentcore://mem-0123456789?region=us-east-1&endpoint=http://127.0.0.1:9', { agentcore: { clientConfig: { maxAttempts: 1, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } } } }).catch(() => {});
      console.log(JSON.stringify({ memory, badUrl, agentcore: loaded() }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ memory: false, badUrl: false, agentcore: true });
  });
});

describe("the service's refusals as our errors", () => {
  it('a ValidationException names the fields in our terms', async () => {
    const e = await endpoint();
    const client = sdkClient(e);
    const bad = [conv('USER', 'fine'), { conversational: { content: { text: 'x'.repeat(100_001) }, role: 'user' } }];
    const err = await client.send(new CreateEventCommand({ memoryId: e.memoryId, actorId: 'a b', sessionId: 's', eventTimestamp: new Date(), payload: bad as never })).catch((x: unknown) => x);
    const ours = serviceError(err, { store: 'agentcore://x', op: 'CreateEvent', event: 3 });
    expect(ours).toBeInstanceOf(ValidationError);
    expect((ours as ValidationError).issues.map((i) => i.path)).toEqual([
      ['actorId'],
      ['events', 3, 'payload', 1, 'conversational', 'role'],
      ['events', 3, 'payload', 1, 'conversational', 'content', 'text'],
    ]);
    expect((ours as ValidationError).issues[2]?.message).toBe('AgentCore refused it: Member must have length less than or equal to 100000');
    expect((ours as { cause?: unknown }).cause).toBe(err);
    const page = await client.send(new ListEventsCommand({ memoryId: e.memoryId, actorId: 'a', sessionId: 's', maxResults: 101 })).catch((x: unknown) => x);
    expect((serviceError(page, { store: 'agentcore://x', op: 'ListEvents' }) as ValidationError).issues).toEqual([
      { code: 'agentcore_validation', path: ['maxResults'], message: 'AgentCore refused it: Member must have value less than or equal to 100' },
    ]);
    client.destroy();
  });

  it('an event the service finds too large (HTTP 413) refuses the append, and what it wrote before is deleted again', async () => {
    const e = await endpoint({ maxBodyBytes: 20_000 });
    const store = await openMemory(storeUrl(e), withKeys);
    const err = await store.appendEvents('alice', 's', [user('a'), user('b'), { payload: [conv('USER', 'x'.repeat(50_000))] }]).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      { code: 'agentcore_too_large', path: ['events', 2], message: 'the request is larger than AgentCore takes (HTTP 413 Request Entity Too Large)' },
    ]);
    expect(e.calls('CreateEvent')).toBe(2);
    expect(e.calls('DeleteEvent')).toBe(2);
    expect(e.held()).toBe(0);
    // The sequence did not move on: the next append starts at 1.
    expect((await store.appendEvents('alice', 's', [user('c')]))[0]?.sequence).toBe(1);
    await store.close();
  });
});
