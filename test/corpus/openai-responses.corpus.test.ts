/**
 * Sweeps every OpenAI Responses capture in ../shared/fixtures: each request and non-streaming
 * response sent to or received from POST /v1/responses (in any provider's folder: several
 * cassettes replay a conversation to another provider), the bare response files and agentgateway's
 * vectors. Each must decode and encode back deep-equal and lossless, and convert to Anthropic
 * Messages and OpenAI Chat and back exactly with `preserve`. Skipped (with a message) without
 * ../shared.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { openaiResponses } from '../../src/formats/openai-responses/index.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { convert } from '../../src/index.js';
import { exchangesFor, hasSharedFixtures, listFiles, SHARED_FIXTURES } from '../support/captures.js';
import { validateOpenaiResponses } from '../support/validators/openai-responses.js';

const shared = hasSharedFixtures();

interface Case {
  name: string;
  kind: 'request' | 'response';
  body: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A `response` object; Responses bodies carry `error: null`, so the generic error test does not apply. */
const isResponse = (v: unknown): boolean => isObj(v) && v['object'] === 'response' && Array.isArray(v['output']);

/** Vectors that are not valid bodies, with the issue path the decoder must name. */
const INVALID: Record<string, (string | number)[]> = {
  'conversion/agentgateway/requests/responses/assistant-history.json': ['input', 0, 'content', 1, 'refusal'],
};

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // agentgateway stream vectors hold SSE text in .json files
  }
}

function cases(): Case[] {
  if (!shared) return [];
  const out: Case[] = [];
  const dirs = ['openai-responses', 'anthropic-messages', 'openai-chat', 'bedrock-converse', 'gemini-generatecontent'];
  for (const ex of exchangesFor('/responses', dirs)) {
    if (!/\/v1\/responses$/.test(ex.url)) continue; // not /responses/compact
    out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request });
    if (isResponse(ex.response)) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response });
  }
  for (const file of listFiles(join(SHARED_FIXTURES, 'openai-responses/response'), ['.json'])) {
    const body = readJson(file);
    if (isResponse(body)) out.push({ name: relative(SHARED_FIXTURES, file), kind: 'response', body });
  }
  for (const [dir, kind] of [['conversion/agentgateway/requests/responses', 'request'], ['conversion/agentgateway/response/responses', 'response']] as const) {
    for (const file of listFiles(join(SHARED_FIXTURES, dir), ['.json'])) {
      const body = readJson(file);
      if (isObj(body)) out.push({ name: relative(SHARED_FIXTURES, file), kind, body });
    }
  }
  return out;
}

const all = cases();
const valid = all.filter((c) => !(c.name in INVALID));
const tally = { requests: 0, responses: 0, exact: 0, 'capture schema-valid': 0, 'anthropic preserve exact': 0, 'chat preserve exact': 0 };

function roundTrip(c: Case): { back: unknown; losses: LossList } {
  const codec = openaiResponses[c.kind];
  if (!codec) throw new Error(`no ${c.kind} codec`);
  const losses = new LossList();
  const value = codec.decode(c.body, { limits: DEFAULT_LIMITS, losses });
  return { back: codec.encode(value as never, { preserve: false, losses }), losses };
}

describe.skipIf(!shared)('openai-responses corpus sweep (../shared/fixtures)', () => {
  it('finds the captures', () => {
    expect(valid.filter((c) => c.kind === 'request').length).toBeGreaterThanOrEqual(45);
    expect(valid.filter((c) => c.kind === 'response').length).toBeGreaterThanOrEqual(70);
  });

  it.each(valid.map((c) => [c.name, c] as const))('%s round-trips exactly', (_name, c) => {
    tally[c.kind === 'request' ? 'requests' : 'responses']++;
    const { back, losses } = roundTrip(c);
    expect(back).toEqual(c.body);
    expect(losses.items).toEqual([]);
    tally.exact++;
    if (validateOpenaiResponses(c.kind, c.body).length === 0) tally['capture schema-valid']++;
  });

  it.each(valid.map((c) => [c.name, c] as const))('%s -> anthropic / chat -> back is exact with preserve', (_name, c) => {
    for (const [to, key] of [['anthropic-messages', 'anthropic preserve exact'], ['openai-chat', 'chat preserve exact']] as const) {
      const there = convert(c.body, { from: 'openai-responses', to, kind: c.kind, preserve: true });
      expect(there.losses.filter((l) => l.action === 'dropped')).toEqual([]);
      const back = convert(there.value, { from: to, to: 'openai-responses', kind: c.kind }).value as Record<string, unknown>;
      // The openai-chat encoder invents `created` for a response without one and does not stash
      // that it did (its gap, see test/formats/openai-responses/cross.test.ts).
      if (to === 'openai-chat' && c.kind === 'response' && isObj(c.body) && !('created_at' in c.body)) delete back['created_at'];
      expect(back).toEqual(c.body);
      tally[key]++;
    }
  });

  it.each(Object.entries(INVALID))('%s is refused with the path of the problem', (name, path) => {
    const c = all.find((x) => x.name === name);
    expect(c).toBeDefined();
    try {
      roundTrip(c as Case);
      expect.unreachable('expected a ValidationError');
    } catch (err) {
      expect((err as { issues?: { path: unknown }[] }).issues?.map((i) => i.path)).toEqual([path]);
    }
  });
});

describe.skipIf(shared)('openai-responses corpus sweep', () => {
  it('is skipped: ../shared/fixtures is not present (set INTERLINGUA_SHARED_FIXTURES to run it)', () => {
    expect(shared).toBe(false);
  });
});

afterAll(() => {
  if (!shared) return;
  console.log('openai-responses corpus sweep');
  console.table(tally);
});
