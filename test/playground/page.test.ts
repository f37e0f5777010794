/**
 * The playground page end to end in a real headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core): one browser for the file, one server on 127.0.0.1 with a seeded SQLite store.
 * Every wait is bounded. Screenshots of the main views are taken every run; they are written to
 * docs/playground/ (the README shows them) only with PLAYGROUND_SCREENSHOTS=1 (`npm run screenshots`),
 * so a test run leaves the checkout as it was.
 * Without chromium the file skips and says so, except in CI (CI=true), where it fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openMemory } from '../../src/memory/index.js';
import { startPlayground, type PlaygroundServer } from '../../src/playground/server.js';
import { REPO_ROOT } from '../support/captures.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WAIT = 15_000;
const SHOTS = process.env['PLAYGROUND_SCREENSHOTS'] === '1' ? join(REPO_ROOT, 'docs/playground') : mkdtempSync(join(tmpdir(), 'il-playground-shots-'));
const example = (name: string): string => readFileSync(join(REPO_ROOT, 'examples', name), 'utf8');

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env['CI'] === 'true') {
    describe('playground in Chromium', () => {
      it('needs /usr/bin/chromium in CI (.ci/run installs it)', () => {
        throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does it before npm test)`);
      });
    });
  } else {
    console.warn(`playground browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium; they fail instead when CI=true)`);
  }
}

describe.runIf(hasChromium)('playground in Chromium', () => {
  let browser: Browser;
  let server: PlaygroundServer;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'il-playground-'));
    const store = `sqlite:${join(dir, 'memory.db')}`;
    const seed = await openMemory(store);
    await seed.importSession(JSON.parse(example('memory-session.json')));
    await seed.close();
    server = await startPlayground({ port: 0, store });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: WAIT });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(WAIT);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<void> {
    await page.goto(server.url, { timeout: WAIT });
    await page.waitForSelector('body[data-ready="true"]');
  }

  async function paste(text: string): Promise<void> {
    await page.fill('#input', text);
    await page.click('#run');
  }

  it('converts a real Anthropic request with thinking and a tool call, marks the thinking loss, and comes back exact under preserve', async () => {
    await open();
    await paste(example('anthropic-request.json'));
    const chat = page.locator('section.target[data-format="openai-chat"]');
    await chat.waitFor();
    expect(await page.textContent('#detected')).toMatch(/Detected anthropic-messages request/);
    const output = JSON.parse((await chat.locator('pre').textContent()) ?? '');
    expect(output.messages[1].tool_calls[0].id).toBe('toolu_01YGzqpRE16Vricda3Aqcejo');
    expect(await chat.locator('.losses').textContent()).toMatch(/dropped foreign-reasoning at messages\[1\]\.content\[0\]/);
    // The thinking block is marked as lost in the source.
    const thinking = page.locator('#source .v.lost[data-path="messages[1].content[0]"]');
    expect(await thinking.count()).toBe(1);
    expect(await thinking.textContent()).toMatch(/"type": "thinking"/);
    expect(await chat.locator('.roundtrip').textContent()).toMatch(/differs at messages\[1\]\.content\[0\]/);
    await page.screenshot({ path: join(SHOTS, 'convert.png'), fullPage: false });

    await page.check('#preserve');
    await page.waitForFunction(() => /exact/.test(document.querySelector('section.target[data-format="openai-chat"] .roundtrip')?.textContent ?? ''), null, { timeout: WAIT });
    expect(await chat.locator('.roundtrip').textContent()).toBe('Round trip openai-chat → back: exact');
    await chat.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'preserve.png') });
    await page.uncheck('#preserve');
  });

  it('steps through a stream capture, event by event, with the accumulated response', async () => {
    await open();
    await paste(example('anthropic-stream.sse'));
    await page.waitForSelector('#stream-panel:not([hidden])');
    expect(await page.textContent('#detected')).toMatch(/Detected anthropic-messages stream .*sse/);
    await page.selectOption('#stream-to', 'openai-chat');
    await page.waitForFunction(() => /^event 1 of \d+/.test(document.getElementById('step')?.textContent ?? ''), null, { timeout: WAIT });
    const total = Number(/of (\d+)/.exec((await page.textContent('#step')) ?? '')?.[1]);
    expect(total).toBeGreaterThan(5);
    expect(await page.textContent('#step-source')).toMatch(/message_start/);
    await page.click('#next');
    await page.click('#next');
    expect(await page.textContent('#step')).toMatch(new RegExp(`^event 3 of ${total}`));
    await page.click('#prev');
    expect(await page.textContent('#step')).toMatch(new RegExp(`^event 2 of ${total}`));
    // Step on to the first text delta: it becomes an OpenAI Chat chunk.
    for (let i = 0; i < total && !/text_delta/.test((await page.textContent('#step-source')) ?? ''); i++) await page.click('#next');
    expect(await page.textContent('#step-source')).toMatch(/text_delta/);
    expect(await page.textContent('#step-target')).toMatch(/chat\.completion\.chunk/);
    const accumulated = JSON.parse((await page.textContent('#accumulated')) ?? '');
    expect(accumulated.object).toBe('chat.completion');
    expect(accumulated.choices[0].message.content.length).toBeGreaterThan(0);
    await page.locator('#stream-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'stream.png') });
  });

  it('shows an invalid body its validation issues at their paths', async () => {
    await open();
    const body = JSON.parse(example('anthropic-request.json'));
    body.messages[1].content[2].input = 'not an object';
    await paste(JSON.stringify(body, null, 2));
    await page.waitForSelector('#issues-panel:not([hidden])');
    expect(await page.textContent('#detected')).toMatch(/No dialect accepts this input; the closest is anthropic-messages request/);
    expect(await page.textContent('#issues')).toMatch(/messages\[1\]\.content\[2\]\.input: /);
    expect(await page.locator('#source .v.invalid[data-path="messages[1].content[2].input"]').count()).toBe(1);
    expect(await page.locator('#targets-panel').isHidden()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'invalid.png') });
  });

  it('browses a seeded memory store: actor, session, events and any dialect’s messages', async () => {
    await open();
    await page.click('#actors button:text("alice")');
    await page.click('#sessions button:text("largest-city")');
    await page.waitForFunction(() => /"payload"/.test(document.getElementById('session')?.textContent ?? ''), null, { timeout: WAIT });
    await page.selectOption('#mem-format', 'openai-chat');
    await page.waitForFunction(() => /"role": "assistant"/.test(document.getElementById('session')?.textContent ?? ''), null, { timeout: WAIT });
    const messages = JSON.parse((await page.textContent('#session')) ?? '');
    expect(messages.map((m: { role: string }) => m.role)).toContain('tool');
    await page.locator('#memory-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'memory.png') });
  });

  it('is usable by keyboard and readable on a narrow screen', async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    narrow.setDefaultTimeout(WAIT);
    try {
      await narrow.goto(server.url, { timeout: WAIT });
      await narrow.waitForSelector('body[data-ready="true"]');
      await narrow.focus('#input');
      await narrow.keyboard.insertText(example('openai-chat-request.json'));
      // Tab through the controls to the Convert button and press it.
      await narrow.keyboard.press('Tab');
      await narrow.keyboard.press('Tab');
      expect(await narrow.evaluate(() => document.activeElement?.id)).toBe('run');
      await narrow.keyboard.press('Enter');
      await narrow.waitForSelector('section.target[data-format="anthropic-messages"]');
      // Nothing wider than the screen: panels wrap instead of scrolling sideways.
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await narrow.screenshot({ path: join(SHOTS, 'narrow.png') });
    } finally {
      await narrow.close();
    }
  });
});
