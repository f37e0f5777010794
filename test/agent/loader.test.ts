/**
 * The loader: agents from a directory (reloaded when the file changes) and from S3 (s3rver on
 * 127.0.0.1, reloaded when the object's ETag changes), ids that cannot climb out of the source,
 * and the agents: section with its environment fallbacks.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { AgentsConfigError, parseAgentsConfig } from '../../src/agent/config.js';
import { createLoader, UnknownAgentError } from '../../src/agent/loader.js';
import { ValidationError } from '../../src/model/errors.js';

const agentCode = (answer: string) => `export async function invoke() { return { output: ${JSON.stringify(answer)} }; }`;
const answerOf = async (mod: { invoke: (...a: unknown[]) => unknown }) => ((await mod.invoke({}, {}, {})) as { output: string }).output;

describe('directory loader', () => {
  it('loads <source>/<agent_id>/agent.mjs (or agent.js), caches it, and reloads it when the file changes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'il-loader-'));
    mkdirSync(join(root, 'a'));
    const file = join(root, 'a', 'agent.mjs');
    writeFileSync(file, agentCode('one'));
    const loader = createLoader({ kind: 'dir', path: root });
    const first = await loader.load('a', 'u');
    expect(await answerOf(first.module)).toBe('one');
    expect(await loader.load('a', 'u')).toBe(first);
    writeFileSync(file, agentCode('two!'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await answerOf((await loader.load('a', 'u')).module)).toBe('two!');
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'b', 'agent.js'), agentCode('js'));
    writeFileSync(join(root, 'package.json'), '{"type":"module"}');
    expect(await answerOf((await loader.load('b', 'u')).module)).toBe('js');
    await expect(loader.load('missing', 'u')).rejects.toThrow(UnknownAgentError);
    await expect(loader.load('../a', 'u')).rejects.toThrow(ValidationError);
    mkdirSync(join(root, 'bad'));
    writeFileSync(join(root, 'bad', 'agent.mjs'), 'export const x = 1;');
    await expect(loader.load('bad', 'u')).rejects.toThrow(/does not export an invoke/);
  });
});

describe('S3 loader (s3rver)', () => {
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> };
  let endpoint: string;
  let s3: S3Client;
  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(join(tmpdir(), 'il-s3-')) });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await s3.send(new CreateBucketCommand({ Bucket: 'agent-code' }));
  });
  afterAll(async () => {
    s3.destroy();
    await server.close();
  });

  it('loads s3://bucket/prefix/<user_id>/<agent_id>/agent.mjs and reloads it when the ETag changes', async () => {
    const put = (key: string, body: string) => s3.send(new PutObjectCommand({ Bucket: 'agent-code', Key: key, Body: body }));
    await put('agents/alice/helper/agent.mjs', agentCode('v1'));
    const saved = [process.env['AWS_ACCESS_KEY_ID'], process.env['AWS_SECRET_ACCESS_KEY']];
    process.env['AWS_ACCESS_KEY_ID'] = 'S3RVER';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'S3RVER';
    onTestFinished(() => {
      for (const [k, v] of [['AWS_ACCESS_KEY_ID', saved[0]], ['AWS_SECRET_ACCESS_KEY', saved[1]]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    const config = parseAgentsConfig({ source: 's3://agent-code/agents', s3: { endpoint, region: 'us-east-1', force_path_style: true, recheck_ms: 0 } }, {});
    const loader = createLoader(config.source);
    const first = await loader.load('helper', 'alice');
    expect(first.location).toBe('s3://agent-code/agents/alice/helper/agent.mjs');
    expect(await answerOf(first.module)).toBe('v1');
    expect(await loader.load('helper', 'alice')).toBe(first);
    await put('agents/alice/helper/agent.mjs', agentCode('v2'));
    const second = await loader.load('helper', 'alice');
    expect(second.version).not.toBe(first.version);
    expect(await answerOf(second.module)).toBe('v2');
    // Another user's folder holds no such agent; a user id cannot name another folder.
    await expect(loader.load('helper', 'bob')).rejects.toThrow(UnknownAgentError);
    await expect(loader.load('helper', 'alice/../bob')).rejects.toThrow(ValidationError);
  });
});

describe('agents: configuration', () => {
  it('reads the section with defaults and the environment fallbacks (CODE_BUCKET, MEMORY_ID, AWS_REGION)', () => {
    expect(parseAgentsConfig({ source: './agents' }, {})).toEqual({
      source: { kind: 'dir', path: './agents' },
      memory: { store: 'sqlite:./memory.db', turns: 10, expiryDays: 7 },
      userHeader: 'x-user-id',
      lock: { timeoutMs: 60_000, ttlMs: 30_000 },
    });
    const fromEnv = parseAgentsConfig({}, { CODE_BUCKET: 'my-code', MEMORY_ID: 'mem_one-abcdefghij', AWS_REGION: 'eu-west-1' });
    expect(fromEnv.source).toEqual({ kind: 's3', bucket: 'my-code', prefix: '', region: 'eu-west-1', recheckMs: 2000 });
    expect(fromEnv.memory.store).toBe('agentcore://mem_one-abcdefghij?region=eu-west-1');
    // The file wins over the environment.
    expect(parseAgentsConfig({ source: './a', memory: { store: 'memory:' } }, { CODE_BUCKET: 'x', MEMORY_ID: 'mem_one-abcdefghij' })).toMatchObject({ source: { kind: 'dir' }, memory: { store: 'memory:' } });
    expect(() => parseAgentsConfig({}, {})).toThrow(/agents.source: required/);
    expect(() => parseAgentsConfig({ source: './a', memory: { turns: 0 } }, {})).toThrow(AgentsConfigError);
    expect(() => parseAgentsConfig({ source: './a', memory: { expiry_days: 3 } }, {})).toThrow(/agents.memory.expiry_days/);
    expect(() => parseAgentsConfig({ source: './a', extra: 1 }, {})).toThrow(/agents: Unrecognized key/);
  });
});
