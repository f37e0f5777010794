/**
 * Memory continuity: a session's earlier turns reach the provider before the new message (in the
 * provider's dialect), answers from bodies and streams are kept, sessions never mix, nothing is
 * read or stored without the headers, and a session survives a restart on a SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway/server.js';
import { anthropicClient } from './support/clients.js';
import { modelFor, replayConfig, startTestGateway } from './support/gateway.js';
import { startReplayUpstream, type Received, type ReplayUpstream } from './support/replay-upstream.js';

let upstream: ReplayUpstream;
let gw: RunningGateway;
const store = `sqlite:${join(mkdtempSync(join(tmpdir(), 'il-gw-mem-')), 'memory.db')}`;
const config = (): ReturnType<typeof replayConfig> => replayConfig(upstream.url, { memory: { store, turns: 10 } });

/** The Chat provider answers with text saying which call it is. */
function answerWithText(): void {
  let n = 0;
  upstream.respond = (rec, res) => {
    const text = `answer ${++n}`;
    if (rec.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finish: string | null): string => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (const word of text.split(/(?= )/)) res.write(chunk({ content: word }, null));
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }));
    }
    return true;
  };
}

async function ask(text: string, session: string | undefined, stream = false): Promise<string> {
  const headers = session === undefined ? undefined : { 'x-interlingua-actor': 'user-1', 'x-interlingua-session': session };
  const client = anthropicClient(gw.url, headers === undefined ? {} : { headers });
  const params = { model: modelFor('openai-chat'), max_tokens: 100, messages: [{ role: 'user' as const, content: text }] };
  const m = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
  return m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

/** What the provider was sent last, as (role, text) pairs. */
function lastSent(): [string, string][] {
  const body = (upstream.received.at(-1) as Received).body as { messages: { role: string; content: unknown }[] };
  const text = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: { text?: string }) => p.text ?? JSON.stringify(p)).join('') : JSON.stringify(c));
  return body.messages.map((m) => [m.role, text(m.content)]);
}

beforeAll(async () => {
  upstream = await startReplayUpstream();
  gw = await startTestGateway(config());
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  answerWithText();
});

describe('memory continuity', () => {
  it('puts the session’s earlier turns (from bodies and streams) before the new message', async () => {
    expect(await ask('first question', 's1')).toBe('answer 1');
    expect(lastSent()).toEqual([['user', 'first question']]);
    expect(await ask('second question', 's1', true)).toBe('answer 2');
    expect(lastSent()).toEqual([
      ['user', 'first question'],
      ['assistant', 'answer 1'],
      ['user', 'second question'],
    ]);
    await ask('third question', 's1');
    expect(lastSent()).toEqual([
      ['user', 'first question'],
      ['assistant', 'answer 1'],
      ['user', 'second question'],
      ['assistant', 'answer 2'],
      ['user', 'third question'],
    ]);
  });

  it('keeps two sessions apart, and reads or stores nothing without the headers', async () => {
    await ask('alpha one', 'iso-a');
    await ask('beta one', 'iso-b');
    await ask('no session', undefined);
    expect(lastSent()).toEqual([['user', 'no session']]);
    await ask('alpha two', 'iso-a');
    expect(lastSent()).toEqual([
      ['user', 'alpha one'],
      ['assistant', 'answer 1'],
      ['user', 'alpha two'],
    ]);
    await ask('beta two', 'iso-b');
    expect(lastSent().map(([, t]) => t)).toEqual(['beta one', 'answer 2', 'beta two']);
  });

  it('survives a restart on the same SQLite file', async () => {
    await ask('before restart', 'restart');
    await gw.close();
    gw = await startTestGateway(config());
    await ask('after restart', 'restart');
    expect(lastSent()).toEqual([
      ['user', 'before restart'],
      ['assistant', 'answer 1'],
      ['user', 'after restart'],
    ]);
  });
});
