/**
 * Patch stashes written by an earlier version (test/fixtures/stash-v2, see its SOURCES.md) still
 * decode to the canonical request that version read from them: a patch is applied to the decoder's own
 * reading of the wire messages, so this fails when a decoder starts reading them differently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/index.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

const DIR = join(LOCAL_FIXTURES, 'stash-v2');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('stored patch stashes', () => {
  it('are there to read', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)('%s decodes as it did when it was written', (file) => {
    const { to, body, decoded } = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { to: string; body: unknown; decoded: unknown };
    expect(JSON.stringify(body)).toContain('"v":2');
    const { value, losses } = decode(body, { from: to });
    expect(losses).toEqual([]);
    expect(value).toEqual(decoded);
  });
});
