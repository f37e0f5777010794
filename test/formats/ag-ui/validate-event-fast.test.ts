/**
 * validateEvent answers the delta events by hand (src/formats/ag-ui/validate.ts): it must accept
 * exactly what their schemas accept, so every one-field edit of a delta event (each field removed
 * or replaced by a value of another type) is accepted or refused as the schema says.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS } from '../../../src/formats/ag-ui/schema.js';
import { validateEvent } from '../../../src/formats/ag-ui/validate.js';

const REPLACEMENTS: unknown[] = [undefined, null, '', 'x', 0, -0, 1.5, 2 ** 53, -(2 ** 53) + 1, NaN, Infinity, true, [], ['a'], {}, Object.create(null), { a: 1 }];
const FIELDS = ['messageId', 'toolCallId', 'delta', 'timestamp', 'metadata', 'subagentRunId', 'rawEvent', 'role'];

const BASES: Record<string, unknown>[] = [
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'think', timestamp: 5, metadata: { a: 1 }, subagentRunId: 's', rawEvent: [1] },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a"', timestamp: -3 },
];

describe('ag-ui validateEvent on delta events', () => {
  it('accepts exactly what the schema accepts, for every one-field edit', () => {
    let yes = 0;
    let no = 0;
    for (const base of BASES) {
      const schema = EVENT_SCHEMAS[base['type'] as string];
      for (const field of FIELDS) {
        for (const r of REPLACEMENTS) {
          const data: Record<string, unknown> = { ...base };
          if (r === undefined) delete data[field];
          else data[field] = r;
          const zod = schema?.safeParse(data).success;
          let fast = true;
          try {
            validateEvent({ data: data as never }, 1);
          } catch {
            fast = false;
          }
          expect(fast, `${JSON.stringify(data)} ${field} ${typeof r}`).toBe(zod);
          if (zod) yes++;
          else no++;
        }
      }
    }
    expect(yes).toBeGreaterThan(50);
    expect(no).toBeGreaterThan(50);
  });
});
