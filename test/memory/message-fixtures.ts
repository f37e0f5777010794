/**
 * What the message-level memory tests share: two real requests from examples/ and fresh memory:
 * stores, with a cleanup list run after the test file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { openMemory, type Memory } from '../../src/memory/index.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const capture = (name: string): { messages: unknown[] } => JSON.parse(readFileSync(join(REPO, 'examples', name), 'utf8')) as { messages: unknown[] };
/** A real OpenAI Chat request: user question, assistant tool call, tool result. */
export const openaiChat = capture('openai-chat-request.json').messages;
/** A real Anthropic request: user, assistant thinking (signed) + text + tool_use, user tool_result. */
export const anthropic = capture('anthropic-request.json').messages;

/** A cleanup list run after the calling test file, and a fresh memory: store that is closed then. */
export function memoryFixtures(): { cleanup: (() => Promise<void> | void)[]; fresh: () => Promise<Memory> } {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });
  const fresh = async (): Promise<Memory> => {
    const mem = await openMemory('memory:');
    cleanup.push(() => mem.close());
    return mem;
  };
  return { cleanup, fresh };
}
