/**
 * Sweeps every Chat Completions capture in ../shared/fixtures: each request and non-streaming
 * response must decode and encode back deep-equal. Skipped (with a message) without ../shared.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/formats/codec.js';
import { openaiChat } from '../../src/formats/openai-chat/index.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { exchangesFor, hasSharedFixtures, isErrorBody, listFiles, SHARED_FIXTURES } from '../support/captures.js';

const shared = hasSharedFixtures();
const codec = { request: openaiChat.request!, response: openaiChat.response! };

function roundTrip(kind: 'request' | 'response', body: unknown): { back: unknown; losses: LossList } {
  const losses = new LossList();
  const value = codec[kind].decode(body, { limits: DEFAULT_LIMITS, losses });
  const back = codec[kind].encode(value as never, { preserve: false, losses });
  return { back, losses };
}

interface Case {
  name: string;
  kind: 'request' | 'response';
  body: unknown;
}

function cases(): Case[] {
  if (!shared) return [];
  const out: Case[] = [];
  for (const ex of exchangesFor('/chat/completions', ['openai-chat', 'conversion'])) {
    out.push({ name: `${ex.name} request`, kind: 'request', body: ex.request });
    if (ex.response !== undefined && !isErrorBody(ex.response)) out.push({ name: `${ex.name} response`, kind: 'response', body: ex.response });
  }
  for (const file of listFiles(join(SHARED_FIXTURES, 'openai-chat/response'), ['.json'])) {
    const body: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isErrorBody(body)) out.push({ name: relative(SHARED_FIXTURES, file), kind: 'response', body });
  }
  for (const file of listFiles(join(SHARED_FIXTURES, 'conversion/agentgateway/requests/completions'), ['.json'])) {
    out.push({ name: relative(SHARED_FIXTURES, file), kind: 'request', body: JSON.parse(readFileSync(file, 'utf8')) });
  }
  return out;
}

const all = cases();

describe.skipIf(!shared)('openai-chat corpus sweep (../shared/fixtures)', () => {
  it('finds the captures', () => {
    expect(all.filter((c) => c.kind === 'request').length).toBeGreaterThanOrEqual(30);
    expect(all.filter((c) => c.kind === 'response').length).toBeGreaterThanOrEqual(40);
  });

  it.each(all.map((c) => [c.name, c] as const))('%s round-trips exactly', (_name, c) => {
    const { back, losses } = roundTrip(c.kind, c.body);
    expect(back).toEqual(c.body);
    expect(losses.items).toEqual([]);
  });
});

describe.skipIf(shared)('openai-chat corpus sweep', () => {
  it('is skipped: ../shared/fixtures is not present (set INTERLINGUA_SHARED_FIXTURES to run it)', () => {
    expect(shared).toBe(false);
  });
});
