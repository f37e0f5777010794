/**
 * The ml-commons vectors (test/fixtures/agent-input/ml-commons-vectors.json, see its SOURCES.md):
 * each valid body decodes to its recorded canonical value, round-trips exactly with no loss, and
 * gives its recorded question in both styles; each invalid body is rejected with its recorded
 * path and message, rendered as the ValidationException error body.
 */
import { describe, expect, it } from 'vitest';
import { deriveQuestion, toAgentInputErrorBody } from '../../../src/index.js';
import { decodeWithLosses, encodeReq, errorOf, decodeReq, vectors } from './helpers.js';

const valid = vectors.filter((v) => v.error === undefined);
const invalid = vectors.filter((v) => v.error !== undefined);

describe('ml-commons vectors', () => {
  it('has both kinds of vector', () => {
    expect(valid.length).toBeGreaterThanOrEqual(10);
    expect(invalid.length).toBeGreaterThanOrEqual(5);
  });

  it.each(valid.map((v) => [v.name, v] as const))('%s: round-trips exactly, without loss', (_name, v) => {
    const { value, losses } = decodeWithLosses(v.body);
    expect(losses).toEqual([]);
    if (v.canonical) expect(value).toEqual(v.canonical);
    const back = encodeReq(value);
    expect(back.value).toEqual(v.body);
    expect(back.losses).toEqual([]);
  });

  it.each(valid.filter((v) => v.question !== undefined).map((v) => [v.name, v] as const))('%s: derives its question', (_name, v) => {
    expect(deriveQuestion(v.body)).toBe(v.question);
    expect(deriveQuestion(v.body, { style: 'ml-commons' })).toBe(v.mlCommonsQuestion);
  });

  it.each(invalid.map((v) => [v.name, v] as const))('%s: is rejected at its path', (_name, v) => {
    const err = errorOf(() => decodeReq(v.body));
    expect(err.issues[0]?.path).toEqual(v.error?.path);
    expect(err.issues[0]?.message).toBe(v.error?.message);
    const body = toAgentInputErrorBody(err);
    expect(body.error.type).toBe('ValidationException');
    expect(body.error.message.startsWith(v.error?.message ?? '?')).toBe(true);
    expect(() => deriveQuestion(v.body)).toThrow(v.error?.message);
  });
});
