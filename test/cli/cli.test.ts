import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, EXIT } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { REPO_ROOT } from '../support/captures.js';

const EXAMPLES = join(REPO_ROOT, 'examples');

function fakeIo(files: Record<string, string> = {}, stdin = ''): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    readFile: async (p: string) => {
      if (p in files) return files[p] as string;
      return readFileSync(p, 'utf8');
    },
    readStdin: async () => stdin,
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
  };
  return io;
}

describe('interlingua convert', () => {
  it('converts the Anthropic example to OpenAI Chat and reports the dropped thinking', async () => {
    const io = fakeIo();
    const code = await run(['convert', '--from', 'anthropic-messages', '--to', 'openai-chat', join(EXAMPLES, 'anthropic-request.json')], io);
    expect(code).toBe(EXIT.ok);
    const out = JSON.parse(io.out);
    expect(out.model).toBe('claude-sonnet-4-0');
    const roles = out.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool']);
    expect(out.messages[1].tool_calls[0].id).toBe('toolu_01YGzqpRE16Vricda3Aqcejo');
    expect(out.messages[2].tool_call_id).toBe('toolu_01YGzqpRE16Vricda3Aqcejo');
    expect(io.err).toMatch(/^loss: dropped foreign-reasoning at messages\[1\]\.content\[0\]/m);
  });

  it('reads standard input when no file is given and round-trips with --from X --to X', async () => {
    const body = readFileSync(join(EXAMPLES, 'openai-chat-request.json'), 'utf8');
    const io = fakeIo({}, body);
    const code = await run(['convert', '--from', 'openai-chat', '--to', 'openai-chat', '--compact'], io);
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(io.out)).toEqual(JSON.parse(body));
    expect(io.err).toBe('');
  });

  it('brings thinking back byte-exact through OpenAI Chat with --preserve', async () => {
    const original = JSON.parse(readFileSync(join(EXAMPLES, 'anthropic-request.json'), 'utf8'));
    const there = fakeIo();
    await run(['convert', '--from', 'anthropic-messages', '--to', 'openai-chat', '--preserve', join(EXAMPLES, 'anthropic-request.json')], there);
    expect(there.err).toMatch(/^loss: stashed foreign-reasoning/m);
    const back = fakeIo({ 'mid.json': there.out });
    const code = await run(['convert', '--from', 'openai-chat', '--to', 'anthropic-messages', 'mid.json'], back);
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(back.out)).toEqual(original);
  });

  it('exits 2 with one error line per issue, naming the path, and no stack trace', async () => {
    const bad = JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'bogus' }] }] });
    const io = fakeIo({ 'bad.json': bad });
    const code = await run(['convert', '--from', 'anthropic-messages', '--to', 'openai-chat', 'bad.json'], io);
    expect(code).toBe(EXIT.invalid);
    expect(io.err).toMatch(/^error: messages\[0\]\.content\[0\]\.type: /m);
    expect(io.err).not.toMatch(/\n\s+at /);
    expect(io.out).toBe('');
  });

  it('exits 2 on an empty messages list and on text that is not JSON', async () => {
    const empty = fakeIo({ 'e.json': JSON.stringify({ model: 'm', messages: [] }) });
    expect(await run(['convert', '--from', 'openai-chat', '--to', 'anthropic-messages', 'e.json'], empty)).toBe(EXIT.invalid);
    expect(empty.err).toMatch(/^error: messages: /m);
    const notJson = fakeIo({ 'n.json': '{"model": ' });
    expect(await run(['convert', '--from', 'openai-chat', '--to', 'anthropic-messages', 'n.json'], notJson)).toBe(EXIT.invalid);
    expect(notJson.err).toMatch(/^error: \(root\): input is not valid JSON/m);
  });

  it('exits 3 under --strict when the conversion would lose something, and 0 when it would not', async () => {
    const lossy = fakeIo();
    const file = join(EXAMPLES, 'anthropic-request.json');
    expect(await run(['convert', '--from', 'anthropic-messages', '--to', 'openai-chat', '--strict', file], lossy)).toBe(EXIT.lossy);
    expect(lossy.out).toBe('');
    expect(lossy.err).toMatch(/^error: --strict: /m);
    const clean = fakeIo();
    const same = join(EXAMPLES, 'openai-chat-request.json');
    expect(await run(['convert', '--from', 'openai-chat', '--to', 'openai-chat', '--strict', same], clean)).toBe(EXIT.ok);
  });

  it('honours --max-text-bytes', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(50) }] });
    const io = fakeIo({ 'b.json': body });
    expect(await run(['convert', '--from', 'openai-chat', '--to', 'anthropic-messages', '--max-text-bytes', '10', 'b.json'], io)).toBe(EXIT.invalid);
    expect(io.err).toMatch(/^error: messages\[0\]\.content: text is 50 bytes, over the limit of 10/m);
  });

  it('rejects unknown formats, options and kinds as usage errors', async () => {
    for (const argv of [
      ['convert', '--from', 'nope', '--to', 'openai-chat', 'x.json'],
      ['convert', '--from', 'openai-chat', '--to', 'openai-chat', '--bogus'],
      ['convert', '--from', 'openai-chat', '--to', 'openai-chat', '--kind', 'bogus', 'x.json'],
      ['convert', '--from', 'agent-input', '--to', 'openai-chat', '--kind', 'stream', 'x.json'],
      ['convert', '--from', 'openai-chat', '--to', 'openai-chat', '--accumulate', 'x.json'],
      ['convert', '--from', 'openai-chat', 'x.json'],
      ['frobnicate'],
    ]) {
      const io = fakeIo({ 'x.json': '{}' });
      expect(await run(argv, io), argv.join(' ')).toBe(EXIT.usage);
      expect(io.err).toMatch(/^error: /);
    }
  });
});

describe('interlingua formats', () => {
  it('lists every dialect with its kinds', async () => {
    const io = fakeIo();
    expect(await run(['formats'], io)).toBe(EXIT.ok);
    expect(io.out).toMatch(/^anthropic-messages\s+request, response, stream\s+Anthropic Messages$/m);
    expect(io.out).toMatch(/^openai-chat\s+request, response, stream\s+/m);
    expect(io.out).toMatch(/^agent-input\s+request\s+/m);
  });
});

// The installed entry point, as a newcomer runs it after `npm install` (which builds dist/).
describe.skipIf(!existsSync(join(REPO_ROOT, 'dist/cli/main.js')))('bin/interlingua.js', () => {
  const bin = join(REPO_ROOT, 'bin/interlingua.js');
  it('prints help and converts a file', () => {
    expect(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })).toMatch(/interlingua convert \[--from <format>\|auto\] --to/);
    const res = spawnSync(process.execPath, [bin, 'convert', '--from', 'openai-chat', '--to', 'anthropic-messages', join(EXAMPLES, 'openai-chat-request.json')], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).messages[0].role).toBe('user');
  });
});
