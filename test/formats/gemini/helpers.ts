import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gemini } from '../../../src/formats/gemini/index.js';
import { LOCAL_FIXTURES, listFiles, readExchanges, type Exchange } from '../../support/captures.js';
import { codecCalls } from '../../support/codec-helpers.js';

export const FIXTURES = join(LOCAL_FIXTURES, 'gemini');
export const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

export const { decodeRequest, encodeRequest, decodeResponse, encodeResponse } = codecCalls(gemini);
export { codes, issuesOf } from '../../support/codec-helpers.js';

/** The model a recorded exchange named in its URL (`.../models/<model>:generateContent`). */
export function urlModel(url: string): string | undefined {
  return /models\/([^:/?]+):/.exec(url)?.[1];
}

export interface Body {
  name: string;
  kind: 'request' | 'response';
  body: Record<string, unknown>;
  url?: string;
}

/** Every local Gemini body: the request and non-streaming response of each exchange, bare bodies. */
export function localBodies(): Body[] {
  const out: Body[] = [];
  for (const file of listFiles(join(FIXTURES, 'exchanges'), ['.json', '.yaml'])) {
    for (const ex of readExchanges(file, FIXTURES) as Exchange[]) {
      if (!/:(stream)?[gG]enerateContent/.test(ex.url)) continue;
      out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request as Record<string, unknown>, url: ex.url });
      if (!ex.url.includes('stream') && ex.response !== undefined) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response as Record<string, unknown>, url: ex.url });
    }
  }
  for (const file of listFiles(join(FIXTURES, 'requests'), ['.json'])) out.push({ name: file.slice(FIXTURES.length + 1), kind: 'request', body: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> });
  for (const file of listFiles(join(FIXTURES, 'responses'), ['.json'])) out.push({ name: file.slice(FIXTURES.length + 1), kind: 'response', body: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> });
  return out;
}
