/**
 * `interlingua serve` as a real child process: the one `listening on` line on standard output,
 * SIGTERM letting an in-flight stream finish before exiting 0, the gateway run again with a larger
 * young generation, and a bad configuration exiting 1 naming the path and the problem.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import pino from 'pino';
import { REPO_ROOT } from '../support/captures.js';
import { run } from '../../src/cli/main.js';
import { loadConfig } from '../../src/gateway/config.js';
import { startGateway } from '../../src/gateway/server.js';

const ENTRY = resolve(REPO_ROOT, 'test/gateway/support/cli-entry.ts');
const children: ChildProcess[] = [];

function serve(args: string[]): { child: ChildProcess; line: Promise<string>; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'serve', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INTERLINGUA_LOG_LEVEL: 'warn' } });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const line = new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no listening line in 20 s; stderr: ${err}`)), 20_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        res(out);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      rej(new Error(`exited before listening; stderr: ${err}`));
    });
  });
  line.catch(() => undefined);
  const exit = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return { child, line, exit, stderr: () => err };
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`${what}: no answer in ${ms} ms`)), ms))]);
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('interlingua serve', () => {
  it('prints one listening line and drains an in-flight stream on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-gw-'));
    const config = join(dir, 'slow.yaml');
    writeFileSync(config, 'upstreams:\n  slow: { format: mock, latency_ms: 800 }\nroutes:\n  - { model: "*", upstream: slow }\n');
    const s = serve(['--config', config, '--port', '0']);
    const out = await s.line;
    const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(out);
    expect(m, out).not.toBeNull();
    const url = (m as RegExpExecArray)[1] as string;
    expect(Number((m as RegExpExecArray)[2])).toBeGreaterThan(0);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 10_000 });
    // A slow stream (the mock waits 800 ms before answering) is in flight when SIGTERM arrives.
    const pending = client.chat.completions.create({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'hello from the drain test' }] });
    await new Promise((r) => setTimeout(r, 300));
    s.child.kill('SIGTERM');
    const stream = await pending;
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('hello from the drain test');
    expect(await within(s.exit, 10_000, 'exit after SIGTERM')).toBe(0);
  });

  it.runIf(process.platform === 'linux')('runs the gateway again with a larger young generation, which stops when serve is killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-gw-heap-'));
    const config = join(dir, 'heap.yaml');
    writeFileSync(config, 'upstreams:\n  m: { format: mock }\nroutes:\n  - { model: "*", upstream: m }\n');
    const s = serve(['--config', config, '--port', '0']);
    const url = (/listening on (\S+)/.exec(await s.line) as RegExpExecArray)[1] as string;
    // The processes running this configuration: serve, and the gateway it started with the flag.
    const running = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      })
      .filter((args) => args.includes(config));
    expect(running.length).toBe(2);
    expect(running.filter((args) => args.includes('--max-semi-space-size=64')).length).toBe(1);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Killed outright, serve cannot pass a signal on: the gateway notices and stops by itself.
    s.child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    let listening = true;
    while (listening && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      listening = await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      );
    }
    expect(listening).toBe(false);
  });

  it('exits 1 naming the path and the problem of an invalid configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-gw-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'upstreams:\n  a: { format: openai-chat }\nroutes:\n  - { model: "*", upstream: b }\n');
    const r = await runCli(['serve', '--config', file, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('upstreams.a.url: a openai-chat upstream needs a url');
    expect(r.stderr).toContain("routes[0].upstream: no upstream named 'b'");
    expect(r.stdout).toBe('');
  });

  it('refuses to start when an env: variable is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-gw-'));
    const file = join(dir, 'env.yaml');
    writeFileSync(file, 'upstreams:\n  a: { format: openai-chat, url: "http://127.0.0.1:9/v1", apiKey: env:IL_GATEWAY_TEST_MISSING_KEY }\nroutes:\n  - { model: "*", upstream: a }\n');
    const r = await runCli(['serve', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('upstreams.a.apiKey: environment variable IL_GATEWAY_TEST_MISSING_KEY is not set');
  });

  it('refuses to run without keys on a non-loopback address', async () => {
    const r = await runCli(['serve', '--config', 'examples/gateway.yaml', '--host', '0.0.0.0', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('keys: required when listening on 0.0.0.0');
  });

  it('exits 1 when the port is taken', async () => {
    const gw = await startGateway(await loadConfig(join(REPO_ROOT, 'examples/gateway.yaml')), { port: 0, logger: pino({ level: 'silent' }) });
    try {
      const port = new URL(gw.url).port;
      const r = await runCli(['serve', '--config', 'examples/gateway.yaml', '--port', port]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      await gw.close();
    }
  });

  it('serves the example configuration (mock upstream) to an SDK', async () => {
    const gw = await startGateway(await loadConfig(join(REPO_ROOT, 'examples/gateway.yaml')), { port: 0, logger: pino({ level: 'silent' }) });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 10_000 });
      const r = await client.chat.completions.create({ model: 'any-model', messages: [{ role: 'user', content: 'echo me' }] });
      expect(r.choices[0]?.message.content).toContain('echo me');
      const failing = await client.chat.completions.create({ model: 'failing-x', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(failing).toBeInstanceOf(OpenAI.RateLimitError);
      expect((failing as InstanceType<typeof OpenAI.APIError>).message).toContain('slow down (mock)');
    } finally {
      await gw.close();
    }
  });
});

async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { readFile: async () => '', readStdin: async () => '', stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
