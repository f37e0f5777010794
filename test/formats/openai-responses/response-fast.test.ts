/**
 * The Responses response encoder's shortcuts for another origin's response (no residue of this
 * format: required fields written without asking what `out` holds; usage details without the
 * general walk) against its general path. An empty own ext (`ext[OR] = {}`) holds nothing yet sends
 * the same response down the general path, so both must write the same body and losses (made-up
 * ids aside). Responses of every provider's captures, and one-field edits of each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../../src/index.js';
import type { Response } from '../../../src/model/response.js';
import { encodeUsage } from '../../../src/formats/openai-responses/usage.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { listFiles, LOCAL_FIXTURES } from '../../support/captures.js';

const OR = 'openai-responses';
const SOURCES: [string, string][] = [
  ['anthropic-messages', 'anthropic-messages/response'],
  ['openai-chat', 'openai-chat/responses'],
  ['bedrock-converse', 'bedrock-converse/responses'],
  ['gemini', 'gemini/responses'],
];

function canonicals(): [string, Response][] {
  const out: [string, Response][] = [];
  for (const [from, dir] of SOURCES) {
    for (const file of listFiles(join(LOCAL_FIXTURES, dir), ['.json'])) {
      try {
        out.push([file, decode(JSON.parse(readFileSync(file, 'utf8')), { from, kind: 'response' }).value as Response]);
      } catch {
        // Not a response this dialect reads (an error body ...): nothing to encode.
      }
    }
  }
  return out;
}

/** One-field edits that take other branches of the shortcut. */
const EDITS: [string, (r: Response) => Response][] = [
  ['as is', (r) => r],
  ['no id, model or created', ({ id: _i, model: _m, created: _c, ...r }) => r],
  ['no stop reason', (r) => ({ ...r, choices: r.choices.map(({ stopReason: _s, ...c }) => c) })],
  ['cut off', (r) => ({ ...r, choices: r.choices.map((c) => ({ ...c, stopReason: { unified: 'length' as const } })) })],
  ['no usage', ({ usage: _u, ...r }) => r],
  ['bare usage', (r) => ({ ...r, usage: { inputTokens: 7, outputTokens: 3 } })],
  ['full usage', (r) => ({ ...r, usage: { inputTokens: 7, outputTokens: 3, totalTokens: 11, cacheReadTokens: 2, cacheWriteTokens: 1, reasoningTokens: 1 } })],
  ['no choices', (r) => ({ ...r, choices: [] })],
];

const MINTED = /"(resp|msg|fc)_[0-9a-f]{32}"/g;
/** A message stash's fingerprint covers the items, made-up ids included. */
const HASH = /"hash":"[0-9a-f]{8}"/g;
/** A response with no `created` gets the clock's second, which two encodes may straddle. */
const CLOCK = /"created_at":\d+/g;
const written = (v: unknown, clock = false): string => {
  const text = JSON.stringify(v).replace(MINTED, '"$1_<id>"').replace(HASH, '"hash":"<hash>"');
  return clock ? text.replace(CLOCK, '"created_at":<now>') : text;
};

describe('Responses response encoder shortcuts', () => {
  const all = canonicals();

  it('reads enough captures to mean something', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('writes what the general path writes, for every capture and edit, with and without preserve', () => {
    let compared = 0;
    for (const [name, res] of all) {
      if (res.ext?.[OR] !== undefined) continue;
      for (const [edit, change] of EDITS) {
        const edited = change(structuredClone(res));
        const general: Response = { ...edited, ext: { ...edited.ext, [OR]: {} } };
        for (const preserve of [false, true]) {
          const fast = encode(edited, { to: OR, kind: 'response', preserve });
          const slow = encode(general, { to: OR, kind: 'response', preserve });
          const clock = edited.created === undefined;
          expect(written(fast.value, clock), `${name} ${edit}${preserve ? ' preserve' : ''}`).toBe(written(slow.value, clock));
          expect(fast.losses).toEqual(slow.losses);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('usage: the shortcut and the general walk agree on every count left out', () => {
    const counts = ['totalTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;
    for (let mask = 0; mask < 16; mask++) {
      const usage: Response['usage'] & object = { inputTokens: 10, outputTokens: 4 };
      counts.forEach((k, i) => {
        if (mask & (1 << i)) usage[k] = i + 1;
      });
      const fast = encodeUsage(usage, ['usage'], new LossList());
      const slow = encodeUsage({ ...usage, ext: { [OR]: {} } }, ['usage'], new LossList());
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    }
  });
});
