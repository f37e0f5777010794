/**
 * Cross-format round trips through Bedrock Converse on real bodies (local copies, plus the shared
 * corpus when present):
 * - with `preserve`, Bedrock -> B -> Bedrock gives back exactly the Bedrock body, and
 *   B -> Bedrock -> B exactly the B body, for B in {anthropic-messages, openai-chat};
 *   nothing is reported `dropped` on the way there;
 * - without `preserve`, every B -> Bedrock body passes the Smithy schema oracle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import { samples } from '../../cross/corpus.js';
import { hasSharedFixtures, SHARED_FIXTURES } from '../../support/captures.js';
import { validateBedrockConverse } from '../../support/validators/bedrock-converse.js';
import { local } from './helpers.js';
import { bedrockSamples, type Sample } from './samples.js';

type Kind = 'request' | 'response';
const OTHERS = ['anthropic-messages', 'openai-chat'] as const;
const BEDROCK = 'bedrock-converse';

/** Bedrock bodies the decoder rightly refuses (see the corpus test): not convertible. */
const REFUSED = /tool_history_without_tools/;

function dedupe(list: Sample[]): Sample[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const key = JSON.stringify(s.body);
    if (seen.has(key) || REFUSED.test(s.name)) return false;
    seen.add(key);
    return true;
  });
}

function bedrockBodies(kind: Kind): Sample[] {
  const list = kind === 'request' ? [...local.requests] : [...local.responses];
  if (hasSharedFixtures()) {
    const shared = bedrockSamples(SHARED_FIXTURES, {
      exchanges: ['bedrock-converse'],
      responses: ['bedrock-converse/response', 'conversion/agentgateway/response/bedrock'],
      snaps: ['conversion/agentgateway/requests'],
    });
    list.push(...(kind === 'request' ? shared.requests : shared.responses));
  }
  return dedupe(list);
}

const tally = new Map<string, { bodies: number; exact: number }>();
const count = (pair: string, n: number): { bodies: number; exact: number } => {
  const t = { bodies: n, exact: 0 };
  tally.set(pair, t);
  return t;
};

function preserveExact(body: unknown, from: string, to: string, kind: Kind): void {
  const there = convert(body, { from, to, kind, preserve: true });
  for (const loss of there.losses) expect(loss.action, `${loss.code} at ${loss.path.join('.')}`).not.toBe('dropped');
  const back = convert(there.value, { from: to, to: from, kind });
  expect(back.value).toEqual(body);
}

for (const kind of ['request', 'response'] as const) {
  const bodies = bedrockBodies(kind);
  for (const other of OTHERS) {
    describe(`${BEDROCK} -> ${other} -> ${BEDROCK} (${kind}, preserve)`, () => {
      const t = count(`${BEDROCK} -> ${other} (${kind})`, bodies.length);
      it('has bodies', () => expect(bodies.length).toBeGreaterThan(20));
      it.each(bodies.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
        preserveExact(body, BEDROCK, other, kind);
        t.exact++;
      });
    });

    const theirs = samples(other, kind);
    describe(`${other} -> ${BEDROCK} -> ${other} (${kind}, preserve)`, () => {
      const t = count(`${other} -> ${BEDROCK} (${kind})`, theirs.length);
      it('has bodies', () => expect(theirs.length).toBeGreaterThan(hasSharedFixtures() ? 10 : 2));
      it.each(theirs.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
        preserveExact(body, other, BEDROCK, kind);
        t.exact++;
      });
    });

    describe(`${other} -> ${BEDROCK} (${kind}): the Bedrock body is schema-valid`, () => {
      const t = count(`${other} -> ${BEDROCK} (${kind}) schema-valid`, theirs.length);
      it.each(theirs.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
        const { value } = convert(body, { from: other, to: BEDROCK, kind });
        expect(validateBedrockConverse(kind, value)).toEqual([]);
        t.exact++;
      });
    });
  }
}

afterAll(() => {
  console.log('Bedrock Converse cross-format round trips (preserve exact / schema-valid)');
  console.table(Object.fromEntries(tally));
});
