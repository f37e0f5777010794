/**
 * The generic loader: finds an agent's ES module and keeps it loaded until its code changes.
 * - directory source: `<source>/<agent_id>/agent.mjs` (or `agent.js`); the file's mtime and size are
 *   checked at most every `recheckMs` (0: on every call), a change imports it again;
 * - S3 source: `s3://bucket/prefix/<user_id>/<agent_id>/agent.mjs` (or `.js`) through
 *   @aws-sdk/client-s3 (an optional peer, imported when an S3 source is used); the object's ETag is
 *   asked at most every `recheckMs`, a new ETag downloads it again (to a temp file, then imported).
 * An agent module exports `invoke(payload, context, { hooks, state })` returning `{ output }`, and
 * may export `stream(...)` returning canonical stream events. Ids are checked before they become a
 * path, so no id reaches outside the source.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError, ValidationError } from '../model/errors.js';
import type { AgentSource } from './config.js';

export interface AgentModule {
  invoke(payload: unknown, context: unknown, injected: unknown): unknown;
  stream?(payload: unknown, context: unknown, injected: unknown): unknown;
  /** Optional: what the A2A agent card says about the agent. */
  card?: { name?: string; description?: string; skills?: unknown[] };
}

export interface LoadedAgent {
  module: AgentModule;
  /** Where it came from (a file path or an s3:// URL) and which version (mtime or ETag). */
  location: string;
  version: string;
}

/** No agent module at the place the id names. */
export class UnknownAgentError extends UsageError {
  constructor(readonly agentId: string, where: string) {
    super(`no agent '${agentId}' (looked for ${where})`);
    this.name = 'UnknownAgentError';
  }
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const FILES = ['agent.mjs', 'agent.js'];

export function checkAgentId(agentId: unknown): string {
  if (typeof agentId !== 'string' || !AGENT_ID.test(agentId)) {
    throw new ValidationError([{ code: 'invalid_identifier', path: ['agent_id'], message: 'agent_id must be 1-100 letters, digits, _ or -, starting with a letter or digit', received: typeof agentId === 'string' ? JSON.stringify(agentId.slice(0, 60)) : typeof agentId }]);
  }
  return agentId;
}

function checkModule(mod: unknown, location: string): AgentModule {
  const m = mod as Partial<AgentModule> | null;
  if (typeof m?.invoke !== 'function') throw new UsageError(`${location} does not export an invoke(payload, context, { hooks, state }) function`);
  return m as AgentModule;
}

interface Cached {
  loaded: LoadedAgent;
  checkedAt: number;
}

export interface AgentLoader {
  load(agentId: string, userId: string): Promise<LoadedAgent>;
}

export function createLoader(source: AgentSource): AgentLoader {
  return source.kind === 'dir' ? new DirLoader(resolve(source.path), source.recheckMs ?? 0) : new S3Loader(source);
}

class DirLoader implements AgentLoader {
  private readonly cache = new Map<string, Cached>();
  private readonly pending = new Map<string, Promise<LoadedAgent>>();

  constructor(private readonly root: string, private readonly recheckMs: number) {}

  /**
   * Synchronous on purpose: a stat of a local file takes microseconds, while the thread-pool round
   * trip of the promise form costs more than that and waits for a free thread under load.
   */
  private find(agentId: string): { file: string; version: string } | undefined {
    for (const name of FILES) {
      const file = join(this.root, agentId, name);
      let s;
      try {
        s = statSync(file, { throwIfNoEntry: false });
      } catch {
        continue; // not a readable path (e.g. a file where a folder should be): try the next name
      }
      if (s?.isFile() === true) return { file, version: `${s.mtimeMs}-${s.size}` };
    }
    return undefined;
  }

  async load(agentIdIn: string): Promise<LoadedAgent> {
    const agentId = checkAgentId(agentIdIn);
    const cachedNow = this.cache.get(agentId);
    if (cachedNow !== undefined && Date.now() - cachedNow.checkedAt < this.recheckMs) return cachedNow.loaded;
    const found = this.find(agentId);
    if (found === undefined) throw new UnknownAgentError(agentId, `${join(this.root, agentId)}/agent.mjs or agent.js`);
    const cached = this.cache.get(agentId);
    if (cached !== undefined && cached.loaded.location === found.file && cached.loaded.version === found.version) {
      cached.checkedAt = Date.now();
      return cached.loaded;
    }
    const key = `${found.file}#${found.version}`;
    let p = this.pending.get(key);
    if (p === undefined) {
      p = (async () => {
        // A query makes a new module instance: Node caches ES modules by URL for the process's life.
        const mod: unknown = await import(`${pathToFileURL(found.file).href}?v=${encodeURIComponent(found.version)}`);
        const loaded: LoadedAgent = { module: checkModule(mod, found.file), location: found.file, version: found.version };
        this.cache.set(agentId, { loaded, checkedAt: Date.now() });
        return loaded;
      })().finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }
}

interface S3Like {
  send(command: unknown): Promise<unknown>;
}

class S3Loader implements AgentLoader {
  private readonly cache = new Map<string, Cached>();
  private readonly pending = new Map<string, Promise<LoadedAgent>>();
  private client: Promise<{ s3: S3Like; Head: new (i: object) => unknown; Get: new (i: object) => unknown }> | undefined;
  private readonly dir = join(tmpdir(), 'interlingua-agents', String(process.pid));

  constructor(private readonly source: Extract<AgentSource, { kind: 's3' }>) {}

  private sdk(): Promise<{ s3: S3Like; Head: new (i: object) => unknown; Get: new (i: object) => unknown }> {
    this.client ??= (async () => {
      let mod: typeof import('@aws-sdk/client-s3');
      try {
        mod = await import('@aws-sdk/client-s3');
      } catch {
        throw new UsageError('agents.source is an s3:// URL: install @aws-sdk/client-s3 (an optional peer dependency)');
      }
      const cfg: Record<string, unknown> = {};
      if (this.source.region !== undefined) cfg['region'] = this.source.region;
      if (this.source.endpoint !== undefined) cfg['endpoint'] = this.source.endpoint;
      if (this.source.forcePathStyle !== undefined) cfg['forcePathStyle'] = this.source.forcePathStyle;
      return { s3: new mod.S3Client(cfg) as unknown as S3Like, Head: mod.HeadObjectCommand as never, Get: mod.GetObjectCommand as never };
    })();
    return this.client;
  }

  private keys(userId: string, agentId: string): string[] {
    return FILES.map((f) => `${this.source.prefix}${userId}/${agentId}/${f}`);
  }

  /** The first key that exists and its ETag. */
  private async head(userId: string, agentId: string): Promise<{ key: string; etag: string } | undefined> {
    const { s3, Head } = await this.sdk();
    for (const key of this.keys(userId, agentId)) {
      try {
        const r = (await s3.send(new Head({ Bucket: this.source.bucket, Key: key }))) as { ETag?: string };
        return { key, etag: r.ETag ?? '' };
      } catch (err) {
        const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) continue;
        throw err;
      }
    }
    return undefined;
  }

  async load(agentIdIn: string, userId: string): Promise<LoadedAgent> {
    const agentId = checkAgentId(agentIdIn);
    // The user id is a path segment of the key: one segment, nothing that climbs.
    if (!/^[A-Za-z0-9][A-Za-z0-9_:-]*$/.test(userId)) {
      throw new ValidationError([{ code: 'invalid_identifier', path: ['user_id'], message: 'with an S3 agent source, user_id must be letters, digits, _ : or - (it names a folder of the bucket)' }]);
    }
    const id = `${userId}/${agentId}`;
    const cached = this.cache.get(id);
    const now = Date.now();
    if (cached !== undefined && now - cached.checkedAt < this.source.recheckMs) return cached.loaded;
    let p = this.pending.get(id);
    if (p === undefined) {
      p = this.refresh(id, userId, agentId, cached).finally(() => this.pending.delete(id));
      this.pending.set(id, p);
    }
    return p;
  }

  private async refresh(id: string, userId: string, agentId: string, cached: Cached | undefined): Promise<LoadedAgent> {
    const found = await this.head(userId, agentId);
    if (found === undefined) {
      this.cache.delete(id);
      throw new UnknownAgentError(agentId, this.keys(userId, agentId).map((k) => `s3://${this.source.bucket}/${k}`).join(' or '));
    }
    const location = `s3://${this.source.bucket}/${found.key}`;
    if (cached !== undefined && cached.loaded.location === location && cached.loaded.version === found.etag) {
      cached.checkedAt = Date.now();
      return cached.loaded;
    }
    const { s3, Get } = await this.sdk();
    const obj = (await s3.send(new Get({ Bucket: this.source.bucket, Key: found.key, IfMatch: found.etag || undefined }))) as { Body?: { transformToString(): Promise<string> }; ETag?: string };
    if (obj.Body === undefined) throw new UsageError(`${location}: the object has no body`);
    const code = await obj.Body.transformToString();
    const etag = obj.ETag ?? found.etag;
    const name = createHash('sha256').update(`${location}\0${etag}`).digest('hex').slice(0, 24);
    await mkdir(this.dir, { recursive: true });
    // Always .mjs: the agent is an ES module whatever its key's extension (no package.json here says so).
    const file = join(this.dir, `${name}.mjs`);
    await writeFile(file, code);
    const mod: unknown = await import(pathToFileURL(file).href);
    const loaded: LoadedAgent = { module: checkModule(mod, location), location, version: etag };
    this.cache.set(id, { loaded, checkedAt: Date.now() });
    return loaded;
  }
}
