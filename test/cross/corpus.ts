/**
 * The real request and response bodies of the two implemented formats: local copies under
 * test/fixtures/<format>/ (always there) and examples/, plus the shared corpus when present.
 * Bodies are deduplicated by content, so a local copy of a shared capture counts once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exchangesFor, type Exchange, hasSharedFixtures, isErrorBody, listFiles, LOCAL_FIXTURES, REPO_ROOT, SHARED_FIXTURES } from '../support/captures.js';

export type Dialect = 'anthropic-messages' | 'openai-chat';
export type BodyKind = 'request' | 'response';

export interface Sample {
  /** Where it came from: `local:` / `shared:` / `examples:` + file (+ '#n' for an exchange). */
  name: string;
  body: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which URLs are the non-streaming-or-streaming create endpoint (not count_tokens, batches ...). */
const ENDPOINT: Record<Dialect, (url: string) => boolean> = {
  'anthropic-messages': (url) => /\/v1\/messages(\?|$)/.test(url),
  'openai-chat': (url) => /\/chat\/completions(\?|$)/.test(url),
};

/** A request of the format: has messages (an array). */
function isRequest(body: unknown): boolean {
  return isObj(body) && Array.isArray(body['messages']);
}

/** A complete non-streaming response of the format. */
function isResponse(dialect: Dialect, body: unknown): boolean {
  if (!isObj(body) || isErrorBody(body)) return false;
  return dialect === 'anthropic-messages' ? body['type'] === 'message' && Array.isArray(body['content']) : Array.isArray(body['choices']) && body['object'] === 'chat.completion';
}

/** The API answered 400 invalid_request_error: the request is not a valid body of the format. */
function apiRejected(ex: Exchange): boolean {
  const err = isObj(ex.response) ? ex.response['error'] : undefined;
  return ex.status === 400 || (isObj(err) && err['type'] === 'invalid_request_error');
}

/** Requests the real API refused as invalid (400 invalid_request_error), with the API's message. */
export function rejectedRequests(dialect: Dialect): (Sample & { apiMessage: string })[] {
  const roots: [string, string][] = [[LOCAL_FIXTURES, 'local']];
  if (hasSharedFixtures()) roots.push([SHARED_FIXTURES, 'shared']);
  const out: (Sample & { apiMessage: string })[] = [];
  for (const [root, tag] of roots) {
    for (const ex of exchangesFor('', [dialect], root)) {
      if (!ENDPOINT[dialect](ex.url) || !apiRejected(ex) || !isRequest(ex.request)) continue;
      const err = isObj(ex.response) && isObj(ex.response['error']) ? ex.response['error'] : {};
      out.push({ name: `${tag}:${ex.name}`, body: ex.request, apiMessage: String(err['message'] ?? '') });
    }
  }
  return out;
}

const EXAMPLES: Record<Dialect, Record<BodyKind, string>> = {
  'anthropic-messages': { request: 'anthropic-request.json', response: 'anthropic-response.json' },
  'openai-chat': { request: 'openai-chat-request.json', response: 'openai-chat-response.json' },
};

function fromRoot(root: string, tag: string, dialect: Dialect, kind: BodyKind): Sample[] {
  const out: Sample[] = [];
  // Recorded exchanges in any recorder layout.
  for (const ex of exchangesFor('', [dialect], root)) {
    if (!ENDPOINT[dialect](ex.url) || (kind === 'request' && apiRejected(ex))) continue;
    const body = kind === 'request' ? ex.request : ex.response;
    if (kind === 'request' ? isRequest(body) : isResponse(dialect, body)) out.push({ name: `${tag}:${ex.name}`, body });
  }
  // Bare response bodies (response/ folders). Bare request files are not used: locally they are
  // conversion-vector inputs (agentgateway), not captures, and some are deliberately invalid.
  if (kind === 'response') {
    for (const file of listFiles(join(root, dialect), ['.json'])) {
      let body: unknown;
      try {
        body = JSON.parse(readText(file));
      } catch {
        continue;
      }
      if (isResponse(dialect, body)) out.push({ name: `${tag}:${file.slice(root.length + 1)}`, body });
    }
  }
  return out;
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

const cache = new Map<string, Sample[]>();

/** Every distinct real body of one dialect and kind. */
export function samples(dialect: Dialect, kind: BodyKind): Sample[] {
  const key = `${dialect}/${kind}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const all: Sample[] = [...fromRoot(LOCAL_FIXTURES, 'local', dialect, kind)];
  const example = join(REPO_ROOT, 'examples', EXAMPLES[dialect][kind]);
  all.push({ name: `examples:${EXAMPLES[dialect][kind]}`, body: JSON.parse(readText(example)) as unknown });
  if (hasSharedFixtures()) all.push(...fromRoot(SHARED_FIXTURES, 'shared', dialect, kind));
  const seen = new Set<string>();
  const out = all.filter((s) => {
    const h = createHash('sha1').update(JSON.stringify(s.body)).digest('hex');
    if (seen.has(h)) return false;
    seen.add(h);
    return true;
  });
  cache.set(key, out);
  return out;
}

/** Counts of loss codes, for console tables. */
export function countCodes(codes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
}
