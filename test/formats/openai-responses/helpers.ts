import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openaiResponses } from '../../../src/formats/openai-responses/index.js';
import { listFiles, LOCAL_FIXTURES, readExchanges } from '../../support/captures.js';
import { codecCalls } from '../../support/codec-helpers.js';

export const FIXTURES = join(LOCAL_FIXTURES, 'openai-responses');
export const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

export const { decodeRequest, encodeRequest, decodeResponse, encodeResponse } = codecCalls(openaiResponses);
export { codes, issuesOf } from '../../support/codec-helpers.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Responses API `response` object (not an error envelope: Responses bodies carry `error: null`). */
export const isResponseBody = (v: unknown): boolean => isObj(v) && v['object'] === 'response' && Array.isArray(v['output']);

export interface Body {
  name: string;
  kind: 'request' | 'response';
  body: Record<string, unknown>;
}

/**
 * The local bodies the codec must take: requests and responses recorded against POST /v1/responses
 * and the agentgateway vectors, minus the one that is invalid on purpose (see SOURCES.md).
 */
export const INVALID = ['requests/agentgateway/assistant-history.json'];

export function localBodies(): Body[] {
  const out: Body[] = [];
  for (const file of listFiles(join(FIXTURES, 'exchanges'), ['.yaml'])) {
    for (const ex of readExchanges(file, FIXTURES)) {
      if (!/\/v1\/responses$/.test(ex.url)) continue;
      out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request as Record<string, unknown> });
      if (isResponseBody(ex.response)) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response as Record<string, unknown> });
    }
  }
  for (const [dir, kind] of [['requests', 'request'], ['responses', 'response']] as const) {
    for (const file of listFiles(join(FIXTURES, dir), ['.json'])) {
      const name = relative(FIXTURES, file);
      if (!INVALID.includes(name)) out.push({ name, kind, body: fixture(name) });
    }
  }
  return out;
}

/**
 * A canonical value without this format's own ext: what decoding adds that the value had no say in
 * (item ids an encoder had to generate, hints). Another format ignores it on its way back.
 */
export function withoutOwn<T>(v: T): T {
  if (Array.isArray(v)) return v.map(withoutOwn) as T;
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'ext' && isObj(x)) {
      const { 'openai-responses': _own, ...others } = x;
      if (Object.keys(others).length > 0) out[k] = withoutOwn(others);
    } else out[k] = withoutOwn(x);
  }
  return out as T;
}
