/**
 * Sweeps every Gemini generateContent capture in ../shared/fixtures: each request (of generate and
 * streamGenerateContent exchanges) and each non-streaming response decodes and encodes back
 * deep-equal with no loss, and (but for agentgateway's hand-written passthrough vector) is a
 * valid REST body. Skipped (with a message) without ../shared.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { gemini } from '../../src/formats/gemini/index.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { exchangesFor, hasSharedFixtures, isErrorBody, listFiles, SHARED_FIXTURES } from '../support/captures.js';
import { validateGemini } from '../support/validators/gemini.js';

const shared = hasSharedFixtures();
const codec = { request: gemini.request!, response: gemini.response! };

interface Case {
  name: string;
  kind: 'request' | 'response';
  body: unknown;
}

function cases(): Case[] {
  if (!shared) return [];
  const out: Case[] = [];
  // Cross-provider cassettes in other folders record Gemini calls too.
  const dirs = readdirSync(SHARED_FIXTURES).filter((d) => d !== 'schemas' && statSync(join(SHARED_FIXTURES, d)).isDirectory());
  for (const ex of exchangesFor('', dirs)) {
    if (!/models\/[^/]+:(stream)?[gG]enerateContent/.test(ex.url)) continue;
    out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request });
    if (!ex.url.includes('stream') && ex.response !== undefined && !isErrorBody(ex.response)) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response });
  }
  const bare = (dir: string, kind: 'request' | 'response'): void => {
    for (const file of listFiles(join(SHARED_FIXTURES, dir), ['.json'])) {
      let body: unknown;
      try {
        body = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        continue; // SSE text in a .json file (agentgateway stream vectors)
      }
      if (!isErrorBody(body)) out.push({ name: relative(SHARED_FIXTURES, file), kind, body });
    }
  };
  bare('gemini-generatecontent/response', 'response');
  bare('conversion/agentgateway/response/vertex-gemini', 'response');
  bare('conversion/agentgateway/requests/gemini', 'request');
  return out;
}

const all = cases();
const tally = { request: 0, response: 0, valid: 0 };

describe.skipIf(!shared)('gemini corpus sweep (../shared/fixtures)', () => {
  it('finds the captures', () => {
    expect(all.filter((c) => c.kind === 'request').length).toBeGreaterThanOrEqual(140);
    expect(all.filter((c) => c.kind === 'response').length).toBeGreaterThanOrEqual(100);
  });

  it.each(all.map((c) => [c.name, c] as const))('%s round-trips exactly', (_name, c) => {
    const losses = new LossList();
    const value = codec[c.kind].decode(c.body, { limits: DEFAULT_LIMITS, losses });
    const back = codec[c.kind].encode(value as never, { preserve: false, losses });
    expect(back).toEqual(c.body);
    expect(losses.items).toEqual([]);
    tally[c.kind]++;
    // agentgateway's hand-written passthrough vector has unknown fields on purpose; one pydantic-ai
    // cassette sends `tools` as a single object, which Google's parser takes but the proto does not say.
    if (!c.name.includes('passthrough-fields') && !(c.kind === 'request' && !Array.isArray((c.body as { tools?: unknown }).tools) && (c.body as { tools?: unknown }).tools !== undefined)) {
      expect(validateGemini(c.kind, c.body)).toEqual([]);
      tally.valid++;
    }
  });

  afterAll(() => {
    console.log(`gemini corpus: ${tally.request} requests and ${tally.response} responses round-tripped of ${all.length}; ${tally.valid} valid by validateGemini`);
  });
});

describe.skipIf(shared)('gemini corpus sweep', () => {
  it('is skipped: ../shared/fixtures is not present (set INTERLINGUA_SHARED_FIXTURES to run it)', () => {
    expect(shared).toBe(false);
  });
});
