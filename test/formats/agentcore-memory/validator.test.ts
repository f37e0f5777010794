/**
 * The CreateEvent validator (test/support/validators/agentcore-memory.ts) takes real event bodies
 * and refuses each limit broken, so "within the limits" in the other tests means something.
 */
import { describe, expect, it } from 'vitest';
import { validateAgentcoreMemory } from '../../support/validators/agentcore-memory.js';
import { conv, VECTORS } from './helpers.js';

const event = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ payload: [conv('USER', 'hi')], ...extra });
const body = (...events: unknown[]): unknown => ({ events });
const one = (e: unknown): string => validateAgentcoreMemory('request', body(e)).join('\n');

describe('agentcore-memory validator', () => {
  it('accepts the Camunda vectors and a ListEvents page with every event field', () => {
    for (const s of VECTORS.store) expect(validateAgentcoreMemory('request', s.body)).toEqual([]);
    const full = event({
      memoryId: 'PersonalAgentMemory-abc123XYZ0',
      actorId: 'user:alice/1',
      sessionId: 'session-1',
      eventId: '0000001752235548000#97f30a6b',
      eventTimestamp: 1752235548.123,
      branch: { name: 'b-1', rootEventId: '0000001752235547000#0a' },
      metadata: { 'user.id': { stringValue: 'alice@example.com' } },
    });
    expect(validateAgentcoreMemory('request', { events: [full], nextToken: 'x' })).toEqual([]);
  });

  it('refuses each limit broken, naming where', () => {
    expect(one({ payload: Array.from({ length: 101 }, () => conv('USER', 'x')) })).toContain('101 payloads');
    expect(one({ payload: [conv('USER', '')] })).toContain('0 characters');
    expect(one({ payload: [conv('USER', 'x'.repeat(100_001))] })).toContain('100001 characters');
    // Code points, not UTF-16 units: 100,000 emoji are 200,000 units and still allowed.
    expect(one({ payload: [conv('USER', '🙂'.repeat(100_000))] })).toBe('');
    expect(one({ payload: [conv('SYSTEM', 'x')] })).toContain('SYSTEM');
    expect(one({ payload: [{ blob: { a: 1 } }] })).toContain('JSON text');
    expect(one({ payload: [{ ...conv('USER', 'x'), blob: '{}' }] })).toContain('exactly one');
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_v, k) => [`k${k}`, { stringValue: 'v' }]));
    expect(one(event({ metadata: sixteen }))).toContain('16 entries');
    expect(one(event({ metadata: { k: { stringValue: '{"json":1}' } } }))).toContain('events.0.metadata.k.stringValue');
    expect(one(event({ metadata: { k: { stringValue: 'v'.repeat(257) } } }))).toContain('stringValue');
    expect(one(event({ metadata: { ['k'.repeat(129)]: { stringValue: 'v' } } }))).toContain('key');
    expect(one(event({ metadata: { k: 'v' } }))).toContain('{stringValue: string}');
    expect(one(event({ sessionId: 'a.b' }))).toContain('sessionId');
    expect(one(event({ actorId: ':alice' }))).toContain('actorId');
    expect(one(event({ eventId: 'evt-1' }))).toContain('eventId');
    expect(one(event({ branch: { rootEventId: '1#a' } }))).toContain('branch');
    expect(one(event({ 'x-interlingua': {} }))).toContain('not a field of an event');
    expect(one({ metadata: {} })).toContain('payload: required');
    expect(validateAgentcoreMemory('request', { events: [], model: 'x' })).toEqual(['model: not a field of an events list']);
    expect(validateAgentcoreMemory('response', body())).not.toEqual([]);
  });
});
