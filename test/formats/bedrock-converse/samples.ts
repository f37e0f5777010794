/**
 * Real Bedrock Converse bodies for the tests: recorded exchanges (VCR cassettes), bare response
 * files, and the Bedrock request bodies of agentgateway's conversion vectors (`.bedrock.snap`:
 * YAML header, then JSON with `request`). Read from a fixtures root: test/fixtures/bedrock-converse
 * (always there) or ../shared/fixtures (when present).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exchangesFor, listFiles } from '../../support/captures.js';

export interface Sample {
  name: string;
  body: unknown;
  /** The recorded HTTP status, for exchanges. */
  status?: number;
  /** The model the request was sent to (from the URL path, or the vector's parsed view). */
  model?: string;
}

/** `/model/{modelId}/converse` -> modelId. */
export function modelFromUrl(url: string): string | undefined {
  const m = /\/model\/([^/]+)\/converse/.exec(url);
  return m?.[1] === undefined ? undefined : decodeURIComponent(m[1]);
}

/** The request as the SDK's ConverseCommandInput holds it: with its modelId in the body. */
export function withModelId(s: Sample): unknown {
  return s.model === undefined || !isObj(s.body) ? s.body : { modelId: s.model, ...s.body };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON after the second `---` line of an insta snapshot. */
export function snapBody(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  let seen = 0;
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---' && ++seen === 2) {
      start = i + 1;
      break;
    }
  }
  return JSON.parse(lines.slice(start).join('\n')) as unknown;
}

export const isConverseRequest = (b: unknown): boolean => isObj(b) && (Array.isArray(b['messages']) || Array.isArray(b['system']));
export const isConverseResponse = (b: unknown): boolean => isObj(b) && isObj(b['output']) && typeof b['stopReason'] === 'string';

/** Every Bedrock Converse (and ConverseStream) request, and every non-streaming response, under `root`. */
export function bedrockSamples(root: string, dirs: { exchanges: string[]; responses: string[]; snaps: string[] }): { requests: Sample[]; responses: Sample[] } {
  const requests: Sample[] = [];
  const responses: Sample[] = [];
  for (const ex of exchangesFor('amazonaws.com/model/', dirs.exchanges, root)) {
    const model = modelFromUrl(ex.url);
    if (isConverseRequest(ex.request)) requests.push({ name: ex.name, body: ex.request, status: ex.status, ...(model === undefined ? {} : { model }) });
    if (!ex.url.includes('converse-stream') && isConverseResponse(ex.response)) responses.push({ name: ex.name, body: ex.response, status: ex.status });
  }
  for (const dir of dirs.responses) {
    for (const file of listFiles(join(root, dir), ['.json'])) {
      const body: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (isConverseResponse(body)) responses.push({ name: relative(root, file), body });
    }
  }
  for (const dir of dirs.snaps) {
    for (const file of listFiles(join(root, dir), ['.bedrock.snap'])) {
      const doc = snapBody(file);
      const body = isObj(doc) ? doc['request'] : undefined;
      const parsed = isObj(doc) ? doc['parsed'] : undefined;
      const model = isObj(parsed) && typeof parsed['request_model'] === 'string' ? parsed['request_model'] : undefined;
      if (isConverseRequest(body)) requests.push({ name: relative(root, file), body, ...(model === undefined ? {} : { model }) });
    }
  }
  return { requests, responses };
}
