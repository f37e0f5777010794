/**
 * eventRole and startsTurn read each event's slots into one list reused from event to event
 * (turns.ts): what an earlier, longer event left in it must never be read as this event's.
 */
import { describe, expect, it } from 'vitest';
import { eventRole, startsTurn, type PayloadItem } from '../../src/memory/index.js';
import { camunda, conv, metaBlob, TOOL_RESULTS_BLOB } from './events.js';

const payload = (e: { payload: PayloadItem[] }): PayloadItem[] => e.payload;

describe('turn roles', () => {
  it('a lone TOOL text is a tool event, also right after an event whose TOOL text was a summary', () => {
    const summaryThenResults: PayloadItem[] = [conv('TOOL', 'tool output'), { blob: TOOL_RESULTS_BLOB }];
    const lone: PayloadItem[] = [conv('TOOL', 'Mexico')];
    expect(eventRole(lone)).toBe('tool');
    expect(eventRole(summaryThenResults)).toBe('tool');
    // The list still holds the results slot after the summary: read with this event's length only.
    expect(eventRole(lone)).toBe('tool');
    expect(startsTurn(summaryThenResults)).toBe(false);
    expect(startsTurn(lone)).toBe(false);
  });

  it('a short event after a long one reads as itself', () => {
    const long: PayloadItem[] = [];
    for (let i = 0; i < 80; i++) long.push(conv('ASSISTANT', `a${i}`));
    long.push(metaBlob('ASSISTANT'));
    expect(eventRole(long)).toBe('assistant');
    expect(eventRole([conv('USER', 'hello')])).toBe('user');
    expect(startsTurn([conv('USER', 'hello')])).toBe(true);
    expect(eventRole([])).toBeUndefined();
    expect(startsTurn(payload(camunda.user('What is the weather?')))).toBe(true);
    expect(startsTurn(payload(camunda.toolResult()))).toBe(false);
    expect(eventRole(payload(camunda.callsOnlyAssistant()))).toBe('assistant');
    expect(eventRole(payload(camunda.documentOnlyUser()))).toBe('user');
    expect(eventRole(payload(camunda.documentOnlyAssistant()))).toBe('assistant');
  });
});
