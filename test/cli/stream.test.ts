/**
 * `interlingua convert --kind stream`: a real Anthropic SSE capture re-emitted as another dialect's
 * stream (SSE text, or Bedrock event-stream bytes), read back, and accumulated into final responses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { EXIT, run } from '../../src/cli/main.js';
import { parseEventStream } from '../../src/stream/event-stream.js';
import { parseSse } from '../../src/stream/sse.js';
import { REPO_ROOT } from '../support/captures.js';
import { concat } from '../support/raw-streams.js';

const EXAMPLE = join(REPO_ROOT, 'examples/anthropic-stream.sse');

function io(files: Record<string, Uint8Array> = {}): CliIo & { out: string; bytes: Uint8Array[]; err: string } {
  const o = {
    out: '',
    err: '',
    bytes: [] as Uint8Array[],
    readFile: async (p: string) => readFileSync(p, 'utf8'),
    readStdin: async () => '',
    readBytes: async (p: string | undefined) => (p !== undefined && p in files ? (files[p] as Uint8Array) : new Uint8Array(readFileSync(p ?? ''))),
    stdout: (t: string) => void (o.out += t),
    stdoutBytes: (b: Uint8Array) => void o.bytes.push(b),
    stderr: (t: string) => void (o.err += t),
  };
  return o;
}


describe('convert --kind stream', () => {
  it('re-emits an Anthropic stream as OpenAI Chat chunks, reporting the thinking it cannot carry', async () => {
    const o = io();
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'openai-chat', EXAMPLE], o)).toBe(EXIT.ok);
    const events = parseSse(o.out);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => e.data as { choices: { delta?: { content?: string } }[] });
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text.startsWith('Here are the basic steps for safely crossing the street')).toBe(true);
    expect(o.err).toMatch(/^loss: dropped \S*reasoning\S* at /m);
  });

  it('writes Bedrock event-stream bytes, which read back and accumulate into the same answer', async () => {
    const o = io();
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'bedrock-converse', EXAMPLE], o)).toBe(EXIT.ok);
    const bytes = concat(o.bytes);
    const events = parseEventStream(bytes);
    expect(events[0]?.event).toBe('messageStart');
    expect(events.map((e) => e.event)).toContain('metadata');

    const back = io({ 'out.bin': bytes });
    expect(await run(['convert', '--kind', 'stream', '--from', 'bedrock-converse', '--to', 'anthropic-messages', '--accumulate', 'out.bin'], back)).toBe(EXIT.ok);
    const res = JSON.parse(back.out) as { content: { type: string; text?: string }[]; stop_reason: string };
    expect(res.stop_reason).toBe('end_turn');
    expect(res.content.map((b) => b.type)).toEqual(['text']);
    expect(res.content[0]?.text).toMatch(/^Here are the basic steps/);
  });

  it('--accumulate in the same dialect keeps the thinking signature byte-exact', async () => {
    const o = io();
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'anthropic-messages', '--accumulate', EXAMPLE], o)).toBe(EXIT.ok);
    const res = JSON.parse(o.out) as { content: { type: string; signature?: string }[] };
    const signature = parseSse(readFileSync(EXAMPLE, 'utf8'))
      .map((e) => e.data as { delta?: { type: string; signature?: string } })
      .filter((d) => d.delta?.type === 'signature_delta')
      .map((d) => d.delta?.signature)
      .join('');
    expect(signature.length).toBeGreaterThan(100);
    expect(res.content[0]).toMatchObject({ type: 'thinking', signature });
  });

  it('reads JSON lines of events too, and names a bad line', async () => {
    const lines = parseSse(readFileSync(EXAMPLE, 'utf8'))
      .map((e) => JSON.stringify(e.data))
      .join('\n');
    const o = io({ 'events.jsonl': new TextEncoder().encode(lines) });
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'anthropic-messages', '--accumulate', 'events.jsonl'], o)).toBe(EXIT.ok);
    expect(JSON.parse(o.out)).toMatchObject({ stop_reason: 'end_turn' });
    const bad = io({ 'bad.jsonl': new TextEncoder().encode(`${lines.split('\n')[0]}\n{not json\n`) });
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'openai-chat', 'bad.jsonl'], bad)).toBe(EXIT.invalid);
    expect(bad.err).toMatch(/^error: \[1\]: line 2 is not JSON$/m);
  });

  it('says a stream cut before its end (a loss line; exit 3 under --strict), and names input that is not a stream', async () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const cut = new TextEncoder().encode(text.slice(0, text.indexOf('event: message_delta')));
    const o = io({ 'cut.sse': cut });
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'openai-chat', 'cut.sse'], o)).toBe(EXIT.ok);
    expect(o.err).toMatch(/^loss: approximated incomplete-stream at \S+: the stream ended before its end event/m);
    expect(await run(['convert', '--kind', 'stream', '--from', 'anthropic-messages', '--to', 'openai-chat', '--strict', 'cut.sse'], io({ 'cut.sse': cut }))).toBe(EXIT.lossy);
    const plain = io({ 'plain.txt': new TextEncoder().encode('Bad Gateway\n') });
    expect(await run(['convert', '--kind', 'stream', '--from', 'bedrock-converse', '--to', 'openai-chat', 'plain.txt'], plain)).toBe(EXIT.invalid);
    expect(plain.err).toMatch(/expected AWS event-stream messages, received plain text \("Bad Gateway"\)$/m);
  });
});
