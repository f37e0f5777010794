/**
 * No conversion hands out an object of a few keys as a V8 dictionary (bench/fast-properties.ts:
 * every decode and conversion of the bench's bodies and of the captures found, checked with
 * %HasFastProperties in a child process, as only a flag gives that check). Such an object comes
 * from a `delete` of a key other than the last, and makes every later read of it slower: Responses
 * usage details, Gemini tool schemas and snake_case fields were each left that way once. Nor do
 * objects of one path each take a hidden class of their own (a spread copy given a new key), as
 * AgentCore Memory's tool result entries once did.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/captures.js';

describe('objects a conversion hands out', () => {
  it('are in V8 fast mode (none of at most 16 keys is a dictionary) and share hidden classes', () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', 'bench/fast-properties.ts'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/no object of at most 16 keys in dictionary mode/);
    expect(run.stdout).toMatch(/no path whose objects each take their own hidden class/);
    expect(run.status).toBe(0);
  }, 150_000);
});
