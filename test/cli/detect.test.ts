import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, EXIT } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { LOCAL_FIXTURES, REPO_ROOT } from '../support/captures.js';

const EXAMPLES = join(REPO_ROOT, 'examples');

function io(stdin: string | Uint8Array = ''): CliIo & { out: string; err: string } {
  const bytes = typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin;
  const o = {
    out: '',
    err: '',
    readFile: async (p: string) => readFileSync(p, 'utf8'),
    readStdin: async () => new TextDecoder().decode(bytes),
    readBytes: async (p: string | undefined) => (p === undefined ? bytes : new Uint8Array(readFileSync(p))),
    stdout: (t: string) => {
      o.out += t;
    },
    stderr: (t: string) => {
      o.err += t;
    },
  };
  return o;
}

describe('interlingua detect', () => {
  it('names the Anthropic example request with its cues', async () => {
    const o = io();
    expect(await run(['detect', join(EXAMPLES, 'anthropic-request.json')], o)).toBe(EXIT.ok);
    const out = JSON.parse(o.out);
    expect(out).toMatchObject({ format: 'anthropic-messages', kind: 'request', layout: 'json' });
    expect(out.candidates[0].cues).toContain('max_tokens');
  });

  it('names an SSE stream capture and an event-stream binary capture', async () => {
    const sse = io();
    expect(await run(['detect', join(EXAMPLES, 'anthropic-stream.sse')], sse)).toBe(EXIT.ok);
    expect(JSON.parse(sse.out)).toMatchObject({ format: 'anthropic-messages', kind: 'stream', layout: 'sse' });
    const bin = io();
    expect(await run(['detect', join(LOCAL_FIXTURES, 'streams/bedrock-converse/tool.bin')], bin)).toBe(EXIT.ok);
    expect(JSON.parse(bin.out)).toMatchObject({ format: 'bedrock-converse', kind: 'stream', layout: 'aws-event-stream' });
  });

  it('lists both dialects for a minimal body both accept', async () => {
    const o = io(JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    expect(await run(['detect'], o)).toBe(EXIT.ok);
    const out = JSON.parse(o.out);
    expect(out.ambiguous).toBe(true);
    expect(out.candidates.map((c: { format: string }) => c.format).sort()).toEqual(['anthropic-messages', 'openai-chat']);
  });

  it('exits 2 naming the closest dialect and its first issues when nothing accepts the body', async () => {
    const o = io(JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }));
    expect(await run(['detect'], o)).toBe(EXIT.invalid);
    expect(o.err).toMatch(/closest is anthropic-messages request/);
    expect(o.err).toMatch(/^error: messages\[0\]\.content\[0\]/m);
  });
});

describe('interlingua convert --from auto', () => {
  it('is the default: detects, says so on standard error, converts', async () => {
    const o = io();
    expect(await run(['convert', '--to', 'openai-chat', join(EXAMPLES, 'anthropic-request.json')], o)).toBe(EXIT.ok);
    expect(o.err).toMatch(/^detected: anthropic-messages request \(confidence 1\.00\)$/m);
    expect(JSON.parse(o.out).messages[1].tool_calls[0].id).toBe('toolu_01YGzqpRE16Vricda3Aqcejo');
  });

  it('converts a detected stream capture as a stream', async () => {
    const o = io();
    expect(await run(['convert', '--from', 'auto', '--to', 'openai-chat', '--accumulate', join(EXAMPLES, 'anthropic-stream.sse')], o)).toBe(EXIT.ok);
    expect(o.err).toMatch(/^detected: anthropic-messages stream/m);
    expect(JSON.parse(o.out).object).toBe('chat.completion');
  });

  it('an unreadable body exits 2 with the closest dialect named', async () => {
    const o = io(JSON.stringify({ contents: 'not a list' }));
    expect(await run(['convert', '--to', 'openai-chat'], o)).toBe(EXIT.invalid);
    expect(o.err).toMatch(/closest is gemini request/);
  });
});

describe('detect on a JSON array of chunks', () => {
  it("reads Gemini's non-SSE streamGenerateContent answer (a JSON array of chunks) as a stream", async () => {
    const lines = readFileSync(join(LOCAL_FIXTURES, 'streams/gemini/google-text.chunks.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const o = io(`[${lines.join(',\n')}]`);
    expect(await run(['detect'], o)).toBe(EXIT.ok);
    expect(JSON.parse(o.out)).toMatchObject({ format: 'gemini', kind: 'stream', layout: 'events' });
  });
});
