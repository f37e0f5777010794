/**
 * Sweeps every real Anthropic Messages capture in ../shared/fixtures: each request and each
 * non-streaming response must decode, and encode back deep-equal (A -> canonical -> A).
 * Skipped, saying so, when ../shared is not there (a plain clone): core tests use test/fixtures.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicMessages } from '../../src/formats/anthropic-messages/index.js';
import { DEFAULT_LIMITS, type KindCodec } from '../../src/formats/codec.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { ValidationError } from '../../src/model/errors.js';
import { exchangesFor, hasSharedFixtures, isErrorBody, listFiles, SHARED_FIXTURES } from '../support/captures.js';

const URL_PART = 'anthropic.com/v1/messages';
const codec = anthropicMessages;

/**
 * Requests the real API rejected (recorded with a 400 answer): our validator must reject them too.
 * tool_call_error#1 sends a tool_result whose tool_use is not in the previous message.
 */
const REJECTED_BY_API = new Set(['anthropic-messages/http-exchanges/anthropic-sdk-python/TestSyncRunTools__tool_call_error__f59a9391.json#1']);

/**
 * Hand-written test inputs (agentgateway) that are not valid Anthropic bodies: the real API (and
 * the SDK types) want output_format to be a {type: 'json_schema', schema} object, not a string.
 */
const INVALID_VECTORS: Record<string, (string | number)[]> = {
  'conversion/agentgateway/requests/messages/reasoning.json': ['output_format'],
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

if (!hasSharedFixtures()) {
  describe.skip('anthropic-messages corpus sweep (../shared/fixtures not present: skipped)', () => {
    it('needs ../shared/fixtures', () => undefined);
  });
} else {
  const exchanges = exchangesFor(URL_PART, ['.']);
  const requests = exchanges.filter((e) => e.request !== undefined && e.request !== null);
  const responses = exchanges.filter((e) => e.response !== undefined && !isErrorBody(e.response));
  const responseFiles = listFiles(join(SHARED_FIXTURES, 'anthropic-messages/response'), ['.json']);
  const requestFiles = listFiles(join(SHARED_FIXTURES, 'conversion/agentgateway/requests/messages'), ['.json']);

  describe('anthropic-messages corpus: recorded exchanges', () => {
    it('finds the captures', () => {
      expect(requests.length).toBeGreaterThan(60);
      expect(responses.length).toBeGreaterThan(40);
    });
    for (const ex of requests) {
      if (REJECTED_BY_API.has(ex.name)) {
        it(`rejects what the API rejected: ${ex.name}`, () => {
          expect(ex.status).toBe(400);
          expect(() => codec.request!.decode(ex.request, { limits: DEFAULT_LIMITS, losses: new LossList() })).toThrow(ValidationError);
        });
        continue;
      }
      it(`request round-trips: ${ex.name}`, () => roundTrip('request', ex.request));
    }
    for (const ex of responses) it(`response round-trips: ${ex.name}`, () => roundTrip('response', ex.response));
  });

  describe('anthropic-messages corpus: plain responses and request vectors', () => {
    it('finds the files', () => {
      expect(responseFiles.length).toBeGreaterThan(20);
      expect(requestFiles.length).toBeGreaterThan(10);
    });
    for (const file of responseFiles) {
      it(`response round-trips: ${relative(SHARED_FIXTURES, file)}`, () => roundTrip('response', JSON.parse(readFileSync(file, 'utf8'))));
    }
    for (const file of requestFiles) {
      const name = relative(SHARED_FIXTURES, file);
      const invalidAt = INVALID_VECTORS[name];
      if (invalidAt) {
        it(`rejects an invalid vector: ${name}`, () => {
          const body: unknown = JSON.parse(readFileSync(file, 'utf8'));
          let error: unknown;
          try {
            codec.request!.decode(body, { limits: DEFAULT_LIMITS, losses: new LossList() });
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).issues.map((i) => i.path)).toEqual([invalidAt]);
        });
        continue;
      }
      it(`request round-trips: ${name}`, () => roundTrip('request', JSON.parse(readFileSync(file, 'utf8'))));
    }
  });
}
