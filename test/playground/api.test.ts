/**
 * The playground's endpoints as the gateway serves them (`interlingua serve` mounts them on the
 * same app): the page and its assets from the package, and the JSON API over the public API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/app.js';
import { loadConfig } from '../../src/gateway/config.js';
import { REPO_ROOT } from '../support/captures.js';

const gateway = createGateway(await loadConfig(join(REPO_ROOT, 'examples/gateway.yaml')), { logger: (await import('pino')).pino({ level: 'silent' }) });
afterAll(() => gateway.close());
const post = async (path: string, body: unknown): Promise<Response> =>
  gateway.fetch(new Request(`http://127.0.0.1/playground/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
const example = (name: string): string => readFileSync(join(REPO_ROOT, 'examples', name), 'utf8');

describe('playground on the gateway', () => {
  it('serves the page and its assets from the package, nothing from elsewhere', async () => {
    const page = await gateway.fetch(new Request('http://127.0.0.1/'));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<title>interlingua playground<\/title>/);
    // Every script and stylesheet is local.
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])).toEqual(['/playground/style.css', '/playground/app.js']);
    for (const asset of ['/playground/app.js', '/playground/style.css']) expect((await gateway.fetch(new Request(`http://127.0.0.1${asset}`))).status).toBe(200);
    expect(readFileSync(join(REPO_ROOT, 'playground/app.js'), 'utf8')).not.toMatch(/https?:\/\//);
  });

  it('converts to every other request dialect with losses and round trips', async () => {
    const res = await post('convert', { input: example('anthropic-request.json'), preserve: true });
    const view = (await res.json()) as { source: { format: string }; targets: { format: string; roundTrip: { exact: boolean } }[] };
    expect(view.source.format).toBe('anthropic-messages');
    expect(view.targets.map((t) => t.format)).toContain('openai-chat');
    expect(view.targets.find((t) => t.format === 'openai-chat')?.roundTrip.exact).toBe(true);
  });

  it('transcodes an event-stream binary capture sent as base64', async () => {
    const bytes = readFileSync(join(REPO_ROOT, 'test/fixtures/streams/bedrock-converse/tool.bin'));
    const view = (await (await post('transcode', { input: bytes.toString('base64'), base64: true, to: 'anthropic-messages' })).json()) as { from: string; steps: unknown[]; accumulated: { value: { type: string } } };
    expect(view.from).toBe('bedrock-converse');
    expect(view.steps.length).toBeGreaterThan(3);
    expect(view.accumulated.value.type).toBe('message');
  });

  it('answers bad input with issues at paths, and memory without a store with a clear 400', async () => {
    const notJson = await gateway.fetch(new Request('http://127.0.0.1/playground/api/detect', { method: 'POST', body: 'nope' }));
    expect(notJson.status).toBe(400);
    const bad = (await (await post('convert', { input: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }) })).json()) as { issues: { path: unknown[] }[] };
    expect(bad.issues[0]?.path.slice(0, 3)).toEqual(['messages', 0, 'content']);
    const mem = await post('memory/actors', {});
    expect(mem.status).toBe(400);
    expect(JSON.stringify(await mem.json())).toMatch(/no memory store is configured/);
  });
});
