/** Identifier rules as AgentCore states them (reference §1.1), and the eventIds the stores make. */
import { describe, expect, it } from 'vitest';
import { checkId, makeEventId, positionOfEventId } from '../../src/memory/ids.js';
import { ValidationError } from '../../src/memory/index.js';

function refused(field: Parameters<typeof checkId>[0], value: unknown): ValidationError {
  try {
    checkId(field, value);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues[0]).toMatchObject({ code: 'invalid_identifier', path: [field] });
    return e as ValidationError;
  }
  throw new Error(`${field} ${JSON.stringify(value)} was accepted`);
}

describe('memoryId', () => {
  it('accepts a name, a dash and 10 alphanumerics, also after a memory ARN', () => {
    for (const id of [
      'test-memory-abcdefghij',
      'PersonalAgentMemory-AbC0123456',
      'a-0123456789',
      `${'m'.repeat(100)}-0123456789`,
      'arn:aws:bedrock-agentcore:us-east-1:123456789012:memory/mem_1-abcdefghij',
      'arn:aws-cn:bedrock-agentcore:cn-north-1:123456789012:memory/x-ABCDEFGHIJ',
    ]) {
      expect(checkId('memoryId', id)).toBe(id);
    }
  });

  it('refuses ids AgentCore refuses', () => {
    for (const id of [
      'test-memory-id', // the suffix is not 10 characters
      '1abc-0123456789', // starts with a digit
      'abc_0123456789', // no dash before the suffix
      `${'m'.repeat(101)}-0123456789`, // name longer than 100
      'a-012345678', // 11 characters: shorter than 12
      'abc-01234_6789',
      'arn:aws:s3:us-east-1:123456789012:memory/x-0123456789',
      '',
    ]) {
      refused('memoryId', id);
    }
    expect(refused('memoryId', 'a-012345678').message).toBe('Invalid input: memoryId: must be at least 12 characters long');
  });
});

describe('eventId', () => {
  it('the stores make ids of the form AgentCore returns, that sort as strings in (timestamp, sequence) order', () => {
    const positions = [
      { ts: 0, seq: 1 },
      { ts: 1752235548000, seq: 1 },
      { ts: 1752235548000, seq: 2 },
      { ts: 1752235548000, seq: 16 },
      { ts: 1752235548000, seq: 0xffffffff + 5 },
      { ts: 1752235548001, seq: 3 },
      { ts: 253402300799999, seq: 1 },
    ];
    const ids = positions.map(makeEventId);
    for (const [i, id] of ids.entries()) {
      expect(checkId('eventId', id)).toBe(id);
      expect(id).toMatch(/^\d{19}#[0-9a-f]{16,}$/);
      expect(positionOfEventId(id)).toEqual(positions[i]);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(makeEventId({ ts: 5, seq: 1 })).not.toBe(makeEventId({ ts: 5, seq: 1 }));
  });

  it('ids the stores did not make have no position', () => {
    for (const id of ['0000001752235548000#97f30a6b', '1#0', '12#00000001']) expect(positionOfEventId(id)).toBeUndefined();
  });
});
