/**
 * The `agents:` section of the gateway's configuration file:
 *   agents:
 *     source: ./agents                 # or s3://bucket/prefix (agents at <prefix>/<user_id>/<agent_id>/agent.mjs)
 *     memory: { store: "sqlite:./memory.db", turns: 10, expiry_days: 7 }
 *     user_header: x-user-id           # where A2A / AG-UI / execute callers name their user
 *     model: gpt-4o-mini               # the model name agents get as context.model
 * As in the source design's deployment, the environment fills what the file leaves out:
 * `CODE_BUCKET` (the S3 bucket of agent code), `MEMORY_ID` (an AgentCore memory: the store becomes
 * agentcore://<MEMORY_ID>) and `AWS_REGION` (for both). Checked with zod; a mistake names its path.
 */
import { z } from 'zod';
import { UsageError } from '../model/errors.js';

export const DEFAULT_USER_HEADER = 'x-user-id';
export const DEFAULT_MEMORY_STORE = 'sqlite:./memory.db';
/** How often an S3 agent's object is asked for its ETag (a directory agent's file is checked on every call). */
export const DEFAULT_S3_RECHECK_MS = 2000;

const sectionSchema = z.strictObject({
  source: z.string().min(1).optional(),
  memory: z
    .strictObject({
      store: z.string().min(1).optional(),
      turns: z.number().int().positive().default(10),
      expiry_days: z.number().int().min(7).max(365).default(7),
    })
    .optional(),
  user_header: z.string().regex(/^[A-Za-z0-9-]+$/, 'a header name').default(DEFAULT_USER_HEADER),
  model: z.string().min(1).optional(),
  max_steps: z.number().int().positive().optional(),
  /** A directory agent's file is checked for changes at most this often (ms); default 0: every call. */
  recheck_ms: z.number().int().nonnegative().optional(),
  s3: z.strictObject({ region: z.string().min(1).optional(), endpoint: z.url().optional(), force_path_style: z.boolean().optional(), recheck_ms: z.number().int().nonnegative().optional() }).optional(),
  lock: z.strictObject({ timeout_ms: z.number().int().positive().optional(), ttl_ms: z.number().int().positive().optional() }).optional(),
});

export type AgentsSection = z.input<typeof sectionSchema>;

export type AgentSource = { kind: 'dir'; path: string; recheckMs?: number } | { kind: 's3'; bucket: string; prefix: string; region?: string; endpoint?: string; forcePathStyle?: boolean; recheckMs: number };

export interface AgentsConfig {
  source: AgentSource;
  memory: { store: string; turns: number; expiryDays: number };
  userHeader: string;
  model?: string;
  maxSteps?: number;
  lock: { timeoutMs: number; ttlMs: number };
}

/** The configuration is wrong: each problem as `agents.<path>: problem`. */
export class AgentsConfigError extends UsageError {
  constructor(readonly problems: string[]) {
    super(`invalid agents configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'AgentsConfigError';
  }
}

function parseSource(raw: string, region: string | undefined, s3: z.infer<typeof sectionSchema>['s3'], recheckMs: number | undefined): AgentSource {
  if (!raw.startsWith('s3://')) return recheckMs === undefined ? { kind: 'dir', path: raw } : { kind: 'dir', path: raw, recheckMs };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (m === null) throw new AgentsConfigError([`agents.source: ${JSON.stringify(raw)} is not s3://<bucket>[/<prefix>]`]);
  const rest = m[2] ?? '';
  const prefix = rest === '' || rest.endsWith('/') ? rest : `${rest}/`;
  const out: AgentSource = { kind: 's3', bucket: m[1] as string, prefix, recheckMs: s3?.recheck_ms ?? DEFAULT_S3_RECHECK_MS };
  const r = s3?.region ?? region;
  if (r !== undefined) out.region = r;
  if (s3?.endpoint !== undefined) out.endpoint = s3.endpoint;
  if (s3?.force_path_style !== undefined) out.forcePathStyle = s3.force_path_style;
  return out;
}

/** Checks the `agents:` section (an object, as parsed from YAML) with the environment's fallbacks. */
export function parseAgentsConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): AgentsConfig {
  const parsed = sectionSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new AgentsConfigError(parsed.error.issues.map((i) => `agents${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`));
  const c = parsed.data;
  const region = env['AWS_REGION'] || undefined;
  const bucket = env['CODE_BUCKET'] || undefined;
  const memoryId = env['MEMORY_ID'] || undefined;
  const sourceText = c.source ?? (bucket === undefined ? undefined : `s3://${bucket}`);
  if (sourceText === undefined) throw new AgentsConfigError(['agents.source: required (a directory, or s3://bucket/prefix), or set CODE_BUCKET']);
  let store = c.memory?.store;
  if (store === undefined && memoryId !== undefined) store = `agentcore://${memoryId}${region === undefined ? '' : `?region=${encodeURIComponent(region)}`}`;
  const out: AgentsConfig = {
    source: parseSource(sourceText, region, c.s3, c.recheck_ms),
    memory: { store: store ?? DEFAULT_MEMORY_STORE, turns: c.memory?.turns ?? 10, expiryDays: c.memory?.expiry_days ?? 7 },
    userHeader: c.user_header.toLowerCase(),
    lock: { timeoutMs: c.lock?.timeout_ms ?? 60_000, ttlMs: c.lock?.ttl_ms ?? 30_000 },
  };
  if (c.model !== undefined) out.model = c.model;
  if (c.max_steps !== undefined) out.maxSteps = c.max_steps;
  return out;
}
