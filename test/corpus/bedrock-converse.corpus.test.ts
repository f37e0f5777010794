/**
 * Sweeps every real Bedrock Converse capture in ../shared/fixtures: each request and each
 * non-streaming response must decode without loss and encode back deep-equal (A -> canonical -> A).
 * Skipped, saying so, when ../shared is not there (a plain clone): core tests use test/fixtures.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { bedrockConverse } from '../../src/formats/bedrock-converse/index.js';
import { DEFAULT_LIMITS, type KindCodec } from '../../src/formats/codec.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { ValidationError } from '../../src/model/errors.js';
import { hasSharedFixtures, SHARED_FIXTURES } from '../support/captures.js';
import { bedrockSamples } from '../formats/bedrock-converse/samples.js';

const codec = bedrockConverse;

/**
 * Conversion vectors (agentgateway's output, not recorded traffic) that break a rule the Bedrock
 * service enforces; the decoder must reject them, naming the path.
 * tool_history_without_tools starts with an assistant turn ("A conversation must start with a user
 * message").
 */
const INVALID_VECTORS: Record<string, (string | number)[][]> = {
  'conversion/agentgateway/requests/messages/tool_history_without_tools.bedrock.snap': [['messages', 0, 'role']],
};

function roundTrip(kind: 'request' | 'response', body: unknown): void {
  const kc = (kind === 'request' ? codec.request! : codec.response!) as KindCodec<unknown>;
  const losses = new LossList();
  const canonical = kc.decode(body, { limits: DEFAULT_LIMITS, losses });
  expect(losses.items).toEqual([]);
  const encodeLosses = new LossList();
  const back = kc.encode(canonical, { preserve: false, losses: encodeLosses });
  expect(back).toEqual(body);
  expect(encodeLosses.items).toEqual([]);
}

const tally = { requests: 0, responses: 0, passed: 0 };

if (!hasSharedFixtures()) {
  describe.skip('bedrock-converse corpus sweep (../shared/fixtures not present: skipped)', () => {
    it('needs ../shared/fixtures', () => undefined);
  });
} else {
  const { requests, responses } = bedrockSamples(SHARED_FIXTURES, {
    exchanges: ['bedrock-converse'],
    responses: ['bedrock-converse/response', 'conversion/agentgateway/response/bedrock'],
    snaps: ['conversion/agentgateway/requests'],
  });
  tally.requests = requests.length;
  tally.responses = responses.length;

  describe('bedrock-converse corpus', () => {
    it('finds the captures', () => {
      expect(requests.length).toBeGreaterThan(50);
      expect(responses.length).toBeGreaterThan(40);
    });
    for (const s of requests) {
      const invalidAt = INVALID_VECTORS[s.name];
      if (invalidAt) {
        it(`rejects a vector that breaks a Bedrock rule: ${s.name}`, () => {
          let error: unknown;
          try {
            codec.request!.decode(s.body, { limits: DEFAULT_LIMITS, losses: new LossList() });
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).issues.map((i) => i.path)).toEqual(invalidAt);
        });
        continue;
      }
      it(`request round-trips: ${s.name}`, () => {
        roundTrip('request', s.body);
        tally.passed++;
      });
    }
    for (const s of responses) {
      it(`response round-trips: ${s.name}`, () => {
        roundTrip('response', s.body);
        tally.passed++;
      });
    }
  });
}

afterAll(() => {
  if (tally.requests + tally.responses > 0) {
    console.log(`bedrock-converse corpus: ${tally.passed}/${tally.requests + tally.responses - Object.keys(INVALID_VECTORS).length} round-tripped exactly (${tally.requests} requests, ${tally.responses} responses)`);
  }
});
