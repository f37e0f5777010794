/**
 * The gateway's configuration: YAML or JSON, checked with zod so a mistake is reported with its
 * path (`upstreams.claude.url: ...`). `env:NAME` strings are read from the environment once, at
 * start; a missing variable is a start-up error, never an empty key sent upstream.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../index.js';

export const DIALECTS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'bedrock-converse'] as const;
export type Dialect = (typeof DIALECTS)[number];
export type UpstreamFormat = Dialect | 'mock';

/** Default largest request body accepted (bytes). */
export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;
/** Default time an upstream has to answer with its headers, and between body chunks (ms). */
export const DEFAULT_UPSTREAM_TIMEOUT = 300_000;

const errorSpec = z.strictObject({
  status: z.number().int().min(400).max(599),
  message: z.string(),
  type: z.string().optional(),
});

const upstreamSchema = z
  .strictObject({
    format: z.enum([...DIALECTS, 'mock']),
    url: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).optional(),
    region: z.string().min(1).optional(),
    timeout_ms: z.number().int().positive().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    // mock only: what the in-process mock answers with.
    error: errorSpec.optional(),
    latency_ms: z.number().int().nonnegative().optional(),
  })
  .superRefine((u, ctx) => {
    if (u.format !== 'mock' && u.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: `a ${u.format} upstream needs a url` });
    if (u.format !== 'mock' && (u.error !== undefined || u.latency_ms !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [u.error !== undefined ? 'error' : 'latency_ms'], message: 'only a mock upstream takes error / latency_ms' });
    }
    if (u.format === 'bedrock-converse' && u.region === undefined && u.apiKey === undefined) {
      ctx.addIssue({ code: 'custom', path: ['region'], message: 'a bedrock-converse upstream needs a region (for SigV4) or an apiKey (bearer)' });
    }
  });

const routeSchema = z.strictObject({
  model: z.string().min(1),
  upstream: z.string().min(1),
  model_rewrite: z.string().min(1).optional(),
});

const configSchema = z
  .strictObject({
    upstreams: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'upstream names are letters, digits, _ . -'), upstreamSchema),
    routes: z.array(routeSchema).min(1),
    keys: z.array(z.string().min(1)).optional(),
    memory: z.strictObject({ store: z.string().min(1), turns: z.number().int().positive().default(10) }).optional(),
    limits: z.strictObject({ body_bytes: z.number().int().positive().optional() }).optional(),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    // The agent host's section, checked by src/agent/config.ts (parseAgentsConfig).
    agents: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((c, ctx) => {
    c.routes.forEach((r, i) => {
      if (!Object.hasOwn(c.upstreams, r.upstream)) {
        ctx.addIssue({ code: 'custom', path: ['routes', i, 'upstream'], message: `no upstream named '${r.upstream}' (known: ${Object.keys(c.upstreams).join(', ') || 'none'})` });
      }
    });
  });

export type UpstreamConfig = z.infer<typeof upstreamSchema>;
export type RouteConfig = z.infer<typeof routeSchema>;
export type GatewayConfig = z.infer<typeof configSchema>;

/** The configuration is wrong: every problem, each as `path: problem`. */
export class ConfigError extends UsageError {
  constructor(readonly problems: string[]) {
    super(`invalid gateway configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** Replaces every `env:NAME` string with the variable's value; collects the missing ones. */
function resolveEnv(value: unknown, env: NodeJS.ProcessEnv, path: PropertyKey[], missing: string[]): unknown {
  if (typeof value === 'string') {
    const m = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
    if (m === null) return value;
    const name = m[1] as string;
    const found = env[name];
    if (found === undefined || found === '') missing.push(`${pathText(path)}: environment variable ${name} is not set`);
    return found ?? '';
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveEnv(v, env, [...path, i], missing));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveEnv(v, env, [...path, k], missing);
    return out;
  }
  return value;
}

/** Checks a parsed configuration object; throws a ConfigError naming each wrong path. */
export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const missing: string[] = [];
  const resolved = resolveEnv(raw, env, [], missing);
  const result = configSchema.safeParse(resolved);
  const problems = [...missing];
  if (!result.success) for (const issue of result.error.issues) problems.push(`${pathText(issue.path)}: ${issue.message}`);
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

/** Reads a YAML or JSON file (JSON is YAML) and checks it. */
export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError([`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ConfigError([`${file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0] ?? ''}`]);
  }
  return parseConfig(raw, env);
}
