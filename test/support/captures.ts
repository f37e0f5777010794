/**
 * Reads the real captures in ../shared/fixtures (when that folder is present) and in
 * test/fixtures: HTTP exchanges of every recorder layout, reduced to request and response bodies.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../..');
export const LOCAL_FIXTURES = join(REPO_ROOT, 'test/fixtures');
export const SHARED_FIXTURES = resolve(REPO_ROOT, process.env['INTERLINGUA_SHARED_FIXTURES'] ?? '../shared/fixtures');

export function hasSharedFixtures(): boolean {
  return existsSync(join(SHARED_FIXTURES, 'SOURCES.md'));
}

/** Every file under `dir` whose name ends with one of `suffixes`, sorted, or [] if `dir` is missing. */
export function listFiles(dir: string, suffixes: string[]): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (suffixes.some((s) => name.endsWith(s))) out.push(p);
    }
  };
  walk(dir);
  return out;
}

export interface Exchange {
  /** Where it came from: file path relative to its fixtures root, plus '#<n>' for the n-th interaction. */
  name: string;
  url: string;
  request: unknown;
  /** The JSON response body; undefined when the response was a stream or not JSON. */
  response: unknown;
  /** The response body as text when it was not JSON (SSE streams). */
  responseText?: string;
  status: number;
}

function tryJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads one recorded file in any of the corpus layouts (VCR YAML, SDK JSON, nock, js-genai). */
export function readExchanges(file: string, root: string = SHARED_FIXTURES): Exchange[] {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const out: Exchange[] = [];
  const add = (i: number, url: string, request: unknown, response: unknown, status: number): void => {
    const ex: Exchange = { name: `${rel}#${i}`, url, request, response: undefined, status };
    if (typeof response === 'string') {
      const parsed = tryJson(response);
      if (parsed === undefined) ex.responseText = response;
      else ex.response = parsed;
    } else ex.response = response;
    out.push(ex);
  };
  if (file.endsWith('.yaml') || file.endsWith('.yml')) {
    const doc = parseYaml(text, { maxAliasCount: -1 }) as { interactions?: unknown[] };
    (doc.interactions ?? []).forEach((raw, i) => {
      const it = raw as {
        request?: { uri?: string; parsed_body?: unknown; body?: unknown };
        response?: { parsed_body?: unknown; body?: { string?: unknown }; status?: { code?: number } };
      };
      const req = it.request?.parsed_body ?? tryJson(it.request?.body);
      const res = it.response?.parsed_body ?? it.response?.body?.string;
      add(i, it.request?.uri ?? '', req, res, it.response?.status?.code ?? 0);
    });
    return out;
  }
  const doc = tryJson(text);
  if (doc === undefined) return out; // not a recording (e.g. SSE text in a .json file)
  if (Array.isArray(doc)) {
    doc.forEach((raw, i) => {
      const it = raw as {
        request?: { url?: string; body?: unknown };
        response?: unknown;
        status?: number;
        scope?: string;
        path?: string;
        body?: unknown;
      };
      if (it.request !== undefined) {
        const res = it.response as { status_code?: number; body?: unknown } | undefined;
        add(i, it.request.url ?? '', tryJson(it.request.body), res?.body, res?.status_code ?? 0);
      } else {
        add(i, `${it.scope ?? ''}${it.path ?? ''}`, tryJson(it.body), it.response, it.status ?? 0);
      }
    });
    return out;
  }
  const rec = doc as {
    interactions?: { request?: { url?: string; bodySegments?: unknown[] }; response?: { statusCode?: number; bodySegments?: unknown[] } }[];
  };
  (rec.interactions ?? []).forEach((it, i) => {
    const segs = it.response?.bodySegments ?? [];
    add(i, it.request?.url ?? '', it.request?.bodySegments?.[0], segs.length === 1 ? segs[0] : undefined, it.response?.statusCode ?? 0);
  });
  return out;
}

/** Every exchange recorded against a URL containing `urlPart`, from all files under `dirs`. */
export function exchangesFor(urlPart: string, dirs: string[], root: string = SHARED_FIXTURES): Exchange[] {
  const out: Exchange[] = [];
  for (const dir of dirs) {
    for (const file of listFiles(join(root, dir), ['.json', '.yaml', '.yml'])) {
      for (const ex of readExchanges(file, root)) if (ex.url.includes(urlPart)) out.push(ex);
    }
  }
  return out;
}

/** True when a body is a provider error envelope rather than a response. */
export function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  // OpenAI Responses bodies carry `error: null` (or an error with status 'failed') beside their output.
  const b = body as Record<string, unknown>;
  return b['error'] !== null && !('choices' in b) && !('content' in b) && !('output' in b) && !('candidates' in b);
}
